//go:build !noasm && !gccgo && !safe

package fastblas

// gonum's DotUnitary is assembly on amd64 (unless built with noasm) and
// sums with several partial sums, not in plain order.
const gonumDotIsAssembly = true
