//go:build !amd64 || noasm || gccgo || safe

package fastblas

// Elsewhere gonum's DotUnitary is its plain Go loop.
const gonumDotIsAssembly = false
