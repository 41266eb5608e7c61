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
	return newLinear(linearOp{bias: true}, x, w, b)
}

// newLinear checks the shapes of x (N, in), w (in, out) and the 1-D operands
// (b, out entries) and applies op with Gorgonia's product of x and w.
func newLinear(op linearOp, x, w *G.Node, rest ...*G.Node) (*G.Node, error) {
	if x.Dims() != 2 || w.Dims() != 2 || op.bias && rest[0].Dims() != 1 {
		return nil, fmt.Errorf("%v: shapes %v, %v, %v: want x (N, in), w (in, out), b (out)", op, x.Shape(), w.Shape(), G.Nodes(rest))
	}
	g := G.NewGraph()
	standIn := func(n *G.Node) *G.Node { return G.NewTensor(g, n.Dtype(), 2, G.WithShape(n.Shape()...)) }
	xw, err := G.Mul(standIn(x), standIn(w))
	if err != nil {
		return nil, err
	}
	var ok bool
	if op.mul, ok = xw.Op().(stockProduct); !ok {
		return nil, fmt.Errorf("%v: the product %v is not differentiable or cannot write into a kept buffer", op, xw.Op())
	}
	return G.ApplyOp(op, append([]*G.Node{x, w}, rest...)...)
}

// stockProduct is what linearOp needs of the op G.Mul builds.
type stockProduct interface {
	G.SDOp
	G.UsePreallocDoer
}

// linearOp is the stock product followed by the bias add, the residual add
// (residual.go), or both: inputs x, w, then b if bias, then r if residual.
type linearOp struct {
	mul            stockProduct
	bias, residual bool
}

func (op linearOp) Arity() int { return 2 + btoi(op.bias) + btoi(op.residual) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (op linearOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m := G.TensorType{Dims: 2, Of: a}
	types := []hm.Type{m, m}
	if op.bias {
		types = append(types, G.TensorType{Dims: 1, Of: a})
	}
	if op.residual {
		types = append(types, m)
	}
	return hm.NewFnType(append(types, m)...)
}

func (op linearOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	s, err := op.mul.InferShape(inputs[0], inputs[1])
	if err != nil || len(s) != 2 {
		return s, err
	}
	for i, in := range inputs[2:] {
		want := s
		if i == 0 && op.bias {
			want = tensor.Shape{s[1]}
		}
		if got, ok := in.(tensor.Shape); !ok || !got.Eq(want) {
			return nil, fmt.Errorf("%v: operand shape %v for a product of shape %v", op, in, s)
		}
	}
	return s, nil
}

func (op linearOp) Do(inputs ...G.Value) (G.Value, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	xw, err := op.mul.Do(inputs[0], inputs[1])
	if err != nil {
		return nil, err
	}
	return op.addOperands(xw, inputs[2:])
}

// UsePreallocDo has the stock product write into prealloc, which the tape
// machine keeps across runs, and adds the bias and residual there.
func (op linearOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	xw, err := op.mul.UsePreallocDo(prealloc, inputs[0], inputs[1])
	if err != nil {
		return nil, err
	}
	return op.addOperands(xw, inputs[2:])
}

// addOperands adds b to each row of xw and then r, in place, as
// BroadcastAdd(xw, b, 0) and then G.Add(r, ·) do.
func (op linearOp) addOperands(xw G.Value, operands []G.Value) (G.Value, error) {
	out, ok := xw.(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: product %T", op, xw)
	}
	return byDtype(op, out,
		func() error { return addOperands[float64](op, out, operands) },
		func() error { return addOperands[float32](op, out, operands) })
}

func addOperands[F float32 | float64](op linearOp, out *tensor.Dense, operands []G.Value) error {
	o, ok := floats[F](out)
	var b, r []F
	if op.bias {
		b, ok = floats[F](operands[0])
		ok = ok && len(b) > 0 && len(o)%len(b) == 0
	}
	if op.residual {
		var ok2 bool
		r, ok2 = floats[F](operands[len(operands)-1])
		ok = ok && ok2 && len(r) == len(o)
	}
	if !ok {
		return fmt.Errorf("%v: want contiguous %T tensors of the node's shapes", op, o)
	}
	switch {
	case op.bias && op.residual:
		addBiasAndResidual(o, b, r)
	case op.bias:
		tileKernel(addKind, o, o, b, nil, len(b), 0)
	case op.residual:
		addResidual(o, r)
	}
	return nil
}

func (op linearOp) ReturnsPtr() bool     { return false }
func (op linearOp) CallsExtern() bool    { return true } // makes the tape machine preallocate the output
func (op linearOp) OverwritesInput() int { return -1 }
func (op linearOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "gorgoniax.linear(%t,%t):", op.bias, op.residual)
	op.mul.WriteHash(h)
}
func (op linearOp) Hashcode() uint32 { return hashOf(op) }
func (op linearOp) String() string {
	return fmt.Sprintf("linear(%v%s%s)", op.mul, map[bool]string{true: ", +bias"}[op.bias], map[bool]string{true: ", +residual"}[op.residual])
}

func (op linearOp) DiffWRT(inputs int) []bool {
	d := make([]bool, inputs)
	for i := range d {
		d[i] = true
	}
	return d
}

// SymDiff builds the stock product's gradients, Σ_rows g for the bias and
// g itself for the residual (G.Add's gradient).
func (op linearOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := op.mul.SymDiff(inputs[:2], output, grad)
	if err != nil {
		return nil, err
	}
	if op.bias {
		db, err := sumAlong(grad, []int{0}, inputs[2].Shape())
		if err != nil {
			return nil, err
		}
		d = append(d, db)
	}
	if op.residual {
		d = append(d, grad)
	}
	return d, nil
}
