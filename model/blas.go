package model

// Every matrix product of the model (Gorgonia's Mul, tensor's MatMul and
// gorgoniax.BatchedMatMul) goes through the BLAS registered here, for every
// program that imports model: training and inference must round alike.
//
//	C = alpha·op(A)·op(B) + beta·C
//
// fastblas runs it with AVX2/FMA kernels where the CPU has them (amd64; AVX-512
// kernels, which give the same bits, where it also has AVX-512F), and
// hands it to gonum's pure-Go BLAS elsewhere (GOOS=js, arm64, -tags purego).
// The two round differently, so weights trained on one path are not bit for
// bit those of the other.

import (
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/fastblas"
	"itformer/model/internal/fastexp"
)

func init() {
	G.Use(fastblas.Implementation{})
	tensor.Use(fastblas.Implementation{})
}

// BLAS names the matrix product this build runs on this CPU, for reports
// such as cmd/bench's.
func BLAS() string { return fastblas.Name() }

// Exp names the softmax's exp this build runs on this CPU, likewise.
func Exp() string { return fastexp.Name() }
