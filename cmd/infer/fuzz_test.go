package main

import (
	"bytes"
	"math"
	"testing"

	"itformer/cmd/internal/cli"
)

// FuzzResolve: infer's input path (tokenise, encode, run the model) on any
// text. Never a panic; either an error, or for every "it" an answer that is a
// word of the sentence with probabilities that sum to 1 and exclude the pronoun.
// Seed corpus: testdata/fuzz/FuzzResolve; run go test -run '^$' -fuzz=FuzzResolve ./cmd/infer
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"A dog ate the food because it was hungry", "", "it", "it it it", "🐶 ate it because it was 🍖", "The zorblax ate it."} {
		f.Add(s)
	}
	ck, err := cli.LoadModel("")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		res, err := ck.Resolve(s)
		if err != nil {
			return
		}
		for _, p := range res.Predictions {
			total := 0.0
			for _, q := range p.WordProbs {
				total += q
			}
			if p.Answer == p.Pronoun || p.Answer < 0 || p.Answer >= len(p.Tokens) || math.Abs(total-1) > 1e-9 || p.WordProbs[p.Pronoun] != 0 {
				t.Fatalf("%q: answer %d (pronoun %d), probabilities %v", s, p.Answer, p.Pronoun, p.WordProbs)
			}
		}
		var out bytes.Buffer
		render(&out, res.Predictions[0])
	})
}

func TestHugeInputIsRefusedCheaply(t *testing.T) {
	var out, errOut bytes.Buffer
	huge := string(bytes.Repeat([]byte("it "), 2_000_000))
	err := run([]string{huge}, &out, &errOut)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("give one sentence")) {
		t.Fatalf("6 MB of input: %v", err)
	}
}
