package gorgoniax

// SumOfProducts(a, b, axis) is Sum(G.HadamardProd(a, b), axis) along the
// first axis, or the second of three or more (a column sum):
//
//	out[o, j] = Σ_k F(a[o, k, j] · b[o, k, j])     a, b (outer, n, inner); out (outer, inner)
//
// with the products rounded as HadamardProd rounds them (the conversion
// forbids a fused multiply-add) and added in sumColumns's order, tensor's
// (reduce.go). So the sums are bit for bit the two ops'
// (TestSumOfProductsMatchesSum). It is the gradient of a broadcast product
// with respect to its small operand, Σ_rows (x ⊙ g) (broadcast.go,
// affine.go), and is not differentiable itself.
//
// Why not the stock ops (or HadamardProd and Sum)? HadamardProd writes an
// a-sized tensor of products that the sum reads back once: two passes over
// a layer norm's (N, d) tensors where one pass, reading a and b, suffices.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SumOfProducts sums a ⊙ b along axis, a column axis (columnAxis).
func SumOfProducts(a, b *G.Node, axis int) (*G.Node, error) {
	if !a.Shape().Eq(b.Shape()) || !columnAxis(a.Dims(), axis) {
		return nil, fmt.Errorf("SumOfProducts: shapes %v and %v along axis %d: want one shape, axis 0 or 1 and not the last", a.Shape(), b.Shape(), axis)
	}
	return G.ApplyOp(sumProductsOp{axis: axis, dims: a.Dims()}, a, b)
}

// columnAxis reports whether axis of a tensor of dims axes is summed by
// sumColumns (reduce.go): the first or second axis, not the last.
func columnAxis(dims, axis int) bool { return reducible(dims, axis) && axis <= 1 && axis != dims-1 }

// sumProductsAlong is sumAlong(a ⊙ b, axes, shape), in one op where it can.
func sumProductsAlong(a, b *G.Node, axes []int, shape tensor.Shape) (*G.Node, error) {
	if len(axes) != 1 || !columnAxis(a.Dims(), axes[0]) {
		ab, err := G.HadamardProd(a, b)
		if err != nil {
			return nil, err
		}
		return sumAlong(ab, axes, shape)
	}
	s, err := SumOfProducts(a, b, axes[0])
	if err != nil || s.Shape().Eq(shape) {
		return s, err
	}
	return G.Reshape(s, shape)
}

// sumProductsOp sums a ⊙ b along a column axis.
type sumProductsOp struct{ axis, dims int }

func (op sumProductsOp) Arity() int { return 2 }

func (op sumProductsOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	x := G.TensorType{Dims: op.dims, Of: a}
	return hm.NewFnType(x, x, G.TensorType{Dims: op.dims - 1, Of: a})
}

func (op sumProductsOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	a, ok := inputs[0].(tensor.Shape)
	b, ok2 := inputs[1].(tensor.Shape)
	if !ok || !ok2 || !a.Eq(b) || len(a) != op.dims {
		return nil, fmt.Errorf("%v: input shapes %v", op, inputs)
	}
	return append(a[:op.axis:op.axis], a[op.axis+1:]...), nil
}

func (op sumProductsOp) Do(inputs ...G.Value) (G.Value, error) {
	return op.UsePreallocDo(nil, inputs...)
}

// UsePreallocDo sums into prealloc, which the tape machine keeps across
// runs, or into a fresh tensor where prealloc cannot hold the sums
// (keptResult: an input, for one, is left alone).
func (op sumProductsOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	out, err := keptResult(op, prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return byDtype(op, out,
		func() error { return sumProducts[float64](op, out, inputs) },
		func() error { return sumProducts[float32](op, out, inputs) })
}

// sumProducts checks that out, a and b are contiguous tensors of dtype F and
// sums a ⊙ b's columns into out, one block of the axes before op.axis at a time.
func sumProducts[F float32 | float64](op sumProductsOp, out *tensor.Dense, inputs []G.Value) error {
	o, ok := floats[F](out)
	a, ok2 := floats[F](inputs[0])
	b, ok3 := floats[F](inputs[1])
	s := inputs[0].Shape()
	outer, n, inner := s[:op.axis].TotalSize(), s[op.axis], s[op.axis+1:].TotalSize()
	if !ok || !ok2 || !ok3 || len(o) != outer*inner || len(a) != len(o)*n || len(b) != len(a) || n == 0 {
		return fmt.Errorf("%v: want contiguous %T tensors of the node's shapes", op, o)
	}
	size := n * inner
	for k := 0; k < outer; k++ {
		sumColumnsOfProducts(o[k*inner:(k+1)*inner], a[k*size:(k+1)*size], b[k*size:(k+1)*size])
	}
	return nil
}

// sumColumnsOfProducts is sumColumns(out, a ⊙ b) without a ⊙ b: row 0's
// products, then each next row's added entry by entry, three rows per pass,
// ((s + p1) + p2) + p3.
func sumColumnsOfProducts[F float32 | float64](out, a, b []F) {
	m := len(out)
	if m == 0 {
		return
	}
	n := len(a) / m
	b = b[:len(a)]
	for j, v := range a[:m] {
		out[j] = v * b[j]
	}
	k := 1
	for ; k+3 <= n; k += 3 {
		a1, a2, a3 := a[k*m : (k+1)*m][:m], a[(k+1)*m : (k+2)*m][:m], a[(k+2)*m : (k+3)*m][:m]
		b1, b2, b3 := b[k*m : (k+1)*m][:m], b[(k+1)*m : (k+2)*m][:m], b[(k+2)*m : (k+3)*m][:m]
		for j, s := range out {
			out[j] = s + F(a1[j]*b1[j]) + F(a2[j]*b2[j]) + F(a3[j]*b3[j])
		}
	}
	for ; k < n; k++ {
		ak, bk := a[k*m : (k+1)*m][:m], b[k*m : (k+1)*m][:m]
		for j, s := range out {
			out[j] = s + F(ak[j]*bk[j])
		}
	}
}

func (op sumProductsOp) ReturnsPtr() bool      { return false }
func (op sumProductsOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op sumProductsOp) OverwritesInput() int  { return -1 }
func (op sumProductsOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op sumProductsOp) Hashcode() uint32      { return hashOf(op) }
func (op sumProductsOp) String() string {
	return fmt.Sprintf("sumOfProducts(axis=%d, dims=%d)", op.axis, op.dims)
}

func (op sumProductsOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }
func (op sumProductsOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v is not differentiable", op)
}
