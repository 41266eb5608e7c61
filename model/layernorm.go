package model

// Layer normalisation over each word vector (Ba et al., 2016):
//
//	LN(x) = gain ⊙ (x - mean(x)) / sqrt(var(x) + eps) + bias
//
// mean and var are taken over the d_model features of one word; var is the
// biased variance (mean of squared deviations), as in PyTorch's nn.LayerNorm.
// Shapes: x (B·T, d_model); gain, bias (d_model); result (B·T, d_model).
//
// Gorgonia v0.9.18 has no LayerNorm op (only BatchNorm), so it is composed from
// Mean, Neg, Add, Square, Sqrt, Inverse and HadamardProd (rowops.go). Its
// gradient with respect to x is one op (gorgoniax.NormalizeRows) computing
// what those ops' gradients compute, bit for bit; the gain and bias are
// applied in one op (gorgoniax.Affine), the two broadcasts' values and
// gradients, bit for bit; the variance, Mean(Square(c), 1), is one pass over
// c (gorgoniax.MeanOfSquares), the two ops' values bit for bit.

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// LayerNormEps keeps the division finite for a word vector with zero variance.
const LayerNormEps = 1e-5

// LayerNormWeights are a layer norm's gain and bias (tags: layout.go); the
// enclosing field's role says which norm.
type LayerNormWeights[T any] struct {
	Gain T `param:"gain" shape:"d_model" init:"ones" role:"scale"`
	Bias T `param:"bias" shape:"d_model" init:"zeros" role:"shift"`
}

func layerNorm(x *G.Node, w LayerNormWeights[*G.Node]) (*G.Node, error) {
	centred, err := centre(x)
	if err != nil {
		return nil, err
	}
	std, err := rowStd(centred)
	if err != nil {
		return nil, err
	}
	inv, err := gorgoniax.Unary(G.Inverse, std)
	if err != nil {
		return nil, err
	}
	normed, err := gorgoniax.NormalizeRows(x, centred, std, inv) // centred ⊙ inv, the gradient in one op
	if err != nil {
		return nil, err
	}
	return gorgoniax.Affine(normed, w.Gain, w.Bias) // normed ⊙ gain + bias in one pass
}

// centre returns x - mean(x) per row.
func centre(x *G.Node) (*G.Node, error) {
	mean, err := gorgoniax.Mean(x, 1)
	if err != nil {
		return nil, err
	}
	return subtractRows(x, mean, 1)
}

// rowStd returns sqrt(mean(c²) + eps) per row of the centred c: shape (N).
func rowStd(c *G.Node) (*G.Node, error) {
	variance, err := gorgoniax.MeanOfSquares(c, 1) // Mean(Square(c), 1) in one pass over c
	if err != nil {
		return nil, err
	}
	eps := G.NewConstant(gorgoniax.ScalarOf(c.Dtype(), LayerNormEps), G.WithName("layer_norm_eps"))
	shifted, err := G.Add(variance, eps)
	if err != nil {
		return nil, err
	}
	return gorgoniax.Unary(G.Sqrt, shifted)
}
