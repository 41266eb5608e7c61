package gorgoniax

// ByIndices(x, indices, axis) is G.ByIndices(x, indices, axis): the slices of
// x at the given indices along axis. Its values are the stock op's; its
// gradient is the stock gradient op's arithmetic (tensor.ByIndicesB, which
// scatter-adds the output's gradient into a zero tensor of x's shape), with
// one change: it can write into a kept buffer (UsePreallocDo), zeroed first.
//
// Why not the stock op? Gorgonia v0.9.18's byIndicesOpDiffOp has no
// UsePreallocDo, so every run allocates a zero tensor of x's shape for the
// gradient: the embedding table's (vocabulary × d_model) and, for the rows
// picked for the pronoun and the supervised attention, the encoder output's
// (B·T × d_model). That was about 0.5 MB of a training step's allocations.
// The forward op allocated too (tensor v0.9.24's SelectByIndices ignores a
// reuse buffer unless told to work unsafely, which it then refuses), through
// a coordinate computation per row: about 1% of a training step's time.
//
// Along axis 0 of a tensor of two or more axes, byRowsOp copies x's row at
// each index into a kept buffer, as tensor's selectByIdx copies each row
// into its fresh tensor (one CopySliced of the row's entries): the same
// numbers, moved and not computed.
//
// byIndicesOp holds the stock forward op and hands it everything but
// SymDiff; byIndicesGradOp holds the stock gradient op (taken from the stock
// SymDiff on stand-ins in a scratch graph) and hands it everything but
// UsePreallocDo. Values and gradients are bit for bit the stock ones
// (TestByIndicesMatchesGorgonia): adding to a zeroed buffer in the same order
// is what the stock op does to its fresh zero tensor.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ByIndices selects x's slices at indices (an Int vector) along axis.
func ByIndices(x, indices *G.Node, axis int) (*G.Node, error) {
	scratch := G.NewGraph()
	xs := G.NewTensor(scratch, x.Dtype(), x.Dims(), G.WithShape(x.Shape()...))
	is := G.NewVector(scratch, tensor.Int, G.WithShape(indices.Shape()...))
	out, err := G.ByIndices(xs, is, axis)
	if err != nil {
		return nil, err
	}
	fwd, ok := out.Op().(G.SDOp)
	if !ok {
		return nil, fmt.Errorf("ByIndices: stock op %v has no symbolic gradient", out.Op())
	}
	grad := G.NewTensor(scratch, x.Dtype(), out.Dims(), G.WithShape(out.Shape()...))
	diffs, err := fwd.SymDiff(G.Nodes{xs, is}, out, grad)
	if err != nil {
		return nil, err
	}
	op := byIndicesOp{SDOp: fwd, grad: byIndicesGradOp{Op: diffs[0].Op(), axis: axis}}
	if axis == 0 && x.Dims() >= 2 {
		return G.ApplyOp(byRowsOp{op}, x, indices)
	}
	return G.ApplyOp(op, x, indices)
}

// byRowsOp is byIndicesOp along axis 0, copying rows into a kept buffer.
type byRowsOp struct{ byIndicesOp }

func (op byRowsOp) Hashcode() uint32 { return hashOf(op) }
func (op byRowsOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.byRows:")
	op.SDOp.WriteHash(h)
}
func (op byRowsOp) String() string    { return op.SDOp.String() + " (into a kept buffer)" }
func (op byRowsOp) CallsExtern() bool { return true } // makes the tape machine preallocate the output

// UsePreallocDo copies x's rows at the indices into prealloc. Anything but
// contiguous float rows and a buffer of the result's size apart from x goes
// to the stock op's Do.
func (op byRowsOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	x, ok1 := inputs[0].(*tensor.Dense)
	indices, ok2 := inputs[1].(*tensor.Dense)
	out, ok3 := prealloc.(*tensor.Dense)
	if !ok1 || !ok2 || !ok3 || x.Dims() < 2 || x.Shape().IsScalarEquiv() || indices.Dtype() != tensor.Int ||
		!indices.Shape().IsVectorLike() || indices.RequiresIterator() || out.Dtype() != x.Dtype() || overlaps(out, x) {
		return op.SDOp.Do(inputs...)
	}
	idx := indices.Ints()
	shape := x.Shape().Clone()
	shape[0] = len(idx)
	if out.Shape().TotalSize() != shape.TotalSize() {
		return op.SDOp.Do(inputs...)
	}
	if !out.Shape().Eq(shape) {
		// The register may last have held another node's value of the same size.
		if err := out.Reshape(shape...); err != nil {
			return nil, err
		}
	}
	var err error
	switch out.Dtype() {
	case tensor.Float64:
		err = copyRows[float64](out, x, idx)
	case tensor.Float32:
		err = copyRows[float32](out, x, idx)
	default:
		return op.SDOp.Do(inputs...)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	return out, nil
}

// copyRows copies row idx[i] of x into row i of out.
func copyRows[F float32 | float64](out, x *tensor.Dense, idx []int) error {
	o, ok := floats[F](out)
	xs, ok2 := floats[F](x)
	rows := x.Shape()[0]
	if !ok || !ok2 || rows == 0 || len(o) != len(idx)*(len(xs)/rows) {
		return fmt.Errorf("want contiguous tensors of one dtype and of the node's shapes")
	}
	n := len(xs) / rows
	for i, r := range idx {
		if r < 0 || r >= rows {
			return fmt.Errorf("index %d of %d rows", r, rows)
		}
		copy(o[i*n:(i+1)*n], xs[r*n:(r+1)*n])
	}
	return nil
}

// byIndicesOp is the stock forward op with a gradient that can reuse its buffer.
type byIndicesOp struct {
	G.SDOp
	grad byIndicesGradOp
}

func (op byIndicesOp) Hashcode() uint32 { return hashOf(op) }
func (op byIndicesOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.byIndices:")
	op.SDOp.WriteHash(h)
}

// SymDiff is the stock one's (the gradient op applied to x, the output's
// gradient and the indices; none w.r.t. the indices) with our gradient op.
func (op byIndicesOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := G.ApplyOp(op.grad, inputs[0], grad, inputs[1])
	return G.Nodes{d, nil}, err
}

// byIndicesGradOp is the stock gradient op, able to write into a kept buffer.
type byIndicesGradOp struct {
	G.Op
	axis int
}

func (op byIndicesGradOp) Type() hm.Type    { return op.Op.Type() }
func (op byIndicesGradOp) Hashcode() uint32 { return hashOf(op) }
func (op byIndicesGradOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.byIndicesGrad:")
	op.Op.WriteHash(h)
}

// UsePreallocDo zeroes prealloc and scatter-adds the gradient into it, as
// the stock op's Do does into a new zero tensor.
func (op byIndicesGradOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	x, ok1 := inputs[0].(*tensor.Dense)
	grad, ok2 := inputs[1].(*tensor.Dense)
	indices, ok3 := inputs[2].(*tensor.Dense)
	out, ok4 := prealloc.(*tensor.Dense)
	if !ok1 || !ok2 || !ok3 || !ok4 || out.RequiresIterator() || out.Dtype() != x.Dtype() || out.Shape().TotalSize() != x.Shape().TotalSize() {
		return nil, fmt.Errorf("%v: want *tensor.Dense values and a contiguous buffer of x's size, got %T, %T, %T, %T", op, inputs[0], inputs[1], inputs[2], prealloc)
	}
	// The register may last have held another node's value of the same size.
	if err := out.Reshape(x.Shape()...); err != nil {
		return nil, err
	}
	out.Zero()
	return tensor.ByIndicesB(x, grad, indices, op.axis, tensor.WithReuse(out))
}
