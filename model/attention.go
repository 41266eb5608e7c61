package model

// Scaled dot-product attention, the explainers' four steps:
//
//	1. scores  S = Q K^T                   how similar each query is to each key
//	2. scaled  S / sqrt(d_k)               keeps the softmax out of saturation
//	3. weights A = softmax(S/sqrt(d_k) + M) every row sums to 1
//	4. output  Z = A V                     each word's weighted sum of values
//
// M is the padding mask: 0 for a real key, -1e9 for a padded one, so that
// exp(-1e9 - max) underflows to exactly 0 and padding gets exactly zero weight.
//
// Shapes: Q, K, V (B, H, T, d_k); mask (B, T), broadcast over heads and query
// positions; S, A (B, H, T, T); Z (B, H, T, d_k).

import (
	"fmt"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// attentionSteps keeps every intermediate node so a forward pass can show the
// explainers' steps with the model's real numbers.
type attentionSteps struct {
	Q, K, V, Scores, Scaled, Masked, Weights, Z *G.Node
}

// divisor is sqrt(d_k), or 1 for the unscaled attention some experiments use.
func scaledDotProductAttention(q, k, v, mask *G.Node, divisor float64) (attentionSteps, error) {
	s := attentionSteps{Q: q, K: k, V: v}
	if !(divisor > 0) {
		return s, fmt.Errorf("attention score divisor must be positive, got %v", divisor)
	}
	var err error
	if s.Scores, err = gorgoniax.BatchedMatMul(q, k, false, true); err != nil {
		return s, err
	}
	s.Scaled = s.Scores
	if divisor != 1 {
		inv := G.NewConstant(gorgoniax.ScalarOf(q.Dtype(), 1/divisor), G.WithName(fmt.Sprintf("1/%v", divisor)))
		if s.Scaled, err = G.Mul(s.Scores, inv); err != nil {
			return s, err
		}
	}
	if s.Masked, err = gorgoniax.Broadcast(G.Add, s.Scaled, mask, 1, 2); err != nil {
		return s, err
	}
	if s.Weights, err = softmax(s.Masked, 3); err != nil {
		return s, err
	}
	s.Z, err = gorgoniax.BatchedMatMul(s.Weights, v, false, false)
	return s, err
}
