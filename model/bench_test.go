package model

// Benchmarks of the graph alone, at the default config's sizes (vocabulary 241,
// d_model 32, 2 heads, d_ff 64, 2 layers, max_len 16):
//
//	go test -run '^$' -bench . -benchmem -count 10 ./model | tee new.txt; benchstat new.txt
//
// ForwardBackward is a training graph's Run on a batch of 32 sentences of 16
// tokens with attention supervision on (the optimiser step is in
// train.BenchmarkTrainStep). ForwardOneSentence is an inference graph's Run on
// one 9-token sentence with attention read, as cmd/infer does after it has
// built the graph; NewGraphOneSentence is that build. docs/performance.md has
// the figures.

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"testing"
)

// benchConfig is configs/default.json's model section (its keys are
// Config's JSON names), with the default vocabulary's 241 words.
func benchConfig(b *testing.B, dtype string) Config {
	raw, err := os.ReadFile("../configs/default.json")
	if err != nil {
		b.Fatal(err)
	}
	var file struct{ Model Config }
	if err := json.Unmarshal(raw, &file); err != nil {
		b.Fatal(err)
	}
	c := file.Model
	c.VocabSize, c.DType = 241, dtype
	return c
}

// benchBatch is B random sentences of 9 to T tokens, like the corpus's.
func benchBatch(B, T, vocab int, rng *rand.Rand) Batch {
	b := Batch{IDs: make([]int, B*T), Lengths: make([]int, B), Pronoun: make([]int, B), Antecedent: make([]int, B)}
	for r := 0; r < B; r++ {
		n := min(T, 9+rng.Intn(8))
		b.Lengths[r] = n
		for t := 0; t < n; t++ {
			b.IDs[r*T+t] = 2 + rng.Intn(vocab-2)
		}
		b.Pronoun[r] = 2 + rng.Intn(n-2)
		b.Antecedent[r] = rng.Intn(b.Pronoun[r])
	}
	return b
}

func benchGraph(b *testing.B, dtype string, opts GraphOptions) *Graph {
	b.Helper()
	p, err := NewParams(benchConfig(b, dtype), 1)
	if err != nil {
		b.Fatal(err)
	}
	gr, err := NewGraph(p, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { gr.Close() })
	return gr
}

func BenchmarkForwardBackward(b *testing.B) {
	for _, dtype := range []string{"float64", "float32"} {
		b.Run(dtype, func(b *testing.B) {
			gr := benchGraph(b, dtype, GraphOptions{Batch: 32, SeqLen: 16, Train: true, AttentionSupervision: 1})
			rng := rand.New(rand.NewSource(1))
			batches := make([]Batch, 16)
			for i := range batches {
				batches[i] = benchBatch(32, 16, 241, rng)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := gr.Run(batches[i%len(batches)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkForwardBackwardSeqLen is the float64 training graph padded to
// shorter lengths: what padding each batch only to its own longest sentence
// would save (the corpus's sentences are 9 to 16 tokens).
func BenchmarkForwardBackwardSeqLen(b *testing.B) {
	for _, T := range []int{16, 14, 12, 10} {
		b.Run(fmt.Sprintf("T=%d", T), func(b *testing.B) {
			gr := benchGraph(b, "float64", GraphOptions{Batch: 32, SeqLen: T, Train: true, AttentionSupervision: 1})
			batch := benchBatch(32, T, 241, rand.New(rand.NewSource(1)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := gr.Run(batch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkForwardOneSentence(b *testing.B) {
	for _, dtype := range []string{"float64", "float32"} {
		b.Run(dtype, func(b *testing.B) {
			gr := benchGraph(b, dtype, GraphOptions{Batch: 1, SeqLen: 9, Attention: true})
			batch := Batch{IDs: []int{2, 3, 4, 5, 6, 7, 8, 9, 10}, Lengths: []int{9}, Pronoun: []int{6}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := gr.Run(batch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNewGraphOneSentence(b *testing.B) {
	p, err := NewParams(benchConfig(b, "float64"), 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		gr, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 9, Attention: true})
		if err != nil {
			b.Fatal(err)
		}
		gr.Close()
	}
}
