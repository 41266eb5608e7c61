package inference

import (
	"errors"
	"math"
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/inference/inferencetest"
	"itformer/model"
)

const mission = "A dog ate the food because it was hungry"

// Weights that are finite but huge load fine and overflow to NaN in the
// forward pass: Resolve and Trace must refuse to answer, naming the problem.
func TestHugeWeightsAreABrokenModel(t *testing.T) {
	ck, err := checkpoint.Load(inferencetest.HugeWeights(t, defaultPredictor(t).Checkpoint()))
	if err != nil {
		t.Fatal(err)
	}
	p := New(ck)
	res, err := p.Resolve(mission)
	// The first step that overflows is named: 1e308 · sqrt(d_model) is +Inf.
	want := "the model's output is not finite (+Inf in the input vectors): the checkpoint's weights are broken"
	if !errors.Is(err, ErrBrokenModel) || err.Error() != want {
		t.Errorf("Resolve: %v (result %v), want %q", err, res, want)
	}
	if _, err := p.Trace(mission); !errors.Is(err, ErrBrokenModel) || !strings.Contains(err.Error(), "the checkpoint's weights are broken") {
		t.Errorf("Trace: %v, want an error saying the weights are broken", err)
	}
}

// Every traced step is checked, not only the answer: a NaN or an infinity in
// any one of them is named.
func TestEveryTracedStepIsChecked(t *testing.T) {
	steps := map[string]func(o *model.Output) []float64{
		"the input vectors":          func(o *model.Output) []float64 { return o.Embedded.Data },
		"layer 2's q (q = x·W^Q)":    func(o *model.Output) []float64 { return o.Trace[1].Q.Data },
		"layer 1's k (k = x·W^K)":    func(o *model.Output) []float64 { return o.Trace[0].K.Data },
		"layer 2's v (v = x·W^V)":    func(o *model.Output) []float64 { return o.Trace[1].V.Data },
		"layer 1's scores (":         func(o *model.Output) []float64 { return o.Trace[0].Scores.Data },
		"layer 2's scaled (":         func(o *model.Output) []float64 { return o.Trace[1].Scaled.Data },
		"layer 1's weights (":        func(o *model.Output) []float64 { return o.Trace[0].Weights.Data },
		"layer 2's z (z = Σ_j":       func(o *model.Output) []float64 { return o.Trace[1].Z.Data },
		"layer 2's x (x)":            func(o *model.Output) []float64 { return o.Trace[1].X.Data },
		"layer 2's attention":        func(o *model.Output) []float64 { return o.Attention[1].Data },
		"the encoder's output":       func(o *model.Output) []float64 { return o.Encoded.Data },
		"the answer's probabilities": func(o *model.Output) []float64 { return o.Probs.Data },
	}
	for name, step := range steps {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			tr, err := defaultPredictor(t).Trace(mission)
			if err != nil {
				t.Fatal(err)
			}
			data := step(tr.Output)
			data[len(data)-1] = bad
			err = checkTrace(tr.Output)
			if !errors.Is(err, ErrBrokenModel) || !strings.Contains(err.Error(), name) {
				t.Errorf("%v in %s: %v", bad, name, err)
			}
		}
	}
}
