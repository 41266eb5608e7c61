package gorgoniax

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// MeanOfSquares and SumOfSquares give the values and gradients of
// Mean(Unary(G.Square, x), axis) and Sum(Unary(G.Square, x), axis), as
// model/layernorm.go built the variance, and of the stock G.Square, G.Mean
// and G.Sum, bit for bit, on a rerun: normal entries with rows of -0 (a row
// of -0 squares sums to +0 from 0), large entries whose squares and doubles overflow,
// odd sizes (the four-rows-side-by-side loop and its tail), one row, one
// feature, three axes and the model's width.
func TestSumOfSquaresMatchesSquareAndSum(t *testing.T) {
	shapes := [][]int{{7, 5}, {13, 9}, {1, 5}, {3, 1}, {6, 32}, {2, 3, 5}}
	cases := []struct {
		name              string
		ours, twoOps, std func(x *G.Node, axis int) (*G.Node, error)
	}{
		{"mean", MeanOfSquares,
			func(x *G.Node, axis int) (*G.Node, error) { return Mean(G.Must(Unary(G.Square, x)), axis) },
			func(x *G.Node, axis int) (*G.Node, error) { return G.Mean(G.Must(G.Square(x)), axis) }},
		{"sum", SumOfSquares,
			func(x *G.Node, axis int) (*G.Node, error) { return Sum(G.Must(Unary(G.Square, x)), axis) },
			func(x *G.Node, axis int) (*G.Node, error) { return G.Sum(G.Must(G.Square(x)), axis) }},
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range shapes {
			for i, x := range []*tensor.Dense{sumTestInput(dt, shape), largeTestInput(dt, shape)} {
				for _, c := range cases {
					t.Run(fmt.Sprintf("%v/%v/input=%d/%s", dt, shape, i, c.name), func(t *testing.T) {
						got := sumSquaresGraph(t, x, c.ours)
						sameBits(t, "against Unary(G.Square) then "+c.name, got, sumSquaresGraph(t, x, c.twoOps))
						if shape[0] > 1 { // the stock gradient cannot reshape a sum over one row
							sameBits(t, "against the stock ops", got, sumSquaresGraph(t, x, c.std))
						}
					})
				}
			}
		}
	}
}

// sumSquaresGraph returns z = f(x, last axis) ⊙ c, sum(w ⊙ z) and its
// gradients with respect to x and c, from a rerun. c makes the incoming
// gradient something other than w.
func sumSquaresGraph(t *testing.T, x *tensor.Dense, f func(x *G.Node, axis int) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	shape := x.Shape().Clone()
	input := inputMaker(g, x.Dtype(), normal(rand.New(rand.NewSource(73))))
	xn := G.NewTensor(g, x.Dtype(), len(shape), G.WithShape(shape...), G.WithName("x"), G.WithValue(x.Clone()))
	c, w := input("c", shape[:len(shape)-1]...), input("w", shape[:len(shape)-1]...)
	z, err := f(xn, len(shape)-1)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, G.Must(G.HadamardProd(z, c)), w, xn, c))
}

// largeTestInput is a tensor of normal entries, a fifth of them ±0.75 of
// the dtype's largest: their squares and their doubles overflow, x·g does
// not for |g| < 1, so the gradient's order of products shows.
func largeTestInput(dt tensor.Dtype, shape []int) *tensor.Dense {
	rng := rand.New(rand.NewSource(79))
	large := 0.75 * math.MaxFloat64
	if dt == tensor.Float32 {
		large = 0.75 * math.MaxFloat32
	}
	data := make([]float64, tensor.Shape(shape).TotalSize())
	for i := range data {
		data[i] = rng.NormFloat64()
		if rng.Intn(5) == 0 {
			data[i] = math.Copysign(large, data[i])
		}
	}
	return NewDense(dt, shape, data)
}

// SumOfSquares' and its gradient's UsePreallocDo write what Do returns into
// a buffer of another shape of the same size; the gradient also into x
// itself (the tape machine overwrites a dead x), the sum never into x.
func TestSumOfSquaresUsePreallocDo(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, shape := range [][]int{{7, 5}, {5, 1}, {2, 3, 4}} {
			input := inputMaker(G.NewGraph(), dt, normal(rand.New(rand.NewSource(83))))
			x, g := input("x", shape...).Value(), input("g", shape[:len(shape)-1]...).Value()
			rows := g.Shape().TotalSize()
			op := sumSquaresOp{dims: len(shape)}
			want, err := op.Do(x)
			if err != nil {
				t.Fatal(err)
			}
			got, err := op.UsePreallocDo(NewDense(dt, []int{rows, 1}, make([]float64, rows)), x)
			if err != nil || !got.Shape().Eq(want.Shape()) {
				t.Fatalf("%v %v: sum into a buffer: %v, %v", dt, shape, got, err)
			}
			sameBits(t, "the sum into a buffer", Float64s(got), Float64s(want))
			before := Float64s(x)
			if got, err = op.UsePreallocDo(x, x); err != nil || got == x {
				t.Fatalf("%v %v: sum into x: %v, %v", dt, shape, got, err)
			}
			sameBits(t, "the sum, offered x", Float64s(got), Float64s(want))
			sameBits(t, "x", Float64s(x), before)

			grad := squaresGradOp(op)
			if want, err = grad.Do(x, g); err != nil {
				t.Fatal(err)
			}
			size := x.Shape().TotalSize()
			xCopy := x.(*tensor.Dense).Clone().(*tensor.Dense)
			for _, into := range []struct {
				name   string
				buf, x *tensor.Dense
			}{{"a flat buffer", NewDense(dt, []int{size}, make([]float64, size)), x.(*tensor.Dense)}, {"x itself", xCopy, xCopy}} {
				got, err := grad.UsePreallocDo(into.buf, into.x, g)
				if err != nil || got != G.Value(into.buf) || !got.Shape().Eq(tensor.Shape(shape)) {
					t.Fatalf("%v %v: gradient into %s: %v, %v", dt, shape, into.name, got, err)
				}
				sameBits(t, "the gradient into "+into.name, Float64s(got), Float64s(want))
			}
		}
	}
}

// SumOfSquares refuses one axis and any axis but the last (sumRows's order).
func TestSumOfSquaresRefusesAxes(t *testing.T) {
	input := inputMaker(G.NewGraph(), tensor.Float64, func() float64 { return math.Pi })
	for _, c := range []struct {
		shape []int
		axis  int
	}{{[]int{4}, 0}, {[]int{4, 3}, 0}, {[]int{4, 3}, 2}, {[]int{4, 3}, -1}, {[]int{2, 4, 3}, 1}} {
		if _, err := SumOfSquares(input("x", c.shape...), c.axis); err == nil {
			t.Errorf("shape %v, axis %d: no error", c.shape, c.axis)
		}
		if _, err := MeanOfSquares(input("x", c.shape...), c.axis); err == nil {
			t.Errorf("MeanOfSquares: shape %v, axis %d: no error", c.shape, c.axis)
		}
	}
}

// BenchmarkMeanOfSquares times a layer norm's variance at a batch's size
// (512 words of 32 features), forward as the training step runs it (the
// layer norm's gradient is NormalizeRows's), or forward and backward:
// "two-ops" is the construction MeanOfSquares replaces, Mean(Unary(G.Square,
// c), 1), "fused" is MeanOfSquares.
func BenchmarkMeanOfSquares(b *testing.B) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, fused := range []bool{false, true} {
			for _, backward := range []bool{false, true} {
				name := map[bool]string{false: "two-ops", true: "fused"}[fused] + map[bool]string{false: "/forward", true: "/backward"}[backward]
				b.Run(fmt.Sprintf("%v/%s", dt, name), func(b *testing.B) { benchMeanOfSquares(b, dt, fused, backward) })
			}
		}
	}
}

// benchMeanOfSquares runs the variance of c (and, backward, sum(w ⊙
// variance)'s gradient with respect to c) b.N times on a rewound tape machine.
func benchMeanOfSquares(b *testing.B, dt tensor.Dtype, fused, backward bool) {
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(89))))
	c, w := input("c", 512, 32), input("w", 512)
	var variance *G.Node // only one construction in the graph: the machine runs every node
	if fused {
		variance = G.Must(MeanOfSquares(c, 1))
	} else {
		variance = G.Must(Mean(G.Must(Unary(G.Square, c)), 1))
	}
	nodes := []*G.Node{variance}
	if backward {
		grads, err := G.Grad(G.Must(G.Sum(G.Must(G.HadamardProd(variance, w)))), c)
		if err != nil {
			b.Fatal(err)
		}
		nodes = append(nodes, grads...)
	}
	benchRewound(b, g, nodes...)
}
