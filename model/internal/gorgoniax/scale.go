package gorgoniax

// Scale(x, c) is G.Mul(x, c) for a constant scalar c (made with ScalarOf, so
// float32(c) in a float32 graph): x[i] · c, and the gradient g[i] · c, each
// one op writing into a kept buffer. Gorgonia computes the gradient as c · g,
// the same product (IEEE multiplication commutes exactly), so values and
// gradients are bit for bit the stock ones (TestScaleMatchesGorgonia).
//
// Why not the stock op? A tensor times a scalar goes through tensor's
// MulScalar, which clones x into a fresh tensor on every run, and its
// SymDiff also builds the gradient with respect to the constant, Σ(x ⊙ g):
// a product and a sum over all of x, which nothing reads but the tape
// machine computes on every run. The attention scores' 1/sqrt(d_k) and the
// embedding's sqrt(d_model) paid both.

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Scale returns x · c.
func Scale(x *G.Node, c float64) (*G.Node, error) {
	return G.ApplyOp(scaleOp{c: c, dims: x.Dims()}, x)
}

type scaleOp struct {
	c    float64
	dims int
}

func (op scaleOp) Arity() int { return 1 }

func (op scaleOp) Type() hm.Type {
	t := G.TensorType{Dims: op.dims, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}

func (op scaleOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	s, ok := inputs[0].(tensor.Shape)
	if len(inputs) != 1 || !ok || len(s) != op.dims {
		return nil, fmt.Errorf("%v: input shapes %v", op, inputs)
	}
	return s.Clone(), nil
}

func (op scaleOp) Do(inputs ...G.Value) (G.Value, error) { return doLikeFirst(op, inputs) }

// UsePreallocDo writes into prealloc, which the tape machine keeps across
// runs; prealloc may be x itself (the op overwrites a dead input).
func (op scaleOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, x, err := resultLikeFirst(op, 1, prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return byDtype(op, out,
		func() error { return scale(op, out, x, op.c) },
		func() error { return scale(op, out, x, float32(op.c)) })
}

func scale[F float32 | float64](op scaleOp, out, x *tensor.Dense, c F) error {
	o, ok := floats[F](out)
	xs, ok2 := floats[F](x)
	if !ok || !ok2 || len(o) != len(xs) {
		return fmt.Errorf("%v: want contiguous tensors of one dtype and size", op)
	}
	for i, v := range xs {
		o[i] = v * c
	}
	return nil
}

func (op scaleOp) ReturnsPtr() bool     { return false }
func (op scaleOp) CallsExtern() bool    { return true } // makes the tape machine preallocate the output
func (op scaleOp) OverwritesInput() int { return 0 }
func (op scaleOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "gorgoniax.scale(%x, %d)", math.Float64bits(op.c), op.dims)
}
func (op scaleOp) Hashcode() uint32 { return hashOf(op) }
func (op scaleOp) String() string   { return fmt.Sprintf("scale(%v)", op.c) }

func (op scaleOp) DiffWRT(inputs int) []bool { return []bool{true} }

// SymDiff is g · c.
func (op scaleOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	d, err := Scale(grad, op.c)
	return G.Nodes{d}, err
}
