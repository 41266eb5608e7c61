package gorgoniax

// BatchedMatMul is G.BatchedMatMul(a, b, transA, transB) with the same
// arithmetic and less bookkeeping: for every leading index it calls the BLAS
// that tensor.MatMul calls (tensor.WhichBLAS(), gonum's pure-Go one unless a
// program swaps it), with the same transposition flags, sizes, alpha = 1 and
// beta = 0, straight on the sub-slices of the backing arrays. Its results are
// therefore bit for bit G.BatchedMatMul's, and so are its gradients: SymDiff
// builds the same products with the same flags as Gorgonia's
// batchedMatMulDiffExpr (TestBatchedMatMulMatchesGorgonia).
//
// Why not G.BatchedMatMul? gorgonia v0.9.18 slices every one of the B·H
// (16, 16) products out of the tensors as a new view (three views, a reshape
// and a transposed access pattern per product), which took about as much
// time as the products themselves at these sizes (docs/performance.md).
//
// Shapes: a (..., m, k), or (..., k, m) with transA; b (..., k, n), or
// (..., n, k) with transB; result (..., m, n). The leading axes must agree.
//
// BatchedMatMulInterleaved also reads (or writes) 4-D operands stored with
// their two middle axes swapped: a stored (B, R, H, C) is read as the
// (B, H, R, C) that G.Transpose(·, 0, 2, 1, 3) would make of it, matrix (b, h) by stride
// (row i at offset ((b·R + i)·H + h)·C). The multi-head attention's queries,
// keys and values come out of x·W^Q in that order, each word's heads side by
// side; reading them in place saves the eight copies per layer that splitting
// and joining the heads took (docs/performance.md). The BLAS is called with
// the same sizes and flags on the same numbers, only a larger leading
// dimension, so the result is bit for bit that of G.Transpose around
// BatchedMatMul (TestInterleavedMatchesSwaps).

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

type batchedMatMulOp struct {
	transA, transB bool
	dims           int
	layout         Interleaved
}

// Interleaved says which of a product's 4-D operands, and its result, are
// stored (B, R, H, C) and read as (B, H, R, C).
type Interleaved struct{ A, B, Out bool }

func BatchedMatMul(a, b *G.Node, transA, transB bool) (*G.Node, error) {
	return BatchedMatMulInterleaved(a, b, transA, transB, Interleaved{})
}

func BatchedMatMulInterleaved(a, b *G.Node, transA, transB bool, layout Interleaved) (*G.Node, error) {
	if a.Dims() < 3 || a.Dims() != b.Dims() {
		return nil, fmt.Errorf("BatchedMatMul needs two tensors of the same rank >= 3, got shapes %v and %v", a.Shape(), b.Shape())
	}
	if layout != (Interleaved{}) && a.Dims() != 4 {
		return nil, fmt.Errorf("BatchedMatMul reads interleaved heads of 4-D tensors only, got shapes %v and %v", a.Shape(), b.Shape())
	}
	return G.ApplyOp(batchedMatMulOp{transA: transA, transB: transB, dims: a.Dims(), layout: layout}, a, b)
}

func (op batchedMatMulOp) Arity() int { return 2 }

func (op batchedMatMulOp) Type() hm.Type {
	t := G.TensorType{Dims: op.dims, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t, t)
}

// logical is a stored shape as the product reads it.
func logical(s tensor.Shape, interleaved bool) tensor.Shape {
	if !interleaved || len(s) != 4 {
		return s
	}
	return tensor.Shape{s[0], s[2], s[1], s[3]}
}

// geometry returns the number of products and m, n, k for stored shapes a and b.
func (op batchedMatMulOp) geometry(a, b tensor.Shape) (batch, m, n, k int, err error) {
	if len(a) != op.dims || len(b) != op.dims {
		return 0, 0, 0, 0, fmt.Errorf("%v: want rank %d, got shapes %v and %v", op, op.dims, a, b)
	}
	a, b = logical(a, op.layout.A), logical(b, op.layout.B)
	batch = 1
	for i := 0; i < op.dims-2; i++ {
		if a[i] != b[i] {
			return 0, 0, 0, 0, fmt.Errorf("%v: leading axes differ: %v and %v", op, a, b)
		}
		batch *= a[i]
	}
	m, k = a[op.dims-2], a[op.dims-1]
	if op.transA {
		m, k = k, m
	}
	kb, n := b[op.dims-2], b[op.dims-1]
	if op.transB {
		kb, n = n, kb
	}
	if k != kb {
		return 0, 0, 0, 0, fmt.Errorf("%v: inner sizes differ: %v and %v", op, a, b)
	}
	return batch, m, n, k, nil
}

func (op batchedMatMulOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	a, ok := inputs[0].(tensor.Shape)
	b, ok2 := inputs[1].(tensor.Shape)
	if !ok || !ok2 {
		return nil, fmt.Errorf("%v: want shapes, got %v and %v", op, inputs[0], inputs[1])
	}
	_, m, n, _, err := op.geometry(a, b)
	if err != nil {
		return nil, err
	}
	out := append(tensor.Shape{}, logical(a, op.layout.A)[:op.dims-2]...)
	return logical(append(out, m, n), op.layout.Out), nil
}

func (op batchedMatMulOp) Do(inputs ...G.Value) (G.Value, error) {
	a, b, err := op.operands(inputs)
	if err != nil {
		return nil, err
	}
	shape, err := op.InferShape(a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	return op.UsePreallocDo(tensor.New(tensor.Of(a.Dtype()), tensor.WithShape(shape...)), a, b)
}

func (op batchedMatMulOp) operands(inputs []G.Value) (a, b *tensor.Dense, err error) {
	a, ok := inputs[0].(*tensor.Dense)
	b, ok2 := inputs[1].(*tensor.Dense)
	if !ok || !ok2 || a.RequiresIterator() || b.RequiresIterator() || !a.IsNativelyAccessible() || !b.IsNativelyAccessible() {
		return nil, nil, fmt.Errorf("%v: want contiguous *tensor.Dense operands, got %T and %T", op, inputs[0], inputs[1])
	}
	return a, b, nil
}

// UsePreallocDo writes into prealloc, which the tape machine keeps across runs.
func (op batchedMatMulOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	a, b, err := op.operands(inputs)
	if err != nil {
		return nil, err
	}
	c, ok := prealloc.(*tensor.Dense)
	if !ok || c.RequiresIterator() {
		return nil, fmt.Errorf("%v: want a contiguous *tensor.Dense result, got %T", op, prealloc)
	}
	shape, err := op.InferShape(a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	if c.Shape().TotalSize() != shape.TotalSize() || c.Dtype() != a.Dtype() || b.Dtype() != a.Dtype() {
		return nil, fmt.Errorf("%v: result %v %v does not fit %v x %v", op, c.Shape(), c.Dtype(), a.Shape(), b.Shape())
	}
	// The register may last have held another node's value of the same size.
	if err := c.Reshape(shape...); err != nil {
		return nil, err
	}
	p := op.plan(a.Shape(), b.Shape(), shape)
	impl := tensor.WhichBLAS()
	switch ad := a.Data().(type) {
	case []float64:
		multiply(impl.Dgemm, p, ad, b.Data().([]float64), c.Data().([]float64))
	case []float32:
		multiply(impl.Sgemm, p, ad, b.Data().([]float32), c.Data().([]float32))
	default:
		return nil, fmt.Errorf("%v: unsupported dtype %v", op, a.Dtype())
	}
	return c, nil
}

// plan is one call's products: op(A_i)·op(B_i) = C_i for i < batch.
type plan struct {
	batch, m, n, k int
	tA, tB         blas.Transpose
	a, b, c        matrices
}

// plan reads the sizes from stored shapes geometry has accepted.
func (op batchedMatMulOp) plan(a, b, c tensor.Shape) plan {
	batch, m, n, k, _ := op.geometry(a, b)
	p := plan{batch: batch, m: m, n: n, k: k, tA: blas.NoTrans, tB: blas.NoTrans,
		a: matricesOf(a, op.layout.A), b: matricesOf(b, op.layout.B), c: matricesOf(c, op.layout.Out)}
	if op.transA {
		p.tA = blas.Trans
	}
	if op.transB {
		p.tB = blas.Trans
	}
	return p
}

// matrices locates the stored matrices of one operand in its backing array:
// rows × cols each (before any transposition), heads of them per leading
// index when interleaved, one after the other otherwise.
type matrices struct {
	heads, rows, cols int
	interleaved       bool
}

func matricesOf(stored tensor.Shape, interleaved bool) matrices {
	d := len(stored)
	if interleaved { // (B, R, H, C)
		return matrices{heads: stored[2], rows: stored[1], cols: stored[3], interleaved: true}
	}
	return matrices{heads: 1, rows: stored[d-2], cols: stored[d-1]}
}

// ld is the BLAS leading dimension: the distance between two rows' starts.
// For packed matrices it is the row length, as tensor.MatMul passes it.
func (x matrices) ld() int { return x.heads * x.cols }

// matrix returns matrix i of data, i = b·H + h in the order the product reads.
func matrix[F float32 | float64](x matrices, data []F, i int) []F {
	start := i * x.rows * x.cols
	if x.interleaved {
		b, h := i/x.heads, i%x.heads
		start = (b*x.rows*x.heads + h) * x.cols
	}
	return data[start : start+(x.rows-1)*x.ld()+x.cols]
}

type gemmFunc[F float32 | float64] func(tA, tB blas.Transpose, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int)

// multiply runs the plan's products with alpha = 1 and beta = 0.
func multiply[F float32 | float64](gemm gemmFunc[F], p plan, a, b, c []F) {
	for i := 0; i < p.batch; i++ {
		gemm(p.tA, p.tB, p.m, p.n, p.k, 1, matrix(p.a, a, i), p.a.ld(), matrix(p.b, b, i), p.b.ld(), 0, matrix(p.c, c, i), p.c.ld())
	}
}

func (op batchedMatMulOp) ReturnsPtr() bool      { return false }
func (op batchedMatMulOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op batchedMatMulOp) OverwritesInput() int  { return -1 }
func (op batchedMatMulOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op batchedMatMulOp) Hashcode() uint32      { return hashOf(op) }

func (op batchedMatMulOp) String() string {
	if op.layout == (Interleaved{}) {
		return fmt.Sprintf("batchedMatMul(transA=%t, transB=%t, dims=%d)", op.transA, op.transB, op.dims)
	}
	return fmt.Sprintf("batchedMatMul(transA=%t, transB=%t, dims=%d, interleaved=%+v)", op.transA, op.transB, op.dims, op.layout)
}

func (op batchedMatMulOp) DiffWRT(inputs int) []bool { return []bool{true, true} }

// SymDiff builds dz/dx and dz/dy exactly as gorgonia's batchedMatMulDiffExpr
// does; each gradient is stored in its input's layout, and reads grad in the
// output's.
func (op batchedMatMulOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	x, y := inputs[0], inputs[1]
	lx, ly, lg := op.layout.A, op.layout.B, op.layout.Out
	mul := func(a, b *G.Node, transA, transB bool, la, lb, lout bool) (*G.Node, error) {
		return BatchedMatMulInterleaved(a, b, transA, transB, Interleaved{A: la, B: lb, Out: lout})
	}
	var dx, dy *G.Node
	var err error
	switch {
	case op.transA && op.transB:
		if dx, err = mul(y, grad, true, true, ly, lg, lx); err == nil {
			dy, err = mul(grad, x, true, true, lg, lx, ly)
		}
	case !op.transA && op.transB:
		if dx, err = mul(grad, y, false, false, lg, ly, lx); err == nil {
			dy, err = mul(grad, x, true, false, lg, lx, ly)
		}
	case op.transA && !op.transB:
		if dx, err = mul(y, grad, false, true, ly, lg, lx); err == nil {
			dy, err = mul(x, grad, false, false, lx, lg, ly)
		}
	default:
		if dx, err = mul(grad, y, false, true, lg, ly, lx); err == nil {
			dy, err = mul(x, grad, true, false, lx, lg, ly)
		}
	}
	return G.Nodes{dx, dy}, err
}
