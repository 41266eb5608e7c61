package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// shapes: the model's own products, sizes around the block edges (mr = 4,
// nr = 8 or 16), odd sizes and ones.
var shapes = [][3]int{
	{1, 1, 1}, {1, 7, 3}, {3, 1, 5}, {4, 8, 1}, {4, 16, 2}, {5, 9, 7}, {7, 15, 13},
	{8, 17, 33}, {13, 31, 5}, {24, 24, 16}, {24, 16, 24}, {33, 65, 19},
	{768, 32, 32}, {32, 64, 768}, {96, 241, 32}, {3, 250, 2}, {250, 3, 2},
}

var transposes = []blas.Transpose{blas.NoTrans, blas.Trans}

// operands: random A, B and C for op(A) m × k, op(B) k × n, with leading
// dimensions padded by pad, so reading past a row would show.
func operands(rng *rand.Rand, tA, tB blas.Transpose, m, n, k, pad int) (a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	rowsA, colsA := m, k
	if tA == blas.Trans {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if tB == blas.Trans {
		rowsB, colsB = n, k
	}
	lda, ldb, ldc = colsA+pad, colsB+pad, n+pad
	random := func(size int) []float64 {
		s := make([]float64, size)
		for i := range s {
			s[i] = rng.NormFloat64()
		}
		return s
	}
	return random(rowsA * lda), lda, random(rowsB * ldb), ldb, random(m * ldc), ldc
}

// TestDgemmMatchesGonum compares every shape, transposition, padding and a
// few alpha/beta pairs with gonum's Dgemm. Both sum k products in a
// different order and the kernel fuses multiply and add, so they agree to a
// relative 1e-12 of the sum of |terms|, not bit for bit. Without the
// kernels (-tags purego, other CPUs) it must be gonum's, bit for bit.
func TestDgemmMatchesGonum(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for _, s := range shapes {
			for _, tA := range transposes {
				for _, tB := range transposes {
					for _, ab := range [][2]float64{{1, 0}, {0.5, 1}, {-2, 0.25}} {
						for _, pad := range []int{0, 3} {
							name := fmt.Sprintf("%dx%dx%d/%c%c/alpha=%g,beta=%g/pad=%d", s[0], s[1], s[2], tA, tB, ab[0], ab[1], pad)
							checkDgemm(t, name, rng, tA, tB, s, ab[0], ab[1], pad)
						}
					}
				}
			}
		}
	})
}

func checkDgemm(t *testing.T, name string, rng *rand.Rand, tA, tB blas.Transpose, s [3]int, alpha, beta float64, pad int) {
	t.Helper()
	m, n, k := s[0], s[1], s[2]
	a, lda, b, ldb, c, ldc := operands(rng, tA, tB, m, n, k, pad)
	want := append([]float64(nil), c...)
	got := append([]float64(nil), c...)
	gonum.Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
	for i := range got {
		// Padding columns of C must be left alone.
		if i%ldc >= n && got[i] != c[i] {
			t.Fatalf("%s: wrote C[%d] in the padding", name, i)
		}
		tol := 1e-12 * (float64(k) + math.Abs(want[i]))
		if !hasKernels {
			tol = 0
		}
		if math.Abs(got[i]-want[i]) > tol {
			t.Fatalf("%s: C[%d] = %v, gonum %v", name, i, got[i], want[i])
		}
	}
}

// blockShapes cross the cache blocks (mc rows, kc steps of k): k past one
// and two passes, m past one and two blocks of rows, partial tiles at every
// edge.
var blockShapes = [][3]int{
	{mc + 1, 17, kc + 1}, {5, 9, kc + 1}, {35, 24, 2*kc + 5}, {mc + 3, 2*8 + 1, 70}, {2*mc + 5, 40, 300},
}

// forcePath sets the size from which products are blocked (0: all,
// math.MaxInt: none) until the test ends.
func forcePath(t *testing.T, min int) {
	old := blockedMin
	blockedMin = min
	t.Cleanup(func() { blockedMin = old })
}

// TestBlockedMatchesGonum runs TestDgemmMatchesGonum's checks with every
// product on the cache-blocked path, on the small shapes and on shapes that
// cross the block sizes.
func TestBlockedMatchesGonum(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		requireKernels(t)
		forcePath(t, 0)
		rng := rand.New(rand.NewPCG(5, 6))
		for _, s := range append(append([][3]int(nil), shapes...), blockShapes...) {
			for _, tA := range transposes {
				for _, tB := range transposes {
					for _, ab := range [][2]float64{{1, 0}, {-2, 0.25}} {
						name := fmt.Sprintf("%dx%dx%d/%c%c/alpha=%g,beta=%g", s[0], s[1], s[2], tA, tB, ab[0], ab[1])
						checkDgemm(t, name, rng, tA, tB, s, ab[0], ab[1], 3)
					}
				}
			}
		}
	})
}

// TestBlockedIsInPlaceBitForBit: for k ≤ kc the blocked path sums every
// element in the same order as the in-place one, so the two agree bit for
// bit; this is what keeps a product's rounding independent of blockedMin.
func TestBlockedIsInPlaceBitForBit(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		requireKernels(t)
		rng := rand.New(rand.NewPCG(7, 8))
		for _, s := range append(append([][3]int(nil), shapes...), [3]int{2*mc + 5, 40, kc}, [3]int{131, 250, 200}) {
			for _, tA := range transposes {
				for _, tB := range transposes {
					m, n, k := s[0], s[1], s[2]
					if k > kc {
						continue // two passes over k: rounded once per pass
					}
					a, lda, b, ldb, c, ldc := operands(rng, tA, tB, m, n, k, 1)
					for _, beta := range []float64{0, 0.5} {
						results := make([][]float64, 2)
						for i, min := range []int{math.MaxInt, 0} {
							forcePath(t, min)
							results[i] = append([]float64(nil), c...)
							Implementation{}.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, beta, results[i], ldc)
						}
						for i := range c {
							if math.Float64bits(results[0][i]) != math.Float64bits(results[1][i]) {
								t.Fatalf("%dx%dx%d/%c%c/beta=%g: C[%d] in place %v, blocked %v", m, n, k, tA, tB, beta, i, results[0][i], results[1][i])
							}
						}
					}
				}
			}
		}
	})
}

// TestSgemmMatchesGonum is TestDgemmMatchesGonum in float32, at a relative
// 1e-4 (float32 carries about 7 digits).
func TestSgemmMatchesGonum(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		requireKernels(t)
		rng := rand.New(rand.NewPCG(3, 4))
		for _, min := range []int{blockedMin, 0} { // as shipped, then all blocked
			forcePath(t, min)
			sgemmShapes(t, rng)
		}
	})
}

func sgemmShapes(t *testing.T, rng *rand.Rand) {
	for _, s := range append(append([][3]int(nil), shapes...), blockShapes...) {
		for _, tA := range transposes {
			for _, tB := range transposes {
				for _, pad := range []int{0, 5} {
					m, n, k := s[0], s[1], s[2]
					a64, lda, b64, ldb, c64, ldc := operands(rng, tA, tB, m, n, k, pad)
					a, b, c := to32(a64), to32(b64), to32(c64)
					want, got := append([]float32(nil), c...), append([]float32(nil), c...)
					gonum.Implementation{}.Sgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.5, want, ldc)
					Implementation{}.Sgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.5, got, ldc)
					for i := range got {
						if tol := 1e-4 * (float64(k) + math.Abs(float64(want[i]))); math.Abs(float64(got[i]-want[i])) > tol {
							t.Fatalf("%dx%dx%d/%c%c/pad=%d: C[%d] = %v, gonum %v", m, n, k, tA, tB, pad, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

func to32(s []float64) []float32 {
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = float32(v)
	}
	return out
}

// TestBetaZeroOverwritesNaN: with beta = 0, C's old contents (NaN here)
// must not leak into the result, as in reference BLAS.
func TestBetaZeroOverwritesNaN(t *testing.T) {
	requireKernels(t)
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	c := make([]float64, 25)
	for i := range c {
		c[i] = math.NaN()
	}
	Implementation{}.Dgemm(blas.NoTrans, blas.Trans, 5, 5, 4, 1, a, 4, a, 4, 0, c, 5)
	for i, v := range c {
		if math.IsNaN(v) {
			t.Fatalf("C[%d] is NaN after beta = 0", i)
		}
	}
}

// TestBadArgumentsPanicLikeGonum: arguments gonum refuses are handed to it.
func TestBadArgumentsPanicLikeGonum(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Dgemm with lda < k did not panic")
		}
	}()
	Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 3, 1, make([]float64, 6), 2, make([]float64, 6), 2, 0, make([]float64, 4), 2)
}

func requireKernels(t *testing.T) {
	t.Helper()
	if !hasKernels {
		t.Skip("no AVX2/FMA kernels on this CPU or build; Implementation is gonum's")
	}
}

// TestHalvesAreBitForBit: a product split by rows over two goroutines
// (parallelMin) equals the same product on one, bit for bit, on both paths,
// in both dtypes, for row counts that do and do not fall on a tile boundary.
func TestHalvesAreBitForBit(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		requireKernels(t)
		rng := rand.New(rand.NewPCG(9, 10))
		old := parallelMin
		t.Cleanup(func() { parallelMin = old })
		for _, s := range append(append([][3]int(nil), shapes...), blockShapes...) {
			for _, path := range []int{math.MaxInt, 0} {
				forcePath(t, path)
				for _, tA := range transposes {
					for _, tB := range transposes {
						m, n, k := s[0], s[1], s[2]
						a, lda, b, ldb, c, ldc := operands(rng, tA, tB, m, n, k, 2)
						results := make([][]float64, 2)
						results32 := make([][]float32, 2)
						for i, min := range []int{math.MaxInt, 0} {
							parallelMin = min
							results[i] = append([]float64(nil), c...)
							Implementation{}.Dgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.5, results[i], ldc)
							results32[i] = to32(c)
							Implementation{}.Sgemm(tA, tB, m, n, k, 1.5, to32(a), lda, to32(b), ldb, 0.5, results32[i], ldc)
						}
						for i := range c {
							if math.Float64bits(results[0][i]) != math.Float64bits(results[1][i]) || math.Float32bits(results32[0][i]) != math.Float32bits(results32[1][i]) {
								t.Fatalf("%dx%dx%d/%c%c blocked from %d: C[%d] one goroutine %v (%v), two %v (%v)", m, n, k, tA, tB, path, i, results[0][i], results32[0][i], results[1][i], results32[1][i])
							}
						}
					}
				}
			}
		}
	})
}
