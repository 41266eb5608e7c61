package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// broadcastCases are every axis pattern the model uses, at odd sizes, and a
// y that keeps its repeated axes with size 1.
var broadcastCases = []struct {
	x, y []int
	axes []int
}{
	{[]int{7, 5}, []int{7}, []int{1}},             // a row's mean or deviation over its features
	{[]int{7, 5}, []int{5}, []int{0}},             // a gain or bias over the rows
	{[]int{2, 3, 5, 7}, []int{2, 3, 5}, []int{3}}, // a softmax row's max or sum
	{[]int{3, 2, 5, 5}, []int{3, 5}, []int{1, 2}}, // the key mask over heads and queries
	{[]int{3, 1, 5, 5}, []int{3, 5}, []int{1, 2}}, // one head
	{[]int{7, 5}, []int{7, 1}, []int{1}},          // y with the axis kept, of size 1
	{[]int{1, 5}, []int{1}, []int{1}},             // one row
}

// BroadcastAdd, BroadcastMul and BroadcastAddData give the values and
// gradients of G.BroadcastAdd and G.BroadcastHadamardProd, bit for bit, on a
// rerun (the kept buffers reused).
func TestBroadcastMatchesGorgonia(t *testing.T) {
	type opPair struct {
		name   string
		ours   func(x, y *G.Node, axes ...int) (*G.Node, error)
		theirs func(a, b *G.Node, left, right []byte) (*G.Node, error)
		yGrad  bool
	}
	ops := []opPair{
		{"add", BroadcastAdd, G.BroadcastAdd, true},
		{"mul", BroadcastMul, G.BroadcastHadamardProd, true},
		{"add-data", BroadcastAddData, G.BroadcastAdd, false},
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, op := range ops {
			for _, c := range broadcastCases {
				t.Run(fmt.Sprintf("%v/%s/%v%v", dt, op.name, c.x, c.axes), func(t *testing.T) {
					pattern := make([]byte, len(c.axes))
					for i, a := range c.axes {
						pattern[i] = byte(a)
					}
					ours := broadcastGraph(t, dt, c.x, c.y, op.yGrad, func(x, y *G.Node) (*G.Node, error) { return op.ours(x, y, c.axes...) })
					theirs := broadcastGraph(t, dt, c.x, c.y, op.yGrad, func(x, y *G.Node) (*G.Node, error) { return op.theirs(x, y, nil, pattern) })
					sameBits(t, "values and gradients", ours, theirs)
				})
			}
		}
	}
}

// A y that does not repeat to x's shape along the axes is refused.
func TestBroadcastRefusesShapes(t *testing.T) {
	g := G.NewGraph()
	input := inputMaker(g, tensor.Float64, func() float64 { return 1 })
	x := input("x", 4, 3)
	for _, c := range []struct {
		y    []int
		axes []int
	}{{[]int{3}, []int{1}}, {[]int{4}, []int{0}}, {[]int{4, 3}, nil}, {[]int{2}, []int{0, 1}}, {[]int{1}, []int{1, 0}}, {[]int{4}, []int{2}}} {
		if _, err := BroadcastAdd(x, input(fmt.Sprint(c.y, c.axes), c.y...), c.axes...); err == nil {
			t.Errorf("y %v along axes %v of (4, 3): no error", c.y, c.axes)
		}
	}
}

// broadcastGraph returns f(x, y) ⊙ c, the sum of w ⊙ that and its gradients
// with respect to x, c and (if yGrad) y. c makes the incoming gradient
// something other than w.
func broadcastGraph(t *testing.T, dt tensor.Dtype, xShape, yShape []int, yGrad bool, f func(x, y *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(13))
	input := inputMaker(g, dt, normal(rng))
	x, y, c, w := input("x", xShape...), input("y", yShape...), input("c", xShape...), input("w", xShape...)
	z, err := f(x, y)
	if err != nil {
		t.Fatal(err)
	}
	wrt := []*G.Node{x, c}
	if yGrad {
		wrt = append(wrt, y)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, G.Must(G.HadamardProd(z, c)), w, wrt...))
}

// UsePreallocDo writes what Do returns, into a buffer of another shape of
// the same size or into x itself (the tape machine overwrites a dead x).
func TestBroadcastUsePreallocDo(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range broadcastCases {
			g := G.NewGraph()
			input := inputMaker(g, dt, normal(rand.New(rand.NewSource(3))))
			x, y := input("x", c.x...), input("y", c.y...)
			n, err := BroadcastMul(x, y, c.axes...)
			if err != nil {
				t.Fatal(err)
			}
			op := n.Op().(broadcastOp)
			want, err := op.Do(x.Value(), y.Value())
			if err != nil {
				t.Fatal(err)
			}
			size := len(Float64s(x.Value()))
			flat := NewDense(dt, []int{size}, make([]float64, size))
			xCopy := x.Value().(*tensor.Dense).Clone().(*tensor.Dense)
			for _, into := range []struct {
				name   string
				buf, x *tensor.Dense
			}{{"a flat buffer", flat, x.Value().(*tensor.Dense)}, {"x itself", xCopy, xCopy}} {
				buf, what := into.buf, fmt.Sprintf("%v %v%v into %s", dt, c.x, c.axes, into.name)
				got, err := op.UsePreallocDo(buf, into.x, y.Value())
				if err != nil {
					t.Fatal(what, err)
				}
				if got != G.Value(buf) || !got.Shape().Eq(tensor.Shape(c.x)) {
					t.Fatalf("%s: result %p %v, want the buffer %p shaped %v", what, got, got.Shape(), buf, c.x)
				}
				sameBits(t, what, Float64s(got), Float64s(want))
			}
		}
	}
}
