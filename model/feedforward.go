package model

// Position-wise feed-forward sublayer, applied to every word vector alike:
//
//	FFN(x) = max(0, x W1 + b1) W2 + b2
//	result = x + FFN(x)                   the residual, added in the second layer's op
//
// Shapes: x (B·T, d_model); W1 (d_model, d_ff); b1 (d_ff); W2 (d_ff, d_model);
// b2 (d_model); result (B·T, d_model).

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// FeedForwardWeights are the sublayer's two linear layers (tags: layout.go).
type FeedForwardWeights[T any] struct {
	W1 T `param:"w1" shape:"d_model,d_ff" init:"normal(1/sqrt(fan_in))" role:"first linear layer"`
	B1 T `param:"b1" shape:"d_ff" init:"zeros" role:"first bias"`
	W2 T `param:"w2" shape:"d_ff,d_model" init:"normal(1/sqrt(fan_in))" role:"second linear layer"`
	B2 T `param:"b2" shape:"d_model" init:"zeros" role:"second bias"`
}

// feedForward returns x + FFN(x), the residual connection's sum.
func feedForward(x *G.Node, w FeedForwardWeights[*G.Node]) (*G.Node, error) {
	hidden, err := linear(x, w.W1, w.B1)
	if err != nil {
		return nil, err
	}
	if hidden, err = gorgoniax.Rectify(hidden); err != nil {
		return nil, err
	}
	return gorgoniax.LinearResidual(hidden, w.W2, w.B2, x) // x + (hidden·W2 + b2), G.Add's sum
}

// linear is x·W + b with b repeated down the rows: x (N, in), W (in, out), b (out).
// gorgoniax.Linear is G.Mul then BroadcastAdd in one op, bit for bit.
func linear(x, w, b *G.Node) (*G.Node, error) {
	return gorgoniax.Linear(x, w, b)
}
