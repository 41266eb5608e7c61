package model

// One encoder layer, post-layer-norm as in "Attention Is All You Need" and as
// the explainers draw it ("Add & Norm" after each sublayer):
//
//	Y   = LayerNorm(X + MultiHead(X))
//	out = LayerNorm(Y + FFN(Y))
//
// and N such layers stacked, each feeding the next. Shapes: X, Y, out (B·T, d_model).
//
// Why post-norm rather than pre-norm (X + MultiHead(LN(X)))? Pre-norm trains
// deep stacks more stably without warm-up, but at N = 2 or 3 with Adam post-norm
// trains just as well, and it is the architecture the explainers and the paper
// describe, so every picture in them matches a node here.

import (
	G "gorgonia.org/gorgonia"
)

// EncoderWeights are one encoder layer's parameters (tags: layout.go).
type EncoderWeights[T any] struct {
	Attention MultiHeadWeights[T]   `param:"attention"`
	Norm1     LayerNormWeights[T]   `param:"norm1" role:"layer norm after attention"`
	FFN       FeedForwardWeights[T] `param:"ffn" role:"feed-forward"`
	Norm2     LayerNormWeights[T]   `param:"norm2" role:"layer norm after feed-forward"`
}

// Each sublayer's last product adds the residual in the same op
// (gorgoniax.LinearResidual): x + MultiHead(X) and y + FFN(y) are the sums
// G.Add made, bit for bit, without an instruction of their own.
func encoderLayer(x, mask *G.Node, w EncoderWeights[*G.Node], s shape, gate func(z *G.Node) (*G.Node, error)) (*G.Node, attentionNodes, error) {
	sum, steps, err := multiHeadAttention(x, mask, w.Attention, s, gate)
	if err != nil {
		return nil, steps, err
	}
	y, err := layerNorm(sum, w.Norm1)
	if err != nil {
		return nil, steps, err
	}
	if sum, err = feedForward(y, w.FFN); err != nil {
		return nil, steps, err
	}
	out, err := layerNorm(sum, w.Norm2)
	return out, steps, err
}

// headGate zeroes the ablated heads of a layer's z (ablation.go); nil keeps every head.
type headGate func(layer int, z *G.Node) (*G.Node, error)

// encoderStack runs the N layers in order and returns the last one's output.
func encoderStack(x, mask *G.Node, layers []EncoderWeights[*G.Node], s shape, gate headGate) (*G.Node, []attentionNodes, error) {
	steps := make([]attentionNodes, len(layers))
	for l, w := range layers {
		var layerGate func(*G.Node) (*G.Node, error)
		if gate != nil {
			layerGate = func(z *G.Node) (*G.Node, error) { return gate(l, z) }
		}
		var err error
		if x, steps[l], err = encoderLayer(x, mask, w, s, layerGate); err != nil {
			return nil, nil, err
		}
	}
	return x, steps, nil
}
