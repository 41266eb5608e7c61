package train

// Benchmarks of what a user waits for, on the default config (configs/default.json):
//
//	go test -run '^$' -bench . -benchmem -count 10 ./train | tee new.txt; benchstat new.txt
//
// BenchmarkTrainStep is one real training step: the trainer's own trainStep
// (forward, backward, the NaN/Inf check and the Adam update) on a batch of 32
// generated training sentences padded to the batch's longest sentence. BenchmarkResolve
// (package inference) is one sentence through Predictor.Resolve, and
// BenchmarkLoad (package checkpoint) reads and verifies the embedded default
// model's checkpoint. docs/performance.md has the figures.

import (
	"math/rand"
	"testing"

	"itformer/config"
	"itformer/data"
	"itformer/internal/cputime"
)

// benchTrainer prepares a trainer for the default config (corpus, vocabulary,
// graphs, optimiser) and one shuffled epoch of its training batches.
func benchTrainer(b *testing.B, overrides ...string) (*trainer, []data.Batch) {
	b.Helper()
	cfg, err := config.Load("../configs/default.json", overrides...)
	if err != nil {
		b.Fatal(err)
	}
	t := &trainer{cfg: cfg, opt: Options{OutDir: b.TempDir()}, rng: rand.New(rand.NewSource(cfg.Seed))}
	if err := t.prepare(true); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(t.close)
	batches, err := data.Batches(t.Corpus.Train, t.Vocab, cfg.Train.BatchSize, cfg.Model.MaxLen, t.rng, true)
	if err != nil {
		b.Fatal(err)
	}
	return t, batches
}

// warmUp takes one step per padded length among the batches, so that the
// graphs Session.Run builds on first use are not timed.
func warmUp(b *testing.B, t *trainer, batches []data.Batch) {
	seen := map[int]bool{}
	for _, batch := range batches {
		if n := PaddedLength(batch, t.cfg.Model.MaxLen); !seen[n] {
			seen[n] = true
			if _, _, err := t.trainStep(batch); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTrainStep also reports cpu-ms/op, the process's CPU time (user and
// system, garbage collection included) per step: on a machine shared with
// other work it moves far less than the wall clock.
//
// Each dtype runs with the batch in one shard and in two (train.shards):
// two shards use two cores, so they should lower the wall time per step
// (sec/op) while the CPU time, summed over the cores, grows a little.
func BenchmarkTrainStep(b *testing.B) {
	for _, dtype := range []string{"float64", "float32"} {
		for _, shards := range []string{"1", "2"} {
			b.Run(dtype+"/shards="+shards, func(b *testing.B) {
				benchTrainStep(b, "model.dtype="+dtype, "train.shards="+shards)
			})
		}
	}
}

func benchTrainStep(b *testing.B, overrides ...string) {
	t, batches := benchTrainer(b, overrides...)
	warmUp(b, t, batches)
	b.ReportAllocs()
	cpu := cputime.Used()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := t.trainStep(batches[i%len(batches)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*t.cfg.Train.BatchSize)/b.Elapsed().Seconds(), "sentences/s")
	b.ReportMetric((cputime.Used()-cpu).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkBatches is the per-epoch data preparation the training loop does
// on its own goroutine: shuffling and padding 6,000 sentences into batches.
func BenchmarkBatches(b *testing.B) {
	t, _ := benchTrainer(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := data.Batches(t.Corpus.Train, t.Vocab, t.cfg.Train.BatchSize, t.cfg.Model.MaxLen, t.rng, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate is one pass over the 1,000 validation sentences, as
// every epoch ends with.
func BenchmarkValidate(b *testing.B) {
	t, _ := benchTrainer(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := evaluate(t.evalG, t.val, t.cfg.Model.Layers, t.cfg.Model.Heads); err != nil {
			b.Fatal(err)
		}
	}
}
