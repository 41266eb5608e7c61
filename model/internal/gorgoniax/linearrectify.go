package gorgoniax

// LinearRectify(x, w, b) is Rectify(Linear(x, w, b)), the feed-forward
// sublayer's first layer and its ReLU:
//
//	h = max(0, x·w + b),   h[r,j] = v · step(v),  v = (x·w)[r,j] + b[j]
//
// x (N, in); w (in, out); b (out); h (N, out). The op is Linear's (linear.go):
// Gorgonia's product into the kept buffer, then one pass adding the bias and
// rectifying, each entry as the two ops computed it (step is rectify.go's).
//
// The gradient, given g = ∂L/∂h, is Rectify's, step(v) ⊙ g, and then
// Linear's with that in place of g. The pre-activation v is not kept, so the
// rectifier's gradient reads h instead (rectifyOp with fromOutput):
// outputStep(h) is step(v) for every v but -0. For v ≥ +0, h is v, with its
// sign bit clear (+0 included), and both steps are 1; for v < 0, h is -0 and
// both are 0; for v NaN or -Inf, h is NaN and both are 0. Only v = -0 would
// give h = -0 with step 1; and v = p + b is -0 only if the product p is -0,
// which no product computes: every BLAS sum (gonum's and the project's
// kernels) starts from +0, and under round-to-nearest a sum is -0 only if
// all its terms, the +0 start included, are -0. So values and gradients are
// bit for bit the two ops' (TestLinearRectifyMatchesRectifyOfLinear, with
// rows of zeros, a bias of -0 and exact cancellations among its inputs).
//
// Why not the stock construction (Linear, then Rectify)? Rectify reads the
// layer's (N, d_ff) output back from a register and writes another: an
// instruction and a pass over the widest tensor of the layer. Here the
// rectifier runs in the bias add's pass, on the product still in cache.

import (
	"math"

	G "gorgonia.org/gorgonia"
)

// LinearRectify returns max(0, x·w + b), b repeated down the rows, as
// Rectify(Linear(x, w, b)) computes it.
func LinearRectify(x, w, b *G.Node) (*G.Node, error) {
	return newLinear(linearOp{bias: true, rectify: true}, x, w, b)
}

// addBiasAndRectify is o = v ⊙ step(v) with v = o + b, b repeated down o's rows.
func addBiasAndRectify[F float32 | float64](o, b []F) {
	n := len(b)
	for ro := 0; ro < len(o); ro += n {
		or := o[ro : ro+n]
		for i, c := range b {
			v := or[i] + c
			or[i] = v * step(v)
		}
	}
}

// rectifyFromOutput is the rectifier's gradient read from its result h.
func rectifyFromOutput(h, grad *G.Node) (*G.Node, error) {
	return G.ApplyOp(rectifyOp{dims: h.Dims(), grad: true, fromOutput: true}, h, grad)
}

// outputStep is step(v) from h = v ⊙ step(v): 1 for h from +0 to +Inf, else
// 0 (h = -0, negative or NaN). Those h are the float64 bit patterns from
// +0's to +Inf's, so one unsigned comparison decides, without a branch;
// converting a float32 to float64 keeps its sign, infinities and NaNs.
func outputStep[F float32 | float64](h F) F {
	var b int64
	if math.Float64bits(float64(h)) <= math.Float64bits(math.Inf(1)) {
		b = 1
	}
	return F(b)
}
