package gorgoniax

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Rectify gives G.Rectify's values and gradients, bit for bit, on a rerun:
// on entries that are negative (whose output is -0), 0, -0 and positive,
// with incoming gradients of both signs.
func TestRectifyMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range [][]int{{7, 5}, {2, 3, 5}} {
			t.Run(fmt.Sprintf("%v/%v", dt, shape), func(t *testing.T) {
				sameBits(t, "rectify", rectifyGraph(t, dt, shape, Rectify), rectifyGraph(t, dt, shape, G.Rectify))
			})
		}
	}
}

// rectifyGraph returns y = f(x ⊙ c), sum(w ⊙ y) and its gradients with
// respect to x and c, from a rerun.
func rectifyGraph(t *testing.T, dt tensor.Dtype, shape []int, f func(*G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(37))
	specials := []float64{0, math.Copysign(0, -1), -1, 1}
	input := inputMaker(g, dt, func() float64 {
		if rng.Intn(4) == 0 {
			return specials[rng.Intn(len(specials))]
		}
		return rng.NormFloat64()
	})
	x, c, w := input("x", shape...), input("c", shape...), input("w", shape...)
	y, err := f(G.Must(G.HadamardProd(x, c)))
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, y, w, x, c))
}
