package fastblas

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Implementation is gonum's BLAS with Dgemm and Sgemm replaced, where the CPU
// has AVX2 and FMA, by a register-blocked product (C = alpha·op(A)·op(B) +
// beta·C), on AVX-512 kernels where the CPU also has AVX-512F (same results,
// bit for bit), and, in WebAssembly, Dgemm by a pure-Go register-blocked
// product that rounds as gonum's does. Every other routine, and every
// product on other CPUs or with -tags purego, is gonum's own.
type Implementation struct {
	gonum.Implementation
}

// Name says which matrix product runs on this machine.
func Name() string {
	if hasAVX512 {
		return "AVX-512 gemm (model/internal/fastblas; AVX2/FMA for products under 16 float64 or 32 float32 columns), gonum for the rest"
	}
	if hasKernels {
		return "AVX2/FMA gemm (model/internal/fastblas), gonum for the rest"
	}
	if usePortable {
		return "register-blocked pure-Go Dgemm (model/internal/fastblas), gonum for the rest"
	}
	return "gonum (pure Go)"
}

// Accelerated reports whether the assembly kernels (AVX2/FMA, and AVX-512
// where the CPU has it) are in use.
func Accelerated() bool { return hasKernels }

// Dgemm computes C = alpha·op(A)·op(B) + beta·C, op(A) m×k, op(B) k×n.
func (impl Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if usePortable && valid(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		portableGemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if !hasKernels || !valid(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(narrowest(f64, f64AVX2, n), tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemm is Dgemm in float32.
func (impl Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !hasKernels || !valid(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		impl.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemm(narrowest(f32, f32AVX2, n), tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// valid reports whether the arguments are ones gonum would accept with a
// non-empty product; anything else goes to gonum, which panics with its own
// message or returns early.
func valid(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) bool {
	okT := func(t blas.Transpose) bool { return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans }
	if !okT(tA) || !okT(tB) || m <= 0 || n <= 0 || k <= 0 {
		return false
	}
	rowsA, colsA := m, k
	if tA != blas.NoTrans {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if tB != blas.NoTrans {
		rowsB, colsB = n, k
	}
	return lda >= colsA && ldb >= colsB && ldc >= n &&
		la >= lda*(rowsA-1)+colsA && lb >= ldb*(rowsB-1)+colsB && lc >= ldc*(m-1)+n
}

type float interface{ float32 | float64 }

// kernel describes one dtype's micro-kernel: it adds alpha·A·B to a
// mr × nr block of C, or writes it there, strides in bytes.
type kernel[T float] struct {
	nr   int // columns per block
	size int // bytes per element
	run  func(k int, a *T, rs, cs int, b *T, ldb int, c *T, ldc int, alpha T, add bool)
	// masked, where the kernel has one, is run for a block of mr rows and
	// fewer than nr columns: bit j of mask says column j of C is in it.
	masked func(k int, a *T, rs, cs int, b *T, ldb int, c *T, ldc int, alpha T, add bool, mask uint64)
	pool   *sync.Pool
}

const mr = 4 // rows per block

// The AVX2/FMA kernels (8 float64s or 16 float32s wide) and the AVX-512
// ones (16 or 32 wide); f64 and f32 are the ones this machine runs.
var (
	f64AVX2   = kernel[float64]{nr: 8, size: 8, run: kern4x8f64, pool: &sync.Pool{}}
	f32AVX2   = kernel[float32]{nr: 16, size: 4, run: kern4x16f32, pool: &sync.Pool{}}
	f64AVX512 = kernel[float64]{nr: 16, size: 8, run: kern4x16f64z, masked: kern4x16f64zm, pool: &sync.Pool{}}
	f32AVX512 = kernel[float32]{nr: 32, size: 4, run: kern4x32f32z, masked: kern4x32f32zm, pool: &sync.Pool{}}

	f64, f32 = f64AVX2, f32AVX2
)

// narrowest returns the AVX2 kernel for products narrower than the
// AVX-512 one (the float32 attention products, 16 and 24 columns wide, would
// spend half of its 32 lanes on padding); the two round alike, so which
// one runs does not change the result.
func narrowest[T float](wide, avx2 kernel[T], n int) kernel[T] {
	if n < wide.nr {
		return avx2
	}
	return wide
}

// The AVX-512 kernels run where the CPU has them.
func init() {
	if hasAVX512 {
		f64, f32 = f64AVX512, f32AVX512
	}
}
