package model

// Softmax along one axis, built from elementary ops:
//
//	softmax(x)_j    = exp(x_j - max x) / sum_i exp(x_i - max x)
//	logsoftmax(x)_j = (x_j - max x) - log sum_i exp(x_i - max x)
//
// Shapes: x of any rank up to 4, axis one of its axes; the result has x's shape.
//
// Why not G.SoftMax? In gorgonia v0.9.18 / tensor v0.9.24 the row maximum starts
// from the first element of the whole tensor rather than the row's own, so a
// row lying far below it underflows to 0/0 = NaN. A fully masked row (every
// entry -1e9) does exactly that; TestSoftmaxFullyMaskedRowIsFinite shows the
// stock op failing and this one staying finite (the row becomes uniform).
// Subtracting the row's own maximum keeps every exponent <= 0, so nothing
// overflows, and at least one term of every sum is exp(0) = 1, so nothing
// divides by zero. The maximum's gradient cancels exactly, as softmax is
// invariant to shifting a row.

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

func softmax(x *G.Node, axis int) (*G.Node, error) {
	shifted, err := shiftByRowMax(x, axis)
	if err != nil {
		return nil, err
	}
	e, err := gorgoniax.Unary(G.Exp, shifted)
	if err != nil {
		return nil, err
	}
	sum, err := gorgoniax.Sum(e, axis)
	if err != nil {
		return nil, err
	}
	inv, err := gorgoniax.Unary(G.Inverse, sum)
	if err != nil {
		return nil, err
	}
	return gorgoniax.SoftmaxRows(shifted, e, inv, axis) // e ⊙ inv, the gradient in one op
}

func logSoftmax(x *G.Node, axis int) (*G.Node, error) {
	shifted, err := shiftByRowMax(x, axis)
	if err != nil {
		return nil, err
	}
	e, err := gorgoniax.Unary(G.Exp, shifted)
	if err != nil {
		return nil, err
	}
	sum, err := gorgoniax.Sum(e, axis)
	if err != nil {
		return nil, err
	}
	logSum, err := gorgoniax.Unary(G.Log, sum)
	if err != nil {
		return nil, err
	}
	return subtractRows(shifted, logSum, axis)
}

// shiftByRowMax returns x - max(x) along axis.
func shiftByRowMax(x *G.Node, axis int) (*G.Node, error) {
	max, err := gorgoniax.Max(x, axis)
	if err != nil {
		return nil, err
	}
	return subtractRows(x, max, axis)
}
