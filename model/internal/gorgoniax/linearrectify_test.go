package gorgoniax

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// LinearRectify gives the values and gradients of Rectify(Linear(x, w, b))
// (model/feedforward.go's construction before it) and of the stock
// G.Rectify(G.BroadcastAdd(G.Mul(x, w), b)), bit for bit, on a rerun: odd
// sizes, one row, one output, the model's widths. Every other row of x is
// zeros and the bias holds +0 and -0, so that pre-activations of exactly
// +0 (and products of zeros with negative weights) are among them.
func TestLinearRectifyMatchesRectifyOfLinear(t *testing.T) {
	ours := func(x, w, b *G.Node) (*G.Node, error) { return LinearRectify(x, w, b) }
	twoOps := func(x, w, b *G.Node) (*G.Node, error) { return Rectify(G.Must(Linear(x, w, b))) }
	stock := func(x, w, b *G.Node) (*G.Node, error) {
		return G.Rectify(G.Must(G.BroadcastAdd(G.Must(G.Mul(x, w)), b, nil, []byte{0})))
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, s := range [][3]int{{7, 5, 3}, {13, 9, 11}, {1, 5, 3}, {3, 4, 1}, {48, 32, 64}} {
			t.Run(fmt.Sprintf("%v/%v", dt, s), func(t *testing.T) {
				got := linearRectifyGraph(t, dt, s, ours)
				sameBits(t, "against Rectify(Linear)", got, linearRectifyGraph(t, dt, s, twoOps))
				if s[0] > 1 { // the stock gradient cannot reshape a sum over one row
					sameBits(t, "against the stock ops", got, linearRectifyGraph(t, dt, s, stock))
				}
			})
		}
	}
}

// linearRectifyGraph is linearGraph with zero rows in x and signed zeros in b.
func linearRectifyGraph(t *testing.T, dt tensor.Dtype, s [3]int, f func(x, w, b *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(89))
	input := inputMaker(g, dt, normal(rng))
	n := 0
	xs := inputMaker(g, dt, func() float64 { n++; return float64((n-1)/s[1]%2) * rng.NormFloat64() })
	zeros := []float64{math.Copysign(0, -1), 0}
	bs := inputMaker(g, dt, func() float64 { n++; return append(zeros, rng.NormFloat64())[n%3] })
	x, w, b := xs("x", s[0], s[1]), input("w", s[1], s[2]), bs("b", s[2])
	c, v := input("c", s[0], s[2]), input("v", s[0], s[2])
	z, err := f(x, w, b)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, G.Must(G.HadamardProd(z, c)), v, x, w, b, c))
}

// outputStep is step(v) read from v ⊙ step(v), for every v but -0.
func TestOutputStep(t *testing.T) {
	for _, v := range []float64{2, 1e-300, 0, -1e-300, -2, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN()} {
		if got, want := outputStep(v*step(v)), step(v); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("float64 %v: %v, want %v", v, got, want)
		}
		f := float32(v) // -1e-300 becomes -0, the one excluded input
		if f == 0 && math.Signbit(float64(f)) {
			continue
		}
		if got, want := outputStep(f*step(f)), step(f); math.Float32bits(got) != math.Float32bits(want) {
			t.Errorf("float32 %v: %v, want %v", f, got, want)
		}
	}
}

// BenchmarkLinearRectify times a feed-forward layer's first layer and its
// ReLU in a training step (512 words, 32 features in, 64 out), forward and
// backward on a rewound tape: "two-ops" is Rectify(Linear), "fused"
// LinearRectify. Each graph holds one construction: the tape machine runs
// every node, read or not.
func BenchmarkLinearRectify(b *testing.B) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, fused := range []bool{false, true} {
			name := map[bool]string{false: "two-ops", true: "fused"}[fused]
			b.Run(fmt.Sprintf("%v/%s", dt, name), func(b *testing.B) {
				g := G.NewGraph()
				input := inputMaker(g, dt, normal(rand.New(rand.NewSource(97))))
				x, w, bias, v := input("x", 512, 32), input("w", 32, 64), input("b", 64), input("v", 512, 64)
				var h *G.Node
				if fused {
					h = G.Must(LinearRectify(x, w, bias))
				} else {
					h = G.Must(Rectify(G.Must(Linear(x, w, bias))))
				}
				loss := G.Must(G.Sum(G.Must(G.HadamardProd(h, v))))
				grads, err := G.Grad(loss, x, w, bias)
				if err != nil {
					b.Fatal(err)
				}
				benchRewound(b, g, append(grads, h)...)
			})
		}
	}
}
