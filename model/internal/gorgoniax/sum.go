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
// tensor of two or more axes. tensor v0.9.24 (StdEng.OptimizedReduce and
// internal/execution/generic_reduce.go) sums
//
//	the last axis:   s = ((0 + x_0) + x_1) + ... + x_{n-1}     (SumF64, from 0)
//	the first axis:  s = (x_0 + x_1) + ... + x_{n-1}            (reduceFirstF64: a copy of
//	                 row 0, then VecAdd of each next row, vecf64.Add: a[i] = a[i] + b[i])
//	axis 1 of 3+:    s = (x_0 + x_1) + ... + x_{n-1}            (reduceDefaultF64, per block of axis 0)
//
// and sumIntoOp adds the same numbers in the same order (0 + x_0 is not
// always x_0: it turns -0 into +0), so the sums are bit for bit the stock
// ones (TestSumMatchesGorgonia, TestSumIntoMatchesStockDo, signed zeros
// included). It sums several rows side by side, each row's additions still
// one after another, and writes into a kept buffer. Other axes (the third of
// four, where tensor's reduceDefault has its own index arithmetic) keep the
// stock sum.
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
	"gorgonia.org/tensor"
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
	if x.Dims() >= 2 && (axis <= 1 || axis == x.Dims()-1) {
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
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", op, len(inputs))
	}
	shape, err := op.InferShape(inputs[0].Shape())
	if err != nil {
		return nil, err
	}
	return op.sumInto(tensor.New(tensor.Of(inputs[0].Dtype()), tensor.WithShape(shape...)), inputs[0])
}

// UsePreallocDo sums into prealloc, which the tape machine keeps across runs.
// A buffer that cannot hold the sum (the stock machine may offer x itself)
// is left alone, and the sum goes into a fresh one, as Do does.
func (op sumIntoOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	out, ok := prealloc.(*tensor.Dense)
	if len(inputs) != 1 || !ok || out.Dtype() != inputs[0].Dtype() || overlaps(out, inputs[0]) ||
		out.Shape().TotalSize()*inputs[0].Shape()[op.axis] != inputs[0].Shape().TotalSize() {
		return op.Do(inputs...)
	}
	shape, err := op.InferShape(inputs[0].Shape())
	if err != nil {
		return nil, err
	}
	if !out.Shape().Eq(shape) {
		// The register may last have held another node's value of the same size.
		if err := out.Reshape(shape...); err != nil {
			return nil, fmt.Errorf("%v: result %v for %v: %w", op, out.Shape(), shape, err)
		}
	}
	return op.sumInto(out, inputs[0])
}

// overlaps reports whether a and b start at the same entry.
func overlaps(a, b G.Value) bool {
	x, ok := a.(*tensor.Dense)
	y, ok2 := b.(*tensor.Dense)
	return ok && ok2 && x.Uintptr() == y.Uintptr()
}

// sumInto sums x along op.axis into out, which has the sum's shape.
func (op sumIntoOp) sumInto(out *tensor.Dense, x G.Value) (G.Value, error) {
	xs := x.Shape()
	if len(xs) < 2 || op.axis >= len(xs) {
		return nil, fmt.Errorf("%v: input shape %v", op, xs)
	}
	outer, inner := xs[:op.axis].TotalSize(), xs[op.axis+1:].TotalSize()
	var ok bool
	switch out.Dtype() {
	case tensor.Float64:
		ok = sumAxis[float64](out, x, outer, xs[op.axis], inner, op.axis == len(xs)-1)
	case tensor.Float32:
		ok = sumAxis[float32](out, x, outer, xs[op.axis], inner, op.axis == len(xs)-1)
	}
	if !ok {
		return nil, fmt.Errorf("%v: want contiguous float tensors of one dtype, got %v and %v", op, out.Dtype(), x.Dtype())
	}
	return out, nil
}

// sumAxis sums x, outer blocks of n rows of inner entries, over its rows,
// into out, outer blocks of inner entries: in SumF64's order if last (the
// summed axis is x's last, inner is 1), in reduceFirstF64's otherwise.
func sumAxis[F float32 | float64](out *tensor.Dense, x G.Value, outer, n, inner int, last bool) bool {
	o, ok := floats[F](out)
	xs, ok2 := floats[F](x)
	if !ok || !ok2 || len(o) != outer*inner || len(xs) != len(o)*n {
		return false
	}
	if last {
		sumRows(o, xs, n)
		return true
	}
	for b := 0; b < outer; b++ {
		sumColumns(o[b*inner:(b+1)*inner], xs[b*n*inner:(b+1)*n*inner])
	}
	return true
}

// sumRows sets out[r] = ((0 + x[r,0]) + x[r,1]) + ... for rows of n entries,
// SumF64's order. Four rows run side by side, so that their additions
// overlap in the processor; each row's still run one after another.
func sumRows[F float32 | float64](out, x []F, n int) {
	r := 0
	for ; r+4 <= len(out); r += 4 {
		a := x[r*n : (r+1)*n]
		b, c, d := x[(r+1)*n : (r+2)*n][:len(a)], x[(r+2)*n : (r+3)*n][:len(a)], x[(r+3)*n : (r+4)*n][:len(a)]
		var s0, s1, s2, s3 F
		for i, v := range a {
			s0 += v
			s1 += b[i]
			s2 += c[i]
			s3 += d[i]
		}
		out[r], out[r+1], out[r+2], out[r+3] = s0, s1, s2, s3
	}
	for ; r < len(out); r++ {
		var s F
		for _, v := range x[r*n : (r+1)*n] {
			s += v
		}
		out[r] = s
	}
}

// sumColumns sets out = x[0] + x[1] + ..., x rows of len(out) entries added
// in order, reduceFirstF64's order: a copy of row 0, then each next row added
// entry by entry. Three rows go in per pass, ((s + a) + b) + c (Go adds left
// to right and never reassociates).
func sumColumns[F float32 | float64](out, x []F) {
	m := len(out)
	if m == 0 {
		return
	}
	n := len(x) / m
	copy(out, x[:m])
	k := 1
	for ; k+3 <= n; k += 3 {
		a := x[k*m : (k+1)*m][:m]
		b, c := x[(k+1)*m : (k+2)*m][:m], x[(k+2)*m : (k+3)*m][:m]
		for j, s := range out {
			out[j] = s + a[j] + b[j] + c[j]
		}
	}
	for ; k < n; k++ {
		a := x[k*m : (k+1)*m][:m]
		for j, s := range out {
			out[j] = s + a[j]
		}
	}
}
