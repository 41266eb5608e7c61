//go:build !purego

package fastexp

import "golang.org/x/sys/cpu"

// hasAVX2: the kernels use AVX2 integer ops and VEX encodings (no FMA).
var hasAVX2 = cpu.X86.HasAVX2

// exp64AVX2 sets out[i] = exp64(x[i]) for i < n, n a multiple of 4.
//
//go:noescape
func exp64AVX2(out, x *float64, n int)

// exp32AVX2 sets out[i] = exp32(x[i]) for i < n, n a multiple of 8.
//
//go:noescape
func exp32AVX2(out, x *float32, n int)
