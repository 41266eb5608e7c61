package gorgoniax

// Sums and maxima along one axis (sumIntoOp in sum.go, maxIntoOp in max.go)
// computed as tensor v0.9.24 computes them, into a kept buffer. tensor's
// StdEng.OptimizedReduce (internal/execution/generic_reduce.go) reduces
//
//	the last axis:   r = f(...f(f(d, x_0), x_1)..., x_{n-1})    (reduceLast: SumF64 from d = 0;
//	                                                           SliceMaxF64 from d = x_0, over x_1...)
//	the first axis:  r = x_0, then r = g(r, x_k) for k = 1...    (reduceFirst: a copy of row 0, then
//	                                                           VecAddF64 / VecMaxF64 with each next row)
//	axis 1 of 3+:    r = x_0, then r = f(r, x_k) for k = 1...    (reduceDefault, per block of axis 0)
//
// with f(r, v) = r + v or MaxF64's (r > v ? r : v), and g(r, v) = r + v or
// VecMaxF64's (v > r ? v : r). The max orders differ on ties: between -0 and
// +0, f keeps the later entry and g the earlier one; a NaN entry becomes the
// maximum under f, and is passed over under g unless it comes first. 0 + x_0
// is not x_0 either: it turns -0 into +0. The kernels below take the same
// entries in the same order with the same expressions, so the results are
// bit for bit the stock ones (TestReduceIntoMatchesStockDo, with signed
// zeros and NaN). The row sums run several rows side by side, each row's
// additions still one after another. The third axis of four and beyond,
// where reduceDefault has its own index arithmetic, keep the stock ops.
//
// Why not the stock ops' Do? Dense.Sum and Dense.Max allocate the result on
// every run, behind a reflection-driven dispatch, and reduce one row at a
// time, the last axis one long chain of dependent additions, the first
// axis through a function call per row. The softmax sums and maxima, the
// layer-norm means and the bias gradients (broadcast.go's sumAlong) took 7%
// of a training step that way.

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// reduceKind is what a reduction computes.
type reduceKind byte

const (
	sumKind reduceKind = iota
	maxKind
)

// reduction reduces along axis for op, which infers the result's shape.
type reduction struct {
	op   G.Op
	axis int
	kind reduceKind
}

// reducible reports whether reduction handles axis of a tensor of dims axes.
func reducible(dims, axis int) bool { return dims >= 2 && axis >= 0 && (axis <= 1 || axis == dims-1) }

func (r reduction) do(inputs []G.Value) (G.Value, error) { return r.usePreallocDo(nil, inputs) }

// usePreallocDo reduces into prealloc, which the tape machine keeps across
// runs, or into a fresh tensor where prealloc cannot hold the result
// (keptResult).
func (r reduction) usePreallocDo(prealloc G.Value, inputs []G.Value) (G.Value, error) {
	if len(inputs) != 1 {
		return nil, fmt.Errorf("%v: %d inputs", r.op, len(inputs))
	}
	out, err := keptResult(r.op, prealloc, inputs)
	if err != nil {
		return nil, err
	}
	return r.into(out, inputs[0])
}

// keptResult returns the tensor op's result goes into: prealloc, the buffer
// the tape machine keeps across runs, reshaped to the result's shape (the
// register may last have held another node's value of the same size), or a
// fresh tensor where prealloc cannot hold the result: nil, of another dtype
// or size, or one of the inputs, which the stock machine may offer.
func keptResult(op G.Op, prealloc G.Value, inputs []G.Value) (*tensor.Dense, error) {
	shapes := make([]G.DimSizer, len(inputs))
	for i, in := range inputs {
		shapes[i] = in.Shape()
	}
	shape, err := op.InferShape(shapes...)
	if err != nil {
		return nil, err
	}
	out, ok := prealloc.(*tensor.Dense)
	for _, in := range inputs {
		ok = ok && !overlaps(out, in)
	}
	if !ok || out.Dtype() != inputs[0].Dtype() || out.Shape().TotalSize() != shape.TotalSize() {
		return tensor.New(tensor.Of(inputs[0].Dtype()), tensor.WithShape(shape...)), nil
	}
	if !out.Shape().Eq(shape) {
		if err := out.Reshape(shape...); err != nil {
			return nil, fmt.Errorf("%v: result %v for %v: %w", op, out.Shape(), shape, err)
		}
	}
	return out, nil
}

// overlaps reports whether a and b start at the same entry.
func overlaps(a, b G.Value) bool {
	x, ok := a.(*tensor.Dense)
	y, ok2 := b.(*tensor.Dense)
	return ok && ok2 && x.Uintptr() == y.Uintptr()
}

// into reduces x along r.axis into out, which has the result's shape.
func (r reduction) into(out *tensor.Dense, x G.Value) (G.Value, error) {
	xs := x.Shape()
	if !reducible(len(xs), r.axis) {
		return nil, fmt.Errorf("%v: input shape %v", r.op, xs)
	}
	outer, inner := xs[:r.axis].TotalSize(), xs[r.axis+1:].TotalSize()
	var ok bool
	switch out.Dtype() {
	case tensor.Float64:
		ok = reduceAxis[float64](r.kind, out, x, outer, xs[r.axis], inner, r.axis, len(xs))
	case tensor.Float32:
		ok = reduceAxis[float32](r.kind, out, x, outer, xs[r.axis], inner, r.axis, len(xs))
	}
	if !ok {
		return nil, fmt.Errorf("%v: want contiguous float tensors of one dtype, got %v and %v", r.op, out.Dtype(), x.Dtype())
	}
	return out, nil
}

// reduceAxis reduces x, outer blocks of n rows of inner entries, over its
// rows into out, outer blocks of inner entries, as tensor reduces axis of
// dims: reduceLast's order for the last axis (inner is 1), reduceFirst's for
// the first, reduceDefault's for the second.
func reduceAxis[F float32 | float64](kind reduceKind, out *tensor.Dense, x G.Value, outer, n, inner, axis, dims int) bool {
	o, ok := floats[F](out)
	xs, ok2 := floats[F](x)
	if !ok || !ok2 || len(o) != outer*inner || len(xs) != len(o)*n || n == 0 {
		return false
	}
	switch {
	case axis == dims-1 && kind == sumKind:
		sumRows(o, xs, n)
	case axis == dims-1:
		maxRows(o, xs, n)
	default:
		for b := 0; b < outer; b++ {
			o, xb := o[b*inner:(b+1)*inner], xs[b*n*inner:(b+1)*n*inner]
			switch {
			case kind == sumKind: // VecAddF64 and AddF64 both compute r + v
				sumColumns(o, xb)
			case axis == 0:
				maxColumns(o, xb, vecMax[F])
			default:
				maxColumns(o, xb, maxOf[F])
			}
		}
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

// maxRows sets out[r] = f(...f(x[r,0], x[r,1])..., x[r,n-1]) for rows of n
// entries, f being MaxF64's: SliceMaxF64's order.
func maxRows[F float32 | float64](out, x []F, n int) {
	for r := range out {
		row := x[r*n : (r+1)*n]
		m := row[0]
		for _, v := range row[1:] {
			m = maxOf(m, v)
		}
		out[r] = m
	}
}

// maxOf is MaxF64 (reduceLast's and reduceDefault's): r if r > v, else v.
func maxOf[F float32 | float64](r, v F) F {
	if r > v {
		return r
	}
	return v
}

// vecMax is VecMaxF64's step (reduceFirst's): v if v > r, else r.
func vecMax[F float32 | float64](r, v F) F {
	if v > r {
		return v
	}
	return r
}

// maxColumns sets out to the entrywise maximum of x's rows of len(out)
// entries: a copy of row 0, then out[j] = f(out[j], row[j]) for each next row.
func maxColumns[F float32 | float64](out, x []F, f func(r, v F) F) {
	m := len(out)
	if m == 0 {
		return
	}
	copy(out, x[:m])
	for k := 1; k < len(x)/m; k++ {
		a := x[k*m : (k+1)*m][:m]
		for j, r := range out {
			out[j] = f(r, a[j])
		}
	}
}
