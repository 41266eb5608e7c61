package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SwapMiddleAxes gives G.Transpose(x, 0, 2, 1, 3)'s values and gradients, bit for bit.
func TestSwapMiddleAxesMatchesTranspose(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		t.Run(fmt.Sprint(dt), func(t *testing.T) {
			ours := swapGraph(t, dt, SwapMiddleAxes)
			theirs := swapGraph(t, dt, func(x *G.Node) (*G.Node, error) { return G.Transpose(x, 0, 2, 1, 3) })
			sameBits(t, "values and gradients", ours, theirs)
		})
	}
}

// swapGraph returns swap(x) for x (2, 3, 4, 6), sum(w ⊙ swap(x)) and its gradient.
func swapGraph(t *testing.T, dt tensor.Dtype, swap func(*G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(11))))
	x, w := input("x", 2, 3, 4, 6), input("w", 2, 4, 3, 6)
	swapped, err := swap(x)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, swapped, w, x))
}
