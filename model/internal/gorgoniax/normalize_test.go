package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A layer norm whose normalising product is NormalizeRows gives the values
// and gradients of the same layer norm ending in BroadcastMul (and so of the
// stock ops), bit for bit, on a rerun, with a gain after it, as
// model/layernorm.go builds it.
func TestNormalizeRowsMatchesStock(t *testing.T) {
	ours := func(x, centred, std, inv *G.Node) (*G.Node, error) { return NormalizeRows(x, centred, std, inv) }
	stock := func(x, centred, std, inv *G.Node) (*G.Node, error) { return BroadcastMul(centred, inv, 1) }
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range [][]int{{7, 5}, {6, 32}, {2, 3}} {
			t.Run(fmt.Sprintf("%v/%v", dt, shape), func(t *testing.T) {
				sameBits(t, "layer norm", normalizeGraph(t, dt, shape, ours), normalizeGraph(t, dt, shape, stock))
			})
		}
	}
}

// normalizeGraph returns y = LN(a ⊙ b) ⊙ gain, sum(w ⊙ y) and its gradients
// with respect to a, b and gain, from a rerun.
func normalizeGraph(t *testing.T, dt tensor.Dtype, shape []int, normalize func(x, centred, std, inv *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(47))))
	a, b, w, gain := input("a", shape...), input("b", shape...), input("w", shape...), input("gain", shape[1])
	x := G.Must(G.HadamardProd(a, b))
	centred := G.Must(BroadcastAdd(x, G.Must(Unary(G.Neg, G.Must(Mean(x, 1)))), 1))
	variance := G.Must(Mean(G.Must(Unary(G.Square, centred)), 1))
	std := G.Must(Unary(G.Sqrt, G.Must(G.Add(variance, G.NewConstant(ScalarOf(dt, 1e-5), G.WithName("eps"))))))
	inv := G.Must(Unary(G.Inverse, std))
	normed, err := normalize(x, centred, std, inv)
	if err != nil {
		t.Fatal(err)
	}
	y := G.Must(BroadcastMul(normed, gain, 0))
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, y, w, a, b, gain))
}
