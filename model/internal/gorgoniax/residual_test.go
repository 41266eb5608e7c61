package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// LinearResidual gives the values and gradients of G.Add(r, Linear(x, w, b))
// (model/feedforward.go's second layer and its residual), and without a bias
// of G.Add(r, G.Mul(x, w)) (W^O's product and its residual), bit for bit, on
// a rerun: odd sizes, one row, one output, the model's widths.
func TestLinearResidualMatchesAdd(t *testing.T) {
	type build func(x, w, b, r *G.Node) (*G.Node, error)
	cases := []struct {
		name       string
		bias       bool
		ours, want build
	}{
		{"bias/against G.Add(r, Linear)", true,
			func(x, w, b, r *G.Node) (*G.Node, error) { return LinearResidual(x, w, b, r) },
			func(x, w, b, r *G.Node) (*G.Node, error) { return G.Add(r, G.Must(Linear(x, w, b))) }},
		{"no-bias/against G.Add(r, G.Mul)", false,
			func(x, w, _, r *G.Node) (*G.Node, error) { return LinearResidual(x, w, nil, r) },
			func(x, w, _, r *G.Node) (*G.Node, error) { return G.Add(r, G.Must(G.Mul(x, w))) }},
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, s := range [][3]int{{7, 5, 3}, {13, 9, 11}, {1, 5, 3}, {3, 4, 1}, {48, 32, 64}, {48, 64, 32}, {48, 32, 32}} {
			for _, c := range cases {
				t.Run(fmt.Sprintf("%v/%v/%s", dt, s, c.name), func(t *testing.T) {
					sameBits(t, c.name, residualGraph(t, dt, s, c.bias, c.ours), residualGraph(t, dt, s, c.bias, c.want))
				})
			}
		}
	}
}

// residualGraph returns z = f(x, w, b, r) ⊙ c for x (n, in), w (in, out), b
// (out), r (n, out), sum(v ⊙ z) and its gradients with respect to x, w, b,
// r, c and (if bias) b, from a rerun. r also feeds a second term, sum(r ⊙ r), as the
// residual feeds the next sublayer, so its gradient adds up from two paths.
func residualGraph(t *testing.T, dt tensor.Dtype, s [3]int, bias bool, f func(x, w, b, r *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(83))))
	x, w, b, r := input("x", s[0], s[1]), input("w", s[1], s[2]), input("b", s[2]), input("r", s[0], s[2])
	c, v := input("c", s[0], s[2]), input("v", s[0], s[2])
	z, err := f(x, w, b, r)
	if err != nil {
		t.Fatal(err)
	}
	out := G.Must(G.Add(G.Must(G.HadamardProd(z, c)), G.Must(G.HadamardProd(r, r))))
	wrt := []*G.Node{x, w, r, c}
	if bias {
		wrt = append(wrt, b)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, out, v, wrt...))
}

// LinearResidual refuses a residual that is not the product's shape.
func TestLinearResidualRefusesShapes(t *testing.T) {
	input := inputMaker(G.NewGraph(), tensor.Float64, func() float64 { return 1 })
	x, w, b := input("x", 4, 3), input("w", 3, 2), input("b", 2)
	for _, r := range [][]int{{4, 3}, {2, 4}, {4}, {8}} {
		if _, err := LinearResidual(x, w, b, input(fmt.Sprint("r", r), r...)); err == nil {
			t.Errorf("residual %v for a (4, 2) product: no error", r)
		}
		if _, err := LinearResidual(x, w, nil, input(fmt.Sprint("r0", r), r...)); err == nil {
			t.Errorf("residual %v for a (4, 2) product without bias: no error", r)
		}
	}
	if _, err := LinearResidual(x, w, input("b3", 3), input("r2", 4, 2)); err == nil {
		t.Error("bias (3) for a (4, 2) product: no error")
	}
}
