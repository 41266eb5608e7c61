package gorgoniax

// LinearResidual(x, w, b, r) is G.Add(r, Linear(x, w, b)), and with b nil
// G.Add(r, G.Mul(x, w)): a sublayer's last product and its residual
// connection,
//
//	z = r + (x·w + b),   z[i,j] = ((x·w)[i,j] + b[j]) + r[i,j]
//
// x (N, in); w (in, out); b (out); r, z (N, out). The op is Linear's
// (linear.go) with one more operand: Gorgonia's own product into the kept
// buffer, then, in one pass over it, the bias and the residual added in the
// order the two ops added them (IEEE addition commutes exactly, so
// (p + b) + r is r + (p + b) bit for bit). Gradients, given g = ∂L/∂z, are
// the nodes the ops' gradients build: the stock product's (g·wᵀ, xᵀ·g),
// Σ_rows g for b, and g itself for r (G.Add's gradient is g for both
// operands). So values and gradients are bit for bit the ops'
// (TestLinearResidualMatchesAdd).
//
// Why not the stock construction? G.Add is an instruction of its own with a
// register of its own: it reads the product back from one register and the
// residual from another, and writes a third. Here the addition runs on the
// product while it is still in cache, and the tape has one instruction less
// per sublayer (two per encoder layer: W^O's product and the feed-forward's
// second linear layer).

import (
	G "gorgonia.org/gorgonia"
)

// LinearResidual returns r + (x·w + b), b repeated down the rows; b may be
// nil for r + x·w.
func LinearResidual(x, w, b, r *G.Node) (*G.Node, error) {
	if b == nil {
		return newLinear(linearOp{residual: true}, x, w, r)
	}
	return newLinear(linearOp{bias: true, residual: true}, x, w, b, r)
}

// addResidual is o += r, the residual added to the product.
func addResidual[F float32 | float64](o, r []F) {
	r = r[:len(o)]
	for i, v := range r {
		o[i] += v
	}
}

// addBiasAndResidual is o = (o + b) + r, b repeated down o's rows.
func addBiasAndResidual[F float32 | float64](o, b, r []F) {
	n := len(b)
	r = r[:len(o)]
	for ro := 0; ro < len(o); ro += n {
		or, rr := o[ro:ro+n], r[ro:ro+n]
		for i, v := range b {
			or[i] = (or[i] + v) + rr[i]
		}
	}
}
