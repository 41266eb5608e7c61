package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestPortableIsGonumBitForBit calls portableGemm directly (on every
// architecture, though only WebAssembly builds use it) and demands gonum's
// results bit for bit: same shapes as the kernels' test, plus shapes where
// gonum's Dgemm takes its parallel path (at least 4 blocks of 64 × 64 in C,
// k > 64), and an A with zeros where B holds infinities (gonum skips a zero
// multiplier, so no NaN may appear). The one exception is NT where gonum's
// DotUnitary is amd64 assembly with partial sums: there, agreement to
// 1e-12 × (k + |c|).
func TestPortableIsGonumBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	all := append(append([][3]int(nil), shapes...), [3]int{130, 131, 100}, [3]int{64, 256, 65}, [3]int{200, 70, 129})
	for _, s := range all {
		for _, tA := range transposes {
			for _, tB := range transposes {
				for _, ab := range [][2]float64{{1, 0}, {0.5, 1}, {-2, 0.25}, {0, 0.5}, {0, 1}} {
					for _, zeros := range []bool{false, true} {
						name := fmt.Sprintf("%dx%dx%d/%c%c/alpha=%g,beta=%g/zeros=%t", s[0], s[1], s[2], tA, tB, ab[0], ab[1], zeros)
						checkPortable(t, name, rng, tA, tB, s, ab[0], ab[1], zeros)
					}
				}
			}
		}
	}
}

func checkPortable(t *testing.T, name string, rng *rand.Rand, tA, tB blas.Transpose, s [3]int, alpha, beta float64, zeros bool) {
	t.Helper()
	m, n, k := s[0], s[1], s[2]
	a, lda, b, ldb, c, ldc := operands(rng, tA, tB, m, n, k, 2)
	if zeros { // every third element of A zero, every fifth of B infinite
		for i := range a {
			if i%3 == 0 {
				a[i] = 0
			}
		}
		for i := range b {
			if i%5 == 0 {
				b[i] = math.Inf(1)
			}
		}
	}
	want := append([]float64(nil), c...)
	got := append([]float64(nil), c...)
	gonum.Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	portableGemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
	exact := !(gonumDotIsAssembly && tA == blas.NoTrans && tB == blas.Trans)
	for i := range got {
		if i%ldc >= n && got[i] != c[i] {
			t.Fatalf("%s: wrote C[%d] in the padding", name, i)
		}
		same := math.Float64bits(got[i]) == math.Float64bits(want[i]) || math.IsNaN(got[i]) && math.IsNaN(want[i])
		if !exact && !zeros {
			same = math.Abs(got[i]-want[i]) <= 1e-12*(float64(k)+math.Abs(want[i]))
		}
		if !exact && zeros {
			same = math.IsInf(got[i], 0) == math.IsInf(want[i], 0) && math.IsNaN(got[i]) == math.IsNaN(want[i])
		}
		if !same {
			t.Fatalf("%s: C[%d] = %v, gonum %v", name, i, got[i], want[i])
		}
	}
}
