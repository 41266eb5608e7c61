package main

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"itformer/cmd/internal/cli"
	"itformer/inference"
)

// FuzzResolve: infer's input path (tokenise, encode, run the model) on any
// text. Never a panic; either an error, or for every "it" an answer that is
// the most probable of its candidates, which are words of the sentence other
// than "it" and punctuation, with probabilities that sum to 1, exclude the
// pronoun, and are never NaN; a guess exactly when the rule says so; and no
// NaN in the attention.
// Seed corpus: testdata/fuzz/FuzzResolve; run go test -run '^$' -fuzz=FuzzResolve ./cmd/infer
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"A dog ate the food because it was hungry", "", "it", "it it it", "🐶 ate it because it was 🍖", "The zorblax ate it.", "truck it fresh buried",
		"The dog chased the cat because it was angry", "The horse kicked the fence because it was not so angry", "it was fast it chased"} {
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
			checkProbabilities(t, s, p)
			checkAnswer(t, s, p)
			checkConfidence(t, s, p)
		}
		for l, heads := range res.Attention {
			for h, m := range heads {
				for _, row := range m {
					checkFinite(t, s, fmt.Sprintf("layer %d head %d attention", l+1, h+1), row)
				}
			}
		}
		var out bytes.Buffer
		render(&out, res.Predictions[0], res.Ablated)
	})
}

func checkProbabilities(t *testing.T, s string, p inference.Prediction) {
	t.Helper()
	checkFinite(t, s, "word probabilities", p.WordProbs)
	total := 0.0
	for _, q := range p.WordProbs {
		total += q
	}
	if math.Abs(total-1) > 1e-9 || p.WordProbs[p.Pronoun] != 0 {
		t.Fatalf("%q: probabilities %v (pronoun %d)", s, p.WordProbs, p.Pronoun)
	}
}

// checkAnswer: the answer is the first, most probable candidate, and no
// candidate is "it" or punctuation.
func checkAnswer(t *testing.T, s string, p inference.Prediction) {
	t.Helper()
	if len(p.Candidates) == 0 || p.Answer != p.Candidates[0].Position || p.AnswerWord != p.Tokens[p.Answer] {
		t.Fatalf("%q: answer %d %q, candidates %+v", s, p.Answer, p.AnswerWord, p.Candidates)
	}
	for _, c := range p.Candidates {
		if c.Word == "it" || !strings.ContainsFunc(c.Word, unicode.IsLetter) || c.Probability != p.WordProbs[c.Position] ||
			math.IsNaN(c.Probability) || c.Probability > p.Candidates[0].Probability {
			t.Fatalf("%q: candidate %+v among %+v", s, c, p.Candidates)
		}
	}
}

// checkConfidence: the answer is a guess exactly when the rule says so, a
// guess always has a reason, and the printed answer says it is a guess.
func checkConfidence(t *testing.T, s string, p inference.Prediction) {
	t.Helper()
	c := p.Confidence
	rule := c.Share() < inference.GuessBelow || c.CandidateMass < inference.MinCandidateMass ||
		slices.Contains(c.UnknownCandidates, p.AnswerWord) || len(c.UnknownAboutIt) > 0 || c.Unpaired != nil || c.NoKnownVerb
	if !(c.TopProbability >= 0 && c.TopProbability <= 1+1e-9) || !(c.CandidateMass >= 0 && c.CandidateMass <= 1+1e-9) ||
		c.Guess != rule || (c.Guess && c.Reason == "") {
		t.Fatalf("%q: confidence %+v", s, c)
	}
	var out bytes.Buffer
	renderAnswer(&out, p)
	if c.Guess != strings.Contains(out.String(), "\nthis is a guess: ") {
		t.Fatalf("%q: guess %v, printed\n%s", s, c.Guess, out.String())
	}
}

func checkFinite(t *testing.T, s, what string, xs []float64) {
	t.Helper()
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%q: %v in the %s %v", s, x, what, xs)
		}
	}
}

func TestHugeInputIsRefusedCheaply(t *testing.T) {
	var out, errOut bytes.Buffer
	huge := string(bytes.Repeat([]byte("it "), 2_000_000))
	err := run([]string{huge}, &out, &errOut)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("give one sentence")) {
		t.Fatalf("6 MB of input: %v", err)
	}
}
