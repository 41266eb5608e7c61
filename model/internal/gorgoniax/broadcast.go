package gorgoniax

// BroadcastAdd(x, y, axes...) and BroadcastMul(x, y, axes...) are
// G.BroadcastAdd and G.BroadcastHadamardProd(x, y, nil, axes): y, which lacks
// x's axes `axes`, is repeated along them to x's shape and added to or
// multiplied into x. Here one op reads y's entry for each of x's by its index
// and writes x + y or x ⊙ y into a kept buffer: the repeated y is never made.
//
//	z[i] = x[i] + y[j]    or    z[i] = x[i] · y[j],   j = i without the axes `axes`
//
// Gradients, given g = ∂L/∂z, built as G.Broadcast*'s graph builds them:
//
//	add: ∂L/∂x = g                   ∂L/∂y = Σ_axes g
//	mul: ∂L/∂x = g ⊙ y (this op)     ∂L/∂y = Σ_axes (x ⊙ g)
//
// Σ_axes is G.Sum along each axis, the last first, and a reshape to y's shape
// where y has size-1 axes: the nodes the stock repeats' gradients chain (Sum,
// sum.go, which sums in G.Sum's order into a kept buffer). Along one column
// axis (the first, or the second of three or more), mul's Σ_axes (x ⊙ g) is
// SumOfProducts (sumproducts.go): the same products and sums in one pass,
// the product never written. The stock mul gradient ∂L/∂x is repeat(y) ⊙ g;
// this op computes g[i] · y[j], the same product of the same two numbers
// (IEEE multiplication commutes exactly). So values and gradients are bit
// for bit the stock ones (TestBroadcastMatchesGorgonia, both dtypes, every
// axis pattern the model uses, odd sizes).
//
// Why not the stock ops? G.Broadcast* reshape y and materialise its repeat
// (repeatOp: a strided copy into a fresh tensor, one number at a time along
// the last axis), then run an element-wise op over two x-sized tensors. The
// copy loop that replaced repeatOp (repeat.go) still wrote and read that
// x-sized repeat: about a tenth of a training step, for a copy that computes
// nothing.
//
// BroadcastAddData is BroadcastAdd for a y that is data fed to the graph and
// never differentiated (the attention mask). The stock graph builds no
// gradient for it, because its repeat is not on a path from a weight; this op
// cannot tell, so it is told, and declares y non-differentiable instead of
// building a gradient that nothing reads.

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// BroadcastAdd returns x + y, y repeated along x's axes `axes` (ascending).
func BroadcastAdd(x, y *G.Node, axes ...int) (*G.Node, error) {
	return broadcast(broadcastOp{kind: addKind, axes: axes, yGrad: true}, x, y)
}

// BroadcastMul returns x ⊙ y, y repeated along x's axes `axes` (ascending).
func BroadcastMul(x, y *G.Node, axes ...int) (*G.Node, error) {
	return broadcast(broadcastOp{kind: mulKind, axes: axes, yGrad: true}, x, y)
}

// BroadcastAddData is BroadcastAdd for a y that is never differentiated.
func BroadcastAddData(x, y *G.Node, axes ...int) (*G.Node, error) {
	return broadcast(broadcastOp{kind: addKind, axes: axes}, x, y)
}

func broadcast(op broadcastOp, x *G.Node, operands ...*G.Node) (*G.Node, error) {
	op.dims = x.Dims()
	op.ydims = operands[0].Dims()
	var err error
	if op.plan, err = broadcastPlan(x.Shape(), operands[0].Shape(), op.axes); err != nil {
		return nil, err
	}
	return G.ApplyOp(op, append([]*G.Node{x}, operands...)...)
}

// broadcastKind is what a broadcastOp computes from x[i] and the broadcast
// operands' entries y[j] (and z[j]).
type broadcastKind byte

const (
	addKind      broadcastKind = iota // x + y
	mulKind                           // x · y
	maxGradKind                       // z · (x == y ? 1 : 0), max.go
	scaleAddKind                      // F(x · c) + y, scaleadd.go
)

var kindNames = [...]string{addKind: "+", mulKind: "⊙", maxGradKind: "maxGrad", scaleAddKind: "scale+"}

// broadcastOp applies kind to x and operands of y's shape read by broadcasting.
type broadcastOp struct {
	kind        broadcastKind
	axes        []int // x's axes the operands lack (or have with size 1), ascending
	dims, ydims int
	yGrad       bool    // y is differentiated (add and mul)
	plan        []block // x's shape in blocks, from broadcastPlan
	c           float64 // scaleAddKind's factor, float32(c) in a float32 graph
}

func (op broadcastOp) Arity() int {
	if op.kind == maxGradKind {
		return 3
	}
	return 2
}

func (op broadcastOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	x, y := G.TensorType{Dims: op.dims, Of: a}, G.TensorType{Dims: op.ydims, Of: a}
	if op.kind == maxGradKind {
		return hm.NewFnType(x, y, y, x)
	}
	return hm.NewFnType(x, y, x)
}

func (op broadcastOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	if len(inputs) != op.Arity() {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	xs, ok := inputs[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("%v: input shape %v", op, inputs[0])
	}
	for _, in := range inputs[1:] {
		ys, ok := in.(tensor.Shape)
		if !ok {
			return nil, fmt.Errorf("%v: input shape %v", op, in)
		}
		if _, err := broadcastPlan(xs, ys, op.axes); err != nil {
			return nil, err
		}
	}
	return xs.Clone(), nil
}

func (op broadcastOp) Do(inputs ...G.Value) (G.Value, error) { return doLikeFirst(op, inputs) }

// UsePreallocDo writes into prealloc, which the tape machine keeps across
// runs. prealloc may be x itself (the op overwrites a dead input).
func (op broadcastOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, _, err := resultLikeFirst(op, op.Arity(), prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return byDtype(op, out,
		func() error { return run(op, out, inputs, op.c) },
		func() error { return run(op, out, inputs, float32(op.c)) })
}

// run checks that out and the inputs are contiguous tensors of dtype F and
// of the plan's sizes, and applies the op (c is scaleAddKind's factor).
func run[F float32 | float64](op broadcastOp, out *tensor.Dense, inputs []G.Value, c F) error {
	o, ok := floats[F](out)
	first := op.plan[0]
	size, ySize := first.n*first.xSize, first.ySize
	if !first.repeated {
		ySize *= first.n
	}
	if !ok || len(o) != size {
		return fmt.Errorf("%v: result %v %v", op, out.Shape(), out.Dtype())
	}
	var in [3][]F
	for i, v := range inputs {
		want := ySize
		if i == 0 {
			want = size
		}
		if in[i], ok = floats[F](v); !ok || len(in[i]) != want {
			return fmt.Errorf("%v: input %d is not a contiguous %T tensor of the node's shape", op, i, o)
		}
	}
	apply(op.kind, op.plan, o, in[0], in[1], in[2], c)
	return nil
}

// floats returns v's entries if v is a contiguous dense tensor of dtype F.
func floats[F float32 | float64](v G.Value) ([]F, bool) {
	t, ok := v.(*tensor.Dense)
	if !ok || t.RequiresIterator() || !t.IsNativelyAccessible() {
		return nil, false
	}
	var d any // Float64s and Float32s read the header; Data allocates
	switch t.Dtype() {
	case tensor.Float64:
		d = t.Float64s()
	case tensor.Float32:
		d = t.Float32s()
	}
	f, ok := d.([]F)
	return f, ok
}

func (op broadcastOp) ReturnsPtr() bool     { return false }
func (op broadcastOp) CallsExtern() bool    { return true } // makes the tape machine preallocate the output
func (op broadcastOp) OverwritesInput() int { return 0 }
func (op broadcastOp) Hashcode() uint32     { return hashOf(op) }
func (op broadcastOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "gorgoniax.broadcast:%v", op)
}
func (op broadcastOp) String() string {
	c := ""
	if op.kind == scaleAddKind {
		c = fmt.Sprintf("c=%v, ", op.c) // %v: the shortest decimal that reads back as c
	}
	return fmt.Sprintf("broadcast%s(%saxes=%v, dims=%d->%d, yGrad=%t)", kindNames[op.kind], c, op.axes, op.ydims, op.dims, op.yGrad)
}

func (op broadcastOp) DiffWRT(inputs int) []bool {
	if op.kind == maxGradKind {
		return make([]bool, inputs)
	}
	return []bool{true, op.yGrad}
}

// SymDiff builds the gradients of the comment at the top of this file.
func (op broadcastOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	if op.kind == maxGradKind || len(inputs) != 2 {
		return nil, fmt.Errorf("%v is not differentiable", op)
	}
	if op.kind == scaleAddKind {
		return scaleAddDiff(op, grad)
	}
	x, y := inputs[0], inputs[1]
	if op.kind == addKind {
		if !op.yGrad {
			return G.Nodes{grad, nil}, nil
		}
		dy, err := sumAlong(grad, op.axes, y.Shape())
		return G.Nodes{grad, dy}, err
	}
	dx, err := broadcast(broadcastOp{kind: mulKind, axes: op.axes, yGrad: true}, grad, y)
	if err != nil || !op.yGrad {
		return G.Nodes{dx, nil}, err
	}
	dy, err := sumProductsAlong(x, grad, op.axes, y.Shape())
	return G.Nodes{dx, dy}, err
}

// sumAlong sums g along axes, the last first, as the gradients of a chain of
// repeats do, and reshapes the sum to shape if that differs.
func sumAlong(g *G.Node, axes []int, shape tensor.Shape) (*G.Node, error) {
	var err error
	for i := len(axes) - 1; i >= 0; i-- {
		if g, err = Sum(g, axes[i]); err != nil {
			return nil, err
		}
	}
	if g.Shape().Eq(shape) {
		return g, nil
	}
	return G.Reshape(g, shape)
}

// block is a run of adjacent axes of x along which the broadcast operands
// are all repeated or all not: n entries of x, each block of the axes after it.
type block struct {
	n        int
	repeated bool
	xSize    int // entries of x in one step of this block
	ySize    int // entries of y in one step of this block
}

// broadcastPlan checks that y is x's shape without the axes `axes` (or with
// size 1 there) and merges x's axes into blocks, dropping axes of size 1.
func broadcastPlan(xs, ys tensor.Shape, axes []int) ([]block, error) {
	repeated, err := repeatedAxes(xs, axes)
	if err != nil {
		return nil, err
	}
	if !repeatsTo(xs, ys, repeated) || len(axes) == 0 {
		return nil, fmt.Errorf("broadcast: shape %v does not repeat to %v along axes %v", ys, xs, axes)
	}
	plan := mergeBlocks(xs, repeated)
	xSize, ySize := 1, 1
	for i := len(plan) - 1; i >= 0; i-- {
		plan[i].xSize, plan[i].ySize = xSize, ySize
		xSize *= plan[i].n
		if !plan[i].repeated {
			ySize *= plan[i].n
		}
	}
	return plan, nil
}

// repeatedAxes marks the axes of x that are repeated, refusing axes that
// are out of range or not ascending.
func repeatedAxes(xs tensor.Shape, axes []int) ([]bool, error) {
	repeated := make([]bool, len(xs))
	for i, a := range axes {
		if a < 0 || a >= len(xs) || (i > 0 && a <= axes[i-1]) {
			return nil, fmt.Errorf("broadcast: axes %v of shape %v must be ascending axes of it", axes, xs)
		}
		repeated[a] = true
	}
	return repeated, nil
}

// repeatsTo says whether ys is xs without its repeated axes, or xs with
// size 1 on them.
func repeatsTo(xs, ys tensor.Shape, repeated []bool) bool {
	var kept []int
	for i, s := range xs {
		if !repeated[i] {
			kept = append(kept, s)
		}
	}
	same := len(ys) == len(kept)
	for i := 0; same && i < len(ys); i++ {
		same = ys[i] == kept[i]
	}
	withOnes := len(ys) == len(xs)
	for i := 0; withOnes && i < len(ys); i++ {
		withOnes = ys[i] == xs[i] && !repeated[i] || ys[i] == 1 && repeated[i]
	}
	return same || withOnes
}

// mergeBlocks merges runs of adjacent axes that are all repeated or all not
// into one block each, dropping axes of size 1 (one block of 1 if nothing
// is left).
func mergeBlocks(xs tensor.Shape, repeated []bool) []block {
	var plan []block
	for i, s := range xs {
		switch {
		case s == 1:
		case len(plan) > 0 && plan[len(plan)-1].repeated == repeated[i]:
			plan[len(plan)-1].n *= s
		default:
			plan = append(plan, block{n: s, repeated: repeated[i]})
		}
	}
	if len(plan) == 0 {
		plan = []block{{n: 1}}
	}
	return plan
}

// apply computes out = kind(x, y, z) over the blocks: x and out hold the
// blocks' entries, y and z those of the blocks that are not repeated. Blocks
// alternate between repeated and not (broadcastPlan merges the others), so
// the last two are rows of x against one entry of y each (rowsKernel) or
// against the same row of y (tileKernel); blocks before them loop. c is
// scaleAddKind's factor.
func apply[F float32 | float64](kind broadcastKind, plan []block, out, x, y, z []F, c F) {
	if len(plan) > 2 {
		b := plan[0]
		for i := 0; i < b.n; i++ {
			xo, yo := i*b.xSize, 0
			if !b.repeated {
				yo = i * b.ySize
			}
			var zi []F
			if z != nil {
				zi = z[yo : yo+b.ySize]
			}
			apply(kind, plan[1:], out[xo:xo+b.xSize], x[xo:xo+b.xSize], y[yo:yo+b.ySize], zi, c)
		}
		return
	}
	last := plan[len(plan)-1]
	if last.repeated {
		rowsKernel(kind, out, x, y, z, last.n, c)
	} else {
		tileKernel(kind, out, x, y, z, last.n, c)
	}
}

// rowsKernel: x is rows of n entries, y (and z) one entry per row.
func rowsKernel[F float32 | float64](kind broadcastKind, out, x, y, z []F, n int, c F) {
	rows := len(x) / n
	y = y[:rows]
	switch kind {
	case addKind:
		for r, s := range y {
			o, xr := out[r*n:(r+1)*n], x[r*n:(r+1)*n]
			for i, v := range xr {
				o[i] = v + s
			}
		}
	case mulKind:
		for r, s := range y {
			o, xr := out[r*n:(r+1)*n], x[r*n:(r+1)*n]
			for i, v := range xr {
				o[i] = v * s
			}
		}
	case maxGradKind:
		z = z[:rows]
		for r, s := range y {
			o, xr, g := out[r*n:(r+1)*n], x[r*n:(r+1)*n], z[r]
			for i, v := range xr {
				o[i] = g * equal(v, s)
			}
		}
	case scaleAddKind:
		for r, s := range y {
			o, xr := out[r*n:(r+1)*n], x[r*n:(r+1)*n]
			for i, v := range xr {
				o[i] = F(v*c) + s // F(): rounded before the add, never one FMA
			}
		}
	}
}

// tileKernel: x is rows of n entries, each against y's (and z's) n entries.
func tileKernel[F float32 | float64](kind broadcastKind, out, x, y, z []F, n int, c F) {
	y = y[:n]
	switch kind {
	case addKind:
		for xo := 0; xo < len(x); xo += n {
			o, xr := out[xo:xo+n], x[xo:xo+n]
			for i, v := range y {
				o[i] = xr[i] + v
			}
		}
	case mulKind:
		for xo := 0; xo < len(x); xo += n {
			o, xr := out[xo:xo+n], x[xo:xo+n]
			for i, v := range y {
				o[i] = xr[i] * v
			}
		}
	case maxGradKind:
		z = z[:n]
		for xo := 0; xo < len(x); xo += n {
			o, xr := out[xo:xo+n], x[xo:xo+n]
			for i, m := range y {
				o[i] = z[i] * equal(xr[i], m)
			}
		}
	case scaleAddKind:
		for xo := 0; xo < len(x); xo += n {
			o, xr := out[xo:xo+n], x[xo:xo+n]
			for i, v := range y {
				o[i] = F(xr[i]*c) + v // F(): rounded before the add, never one FMA
			}
		}
	}
}

// equal is tensor's Eq with the same-type result: 1 if a == b, else +0
// (without a branch, as rectify.go's step).
func equal[F float32 | float64](a, b F) F {
	var e int64
	if a == b {
		e = 1
	}
	return F(e)
}
