package gorgoniax

// Linear(x, w, b) is BroadcastAdd(G.Mul(x, w), b, 0), a linear layer:
//
//	z = x·w + b,   z[r,j] = (x·w)[r,j] + b[j]      x (N, in); w (in, out); b (out); z (N, out)
//
// One op runs Gorgonia's own matrix product (the stock op G.Mul builds,
// into the tape machine's kept buffer as before) and then adds b to each row
// of the product in place. Gradients, given g = ∂L/∂z, are the nodes the two
// ops' gradients build: ∂L/∂x and ∂L/∂w from the stock product's SymDiff
// (g·wᵀ and xᵀ·g), ∂L/∂b = Σ_rows g (Sum). So values and gradients are bit
// for bit the two ops' (TestLinearMatchesMulAndAdd).
//
// Why not the stock ops (or G.Mul and BroadcastAdd)? Two ops, two passes:
// the bias add reads back the product from a register after the product is
// done. Here it runs on the product while it is still in cache, and the
// tape has one instruction less per layer.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Linear returns x·w + b, b repeated down the rows.
func Linear(x, w, b *G.Node) (*G.Node, error) {
	if x.Dims() != 2 || w.Dims() != 2 || b.Dims() != 1 {
		return nil, fmt.Errorf("Linear: shapes %v, %v, %v: want x (N, in), w (in, out), b (out)", x.Shape(), w.Shape(), b.Shape())
	}
	g := G.NewGraph()
	standIn := func(n *G.Node) *G.Node { return G.NewTensor(g, n.Dtype(), 2, G.WithShape(n.Shape()...)) }
	xw, err := G.Mul(standIn(x), standIn(w))
	if err != nil {
		return nil, err
	}
	mul, ok := xw.Op().(stockProduct)
	if !ok {
		return nil, fmt.Errorf("Linear: the product %v is not differentiable or cannot write into a kept buffer", xw.Op())
	}
	return G.ApplyOp(linearOp{mul}, x, w, b)
}

// stockProduct is what linearOp needs of the op G.Mul builds.
type stockProduct interface {
	G.SDOp
	G.UsePreallocDoer
}

// linearOp is the stock product followed by the bias add.
type linearOp struct{ mul stockProduct }

func (op linearOp) Arity() int { return 3 }

func (op linearOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	return hm.NewFnType(m, m, G.TensorType{Dims: 1, Of: a}, m)
}

func (op linearOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	s, err := op.mul.InferShape(inputs[0], inputs[1])
	if b, ok := inputs[2].(tensor.Shape); err == nil && (!ok || len(s) != 2 || !b.Eq(tensor.Shape{s[1]})) {
		err = fmt.Errorf("%v: bias shape %v for a product of shape %v", op, inputs[2], s)
	}
	return s, err
}

func (op linearOp) Do(inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	xw, err := op.mul.Do(inputs[0], inputs[1])
	if err != nil {
		return nil, err
	}
	return op.addBias(xw, inputs[2])
}

// UsePreallocDo has the stock product write into prealloc, which the tape
// machine keeps across runs, and adds the bias there.
func (op linearOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	xw, err := op.mul.UsePreallocDo(prealloc, inputs[0], inputs[1])
	if err != nil {
		return nil, err
	}
	return op.addBias(xw, inputs[2])
}

// addBias adds b to each row of xw in place, as BroadcastAdd(xw, b, 0) does.
func (op linearOp) addBias(xw, b G.Value) (G.Value, error) {
	out, ok := xw.(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: product %T", op, xw)
	}
	return byDtype(op, out,
		func() error { return addRows[float64](op, out, b) },
		func() error { return addRows[float32](op, out, b) })
}

func addRows[F float32 | float64](op linearOp, out *tensor.Dense, b G.Value) error {
	o, ok := floats[F](out)
	bs, ok2 := floats[F](b)
	if !ok || !ok2 || len(bs) == 0 || len(o)%len(bs) != 0 {
		return fmt.Errorf("%v: want contiguous %T tensors of the node's shapes", op, o)
	}
	tileKernel(addKind, o, o, bs, nil, len(bs))
	return nil
}

func (op linearOp) ReturnsPtr() bool      { return false }
func (op linearOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op linearOp) OverwritesInput() int  { return -1 }
func (op linearOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.linear:"); op.mul.WriteHash(h) }
func (op linearOp) Hashcode() uint32      { return hashOf(op) }
func (op linearOp) String() string        { return fmt.Sprintf("linear(%v, +bias)", op.mul) }

func (op linearOp) DiffWRT(inputs int) []bool { return []bool{true, true, true} }

// SymDiff builds the stock product's gradients and Σ_rows g for the bias.
func (op linearOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := op.mul.SymDiff(inputs[:2], output, grad)
	if err != nil {
		return nil, err
	}
	db, err := sumAlong(grad, []int{0}, inputs[2].Shape())
	return G.Nodes{d[0], d[1], db}, err
}
