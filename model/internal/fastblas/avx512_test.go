package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAVX512IsAVX2BitForBit: the AVX-512 kernels (16 float64s, 32 float32s
// wide) give the AVX2 kernels' results bit for bit, on the test shapes and
// random odd ones, both transposes, alpha/beta pairs that make the store
// formula matter (alpha ≠ 1 with beta ≠ 0: a partial tile must be stored
// as C + acc·alpha in one FMA, as a full one is), both paths and one or
// two goroutines.
func TestAVX512IsAVX2BitForBit(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512F on this CPU (or the OS does not save ZMM state), or a purego build")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	all := append(append([][3]int(nil), shapes...), blockShapes...)
	for range 40 {
		all = append(all, [3]int{1 + rng.IntN(70), 1 + rng.IntN(70), 1 + rng.IntN(90)})
	}
	oldParallel := parallelMin
	t.Cleanup(func() { parallelMin = oldParallel })
	for _, s := range all {
		for _, path := range [][2]int{{math.MaxInt, math.MaxInt}, {0, math.MaxInt}, {math.MaxInt, 0}, {0, 0}} {
			forcePath(t, path[0])
			parallelMin = path[1]
			for _, tA := range transposes {
				for _, tB := range transposes {
					for _, ab := range [][2]float64{{1, 0}, {1, 1}, {0.7, 0}, {-1.3, 0.6}, {1.5, 1}} {
						name := fmt.Sprintf("%dx%dx%d/%c%c/alpha=%g,beta=%g/blocked=%d,parallel=%d", s[0], s[1], s[2], tA, tB, ab[0], ab[1], path[0], path[1])
						compareKernels(t, name, rng, tA == 'T', tB == 'T', s, ab[0], ab[1])
					}
				}
			}
		}
	}
}

// compareKernels runs one product with each kernel pair, in both dtypes,
// and demands equal bits everywhere in C (padding included).
func compareKernels(t *testing.T, name string, rng *rand.Rand, transA, transB bool, s [3]int, alpha, beta float64) {
	t.Helper()
	tA, tB := transposes[0], transposes[0]
	if transA {
		tA = transposes[1]
	}
	if transB {
		tB = transposes[1]
	}
	m, n, k := s[0], s[1], s[2]
	a, lda, b, ldb, c, ldc := operands(rng, tA, tB, m, n, k, 3)
	c2, c512 := append([]float64(nil), c...), append([]float64(nil), c...)
	gemm(f64AVX2, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c2, ldc)
	gemm(f64AVX512, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c512, ldc)
	for i := range c {
		if math.Float64bits(c2[i]) != math.Float64bits(c512[i]) {
			t.Fatalf("%s: float64 C[%d] AVX2 %v, AVX-512 %v", name, i, c2[i], c512[i])
		}
	}
	a32, b32, s2, s512 := to32(a), to32(b), to32(c), to32(c)
	gemm(f32AVX2, transA, transB, m, n, k, float32(alpha), a32, lda, b32, ldb, float32(beta), s2, ldc)
	gemm(f32AVX512, transA, transB, m, n, k, float32(alpha), a32, lda, b32, ldb, float32(beta), s512, ldc)
	for i := range s2 {
		if math.Float32bits(s2[i]) != math.Float32bits(s512[i]) {
			t.Fatalf("%s: float32 C[%d] AVX2 %v, AVX-512 %v", name, i, s2[i], s512[i])
		}
	}
}

// eachKernel runs test once with the AVX2 kernels and, where the CPU has
// AVX-512F, once with the AVX-512 ones, so that the comparisons with gonum
// cover both on an AVX-512 machine.
func eachKernel(t *testing.T, test func(t *testing.T)) {
	sets := []struct {
		name string
		k64  kernel[float64]
		k32  kernel[float32]
	}{{"avx2", f64AVX2, f32AVX2}}
	if hasAVX512 {
		sets = append(sets, struct {
			name string
			k64  kernel[float64]
			k32  kernel[float32]
		}{"avx512", f64AVX512, f32AVX512})
	}
	old64, old32 := f64, f32
	t.Cleanup(func() { f64, f32 = old64, old32 })
	for _, s := range sets {
		f64, f32 = s.k64, s.k32
		t.Run(s.name, test)
	}
}
