package model

import (
	"math"
	"testing"
)

// inputBatch is twoSentences with X fed: each row's embedding plus positions.
func inputBatch(t *testing.T, p *Params, b Batch, T int) Batch {
	t.Helper()
	d := p.Config().DModel
	b.Vectors = make([]float64, len(b.Lengths)*T*d)
	for r := range b.Lengths {
		x, _, err := p.InputVectors(b.IDs[r*T : (r+1)*T])
		if err != nil {
			t.Fatal(err)
		}
		copy(b.Vectors[r*T*d:], x)
	}
	return b
}

func TestInputVectorsGiveTheSameAnswer(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	opts := GraphOptions{Batch: 2, SeqLen: 7}
	want := runGraph(t, p, opts, twoSentences())
	opts.InputGradients = true
	got := runGraph(t, p, opts, inputBatch(t, p, twoSentences(), 7))
	assertClose(t, "probabilities", got.Probs.Data, want.Probs.Data, 1e-12)
}

// The autodiff gradient of log P(antecedent) by every entry of X against
// central finite differences, with the tolerances of gradcheck_test.go.
func TestInputGradientMatchesFiniteDifferences(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	gr, err := NewGraph(p, GraphOptions{Batch: 2, SeqLen: 7, InputGradients: true})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	b := inputBatch(t, p, twoSentences(), 7)
	out, err := gr.Run(b)
	if err != nil {
		t.Fatal(err)
	}
	grad := append([]float64(nil), out.InputGrad.Data...)
	logP := func(row int) float64 {
		o, err := gr.Run(b)
		if err != nil {
			t.Fatal(err)
		}
		return math.Log(o.Probs.Row(row)[b.Antecedent[row]])
	}
	d := tinyConfig.DModel
	for i := range b.Vectors {
		row := i / (7 * d)
		numeric := centralDifference(b.Vectors, i, func() float64 { return logP(row) })
		if (i/d)%7 >= b.Lengths[row] && grad[i] != 0 {
			t.Errorf("X[%d] is padding but has gradient %g", i, grad[i])
		}
		assertGradient(t, "X", grad[i], numeric)
	}
}

func TestInputGradientsRefuseBadUse(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	if _, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 3, InputGradients: true, Train: true}); err == nil {
		t.Error("a graph with Train and InputGradients was built")
	}
	gr, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 3, InputGradients: true})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	b := Batch{IDs: []int{2, 3, 4}, Lengths: []int{3}, Pronoun: []int{2}, Antecedent: []int{0}}
	if _, err := gr.Run(b); err == nil {
		t.Error("a batch without vectors ran on an input-gradient graph")
	}
	b.Vectors, b.Antecedent = make([]float64, 3*tinyConfig.DModel), nil
	if _, err := gr.Run(b); err == nil {
		t.Error("an input-gradient batch without an antecedent ran")
	}
}
