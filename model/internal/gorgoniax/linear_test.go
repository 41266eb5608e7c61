package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Linear gives the values and gradients of BroadcastAdd(G.Mul(x, w), b, 0),
// as model/feedforward.go built it, and of the stock G.BroadcastAdd, bit for
// bit, on a rerun: odd sizes, one row, one output, the model's widths.
func TestLinearMatchesMulAndAdd(t *testing.T) {
	ours := func(x, w, b *G.Node) (*G.Node, error) { return Linear(x, w, b) }
	twoOps := func(x, w, b *G.Node) (*G.Node, error) { return BroadcastAdd(G.Must(G.Mul(x, w)), b, 0) }
	stock := func(x, w, b *G.Node) (*G.Node, error) {
		return G.BroadcastAdd(G.Must(G.Mul(x, w)), b, nil, []byte{0})
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, s := range [][3]int{{7, 5, 3}, {13, 9, 11}, {1, 5, 3}, {3, 4, 1}, {48, 32, 64}, {48, 64, 32}} {
			t.Run(fmt.Sprintf("%v/%v", dt, s), func(t *testing.T) {
				got := linearGraph(t, dt, s, ours)
				sameBits(t, "against G.Mul and BroadcastAdd", got, linearGraph(t, dt, s, twoOps))
				if s[0] > 1 { // the stock gradient cannot reshape a sum over one row
					sameBits(t, "against G.Mul and G.BroadcastAdd", got, linearGraph(t, dt, s, stock))
				}
			})
		}
	}
}

// linearGraph returns z = f(x, w, b) ⊙ c for x (n, in), w (in, out), b
// (out), sum(v ⊙ z) and its gradients with respect to x, w, b and c, from a
// rerun.
func linearGraph(t *testing.T, dt tensor.Dtype, s [3]int, f func(x, w, b *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(73))))
	x, w, b := input("x", s[0], s[1]), input("w", s[1], s[2]), input("b", s[2])
	c, v := input("c", s[0], s[2]), input("v", s[0], s[2])
	z, err := f(x, w, b)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, G.Must(G.HadamardProd(z, c)), v, x, w, b, c))
}

// Linear refuses a bias that is not one entry per output column.
func TestLinearRefusesShapes(t *testing.T) {
	input := inputMaker(G.NewGraph(), tensor.Float64, func() float64 { return 1 })
	x, w := input("x", 4, 3), input("w", 3, 2)
	for _, b := range [][]int{{3}, {4}, {2, 1}} {
		if _, err := Linear(x, w, input(fmt.Sprint("b", b), b...)); err == nil {
			t.Errorf("bias %v for a (4, 2) product: no error", b)
		}
	}
	if _, err := Linear(x, input("w2", 4, 2), input("b2", 2)); err == nil {
		t.Error("x (4, 3) times w (4, 2): no error")
	}
}

// BenchmarkLinear times a feed-forward layer's first linear layer in a
// training step (512 words, 32 features in, 64 out), forward only:
// "two-ops" is G.Mul then BroadcastAdd, "fused" Linear.
func BenchmarkLinear(b *testing.B) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, fused := range []bool{false, true} {
			name := map[bool]string{false: "two-ops", true: "fused"}[fused]
			b.Run(fmt.Sprintf("%v/%s", dt, name), func(b *testing.B) { benchLinear(b, dt, fused) })
		}
	}
}

func benchLinear(b *testing.B, dt tensor.Dtype, fused bool) {
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(79))))
	x, w, bias := input("x", 512, 32), input("w", 32, 64), input("b", 64)
	var z *G.Node
	if fused {
		z = G.Must(Linear(x, w, bias))
	} else {
		z = G.Must(BroadcastAdd(G.Must(G.Mul(x, w)), bias, 0))
	}
	benchRewound(b, g, z)
}
