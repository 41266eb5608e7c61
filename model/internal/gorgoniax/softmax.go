package gorgoniax

// SoftmaxRows(shifted, e, inv, axis) is BroadcastMul(e, inv, axis), the last
// step of a softmax along the last axis built from elementary ops,
//
//	e = Unary(G.Exp, shifted)   s = Sum(e, axis)   inv = Unary(G.Inverse, s)
//	w = e ⊙ inv                 (inv repeated along the axis)
//
// with one change: the gradient with respect to shifted is one op, and e and
// inv get none of their own. Given g = ∂L/∂w, per row (j) of the axis (i):
//
//	dinv_j = Σ_i e_i·g_i                      BroadcastMul's ∂/∂y, summed as G.Sum sums a row
//	ds_j   = (-(inv_j·inv_j))·dinv_j           Inverse's gradient
//	de_i   = g_i·inv_j + ds_j                  BroadcastMul's ∂/∂x plus Sum's repeated gradient
//	dsh_i  = e_i·de_i                          Exp's gradient
//
// These are the stock graph's nodes, operation for operation: the same
// products and sums of the same numbers in the same order (a row's sum is
// tensor's SumF64/SumF32, from 0, first entry first; e's two gradient terms
// are added once, and a sum of two commutes). Go may fuse x·y + z into one
// FMA on some architectures (arm64), which rounds once; the conversions
// F(x·y) below forbid that, as the stock ops, separate loops, never fuse.
// So ∂L/∂shifted is bit for bit the stock one (TestSoftmaxRowsMatchesStock).
//
// Why not the stock ops? That gradient took six passes over the attention
// weights' (B, H, T, T) tensors, each writing a tensor of that size, plus a
// sum over them: BroadcastMul's two products, the sum, the repeat of Sum's
// gradient, the addition of e's two terms and Exp's product. This op reads
// each row twice while it is in cache and writes dsh once.
//
// e and inv must be what the formulas above say, and used nowhere else that
// is differentiated: their gradients through this op are not built.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// SoftmaxRows returns e ⊙ inv, inv repeated along axis, the last axis.
func SoftmaxRows(shifted, e, inv *G.Node, axis int) (*G.Node, error) {
	if axis != e.Dims()-1 || !shifted.Shape().Eq(e.Shape()) {
		return nil, fmt.Errorf("SoftmaxRows: axis %d of shapes %v and %v: the last axis of one shape", axis, shifted.Shape(), e.Shape())
	}
	plan, err := broadcastPlan(e.Shape(), inv.Shape(), []int{axis})
	if err != nil {
		return nil, err
	}
	return G.ApplyOp(softmaxRowsOp{broadcastOp{kind: mulKind, axes: []int{axis}, dims: e.Dims(), ydims: inv.Dims(), plan: plan}}, shifted, e, inv)
}

// softmaxRowsOp is broadcastOp's e ⊙ inv with shifted as a first input,
// differentiated in its place.
type softmaxRowsOp struct{ mul broadcastOp }

func (op softmaxRowsOp) Arity() int { return 3 }
func (op softmaxRowsOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	x, y := G.TensorType{Dims: op.mul.dims, Of: a}, G.TensorType{Dims: op.mul.ydims, Of: a}
	return hm.NewFnType(x, x, y, x)
}

func (op softmaxRowsOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	return op.mul.InferShape(inputs[1:]...)
}

func (op softmaxRowsOp) Do(inputs ...G.Value) (G.Value, error) { return op.mul.Do(inputs[1:]...) }
func (op softmaxRowsOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return op.mul.UsePreallocDo(prealloc, inputs[1:]...)
}
func (op softmaxRowsOp) ReturnsPtr() bool      { return false }
func (op softmaxRowsOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op softmaxRowsOp) OverwritesInput() int  { return -1 }   // e is read again by the gradient
func (op softmaxRowsOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op softmaxRowsOp) Hashcode() uint32      { return hashOf(op) }
func (op softmaxRowsOp) String() string        { return fmt.Sprintf("softmaxRows(%v)", op.mul) }

func (op softmaxRowsOp) DiffWRT(inputs int) []bool { return []bool{true, false, false} }

// SymDiff is the one op computing dsh from e, inv and g.
func (op softmaxRowsOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := G.ApplyOp(softmaxGradOp{op.mul}, inputs[1], inputs[2], grad)
	return G.Nodes{d, nil, nil}, err
}

// softmaxGradOp computes dsh from (e, inv, g).
type softmaxGradOp struct{ mul broadcastOp }

func (op softmaxGradOp) Arity() int { return 3 }
func (op softmaxGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	x, y := G.TensorType{Dims: op.mul.dims, Of: a}, G.TensorType{Dims: op.mul.ydims, Of: a}
	return hm.NewFnType(x, y, x, x)
}

func (op softmaxGradOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	s, err := op.mul.InferShape(inputs[0], inputs[1])
	if g, ok := inputs[2].(tensor.Shape); err == nil && (!ok || !g.Eq(s)) {
		err = fmt.Errorf("%v: gradient shape %v for %v", op, inputs[2], s)
	}
	return s, err
}

func (op softmaxGradOp) Do(inputs ...G.Value) (G.Value, error) {
	e, ok := inputs[0].(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: want a *tensor.Dense, got %T", op, inputs[0])
	}
	return op.UsePreallocDo(tensor.New(tensor.Of(e.Dtype()), tensor.WithShape(e.Shape().Clone()...)), inputs...)
}

// UsePreallocDo writes into prealloc, which the tape machine keeps across
// runs; prealloc may be g itself (the op overwrites a dead input).
func (op softmaxGradOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, ok := prealloc.(*tensor.Dense)
	e, ok2 := inputs[0].(*tensor.Dense)
	if !ok || !ok2 || len(inputs) != 3 {
		return nil, fmt.Errorf("%v: result %T, %d inputs", op, prealloc, len(inputs))
	}
	if !out.Shape().Eq(e.Shape()) {
		// The register may last have held another node's value of the same size.
		if err := out.Reshape(e.Shape()...); err != nil {
			return nil, fmt.Errorf("%v: result %v for %v: %w", op, out.Shape(), e.Shape(), err)
		}
	}
	var err error
	switch out.Dtype() {
	case tensor.Float64:
		err = softmaxGrad[float64](op, out, inputs)
	case tensor.Float32:
		err = softmaxGrad[float32](op, out, inputs)
	default:
		err = fmt.Errorf("%v: unsupported dtype %v", op, out.Dtype())
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func softmaxGrad[F float32 | float64](op softmaxGradOp, out *tensor.Dense, inputs []G.Value) error {
	o, ok := floats[F](out)
	e, ok1 := floats[F](inputs[0])
	inv, ok2 := floats[F](inputs[1])
	g, ok3 := floats[F](inputs[2])
	n := op.mul.plan[len(op.mul.plan)-1].n // a row: the last axis
	if !ok || !ok1 || !ok2 || !ok3 || len(e) != len(o) || len(g) != len(o) || len(inv)*n != len(o) {
		return fmt.Errorf("%v: want contiguous tensors of one dtype and of the node's shapes", op)
	}
	for r, s := range inv {
		row, er, gr := o[r*n:(r+1)*n], e[r*n:(r+1)*n], g[r*n:(r+1)*n]
		var dinv F
		for i, v := range er {
			dinv += F(v * gr[i])
		}
		sq := s * s
		ds := F((-sq) * dinv) // F(): not fused into the additions below
		for i, v := range gr {
			row[i] = er[i] * (F(v*s) + ds)
		}
	}
	return nil
}

func (op softmaxGradOp) ReturnsPtr() bool      { return false }
func (op softmaxGradOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op softmaxGradOp) OverwritesInput() int  { return 2 }    // each g_i is read before dsh_i is written
func (op softmaxGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op softmaxGradOp) Hashcode() uint32      { return hashOf(op) }
func (op softmaxGradOp) String() string        { return fmt.Sprintf("softmaxGrad(%v)", op.mul) }

func (op softmaxGradOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }
func (op softmaxGradOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v is not differentiable", op)
}
