package gorgoniax

// Max(x, axis) is G.Max(x, axis): the stock op computing the same maxima,
// with its gradient computed in one loop. Gorgonia's maxOp.SymDiff builds
//
//	∂L/∂x = repeat(g) ⊙ (repeat(max) == x)
//
// with two repeatOps, an Eq returning 1 or 0 and a HadamardProd, four
// x-sized tensors; maxOp here builds one broadcastOp (broadcast.go) that
// computes, for each entry of x, g[j] · (x[i] == max[j] ? 1 : 0): the same
// product of the same two numbers, so the gradient is bit for bit the stock
// one, ties (every entry equal to the maximum gets g) and signed zeros
// included (TestMaxMatchesGorgonia).
//
// Along the first, second or last axis of a tensor of two or more axes, the
// maxima themselves are taken by maxIntoOp: the same comparisons in tensor's
// order, into a kept buffer (reduce.go), so they are bit for bit the stock
// ones (TestMaxMatchesGorgonia, TestReduceIntoMatchesStockDo).
//
// Why not the stock op? The softmax's row maximum (model/softmax.go) is taken
// over every attention row; its gradient's repeats, comparison and product
// took about a tenth of a training step, a repeat through tensor v0.9.24's
// strided copy into a fresh tensor among them. Its Do allocates the maxima
// on every run (reduce.go).

import (
	"fmt"
	"hash"

	G "gorgonia.org/gorgonia"
)

// Max takes x's maximum along one axis.
func Max(x *G.Node, axis int) (*G.Node, error) {
	if axis < 0 || axis >= x.Dims() {
		return nil, fmt.Errorf("Max: axis %d of shape %v", axis, x.Shape())
	}
	standIn := G.NewTensor(G.NewGraph(), x.Dtype(), x.Dims(), G.WithShape(x.Shape()...))
	n, err := G.Max(standIn, axis)
	if err != nil {
		return nil, err
	}
	stock, ok := n.Op().(G.SDOp)
	if !ok {
		return nil, fmt.Errorf("Max: %v is not differentiable", n.Op())
	}
	op := maxOp{SDOp: stock, axis: axis}
	if reducible(x.Dims(), axis) {
		return G.ApplyOp(maxIntoOp{op}, x)
	}
	return G.ApplyOp(op, x)
}

// maxOp is the stock maximum along axis with a gradient in one op.
type maxOp struct {
	G.SDOp
	axis int
}

func (op maxOp) Hashcode() uint32 { return hashOf(op) }
func (op maxOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.max:")
	op.SDOp.WriteHash(h)
}

// SymDiff is g[j] · (x[i] == max[j]), j = i without the axis.
func (op maxOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := broadcast(broadcastOp{kind: maxGradKind, axes: []int{op.axis}}, inputs[0], output, grad)
	return G.Nodes{d}, err
}

// maxIntoOp is maxOp taking maxima in tensor's order into a kept buffer.
type maxIntoOp struct{ maxOp }

func (op maxIntoOp) Hashcode() uint32 { return hashOf(op) }
func (op maxIntoOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.maxInto:")
	op.SDOp.WriteHash(h)
}
func (op maxIntoOp) String() string       { return op.SDOp.String() + " (into a kept buffer)" }
func (op maxIntoOp) ReturnsPtr() bool     { return false }
func (op maxIntoOp) CallsExtern() bool    { return true } // makes the tape machine preallocate the output
func (op maxIntoOp) OverwritesInput() int { return -1 }

func (op maxIntoOp) Do(inputs ...G.Value) (G.Value, error) {
	return reduction{op, op.axis, maxKind}.do(inputs)
}

func (op maxIntoOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return reduction{op, op.axis, maxKind}.usePreallocDo(prealloc, inputs)
}
