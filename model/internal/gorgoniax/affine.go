package gorgoniax

// Affine(x, gain, bias) is BroadcastAdd(BroadcastMul(x, gain, 0), bias, 0),
// the affine part ending a layer norm: gain and bias repeated down the rows.
//
//	z[r,i] = F(x[r,i] · gain[i]) + bias[i]      x, z (N, d); gain, bias (d)
//
// The product is rounded to F before the addition, as the two ops round it
// (the conversion forbids a fused multiply-add). Gradients, given g = ∂L/∂z,
// are the nodes the two ops' gradients build:
//
//	∂L/∂x    = g ⊙ gain          BroadcastMul's ∂/∂x (a broadcastOp)
//	∂L/∂gain = Σ_rows (x ⊙ g)    BroadcastMul's ∂/∂y, summed without the product (SumOfProducts)
//	∂L/∂bias = Σ_rows g          BroadcastAdd's ∂/∂y (Sum)
//
// So values and gradients are bit for bit the two ops' (TestAffineMatchesBroadcasts).
//
// Why not the stock ops (or the two broadcasts)? Each is a pass over an
// (N, d) tensor: BroadcastMul writes x ⊙ gain, BroadcastAdd reads it back and
// writes the sum. The step is memory-bound in such passes; one op reads x and
// writes z once.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Affine returns x ⊙ gain + bias, gain and bias repeated down x's rows.
func Affine(x, gain, bias *G.Node) (*G.Node, error) {
	if x.Dims() != 2 || gain.Dims() != 1 || bias.Dims() != 1 {
		return nil, fmt.Errorf("Affine: shapes %v, %v, %v: want x (N, d), gain and bias (d)", x.Shape(), gain.Shape(), bias.Shape())
	}
	return G.ApplyOp(affineOp{}, x, gain, bias)
}

// affineOp computes x ⊙ gain + bias for x (N, d), gain and bias (d).
type affineOp struct{}

func (op affineOp) Arity() int { return 3 }

func (op affineOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m, v := G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: 1, Of: a}
	return hm.NewFnType(m, v, v, m)
}

func (op affineOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	x, ok := inputs[0].(tensor.Shape)
	g, ok2 := inputs[1].(tensor.Shape)
	b, ok3 := inputs[2].(tensor.Shape)
	if !ok || !ok2 || !ok3 || len(x) != 2 || !g.Eq(tensor.Shape{x[1]}) || !b.Eq(g) {
		return nil, fmt.Errorf("%v: input shapes %v: want (N, d), (d), (d)", op, inputs)
	}
	return x.Clone(), nil
}

func (op affineOp) Do(inputs ...G.Value) (G.Value, error) { return doLikeFirst(op, inputs) }

// UsePreallocDo writes into prealloc, which the tape machine keeps across
// runs; prealloc may be x itself (the op overwrites a dead input).
func (op affineOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, _, err := resultLikeFirst(op, 3, prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return byDtype(op, out,
		func() error { return affine[float64](op, out, inputs) },
		func() error { return affine[float32](op, out, inputs) })
}

// affine checks that out, x, gain and bias are contiguous tensors of dtype F
// and of the op's shapes, and writes x ⊙ gain + bias into out.
func affine[F float32 | float64](op affineOp, out *tensor.Dense, inputs []G.Value) error {
	o, ok := floats[F](out)
	x, ok2 := floats[F](inputs[0])
	gain, ok3 := floats[F](inputs[1])
	bias, ok4 := floats[F](inputs[2])
	n := len(gain)
	if !ok || !ok2 || !ok3 || !ok4 || len(bias) != n || len(o) != len(x) || n == 0 || len(x)%n != 0 {
		return fmt.Errorf("%v: want contiguous %T tensors of the node's shapes", op, o)
	}
	for xo := 0; xo < len(x); xo += n {
		z, xr := o[xo:xo+n], x[xo:xo+n]
		for i, g := range gain {
			z[i] = F(xr[i]*g) + bias[i]
		}
	}
	return nil
}

func (op affineOp) ReturnsPtr() bool      { return false }
func (op affineOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op affineOp) OverwritesInput() int  { return 0 }    // each x[i] is read before z[i] is written
func (op affineOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.affine") }
func (op affineOp) Hashcode() uint32      { return hashOf(op) }
func (op affineOp) String() string        { return "affine(x⊙gain+bias)" }

func (op affineOp) DiffWRT(inputs int) []bool { return []bool{true, true, true} }

// SymDiff builds the gradients of the comment at the top of this file.
func (op affineOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	x, gain, bias := inputs[0], inputs[1], inputs[2]
	dx, err := BroadcastMul(grad, gain, 0)
	if err != nil {
		return nil, err
	}
	dgain, err := sumProductsAlong(x, grad, []int{0}, gain.Shape())
	if err != nil {
		return nil, err
	}
	dbias, err := sumAlong(grad, []int{0}, bias.Shape())
	return G.Nodes{dx, dgain, dbias}, err
}
