package model

import (
	"math"
	"testing"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// "Smart robots perform complex tasks" with the explainer's five 2-D vectors and
// identity W^Q, W^K, W^V, so Q = K = V = X. The expected values are computed
// here with plain loops, independently of the graph; the explainer's printed
// numbers were rounded by hand and several are wrong (see README), so none is
// copied here.
func TestExplainerSmartRobotsExample(t *testing.T) {
	x := [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}}
	flat := []float64{}
	for _, row := range x {
		flat = append(flat, row...)
	}
	g := G.NewGraph()
	q := valueNode(g, "q", append([]float64(nil), flat...), 1, 5, 1, 2)
	k := valueNode(g, "k", append([]float64(nil), flat...), 1, 5, 1, 2)
	v := valueNode(g, "v", append([]float64(nil), flat...), 1, 5, 1, 2)
	steps, err := scaledDotProductAttention(q, k, v, valueNode(g, "mask", make([]float64, 5), 1, 5), math.Sqrt(2), true)
	if err != nil {
		t.Fatal(err)
	}
	var scores, scaled, weights, z G.Value
	G.Read(steps.Scores, &scores)
	G.Read(steps.Scaled, &scaled)
	G.Read(steps.Weights, &weights)
	G.Read(steps.Z, &z)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	want := handAttention(x, math.Sqrt(2))
	assertClose(t, "scores", gorgoniax.Float64s(scores), want.scores, 1e-15)
	assertClose(t, "scaled", gorgoniax.Float64s(scaled), want.scaled, 1e-15)
	assertClose(t, "weights", gorgoniax.Float64s(weights), want.weights, 1e-15)
	assertClose(t, "z", gorgoniax.Float64s(z), want.z, 1e-15)
	t.Logf("robots: weights %.4f, z %.4f", tensorOf(weights, 5, 5).Row(1), tensorOf(z, 5, 2).Row(1))
}

type attentionByHand struct{ scores, scaled, weights, z []float64 }

// handAttention is softmax(X X^T / divisor) X written as loops over words.
func handAttention(x [][]float64, divisor float64) attentionByHand {
	n, d := len(x), len(x[0])
	var r attentionByHand
	for i := 0; i < n; i++ {
		row := make([]float64, n)
		total := 0.0
		for j := 0; j < n; j++ {
			dot := 0.0
			for c := 0; c < d; c++ {
				dot += x[i][c] * x[j][c]
			}
			r.scores = append(r.scores, dot)
			row[j] = dot / divisor
			r.scaled = append(r.scaled, row[j])
			total += math.Exp(row[j])
		}
		zi := make([]float64, d)
		for j := 0; j < n; j++ {
			w := math.Exp(row[j]) / total
			r.weights = append(r.weights, w)
			for c := 0; c < d; c++ {
				zi[c] += w * x[j][c]
			}
		}
		r.z = append(r.z, zi...)
	}
	return r
}

// The bug our softmax works around: gorgonia v0.9.18's SoftMax returns NaN for
// a row far below the tensor's first element, such as a fully masked row. If
// this test fails after an upgrade, the workaround in softmax.go may be dropped.
func TestSoftmaxFullyMaskedRowIsFinite(t *testing.T) {
	data := []float64{0.3, 0.1, maskValue, maskValue}
	g := G.NewGraph()
	x := valueNode(g, "x", data, 2, 2)
	stock := G.Must(G.SoftMax(x))
	ours, err := softmax(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	var stockV, oursV G.Value
	G.Read(stock, &stockV)
	G.Read(ours, &oursV)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	if s := gorgoniax.Float64s(stockV); !math.IsNaN(s[2]) {
		t.Errorf("stock SoftMax no longer gives NaN for a masked row (%v): the workaround may be obsolete", s)
	}
	e0, e1 := math.Exp(0.3), math.Exp(0.1)
	assertClose(t, "our softmax", gorgoniax.Float64s(oursV), []float64{e0 / (e0 + e1), e1 / (e0 + e1), 0.5, 0.5}, 1e-15)
}

// SelfAttention (the exported path the explain command uses) must agree with
// the same hand computation, scaled and unscaled.
func TestSelfAttentionMatchesHandComputation(t *testing.T) {
	pool := [][]float64{{0.5, 0.1, 0.1, 0.2}, {0.1, 0.5, 0.2, 0.1}, {0.5, 0.1, 0.2, 0.1}}
	robots := [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}}
	for _, tc := range []struct {
		x       [][]float64
		scale   bool
		divisor float64
	}{{robots, true, math.Sqrt(2)}, {pool, false, 1}, {pool, true, 2}} {
		table, err := SelfAttention(tc.x, tc.scale)
		if err != nil {
			t.Fatal(err)
		}
		n, d := len(tc.x), len(tc.x[0])
		want := handAttention(tc.x, tc.divisor)
		if table.Divisor != tc.divisor {
			t.Errorf("divisor %g, want %g", table.Divisor, tc.divisor)
		}
		for i := range tc.x {
			assertClose(t, "scaled", table.Scaled[i], want.scaled[i*n:(i+1)*n], 1e-15)
			assertClose(t, "weights", table.Weights[i], want.weights[i*n:(i+1)*n], 1e-15)
			assertClose(t, "z", table.Z[i], want.z[i*d:(i+1)*d], 1e-15)
		}
	}
	if _, err := SelfAttention([][]float64{{1, 2}, {3}}, true); err == nil {
		t.Error("ragged vectors accepted")
	}
}
