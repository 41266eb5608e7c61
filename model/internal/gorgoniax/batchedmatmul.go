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
}

func BatchedMatMul(a, b *G.Node, transA, transB bool) (*G.Node, error) {
	if a.Dims() < 3 || a.Dims() != b.Dims() {
		return nil, fmt.Errorf("BatchedMatMul needs two tensors of the same rank >= 3, got shapes %v and %v", a.Shape(), b.Shape())
	}
	return G.ApplyOp(batchedMatMulOp{transA: transA, transB: transB, dims: a.Dims()}, a, b)
}

func (op batchedMatMulOp) Arity() int { return 2 }

func (op batchedMatMulOp) Type() hm.Type {
	t := G.TensorType{Dims: op.dims, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t, t)
}

// geometry returns the number of products and m, n, k for shapes a and b.
func (op batchedMatMulOp) geometry(a, b tensor.Shape) (batch, m, n, k int, err error) {
	if len(a) != op.dims || len(b) != op.dims {
		return 0, 0, 0, 0, fmt.Errorf("%v: want rank %d, got shapes %v and %v", op, op.dims, a, b)
	}
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
	out := append(tensor.Shape{}, a[:op.dims-2]...)
	return append(out, m, n), nil
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
	batch, m, n, k, err := op.geometry(a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	if c.Shape().TotalSize() != batch*m*n || c.Dtype() != a.Dtype() || b.Dtype() != a.Dtype() {
		return nil, fmt.Errorf("%v: result %v %v does not fit %v x %v", op, c.Shape(), c.Dtype(), a.Shape(), b.Shape())
	}
	// The register may last have held another node's value of the same size.
	if err := c.Reshape(append(a.Shape()[:op.dims-2:op.dims-2], m, n)...); err != nil {
		return nil, err
	}
	// The leading dimensions are those of packed row-major matrices, as
	// tensor.MatMul passes them for a plain or a transposed view.
	tA, lda := blas.NoTrans, k
	if op.transA {
		tA, lda = blas.Trans, m
	}
	tB, ldb := blas.NoTrans, n
	if op.transB {
		tB, ldb = blas.Trans, k
	}
	impl := tensor.WhichBLAS()
	switch ad := a.Data().(type) {
	case []float64:
		bd, cd := b.Data().([]float64), c.Data().([]float64)
		for i := 0; i < batch; i++ {
			impl.Dgemm(tA, tB, m, n, k, 1, ad[i*m*k:(i+1)*m*k], lda, bd[i*k*n:(i+1)*k*n], ldb, 0, cd[i*m*n:(i+1)*m*n], n)
		}
	case []float32:
		bd, cd := b.Data().([]float32), c.Data().([]float32)
		for i := 0; i < batch; i++ {
			impl.Sgemm(tA, tB, m, n, k, 1, ad[i*m*k:(i+1)*m*k], lda, bd[i*k*n:(i+1)*k*n], ldb, 0, cd[i*m*n:(i+1)*m*n], n)
		}
	default:
		return nil, fmt.Errorf("%v: unsupported dtype %v", op, a.Dtype())
	}
	return c, nil
}

func (op batchedMatMulOp) ReturnsPtr() bool      { return false }
func (op batchedMatMulOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (op batchedMatMulOp) OverwritesInput() int  { return -1 }
func (op batchedMatMulOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op batchedMatMulOp) Hashcode() uint32      { return hashOf(op) }

func (op batchedMatMulOp) String() string {
	return fmt.Sprintf("batchedMatMul(transA=%t, transB=%t, dims=%d)", op.transA, op.transB, op.dims)
}

func (op batchedMatMulOp) DiffWRT(inputs int) []bool { return []bool{true, true} }

// SymDiff builds dz/dx and dz/dy exactly as gorgonia's batchedMatMulDiffExpr does.
func (op batchedMatMulOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	x, y := inputs[0], inputs[1]
	var dx, dy *G.Node
	var err error
	switch {
	case op.transA && op.transB:
		if dx, err = BatchedMatMul(y, grad, true, true); err == nil {
			dy, err = BatchedMatMul(grad, x, true, true)
		}
	case !op.transA && op.transB:
		if dx, err = BatchedMatMul(grad, y, false, false); err == nil {
			dy, err = BatchedMatMul(grad, x, true, false)
		}
	case op.transA && !op.transB:
		if dx, err = BatchedMatMul(y, grad, false, true); err == nil {
			dy, err = BatchedMatMul(x, grad, false, false)
		}
	default:
		if dx, err = BatchedMatMul(grad, y, false, true); err == nil {
			dy, err = BatchedMatMul(x, grad, true, false)
		}
	}
	return G.Nodes{dx, dy}, err
}
