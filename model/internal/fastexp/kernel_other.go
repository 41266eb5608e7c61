//go:build !amd64 || purego

package fastexp

// Elsewhere (wasm, arm64, or -tags purego) every element takes the
// portable path.
const hasAVX2 = false

func exp64AVX2(out, x *float64, n int) { panic("fastexp: no AVX2 kernel on this platform") }

func exp32AVX2(out, x *float32, n int) { panic("fastexp: no AVX2 kernel on this platform") }
