//go:build !wasm || purego

package fastblas

// Elsewhere portableGemm is only tested: amd64 has the assembly kernels,
// and -tags purego (or another architecture) keeps gonum's Dgemm.
const usePortable = false
