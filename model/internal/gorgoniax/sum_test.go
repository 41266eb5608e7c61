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

// sumIntoOp's UsePreallocDo, into a buffer of another shape of the same size,
// writes what the stock sumOp's Do returns, bit for bit, for every axis it
// takes, with rows of signed zeros (0 + -0 is +0: the last axis's sum starts
// from 0, the others from the first entry) and of odd lengths.
func TestSumIntoMatchesStockDo(t *testing.T) {
	shapes := [][]int{{6, 4}, {7, 5}, {13, 9}, {3, 5, 7}, {2, 3, 4, 5}, {5, 1, 3}, {1, 6}}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range shapes {
			for axis := range shape {
				x := sumTestInput(dt, shape)
				n, err := Sum(G.NewTensor(G.NewGraph(), dt, len(shape), G.WithShape(shape...), G.WithValue(x)), axis)
				if err != nil {
					t.Fatal(err)
				}
				op, ok := n.Op().(sumIntoOp)
				if !ok {
					if axis <= 1 || axis == len(shape)-1 {
						t.Fatalf("%v axis %d: op %v, want a sumIntoOp", shape, axis, n.Op())
					}
					continue
				}
				what := fmt.Sprintf("%v %v axis %d", dt, shape, axis)
				want, err := op.SDOp.Do(x)
				if err != nil {
					t.Fatal(err)
				}
				size := n.Shape().TotalSize()
				buf := NewDense(dt, []int{size}, make([]float64, size))
				got, err := op.UsePreallocDo(buf, x)
				if err != nil {
					t.Fatal(err)
				}
				if got != G.Value(buf) || !got.Shape().Eq(want.Shape()) {
					t.Fatalf("%s: result %p %v, want the buffer %p shaped %v", what, got, got.Shape(), buf, want.Shape())
				}
				sameBits(t, what, Float64s(got), Float64s(want))
				// x itself as the buffer: the sum goes into a fresh tensor, x is untouched.
				before := Float64s(x)
				if got, err = op.UsePreallocDo(x, x); err != nil || got == G.Value(x) {
					t.Fatalf("%s: UsePreallocDo into x: %v, %v", what, got, err)
				}
				sameBits(t, what+" (buffer x)", Float64s(got), Float64s(want))
				sameBits(t, what+": x", Float64s(x), before)
			}
		}
	}
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
