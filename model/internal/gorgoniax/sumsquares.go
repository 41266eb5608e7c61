package gorgoniax

// SumOfSquares(x, axis) is Sum(Unary(G.Square, x), axis) along the last
// axis, and MeanOfSquares(x, axis) is Mean(Unary(G.Square, x), axis), the
// variance of a layer norm's centred rows:
//
//	out[r] = Σ_i F(x[r, i] · x[r, i])      x (N, d) or (..., d); out (N) or (...)
//
// with the squares rounded as SquareF64 rounds them (the conversion forbids
// a fused multiply-add) and added in sumRows's order, tensor's (reduce.go):
// each row from 0, one square after another. MeanOfSquares divides the sums
// by the axis's size with Mean's own division (divideByCount, sum.go). So
// the values are bit for bit the two ops' (TestSumOfSquaresMatchesSquareAndSum).
//
// The gradient, given g = ∂L/∂out (one entry per row), is one op computing
// per entry what the stock chain computes: Sum's gradient repeats g along
// the row, then Square's (squareDiffExpr, operatorPointwise_unary.go in
// gorgonia v0.9.18) is HadamardProd(HadamardProd(x, 2), g), so
//
//	∂L/∂x[r, i] = F(x[r, i] · 2) · g[r]
//
// reading g by row instead of a repeated copy. Bit for bit the stock chain's.
//
// Why not the stock ops (or Unary(G.Square) and Sum)? The square writes an
// x-sized tensor that the sum reads back once: two passes over a layer
// norm's (N, d) tensor where one, reading x, suffices, and a tape
// instruction more. (In the training step the layer norm's gradient with
// respect to x is NormalizeRows's one op, normalize.go, so only the forward
// pass runs here; the gradient serves other graphs and the tests.)

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SumOfSquares sums x ⊙ x along axis, the last of two or more.
func SumOfSquares(x *G.Node, axis int) (*G.Node, error) {
	if x.Dims() < 2 || axis != x.Dims()-1 {
		return nil, fmt.Errorf("SumOfSquares: shape %v along axis %d: want two or more axes and the last", x.Shape(), axis)
	}
	return G.ApplyOp(sumSquaresOp{dims: x.Dims()}, x)
}

// MeanOfSquares is Mean(Unary(G.Square, x), axis): SumOfSquares(x, axis)
// divided by the axis's size as Mean divides.
func MeanOfSquares(x *G.Node, axis int) (*G.Node, error) {
	s, err := SumOfSquares(x, axis)
	if err != nil {
		return nil, err
	}
	return divideByCount(s, x, axis)
}

// sumSquaresOp sums x ⊙ x along the last of dims axes.
type sumSquaresOp struct{ dims int }

func (op sumSquaresOp) Arity() int { return 1 }

func (op sumSquaresOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(G.TensorType{Dims: op.dims, Of: a}, G.TensorType{Dims: op.dims - 1, Of: a})
}

func (op sumSquaresOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	x, ok := inputs[0].(tensor.Shape)
	if !ok || len(x) != op.dims {
		return nil, fmt.Errorf("%v: input shape %v", op, inputs[0])
	}
	return x[: op.dims-1 : op.dims-1].Clone(), nil
}

func (op sumSquaresOp) Do(inputs ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(nil, inputs...)
}

// UsePreallocDo sums into prealloc, which the tape machine keeps across
// runs, or into a fresh tensor where prealloc cannot hold the sums
// (keptResult: x, for one, is left alone).
func (op sumSquaresOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	out, err := keptResult(op, prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return byDtype(op, out,
		func() error { return sumSquares[float64](op, out, inputs[0]) },
		func() error { return sumSquares[float32](op, out, inputs[0]) })
}

// sumSquares checks that out and x are contiguous tensors of dtype F and
// sums the squares of x's rows into out.
func sumSquares[F float32 | float64](op sumSquaresOp, out *tensor.Dense, x G.Value) error {
	o, ok := floats[F](out)
	xs, ok2 := floats[F](x)
	n := x.Shape()[op.dims-1]
	if !ok || !ok2 || len(xs) != len(o)*n || n == 0 {
		return fmt.Errorf("%v: want contiguous %T tensors of the node's shapes", op, o)
	}
	sumSquareRows(o, xs, n)
	return nil
}

// sumSquareRows is sumRows(out, x ⊙ x, n) without x ⊙ x: out[r] =
// ((0 + x[r,0]²) + x[r,1]²) + ..., four rows side by side as sumRows runs
// them, each row's additions one after another.
func sumSquareRows[F float32 | float64](out, x []F, n int) {
	r := 0
	for ; r+4 <= len(out); r += 4 {
		a := x[r*n : (r+1)*n]
		b, c, d := x[(r+1)*n : (r+2)*n][:len(a)], x[(r+2)*n : (r+3)*n][:len(a)], x[(r+3)*n : (r+4)*n][:len(a)]
		var s0, s1, s2, s3 F
		for i, v := range a {
			s0 += F(v * v)
			s1 += F(b[i] * b[i])
			s2 += F(c[i] * c[i])
			s3 += F(d[i] * d[i])
		}
		out[r], out[r+1], out[r+2], out[r+3] = s0, s1, s2, s3
	}
	for ; r < len(out); r++ {
		var s F
		for _, v := range x[r*n : (r+1)*n] {
			s += F(v * v)
		}
		out[r] = s
	}
}

func (op sumSquaresOp) ReturnsPtr() bool      { return false }
func (op sumSquaresOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op sumSquaresOp) OverwritesInput() int  { return -1 }
func (op sumSquaresOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op sumSquaresOp) Hashcode() uint32      { return hashOf(op) }
func (op sumSquaresOp) String() string        { return fmt.Sprintf("sumOfSquares(dims=%d)", op.dims) }

func (op sumSquaresOp) DiffWRT(inputs int) []bool { return []bool{true} }

// SymDiff is the one op computing F(x · 2) · g, g read by row.
func (op sumSquaresOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := G.ApplyOp(squaresGradOp(op), inputs[0], grad)
	return G.Nodes{d}, err
}

// squaresGradOp computes ∂L/∂x = F(x · 2) · g from x and g, one g per row.
type squaresGradOp struct{ dims int }

func (op squaresGradOp) Arity() int { return 2 }

func (op squaresGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	x := G.TensorType{Dims: op.dims, Of: a}
	return hm.NewFnType(x, G.TensorType{Dims: op.dims - 1, Of: a}, x)
}

func (op squaresGradOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	x, ok := inputs[0].(tensor.Shape)
	g, ok2 := inputs[1].(tensor.Shape)
	if !ok || !ok2 || len(x) != op.dims || !g.Eq(x[:op.dims-1]) {
		return nil, fmt.Errorf("%v: input shapes %v", op, inputs)
	}
	return x.Clone(), nil
}

func (op squaresGradOp) Do(inputs ...G.Value) (G.Value, error) { return doLikeFirst(op, inputs) }

// UsePreallocDo writes into prealloc, which the tape machine keeps across
// runs; prealloc may be x itself (the op overwrites a dead input).
func (op squaresGradOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, _, err := resultLikeFirst(op, 2, prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return byDtype(op, out,
		func() error { return squaresGrad[float64](op, out, inputs) },
		func() error { return squaresGrad[float32](op, out, inputs) })
}

// squaresGrad checks that out, x and g are contiguous tensors of dtype F and
// of the op's shapes, and writes F(x · 2) · g[row] into out.
func squaresGrad[F float32 | float64](op squaresGradOp, out *tensor.Dense, inputs []G.Value) error {
	o, ok := floats[F](out)
	x, ok2 := floats[F](inputs[0])
	g, ok3 := floats[F](inputs[1])
	n := inputs[0].Shape()[op.dims-1]
	if !ok || !ok2 || !ok3 || len(o) != len(x) || len(x) != len(g)*n || n == 0 {
		return fmt.Errorf("%v: want contiguous %T tensors of the node's shapes", op, o)
	}
	for r, gr := range g {
		z, xr := o[r*n:(r+1)*n], x[r*n:(r+1)*n]
		for i, v := range xr {
			z[i] = F(v*2) * gr
		}
	}
	return nil
}

func (op squaresGradOp) ReturnsPtr() bool      { return false }
func (op squaresGradOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op squaresGradOp) OverwritesInput() int  { return 0 }    // each x[i] is read before z[i] is written
func (op squaresGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op squaresGradOp) Hashcode() uint32      { return hashOf(op) }
func (op squaresGradOp) String() string        { return fmt.Sprintf("sumOfSquaresGrad(dims=%d)", op.dims) }

func (op squaresGradOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }
func (op squaresGradOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v is not differentiable", op)
}
