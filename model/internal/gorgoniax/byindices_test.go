package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ByIndices gives G.ByIndices's values and gradients, bit for bit, on a
// rerun (byRowsOp along axis 0), with a repeated index (whose gradient rows
// add up) and on both axes.
func TestByIndicesMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, axis := range []int{0, 1} {
			t.Run(fmt.Sprintf("%v/axis=%d", dt, axis), func(t *testing.T) {
				ours := byIndicesGraph(t, dt, axis, ByIndices)
				theirs := byIndicesGraph(t, dt, axis, G.ByIndices)
				sameBits(t, "values and gradients", ours, theirs)
			})
		}
	}
}

// The gradient op's UsePreallocDo, into a used buffer of another shape of
// the same size, writes what the stock gradient op's Do returns.
func TestByIndicesGradUsePreallocDo(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		g := G.NewGraph()
		rng := rand.New(rand.NewSource(8))
		input := inputMaker(g, dt, rng.NormFloat64)
		x, grad := input("x", 5, 3), input("grad", 4, 3)
		indices := G.NewVector(g, tensor.Int, G.WithShape(4), G.WithValue(tensor.New(tensor.WithBacking([]int{3, 0, 3, 1}))))
		out, err := ByIndices(x, indices, 0)
		if err != nil {
			t.Fatal(err)
		}
		op := out.Op().(byRowsOp).grad
		args := []G.Value{x.Value(), grad.Value(), indices.Value()}
		want, err := op.Do(args...)
		if err != nil {
			t.Fatal(err)
		}
		used := make([]float64, 15)
		for i := range used {
			used[i] = rng.NormFloat64()
		}
		buf := NewDense(dt, []int{3, 5}, used)
		got, err := op.UsePreallocDo(buf, args...)
		if err != nil {
			t.Fatal(err)
		}
		if got != G.Value(buf) || !got.Shape().Eq(tensor.Shape{5, 3}) {
			t.Fatalf("%v: result %p %v, want the buffer %p shaped (5, 3)", dt, got, got.Shape(), buf)
		}
		sameBits(t, dt.String(), Float64s(got), Float64s(want))
	}
}

// byIndicesGraph returns y = by(x ⊙ c, indices, axis), sum(w ⊙ y) and its
// gradients with respect to x and c, from a rerun.
func byIndicesGraph(t *testing.T, dt tensor.Dtype, axis int, by func(x, indices *G.Node, axis int) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(23))))
	x, c := input("x", 5, 6), input("c", 5, 6)
	indices := G.NewVector(g, tensor.Int, G.WithShape(4), G.WithName("indices"), G.WithValue(tensor.New(tensor.WithBacking([]int{4, 1, 4, 2}))))
	wShape := []int{4, 6}
	if axis == 1 {
		wShape = []int{5, 4}
	}
	w := input("w", wShape...)
	y, err := by(G.Must(G.HadamardProd(x, c)), indices, axis)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, y, w, x, c))
}

// byRowsOp's UsePreallocDo, into a used buffer of another shape of the same
// size, writes what the stock op's Do returns, for a matrix and a 3-D
// tensor, with a repeated index; a bad index is an error.
func TestByRowsUsePreallocDo(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range [][]int{{5, 3}, {5, 2, 3}} {
			g := G.NewGraph()
			rng := rand.New(rand.NewSource(9))
			x := inputMaker(g, dt, rng.NormFloat64)("x", shape...)
			indices := G.NewVector(g, tensor.Int, G.WithShape(4), G.WithValue(tensor.New(tensor.WithBacking([]int{3, 0, 3, 4}))))
			out, err := ByIndices(x, indices, 0)
			if err != nil {
				t.Fatal(err)
			}
			op := out.Op().(byRowsOp)
			args := []G.Value{x.Value(), indices.Value()}
			want, err := op.SDOp.Do(args...)
			if err != nil {
				t.Fatal(err)
			}
			size := want.Shape().TotalSize()
			used := make([]float64, size)
			for i := range used {
				used[i] = rng.NormFloat64()
			}
			buf := NewDense(dt, []int{size}, used)
			got, err := op.UsePreallocDo(buf, args...)
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%v %v", dt, shape)
			if got != G.Value(buf) || !got.Shape().Eq(want.Shape()) {
				t.Fatalf("%s: result %p %v, want the buffer %p shaped %v", what, got, got.Shape(), buf, want.Shape())
			}
			sameBits(t, what, Float64s(got), Float64s(want))
			bad := tensor.New(tensor.WithBacking([]int{3, 0, 5, 4}))
			if _, err := op.UsePreallocDo(buf, x.Value(), bad); err == nil {
				t.Fatalf("%s: index 5 of 5 rows accepted", what)
			}
		}
	}
}
