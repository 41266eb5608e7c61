package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Sum and Mean give G.Sum's and G.Mean's values and gradients, bit for bit,
// on a rerun, along each axis of a matrix and the last axis of a 4-D tensor.
func TestSumMatchesGorgonia(t *testing.T) {
	stockSum := func(x *G.Node, axis int) (*G.Node, error) { return G.Sum(x, axis) }
	stockMean := func(x *G.Node, axis int) (*G.Node, error) { return G.Mean(x, axis) }
	cases := []struct {
		shape []int
		axis  int
	}{{[]int{6, 4}, 0}, {[]int{6, 4}, 1}, {[]int{2, 3, 4, 5}, 3}, {[]int{2, 3, 4, 5}, 1}}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%v/axis=%d", dt, c.shape, c.axis), func(t *testing.T) {
				sameBits(t, "sum", sumGraph(t, dt, c.shape, c.axis, Sum), sumGraph(t, dt, c.shape, c.axis, stockSum))
				sameBits(t, "mean", sumGraph(t, dt, c.shape, c.axis, Mean), sumGraph(t, dt, c.shape, c.axis, stockMean))
			})
		}
	}
}

// sumGraph returns z = reduce(x ⊙ c, axis), sum(w ⊙ z) and its gradients with
// respect to x and c, from a rerun.
func sumGraph(t *testing.T, dt tensor.Dtype, shape []int, axis int, reduce func(*G.Node, int) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(29))))
	x, c := input("x", shape...), input("c", shape...)
	var wShape []int
	for i, s := range shape {
		if i != axis {
			wShape = append(wShape, s)
		}
	}
	w := input("w", wShape...)
	z, err := reduce(G.Must(G.HadamardProd(x, c)), axis)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, z, w, x, c))
}
