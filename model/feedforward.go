package model

// Position-wise feed-forward sublayer, applied to every word vector alike:
//
//	FFN(x) = max(0, x W1 + b1) W2 + b2
//
// Shapes: x (B·T, d_model); W1 (d_model, d_ff); b1 (d_ff); W2 (d_ff, d_model);
// b2 (d_model); result (B·T, d_model).

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

type feedForwardWeights struct {
	W1, B1, W2, B2 *G.Node
}

func feedForward(x *G.Node, w feedForwardWeights) (*G.Node, error) {
	hidden, err := linear(x, w.W1, w.B1)
	if err != nil {
		return nil, err
	}
	if hidden, err = G.Rectify(hidden); err != nil {
		return nil, err
	}
	return linear(hidden, w.W2, w.B2)
}

// linear is x·W + b with b repeated down the rows: x (N, in), W (in, out), b (out).
func linear(x, w, b *G.Node) (*G.Node, error) {
	xw, err := G.Mul(x, w)
	if err != nil {
		return nil, err
	}
	return gorgoniax.Broadcast(G.Add, xw, b, 0)
}
