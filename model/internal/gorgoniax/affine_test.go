package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// affineShapes are x's shapes: odd sizes, one row, one feature, the model's
// width.
var affineShapes = [][]int{{7, 5}, {13, 9}, {1, 5}, {3, 1}, {6, 32}}

// Affine gives the values and gradients of BroadcastAdd(BroadcastMul(x, gain,
// 0), bias, 0), as model/layernorm.go built it, and of Gorgonia's stock
// broadcasts, bit for bit, on a rerun.
func TestAffineMatchesBroadcasts(t *testing.T) {
	ours := func(x, gain, bias *G.Node) (*G.Node, error) { return Affine(x, gain, bias) }
	twoOps := func(x, gain, bias *G.Node) (*G.Node, error) {
		return BroadcastAdd(G.Must(BroadcastMul(x, gain, 0)), bias, 0)
	}
	stock := func(x, gain, bias *G.Node) (*G.Node, error) {
		return G.BroadcastAdd(G.Must(G.BroadcastHadamardProd(x, gain, nil, []byte{0})), bias, nil, []byte{0})
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range affineShapes {
			t.Run(fmt.Sprintf("%v/%v", dt, shape), func(t *testing.T) {
				got := affineGraph(t, dt, shape, ours)
				sameBits(t, "against BroadcastMul and BroadcastAdd", got, affineGraph(t, dt, shape, twoOps))
				if shape[0] > 1 { // the stock gradient cannot reshape a sum over one row
					sameBits(t, "against the stock broadcasts", got, affineGraph(t, dt, shape, stock))
				}
			})
		}
	}
}

// affineGraph returns z = f(x, gain, bias) ⊙ c, sum(w ⊙ z) and its gradients
// with respect to x, gain, bias and c, from a rerun. c makes the incoming
// gradient something other than w.
func affineGraph(t *testing.T, dt tensor.Dtype, shape []int, f func(x, gain, bias *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(53))))
	x, gain, bias := input("x", shape...), input("gain", shape[1]), input("bias", shape[1])
	c, w := input("c", shape...), input("w", shape...)
	z, err := f(x, gain, bias)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, G.Must(G.HadamardProd(z, c)), w, x, gain, bias, c))
}

// Affine's UsePreallocDo writes what Do returns into a buffer of another
// shape of the same size, or into x itself (the tape machine overwrites a
// dead x).
func TestAffineUsePreallocDo(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range affineShapes {
			input := inputMaker(G.NewGraph(), dt, normal(rand.New(rand.NewSource(59))))
			x, gain, bias := input("x", shape...).Value(), input("gain", shape[1]).Value(), input("bias", shape[1]).Value()
			want, err := affineOp{}.Do(x, gain, bias)
			if err != nil {
				t.Fatal(err)
			}
			size := shape[0] * shape[1]
			xCopy := x.(*tensor.Dense).Clone().(*tensor.Dense)
			for _, into := range []struct {
				name   string
				buf, x *tensor.Dense
			}{{"a flat buffer", NewDense(dt, []int{size}, make([]float64, size)), x.(*tensor.Dense)}, {"x itself", xCopy, xCopy}} {
				what := fmt.Sprintf("%v %v into %s", dt, shape, into.name)
				got, err := affineOp{}.UsePreallocDo(into.buf, into.x, gain, bias)
				if err != nil {
					t.Fatal(what, err)
				}
				if got != G.Value(into.buf) || !got.Shape().Eq(tensor.Shape(shape)) {
					t.Fatalf("%s: result %p %v, want the buffer %p shaped %v", what, got, got.Shape(), into.buf, shape)
				}
				sameBits(t, what, Float64s(got), Float64s(want))
			}
		}
	}
}

// Affine refuses shapes that are not x (N, d), gain and bias (d).
func TestAffineRefusesShapes(t *testing.T) {
	input := inputMaker(G.NewGraph(), tensor.Float64, func() float64 { return 1 })
	x := input("x", 4, 3)
	for _, c := range [][2][]int{{{4}, {3}}, {{3}, {4}}, {{3}, {3, 1}}, {{3, 1}, {3}}} {
		if _, err := Affine(x, input("gain", c[0]...), input("bias", c[1]...)); err == nil {
			t.Errorf("gain %v, bias %v for x (4, 3): no error", c[0], c[1])
		}
	}
	if _, err := Affine(input("x3", 2, 4, 3), input("g3", 3), input("b3", 3)); err == nil {
		t.Error("x (2, 4, 3): no error")
	}
}

// SumOfProducts gives Sum(HadamardProd(a, b), axis)'s values, the stock ops'
// and this package's Sum, bit for bit, on a rerun, along every column axis,
// on lines of signed zeros (a first row of -0 products keeps its sign),
// NaN and odd lengths (the three-rows-per-pass loop and its tail). One row
// is left out: the stock HadamardProd of two (1, d) tensors cannot be read
// (TestAffineMatchesBroadcasts has one row).
func TestSumOfProductsMatchesSum(t *testing.T) {
	cases := []struct {
		shape []int
		axis  int
	}{{[]int{7, 5}, 0}, {[]int{13, 9}, 0}, {[]int{5, 3}, 0}, {[]int{2, 6}, 0},
		{[]int{3, 5, 7}, 0}, {[]int{3, 5, 7}, 1}, {[]int{2, 3, 4, 5}, 0}, {[]int{2, 3, 4, 5}, 1}, {[]int{5, 1, 3}, 1}}
	stock := func(a, b *G.Node, axis int) (*G.Node, error) { return G.Sum(G.Must(G.HadamardProd(a, b)), axis) }
	ours := func(a, b *G.Node, axis int) (*G.Node, error) { return Sum(G.Must(G.HadamardProd(a, b)), axis) }
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range cases {
			for i, a := range []*tensor.Dense{sumTestInput(dt, c.shape), tiesTestInput(dt, c.shape)} {
				t.Run(fmt.Sprintf("%v/%v/axis=%d/input=%d", dt, c.shape, c.axis, i), func(t *testing.T) {
					got := sumProductsGraph(t, a, c.axis, SumOfProducts)
					sameBits(t, "against the stock ops", got, sumProductsGraph(t, a, c.axis, stock))
					sameBits(t, "against Sum", got, sumProductsGraph(t, a, c.axis, ours))
				})
			}
		}
	}
}

// sumProductsGraph returns f(a, b, axis) for a random b, from a rerun.
func sumProductsGraph(t *testing.T, a *tensor.Dense, axis int, f func(a, b *G.Node, axis int) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	shape := a.Shape().Clone()
	b := inputMaker(g, a.Dtype(), normal(rand.New(rand.NewSource(61))))("b", shape...)
	an := G.NewTensor(g, a.Dtype(), len(shape), G.WithShape(shape...), G.WithName("a"), G.WithValue(a.Clone()))
	z, err := f(an, b, axis)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, []*G.Node{z})
}

// SumOfProducts refuses differing shapes and the last axis (sumRows's order,
// not sumColumns's), and its UsePreallocDo leaves an input offered as the
// buffer alone.
func TestSumOfProductsRefusesAndKeepsInputs(t *testing.T) {
	input := inputMaker(G.NewGraph(), tensor.Float64, normal(rand.New(rand.NewSource(67))))
	a, b := input("a", 4, 3), input("b", 4, 3)
	if _, err := SumOfProducts(a, input("c", 3, 4), 0); err == nil {
		t.Error("shapes (4, 3) and (3, 4): no error")
	}
	if _, err := SumOfProducts(a, b, 1); err == nil {
		t.Error("the last axis: no error")
	}
	op := sumProductsOp{axis: 0, dims: 2}
	want, err := op.Do(a.Value(), b.Value())
	if err != nil {
		t.Fatal(err)
	}
	before := Float64s(a.Value())
	got, err := op.UsePreallocDo(a.Value(), a.Value(), b.Value())
	if err != nil || got == a.Value() {
		t.Fatalf("UsePreallocDo into a: %v, %v", got, err)
	}
	sameBits(t, "into a fresh buffer", Float64s(got), Float64s(want))
	sameBits(t, "a", Float64s(a.Value()), before)
}

// BenchmarkAffine times what a layer norm's affine part computes in a
// training step, forward and backward, at a batch's size (512 words of 32
// features): z = x ⊙ gain + bias and, given g = ∂L/∂z, g ⊙ gain, Σ_rows
// (x ⊙ g) and Σ_rows g. "two-ops" is the construction Affine and
// SumOfProducts replace (BroadcastMul then BroadcastAdd; HadamardProd then
// Sum), "fused" uses both, "affine" and "sum-of-products" one each.
func BenchmarkAffine(b *testing.B) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range []struct {
			name                string
			affine, sumProducts bool
		}{{"two-ops", false, false}, {"affine", true, false}, {"sum-of-products", false, true}, {"fused", true, true}} {
			b.Run(fmt.Sprintf("%v/%s", dt, c.name), func(b *testing.B) { benchAffine(b, dt, c.affine, c.sumProducts) })
		}
	}
}

// benchAffine runs z, Σ_rows (x ⊙ g) and the gradients both constructions
// share (g ⊙ gain, Σ_rows g) b.N times on a rewound tape machine, as a
// training step runs.
func benchAffine(b *testing.B, dt tensor.Dtype, affine, sumProducts bool) {
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(71))))
	x, gain, bias, grad := input("x", 512, 32), input("gain", 32), input("bias", 32), input("g", 512, 32)
	// One construction per graph: the tape machine runs every node, read or not.
	var z, dgain *G.Node
	if affine {
		z = G.Must(Affine(x, gain, bias))
	} else {
		z = G.Must(BroadcastAdd(G.Must(BroadcastMul(x, gain, 0)), bias, 0))
	}
	if sumProducts {
		dgain = G.Must(SumOfProducts(x, grad, 0))
	} else {
		dgain = G.Must(Sum(G.Must(G.HadamardProd(x, grad)), 0))
	}
	nodes := []*G.Node{z, dgain, G.Must(BroadcastMul(grad, gain, 0)), G.Must(Sum(grad, 0))}
	benchRewound(b, g, nodes...)
}
