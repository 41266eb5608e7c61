package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Max gives G.Max's values and gradients, bit for bit, on a rerun, along
// each axis of a matrix and of a 3-D tensor and every axis of a 4-D tensor, with ties (entries drawn
// from a few values, so several equal a row's maximum) and negative incoming
// gradients (whose products with 0 are -0).
func TestMaxMatchesGorgonia(t *testing.T) {
	stock := func(x *G.Node, axis int) (*G.Node, error) { return G.Max(x, axis) }
	cases := []struct {
		shape []int
		axis  int
	}{{[]int{7, 5}, 1}, {[]int{7, 5}, 0}, {[]int{2, 3, 5, 7}, 3}, {[]int{2, 3, 5, 7}, 1},
		{[]int{3, 5, 7}, 0}, {[]int{3, 5, 7}, 1}, {[]int{3, 5, 7}, 2}, {[]int{2, 3, 5, 7}, 0}, {[]int{2, 3, 5, 7}, 2}}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%v/axis=%d", dt, c.shape, c.axis), func(t *testing.T) {
				sameBits(t, "max", maxGraph(t, dt, c.shape, c.axis, Max), maxGraph(t, dt, c.shape, c.axis, stock))
			})
		}
	}
}

// maxGraph returns z = max(x, axis), sum(w ⊙ z) and the gradient with
// respect to x, from a rerun.
func maxGraph(t *testing.T, dt tensor.Dtype, shape []int, axis int, max func(*G.Node, int) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(31))
	x := inputMaker(g, dt, func() float64 { return float64(rng.Intn(3)) / 4 })("x", shape...)
	var wShape []int
	for i, s := range shape {
		if i != axis {
			wShape = append(wShape, s)
		}
	}
	w := inputMaker(g, dt, normal(rng))("w", wShape...)
	z, err := max(x, axis)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, z, w, x))
}
