package gorgoniax

// NormalizeRows(x, centred, std, inv) is BroadcastMul(centred, inv, 1), the
// normalising product of a layer norm over the rows of x (N, d) built from
// elementary ops, as model/layernorm.go builds it:
//
//	centred = x + (-Mean(x, 1))                 (BroadcastAdd, Unary Neg, Mean)
//	std     = Sqrt(Mean(Square(centred), 1) + eps)  (MeanOfSquares)
//	inv     = Inverse(std)
//	normed  = centred ⊙ inv                     (this op)
//
// with one change: the gradient with respect to x is one op, and centred,
// std and inv get none of their own. Given dn = ∂L/∂normed, per row (r) of d
// entries (i), the stock graph computes
//
//	dinv   = Σ_i c_i·dn_i                       BroadcastMul's ∂/∂y (G.Sum's row sum, from 0)
//	dstd   = (-(inv·inv))·dinv                  Inverse's gradient
//	dvar   = dstd / (2·std)                     Sqrt's gradient; + eps passes it on
//	dsq    = dvar / d                           Mean's HadamardDiv, then Sum's repeat
//	dc_i   = dn_i·inv + (c_i·2)·dsq             BroadcastMul's ∂/∂x plus Square's gradient
//	dmean  = -(Σ_i dc_i)                        BroadcastAdd's ∂/∂y, then Neg's gradient
//	dx_i   = dc_i + dmean / d                   BroadcastAdd's ∂/∂x plus Mean's repeated gradient
//
// and this op computes the same operations in the same order (each sum of two
// terms commutes; the conversions F(x·y) forbid fused multiply-adds, which
// the stock ops, separate loops, never use). So ∂L/∂x is bit for bit the
// stock one (TestNormalizeRowsMatchesStock).
//
// Why not the stock ops? That gradient took eleven ops writing (N, d)
// tensors and two row sums over them, for each of the model's layer norms.
// This op reads each row twice while it is in cache and writes dx once.
//
// x must feed the layer norm only through centred and the mean, and centred,
// std and inv must be what the formulas say and be used nowhere else that is
// differentiated: their gradients through this op are not built.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// NormalizeRows returns centred ⊙ inv, inv repeated along the rows' axis 1.
func NormalizeRows(x, centred, std, inv *G.Node) (*G.Node, error) {
	if x.Dims() != 2 || !x.Shape().Eq(centred.Shape()) || !std.Shape().Eq(inv.Shape()) {
		return nil, fmt.Errorf("NormalizeRows: shapes %v, %v, %v, %v: want x and centred (N, d), std and inv (N)", x.Shape(), centred.Shape(), std.Shape(), inv.Shape())
	}
	plan, err := broadcastPlan(centred.Shape(), inv.Shape(), []int{1})
	if err != nil {
		return nil, err
	}
	mul := broadcastOp{kind: mulKind, axes: []int{1}, dims: 2, ydims: inv.Dims(), plan: plan}
	return G.ApplyOp(normalizeRowsOp{mul}, x, centred, std, inv)
}

// normalizeRowsOp is broadcastOp's centred ⊙ inv with x and std as further
// inputs, differentiated with respect to x.
type normalizeRowsOp struct{ mul broadcastOp }

func (op normalizeRowsOp) Arity() int { return 4 }
func (op normalizeRowsOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m, v := G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: op.mul.ydims, Of: a}
	return hm.NewFnType(m, m, v, v, m)
}

func (op normalizeRowsOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 4 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	return op.mul.InferShape(inputs[1], inputs[3])
}

func (op normalizeRowsOp) Do(inputs ...G.Value) (G.Value, error) {
	return op.mul.Do(inputs[1], inputs[3])
}
func (op normalizeRowsOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	return op.mul.UsePreallocDo(prealloc, inputs[1], inputs[3])
}
func (op normalizeRowsOp) ReturnsPtr() bool      { return false }
func (op normalizeRowsOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op normalizeRowsOp) OverwritesInput() int  { return -1 }   // the gradient reads every input but x
func (op normalizeRowsOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op normalizeRowsOp) Hashcode() uint32      { return hashOf(op) }
func (op normalizeRowsOp) String() string        { return fmt.Sprintf("normalizeRows(%v)", op.mul) }

func (op normalizeRowsOp) DiffWRT(inputs int) []bool { return []bool{true, false, false, false} }

// SymDiff is the one op computing dx from centred, std, inv and dn.
func (op normalizeRowsOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if len(inputs) != 4 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	d, err := G.ApplyOp(normalizeGradOp{op.mul}, inputs[1], inputs[2], inputs[3], grad)
	return G.Nodes{d, nil, nil, nil}, err
}

// normalizeGradOp computes dx from (centred, std, inv, dn).
type normalizeGradOp struct{ mul broadcastOp }

func (op normalizeGradOp) Arity() int { return 4 }
func (op normalizeGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	m, v := G.TensorType{Dims: 2, Of: a}, G.TensorType{Dims: op.mul.ydims, Of: a}
	return hm.NewFnType(m, v, v, m, m)
}

func (op normalizeGradOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != 4 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	s, err := op.mul.InferShape(inputs[0], inputs[2])
	if dn, ok := inputs[3].(tensor.Shape); err == nil && (!ok || !dn.Eq(s)) {
		err = fmt.Errorf("%v: gradient shape %v for %v", op, inputs[3], s)
	}
	return s, err
}

func (op normalizeGradOp) Do(inputs ...G.Value) (G.Value, error) {
	c, ok := inputs[0].(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("%v: want a *tensor.Dense, got %T", op, inputs[0])
	}
	return op.UsePreallocDo(tensor.New(tensor.Of(c.Dtype()), tensor.WithShape(c.Shape().Clone()...)), inputs...)
}

// UsePreallocDo writes into prealloc, which the tape machine keeps across
// runs; prealloc may be dn itself (the op overwrites a dead input).
func (op normalizeGradOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, ok := prealloc.(*tensor.Dense)
	c, ok2 := inputs[0].(*tensor.Dense)
	if !ok || !ok2 || len(inputs) != 4 {
		return nil, fmt.Errorf("%v: result %T, %d inputs", op, prealloc, len(inputs))
	}
	if !out.Shape().Eq(c.Shape()) {
		// The register may last have held another node's value of the same size.
		if err := out.Reshape(c.Shape()...); err != nil {
			return nil, fmt.Errorf("%v: result %v for %v: %w", op, out.Shape(), c.Shape(), err)
		}
	}
	var err error
	switch out.Dtype() {
	case tensor.Float64:
		err = normalizeGrad[float64](op, out, inputs)
	case tensor.Float32:
		err = normalizeGrad[float32](op, out, inputs)
	default:
		err = fmt.Errorf("%v: unsupported dtype %v", op, out.Dtype())
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func normalizeGrad[F float32 | float64](op normalizeGradOp, out *tensor.Dense, inputs []G.Value) error {
	o, ok := floats[F](out)
	var in [4][]F
	for i, v := range inputs {
		var ok2 bool
		in[i], ok2 = floats[F](v)
		ok = ok && ok2
	}
	c, std, inv, dn := in[0], in[1], in[2], in[3]
	n := op.mul.plan[len(op.mul.plan)-1].n // d, a row
	if !ok || len(c) != len(o) || len(dn) != len(o) || len(inv)*n != len(o) || len(std) != len(inv) {
		return fmt.Errorf("%v: want contiguous tensors of one dtype and of the node's shapes", op)
	}
	size := F(n) // G.SizeOf(1, x), Mean's divisor
	for r, s := range inv {
		row, cr, dr := o[r*n:(r+1)*n], c[r*n:(r+1)*n], dn[r*n:(r+1)*n]
		var dinv F
		for i, v := range cr {
			dinv += F(v * dr[i])
		}
		sq := s * s
		dstd := (-sq) * dinv
		dvar := dstd / (2 * std[r])
		dsq := dvar / size
		var dneg F
		for i, v := range dr {
			dc := F(v*s) + F((cr[i]*2)*dsq)
			row[i] = dc
			dneg += dc
		}
		dmean := (-dneg) / size
		for i, dc := range row {
			row[i] = dc + dmean
		}
	}
	return nil
}

func (op normalizeGradOp) ReturnsPtr() bool      { return false }
func (op normalizeGradOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op normalizeGradOp) OverwritesInput() int  { return 3 }    // each dn_i is read before dx_i is written
func (op normalizeGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "gorgoniax.", op.String()) }
func (op normalizeGradOp) Hashcode() uint32      { return hashOf(op) }
func (op normalizeGradOp) String() string        { return fmt.Sprintf("normalizeGrad(%v)", op.mul) }

func (op normalizeGradOp) DiffWRT(inputs int) []bool { return make([]bool, inputs) }
func (op normalizeGradOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v is not differentiable", op)
}
