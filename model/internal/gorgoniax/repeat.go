package gorgoniax

// repeatTo(y, shape, axes) repeats y, which lacks the axes `axes` of shape, to
// that shape: it reshapes y to size 1 there, as G.Broadcast does, and repeats
// it along each axis with repeatAlongOp, a copy loop writing into a kept
// buffer, where G.Broadcast uses Gorgonia's repeatOp. Sum's gradient
// (sum.go) repeats with it.
//
// Why not the stock repeatOp? tensor v0.9.24 repeats through a general
// strided copy that moves one number at a time when it repeats along the last
// axis (a row's mean or maximum repeated over its 16 or 32 entries), into a
// fresh tensor on every run. Repeating computes nothing, and repeatAlongOp's
// gradient is G.Sum along the axis, the very node repeatOp's SymDiff builds,
// so values and gradients are bit for bit the stock ones (TestSumMatchesGorgonia).

import (
	"fmt"
	"hash"
	"slices"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// repeatTo reshapes y, which lacks the axes `axes` of shape xs, to size 1 there
// and repeats it to xs's size along each of them, in order.
func repeatTo(y *G.Node, xs tensor.Shape, axes []int) (*G.Node, error) {
	shape := slices.Clone([]int(y.Shape()))
	if y.Dims() != len(xs) { // calcBroadcastShape: 1 at the axes, y's sizes in order elsewhere
		shape = make([]int, len(xs))
		for _, a := range axes {
			shape[a] = 1
		}
		next := 0
		for _, s := range y.Shape() {
			for shape[next] != 0 {
				next++
			}
			shape[next] = s
		}
	}
	r, err := G.Reshape(y, shape)
	if err != nil {
		return nil, err
	}
	for _, a := range axes {
		if r, err = repeatAlong(r, a, xs[a]); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// repeatAlongOp repeats a tensor whose size along axis is 1, n times along it.
type repeatAlongOp struct{ axis, n, dims int }

func repeatAlong(x *G.Node, axis, n int) (*G.Node, error) {
	if axis >= x.Dims() || x.Shape()[axis] != 1 {
		return nil, fmt.Errorf("repeatAlong: axis %d of shape %v is not of size 1", axis, x.Shape())
	}
	return G.ApplyOp(repeatAlongOp{axis: axis, n: n, dims: x.Dims()}, x)
}

func (op repeatAlongOp) Arity() int { return 1 }

func (op repeatAlongOp) Type() hm.Type {
	t := G.TensorType{Dims: op.dims, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}

func (op repeatAlongOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	s, ok := inputs[0].(tensor.Shape)
	if !ok || len(s) != op.dims || s[op.axis] != 1 {
		return nil, fmt.Errorf("%v: input shape %v", op, inputs[0])
	}
	out := s.Clone()
	out[op.axis] = op.n
	return out, nil
}

func (op repeatAlongOp) Do(inputs ...G.Value) (G.Value, error) {
	x, ok := inputs[0].(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: want a *tensor.Dense, got %T", op, inputs[0])
	}
	shape, err := op.InferShape(x.Shape())
	if err != nil {
		return nil, err
	}
	return op.UsePreallocDo(tensor.New(tensor.Of(x.Dtype()), tensor.WithShape(shape...)), x)
}

// UsePreallocDo writes into prealloc, which the tape machine keeps across runs.
func (op repeatAlongOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	x, ok := inputs[0].(*tensor.Dense)
	out, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || x.RequiresIterator() || out.RequiresIterator() || !x.IsNativelyAccessible() {
		return nil, fmt.Errorf("%v: want contiguous *tensor.Dense values, got %T and %T", op, inputs[0], prealloc)
	}
	shape, err := op.InferShape(x.Shape())
	if err != nil {
		return nil, err
	}
	if out.Shape().TotalSize() != shape.TotalSize() || out.Dtype() != x.Dtype() {
		return nil, fmt.Errorf("%v: result %v %v for %v", op, out.Shape(), out.Dtype(), shape)
	}
	// The register may last have held another node's value of the same size.
	if err := out.Reshape(shape...); err != nil {
		return nil, err
	}
	outer, inner := 1, 1
	for _, s := range shape[:op.axis] {
		outer *= s
	}
	for _, s := range shape[op.axis+1:] {
		inner *= s
	}
	switch src := x.Data().(type) {
	case []float64:
		repeat(out.Data().([]float64), src, outer, op.n, inner)
	case []float32:
		repeat(out.Data().([]float32), src, outer, op.n, inner)
	default:
		return nil, fmt.Errorf("%v: unsupported dtype %v", op, x.Dtype())
	}
	return out, nil
}

// repeat copies each of src's outer blocks of inner numbers n times into dst.
func repeat[F float32 | float64](dst, src []F, outer, n, inner int) {
	if inner == 1 {
		for o, v := range src[:outer] {
			row := dst[o*n : (o+1)*n]
			for i := range row {
				row[i] = v
			}
		}
		return
	}
	for o := 0; o < outer; o++ {
		block := src[o*inner : (o+1)*inner]
		for r := 0; r < n; r++ {
			copy(dst[(o*n+r)*inner:], block)
		}
	}
}

func (op repeatAlongOp) ReturnsPtr() bool      { return false }
func (op repeatAlongOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op repeatAlongOp) OverwritesInput() int  { return -1 }
func (op repeatAlongOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op repeatAlongOp) Hashcode() uint32      { return hashOf(op) }
func (op repeatAlongOp) String() string {
	return fmt.Sprintf("repeatAlong(axis=%d, n=%d, dims=%d)", op.axis, op.n, op.dims)
}

func (op repeatAlongOp) DiffWRT(inputs int) []bool { return []bool{true} }

// SymDiff is Gorgonia's repeatOp's: the gradient summed along the repeated axis.
func (op repeatAlongOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	s, err := G.Sum(grad, op.axis)
	return G.Nodes{s}, err
}
