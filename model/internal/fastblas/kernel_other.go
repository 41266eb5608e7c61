//go:build !amd64 || purego

package fastblas

// Elsewhere (wasm, arm64, or -tags purego) there are no micro-kernels and
// every product goes to gonum.
const hasKernels = false

func kern4x8f64(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool) {
	panic("fastblas: no float64 kernel on this platform")
}

func kern4x16f32(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool) {
	panic("fastblas: no float32 kernel on this platform")
}

const hasAVX512 = false

func kern4x16f64z(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool) {
	panic("fastblas: no AVX-512 float64 kernel on this platform")
}

func kern4x32f32z(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool) {
	panic("fastblas: no AVX-512 float32 kernel on this platform")
}

func kern4x16f64zm(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool, mask uint64) {
	panic("fastblas: no AVX-512 float64 kernel on this platform")
}

func kern4x32f32zm(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool, mask uint64) {
	panic("fastblas: no AVX-512 float32 kernel on this platform")
}
