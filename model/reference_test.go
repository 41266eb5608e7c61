package model

// Equivalence with an independent implementation. testdata/reference.py writes
// the same architecture out in PyTorch (float64, autograd) and saves its
// weights, inputs, outputs and gradients to testdata/reference.json; this test
// loads those weights into our Params and compares everything, without Python.
//
// Tolerance: 1e-9 relative (1e-12 absolute floor) on every output and gradient.
// Two float64 implementations that sum in different orders differ by a few ulps
// per op; a wrong layout (a head split the other way, a transposed W) differs in
// the first digit.

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"itformer/model/internal/gorgoniax"
)

type refTensor struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

type refCase struct {
	Config Config `json:"config"`
	Inputs struct {
		IDs        [][]int `json:"ids"`
		Lengths    []int   `json:"lengths"`
		Pronoun    []int   `json:"pronoun"`
		Antecedent []int   `json:"antecedent"`
	} `json:"inputs"`
	Params  map[string]refTensor `json:"params"`
	Outputs struct {
		Embedded  refTensor `json:"embedded"`
		Attention refTensor `json:"attention"`
		Encoded   refTensor `json:"encoded"`
		HeadProbs refTensor `json:"head_probs"`
		Loss      float64   `json:"loss"`
	} `json:"outputs"`
	Grads map[string]refTensor `json:"grads"`
}

func loadReference(t *testing.T) map[string]refCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		refCase
		Cases map[string]refCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("testdata/reference.json: %v", err)
	}
	cases := map[string]refCase{"main": file.refCase}
	for name, c := range file.Cases {
		cases[name] = c
	}
	return cases
}

func TestMatchesPyTorchReference(t *testing.T) {
	for name, ref := range loadReference(t) {
		t.Run(name, func(t *testing.T) {
			p := paramsFromReference(t, ref)
			out, grads := runReference(t, p, ref)
			compareReference(t, "embedded", out.Embedded.Data, ref.Outputs.Embedded)
			compareReference(t, "encoded", out.Encoded.Data, ref.Outputs.Encoded)
			compareReference(t, "head_probs", out.Probs.Data, ref.Outputs.HeadProbs)
			compareReference(t, "loss", []float64{out.Loss}, refTensor{Data: []float64{ref.Outputs.Loss}})
			var attention []float64
			for _, a := range out.Attention {
				attention = append(attention, a.Data...)
			}
			compareReference(t, "attention", attention, ref.Outputs.Attention)
			for _, s := range p.Specs() {
				compareReference(t, "grad "+s.Name, grads[s.Name], ref.Grads[s.Name])
			}
		})
	}
}

func paramsFromReference(t *testing.T, ref refCase) *Params {
	t.Helper()
	p, err := NewParams(ref.Config, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Params) != len(p.Specs()) {
		t.Fatalf("reference has %d parameters, model has %d", len(ref.Params), len(p.Specs()))
	}
	for _, s := range p.Specs() {
		r, ok := ref.Params[s.Name]
		if !ok || fmt.Sprint(r.Shape) != fmt.Sprint(s.Shape) {
			t.Fatalf("parameter %s: reference shape %v (present %v), model shape %v", s.Name, r.Shape, ok, s.Shape)
		}
		if err := p.SetValues(s.Name, r.Data); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func runReference(t *testing.T, p *Params, ref refCase) (*Output, map[string][]float64) {
	t.Helper()
	in := ref.Inputs
	b := Batch{Lengths: in.Lengths, Pronoun: in.Pronoun, Antecedent: in.Antecedent}
	for _, row := range in.IDs {
		b.IDs = append(b.IDs, row...)
	}
	gr, err := NewGraph(p, GraphOptions{Batch: len(in.IDs), SeqLen: len(in.IDs[0]), Train: true, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	out, err := gr.Run(b)
	if err != nil {
		t.Fatal(err)
	}
	grads := map[string][]float64{}
	for i, vg := range gr.ValueGrads() {
		d, err := vg.Grad()
		if err != nil {
			t.Fatal(err)
		}
		grads[p.Specs()[i].Name] = gorgoniax.Float64s(d)
	}
	return out, grads
}

func compareReference(t *testing.T, what string, got []float64, want refTensor) {
	t.Helper()
	if len(got) != len(want.Data) {
		t.Errorf("%s: %d values, reference has %d (shape %v)", what, len(got), len(want.Data), want.Shape)
		return
	}
	worst := 0.0
	for i := range got {
		diff := math.Abs(got[i] - want.Data[i])
		if diff > 1e-12+1e-9*math.Abs(want.Data[i]) || math.IsNaN(got[i]) {
			t.Errorf("%s[%d] = %.17g, reference %.17g", what, i, got[i], want.Data[i])
			return
		}
		worst = math.Max(worst, diff)
	}
	t.Logf("%-32s matches (%d values, max abs diff %.2g)", what, len(got), worst)
}
