//go:build !purego

package fastblas

import "golang.org/x/sys/cpu"

// hasKernels: the AVX2/FMA micro-kernels run only where the CPU has both.
var hasKernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// Strides rs, cs, ldb and ldc are in bytes (see kernel_amd64.s). With add
// the kernels add alpha·A·B to C, without it they overwrite C (beta = 0).
//
//go:noescape
func kern4x8f64(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool)

//go:noescape
func kern4x16f32(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool)

// hasAVX512: the CPU has AVX-512F and the OS saves ZMM state (x/sys/cpu
// checks XCR0's opmask and ZMM bits before it sets HasAVX512F).
var hasAVX512 = hasKernels && cpu.X86.HasAVX512F

// The AVX-512 kernels (kernel512_amd64.s): the same contract, 16 float64s
// or 32 float32s wide.
//
//go:noescape
func kern4x16f64z(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool)

//go:noescape
func kern4x32f32z(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool)

//go:noescape
func kern4x16f64zm(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, alpha float64, add bool, mask uint64)

//go:noescape
func kern4x32f32zm(k int, a *float32, rs, cs int, b *float32, ldb int, c *float32, ldc int, alpha float32, add bool, mask uint64)
