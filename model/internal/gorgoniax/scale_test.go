package gorgoniax

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Scale gives G.Mul's values and gradients with a constant scalar, bit for
// bit, on a rerun, for the model's factors (1/sqrt(d_k), sqrt(d_model)).
func TestScaleMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range []float64{0.25, 1 / math.Sqrt(8), math.Sqrt(32), -3} {
			t.Run(fmt.Sprintf("%v/%v", dt, c), func(t *testing.T) {
				stock := func(x *G.Node) (*G.Node, error) {
					return G.Mul(x, G.NewConstant(ScalarOf(dt, c), G.WithName(fmt.Sprint(c))))
				}
				ours := func(x *G.Node) (*G.Node, error) { return Scale(x, c) }
				sameBits(t, "scale", scaleGraph(t, dt, ours), scaleGraph(t, dt, stock))
			})
		}
	}
}

// scaleGraph returns y = f(x ⊙ b), sum(w ⊙ y) and its gradients with
// respect to x and b, from a rerun.
func scaleGraph(t *testing.T, dt tensor.Dtype, f func(*G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(41))))
	x, b, w := input("x", 2, 3, 5, 7), input("b", 2, 3, 5, 7), input("w", 2, 3, 5, 7)
	y, err := f(G.Must(G.HadamardProd(x, b)))
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, y, w, x, b))
}
