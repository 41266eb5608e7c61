package gorgoniax

import (
	"fmt"
	"math"
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
	}{{[]int{6, 4}, 0}, {[]int{6, 4}, 1}, {[]int{2, 3, 4, 5}, 3}, {[]int{2, 3, 4, 5}, 1},
		{[]int{7, 5}, 0}, {[]int{7, 5}, 1}, {[]int{3, 5, 7}, 0}, {[]int{3, 5, 7}, 1}, {[]int{3, 5, 7}, 2},
		{[]int{9, 1, 3}, 1}, {[]int{2, 3, 4, 5}, 0}, {[]int{2, 3, 4, 5}, 2}}
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

// sumIntoOp's and maxIntoOp's UsePreallocDo, into a buffer of another shape
// of the same size, write what the stock ops' Do return, bit for bit, for
// every axis they take, on lines of signed zeros (0 + -0 is +0: the last
// axis's sum starts from 0, the others from the first entry; the maxima
// break ties between -0 and +0 differently along the first axis), NaN and
// odd lengths.
func TestReduceIntoMatchesStockDo(t *testing.T) {
	shapes := [][]int{{6, 4}, {7, 5}, {13, 9}, {3, 5, 7}, {2, 3, 4, 5}, {5, 1, 3}, {1, 6}}
	reducers := []struct {
		name   string
		reduce func(*G.Node, int) (*G.Node, error)
	}{{"sum", Sum}, {"max", Max}}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range shapes {
			for axis := range shape {
				for _, r := range reducers {
					for i, x := range []*tensor.Dense{sumTestInput(dt, shape), tiesTestInput(dt, shape)} {
						what := fmt.Sprintf("%v %s %v axis %d input %d", dt, r.name, shape, axis, i)
						checkReduceInto(t, what, r.reduce, x, axis)
					}
				}
			}
		}
	}
}

// checkReduceInto checks reduce(x, axis)'s op against the stock op's Do.
func checkReduceInto(t *testing.T, what string, reduce func(*G.Node, int) (*G.Node, error), x *tensor.Dense, axis int) {
	t.Helper()
	shape := x.Shape()
	n, err := reduce(G.NewTensor(G.NewGraph(), x.Dtype(), len(shape), G.WithShape(shape...), G.WithValue(x)), axis)
	if err != nil {
		t.Fatal(err)
	}
	var op interface {
		G.Op
		G.UsePreallocDoer
	}
	var stock G.Op
	switch o := n.Op().(type) {
	case sumIntoOp:
		op, stock = o, o.SDOp
	case maxIntoOp:
		op, stock = o, o.SDOp
	default:
		if reducible(len(shape), axis) {
			t.Fatalf("%s: op %v, want one into a kept buffer", what, n.Op())
		}
		return
	}
	want, err := stock.Do(x)
	if err != nil {
		t.Fatal(err)
	}
	size := n.Shape().TotalSize()
	buf := NewDense(x.Dtype(), []int{size}, make([]float64, size))
	got, err := op.UsePreallocDo(buf, x)
	if err != nil {
		t.Fatal(err)
	}
	if got != G.Value(buf) || !got.Shape().Eq(want.Shape()) {
		t.Fatalf("%s: result %p %v, want the buffer %p shaped %v", what, got, got.Shape(), buf, want.Shape())
	}
	sameBits(t, what, Float64s(got), Float64s(want))
	// x itself as the buffer: the result goes into a fresh tensor, x is untouched.
	before := Float64s(x)
	if got, err = op.UsePreallocDo(x, x); err != nil || got == G.Value(x) {
		t.Fatalf("%s: UsePreallocDo into x: %v, %v", what, got, err)
	}
	sameBits(t, what+" (buffer x)", Float64s(got), Float64s(want))
	sameBits(t, what+": x", Float64s(x), before)
}

// tiesTestInput is a tensor of -0, +0, -1 and -0.5, a few NaN among them:
// lines whose maximum is a tie between zeros of both signs.
func tiesTestInput(dt tensor.Dtype, shape []int) *tensor.Dense {
	rng := rand.New(rand.NewSource(43))
	draws := []float64{math.Copysign(0, -1), 0, -1, -0.5}
	data := make([]float64, tensor.Shape(shape).TotalSize())
	for i := range data {
		data[i] = draws[rng.Intn(len(draws))]
		if rng.Intn(20) == 0 {
			data[i] = math.NaN()
		}
	}
	return NewDense(dt, shape, data)
}

// sumTestInput is a tensor of normal entries, but -0 in its first row along
// the last axis, in its first column (index 0 on the last axis) and a few more
// places: all-(-0) lines to sum along every axis.
func sumTestInput(dt tensor.Dtype, shape []int) *tensor.Dense {
	rng := rand.New(rand.NewSource(41))
	data := make([]float64, tensor.Shape(shape).TotalSize())
	for i := range data {
		data[i] = rng.NormFloat64()
		if last := shape[len(shape)-1]; i < last || i%last == 0 || rng.Intn(4) == 0 {
			data[i] = math.Copysign(0, -1)
		}
	}
	return NewDense(dt, shape, data)
}
