package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A softmax ending in SoftmaxRows gives the values and gradients of the same
// softmax ending in BroadcastMul (and so of the stock ops), bit for bit, on a
// rerun: along the last axis of a matrix and of a 4-D tensor, with masked
// entries (-1e9, whose exponentials are 0) and x used again after the
// softmax, so that its gradient sums several terms.
func TestSoftmaxRowsMatchesStock(t *testing.T) {
	last := func(shifted, e, inv *G.Node, axis int) (*G.Node, error) { return SoftmaxRows(shifted, e, inv, axis) }
	stock := func(shifted, e, inv *G.Node, axis int) (*G.Node, error) { return BroadcastMul(e, inv, axis) }
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range [][]int{{7, 5}, {2, 3, 5, 7}} {
			t.Run(fmt.Sprintf("%v/%v", dt, shape), func(t *testing.T) {
				sameBits(t, "softmax", softmaxGraph(t, dt, shape, last), softmaxGraph(t, dt, shape, stock))
			})
		}
	}
}

// softmaxGraph returns y = softmax(x ⊙ c) along the last axis, built as
// model/softmax.go builds it and ended by last, sum(w ⊙ y + x ⊙ c) and its
// gradients with respect to x and c, from a rerun.
func softmaxGraph(t *testing.T, dt tensor.Dtype, shape []int, last func(shifted, e, inv *G.Node, axis int) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(43))
	input := inputMaker(g, dt, func() float64 {
		if rng.Intn(6) == 0 {
			return -1e9
		}
		return 3 * rng.NormFloat64()
	})
	x, c, w := input("x", shape...), input("c", shape...), input("w", shape...)
	axis := len(shape) - 1
	xc := G.Must(G.HadamardProd(x, c))
	max := G.Must(Max(xc, axis))
	shifted := G.Must(BroadcastAdd(xc, G.Must(Unary(G.Neg, max)), axis))
	e := G.Must(Unary(G.Exp, shifted))
	inv := G.Must(Unary(G.Inverse, G.Must(Sum(e, axis))))
	y, err := last(shifted, e, inv, axis)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, G.Must(G.Add(y, xc)), w, x, c))
}
