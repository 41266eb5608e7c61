//go:build wasm && !purego

package fastblas

// In WebAssembly (without -tags purego) Dgemm runs portableGemm, which
// rounds as gonum's pure-Go Dgemm does and is faster there.
const usePortable = true
