package gorgoniax

// The shared shell of the element-wise ops whose result has the shape and
// dtype of their first input (broadcastOp, rectifyOp, scaleOp): Do fills a
// fresh tensor, UsePreallocDo fills the tape machine's kept buffer, and both
// reach the op's loop for the dtype through byDtype.

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// doLikeFirst is Do for such an op: its UsePreallocDo into a new tensor of
// inputs[0]'s shape and dtype.
func doLikeFirst(op G.UsePreallocDoer, inputs []G.Value) (G.Value, error) {
	x, ok := inputs[0].(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: want a *tensor.Dense, got %T", op, inputs[0])
	}
	return op.UsePreallocDo(tensor.New(tensor.Of(x.Dtype()), tensor.WithShape(x.Shape().Clone()...)), inputs...)
}

// resultLikeFirst returns prealloc, reshaped to inputs[0]'s shape, and
// inputs[0], both dense, after checking there are arity inputs. prealloc
// may be an input itself (an op that overwrites a dead one).
func resultLikeFirst(op fmt.Stringer, arity int, prealloc G.Value, inputs []G.Value) (out, x *tensor.Dense, err error) {
	out, ok := prealloc.(*tensor.Dense)
	if !ok || len(inputs) != arity {
		return nil, nil, fmt.Errorf("%v: result %T, %d inputs", op, prealloc, len(inputs))
	}
	if x, ok = inputs[0].(*tensor.Dense); !ok {
		return nil, nil, fmt.Errorf("%v: want a *tensor.Dense, got %T", op, inputs[0])
	}
	if !out.Shape().Eq(x.Shape()) {
		// The register may last have held another node's value of the same size.
		if err := out.Reshape(x.Shape()...); err != nil {
			return nil, nil, fmt.Errorf("%v: result %v for %v: %w", op, out.Shape(), x.Shape(), err)
		}
	}
	return out, x, nil
}

// byDtype runs f64 or f32 by out's dtype and returns out.
func byDtype(op fmt.Stringer, out *tensor.Dense, f64, f32 func() error) (G.Value, error) {
	var err error
	switch out.Dtype() {
	case tensor.Float64:
		err = f64()
	case tensor.Float32:
		err = f32()
	default:
		err = fmt.Errorf("%v: unsupported dtype %v", op, out.Dtype())
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
