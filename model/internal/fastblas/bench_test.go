package fastblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"itformer/internal/cputime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemmCases are BenchmarkDgemm's and BenchmarkSgemm's shapes.
var gemmCases = []struct {
	name    string
	tA, tB  blas.Transpose
	m, n, k int
}{
	{"linear-768x32x32", blas.NoTrans, blas.NoTrans, 768, 32, 32},
	{"linear-768x64x32", blas.NoTrans, blas.NoTrans, 768, 64, 32},
	{"dX-768x32x64-NT", blas.NoTrans, blas.Trans, 768, 32, 64},
	{"dW-32x64x768-TN", blas.Trans, blas.NoTrans, 32, 64, 768},
	{"scores-24x24x16-NT", blas.NoTrans, blas.Trans, 24, 24, 16},
	{"context-24x16x24", blas.NoTrans, blas.NoTrans, 24, 16, 24},
	{"eval-3072x64x32", blas.NoTrans, blas.NoTrans, 3072, 64, 32},
	{"d128-linear-768x128x128", blas.NoTrans, blas.NoTrans, 768, 128, 128},
	{"d128-dW-128x128x768-TN", blas.Trans, blas.NoTrans, 128, 128, 768},
	{"d256-T24-dW-256x256x768-TN", blas.Trans, blas.NoTrans, 256, 256, 768},
	{"d256-b8-linear-1024x256x256", blas.NoTrans, blas.NoTrans, 1024, 256, 256},
	{"d256-linear-4096x256x256", blas.NoTrans, blas.NoTrans, 4096, 256, 256},
	{"d256-ff1-4096x512x256", blas.NoTrans, blas.NoTrans, 4096, 512, 256},
	{"d256-ff2-4096x256x512", blas.NoTrans, blas.NoTrans, 4096, 256, 512},
	{"d256-dX-4096x256x256-NT", blas.NoTrans, blas.Trans, 4096, 256, 256},
	{"d256-dW-256x256x4096-TN", blas.Trans, blas.NoTrans, 256, 256, 4096},
	{"d256-b8-dW-256x512x1024-TN", blas.Trans, blas.NoTrans, 256, 512, 1024},
	{"d256-scores-128x128x128-NT", blas.NoTrans, blas.Trans, 128, 128, 128},
}

// BenchmarkDgemm: the default model's products (rows B·T = 768 for the
// linear layers, 24 x 24 x 16 per head for attention), and the largest
// scaling row's (d_model 256, d_ff 512, T 128: rows 4,096 at batch 32, 1,024
// at the batch 8 it runs with; 128 x 128 x 128 per head), ours against gonum's.
// go test -run '^$' -bench Dgemm -count 10 ./model/internal/fastblas | benchstat -col /impl -
// cpu-µs/op is the process's CPU time per product, which a busy machine
// disturbs less than sec/op; gonum's figure sums both cores where it splits
// a large product over them.
func BenchmarkDgemm(b *testing.B) {
	impls := []struct {
		name string
		impl blas.Float64
	}{{"gonum", gonum.Implementation{}}, {"fastblas", Implementation{}}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range gemmCases {
		a, lda, bb, ldb, cc, ldc := operands(rng, c.tA, c.tB, c.m, c.n, c.k, 0)
		for _, im := range impls {
			b.Run(fmt.Sprintf("shape=%s/impl=%s", c.name, im.name), func(b *testing.B) {
				timeProduct(b, c.m*c.n*c.k, func() {
					im.impl.Dgemm(c.tA, c.tB, c.m, c.n, c.k, 1, a, lda, bb, ldb, 0, cc, ldc)
				})
			})
		}
	}
}

// BenchmarkSgemm is BenchmarkDgemm in float32 (the model.dtype=float32
// runs), on the same shapes.
// go test -run '^$' -bench Sgemm -count 10 ./model/internal/fastblas | benchstat -col /impl -
func BenchmarkSgemm(b *testing.B) {
	impls := []struct {
		name string
		impl blas.Float32
	}{{"gonum", gonum.Implementation{}}, {"fastblas", Implementation{}}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range gemmCases {
		a, lda, bb, ldb, cc, ldc := operands(rng, c.tA, c.tB, c.m, c.n, c.k, 0)
		a32, b32, c32 := to32(a), to32(bb), to32(cc)
		for _, im := range impls {
			b.Run(fmt.Sprintf("shape=%s/impl=%s", c.name, im.name), func(b *testing.B) {
				timeProduct(b, c.m*c.n*c.k, func() {
					im.impl.Sgemm(c.tA, c.tB, c.m, c.n, c.k, 1, a32, lda, b32, ldb, 0, c32, ldc)
				})
			})
		}
	}
}

// timeProduct runs product, of macs multiply-adds, b.N times: "MB/s" reads
// as MFLOP/s, and cpu-µs/op is the process's CPU time per product (0, and
// not reported, where it is not measured: js/wasm).
func timeProduct(b *testing.B, macs int, product func()) {
	b.SetBytes(int64(2 * macs))
	cpu := cputime.Used()
	for b.Loop() {
		product()
	}
	if used := cputime.Used() - cpu; used > 0 {
		b.ReportMetric(float64(used.Microseconds())/float64(b.N), "cpu-µs/op")
	}
}
