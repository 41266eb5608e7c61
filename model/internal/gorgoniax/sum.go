package gorgoniax

// Sum(x, axis) and Mean(x, axis) are G.Sum(x, axis) and G.Mean(x, axis): the
// same values, summed in the same order, with two changes.
//
// The gradient. The stock sumOp's SymDiff reshapes the output's gradient and
// repeats it along the summed axis with Gorgonia's repeatOp; sumOp here builds
// the same reshape and repeats with repeatAlongOp (repeat.go), a copy loop
// that writes into a kept buffer. Repeating copies numbers without
// arithmetic, so the gradient is bit for bit the stock one.
//
// The sum itself (sumIntoOp), along the first, second or last axis of a
// tensor of two or more axes: the same additions in tensor's order, into a
// kept buffer (reduce.go), so the sums are bit for bit the stock ones
// (TestSumMatchesGorgonia, TestReduceIntoMatchesStockDo). Other axes keep
// the stock sum.
//
// Why not the stock op? Its gradient: tensor v0.9.24 repeats through a
// general strided copy (fastCopyDenseRepeat) into a fresh tensor on every
// run; in the gradients of the softmax sums and the layer-norm means it took
// about 9% of a training step's CPU time. Its sum: Dense.Sum allocates the
// result on every run, behind a reflection-driven dispatch, and adds one row
// at a time, the last axis one long chain of dependent additions and the
// first axis through a function call per row; the softmax sums, the layer-norm
// means and the bias gradients (broadcast.go's sumAlong) took 6% of a step.

import (
	"fmt"
	"hash"

	G "gorgonia.org/gorgonia"
)

// Sum sums x along one axis.
func Sum(x *G.Node, axis int) (*G.Node, error) {
	standIn := G.NewTensor(G.NewGraph(), x.Dtype(), x.Dims(), G.WithShape(x.Shape()...))
	n, err := G.Sum(standIn, axis)
	if err != nil {
		return nil, err
	}
	stock, ok := n.Op().(G.SDOp)
	if !ok || axis < 0 || axis >= x.Dims() {
		return nil, fmt.Errorf("Sum: axis %d of shape %v", axis, x.Shape())
	}
	op := sumOp{SDOp: stock, axis: axis}
	if reducible(x.Dims(), axis) {
		return G.ApplyOp(sumIntoOp{op}, x)
	}
	return G.ApplyOp(op, x)
}

// Mean is G.Mean(x, axis) built on Sum: Sum(x, axis) / SizeOf(axis, x).
func Mean(x *G.Node, axis int) (*G.Node, error) {
	s, err := Sum(x, axis)
	if err != nil {
		return nil, err
	}
	return divideByCount(s, x, axis)
}

// divideByCount is G.Mean's division of the sum s of x along axis:
// s / SizeOf(axis, x), the count a one-node ReduceMul.
func divideByCount(s, x *G.Node, axis int) (*G.Node, error) {
	size, err := G.SizeOf(axis, x)
	if err != nil {
		return nil, err
	}
	count, err := G.ReduceMul(G.Nodes{size})
	if err != nil {
		return nil, err
	}
	return G.HadamardDiv(s, count)
}

// sumOp is the stock sum along axis with a gradient that repeats by copying.
type sumOp struct {
	G.SDOp
	axis int
}

func (op sumOp) Hashcode() uint32 { return hashOf(op) }
func (op sumOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.sum:")
	op.SDOp.WriteHash(h)
}

// SymDiff is the stock one's: the gradient reshaped to x's shape with 1 at
// the axis, repeated x's size along it.
func (op sumOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	r, err := repeatTo(grad, inputs[0].Shape(), []int{op.axis})
	return G.Nodes{r}, err
}

// sumIntoOp is sumOp summing in tensor's order into a kept buffer.
type sumIntoOp struct{ sumOp }

func (op sumIntoOp) Hashcode() uint32 { return hashOf(op) }
func (op sumIntoOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.sumInto:")
	op.SDOp.WriteHash(h)
}
func (op sumIntoOp) String() string       { return op.SDOp.String() + " (into a kept buffer)" }
func (op sumIntoOp) ReturnsPtr() bool     { return false }
func (op sumIntoOp) CallsExtern() bool    { return true } // makes the tape machine preallocate the output
func (op sumIntoOp) OverwritesInput() int { return -1 }

func (op sumIntoOp) Do(inputs ...G.Value) (G.Value, error) {
	return reduction{op, op.axis, sumKind}.do(inputs)
}

func (op sumIntoOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return reduction{op, op.axis, sumKind}.usePreallocDo(prealloc, inputs)
}
