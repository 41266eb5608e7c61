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
// positions; S, A (B, H, T, T); Z (B, H, T, d_k). Q, K, V and Z are stored
// (B, T, H, d_k), as x·W^Q writes them, and the products read them by stride
// (multihead.go).

import (
	"fmt"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// AttentionSteps records one layer's attention, step by step, so that a run
// can show the explainers' steps with the model's real numbers. It is declared
// once and filled four ways (steps.go): with graph nodes while building (here,
// and X in multihead.go), with values read after a run, with Tensors in
// Output.Trace and with one word's rows in WordSteps. Each field's tags:
//
//	json     its name
//	shape    the axes of its tensor in Output.Trace; a last axis T makes it one
//	         number per key word (a column of the explain table), any other
//	         a vector
//	graph    the axes of its node's value, where they are in another order
//	formula  how it is computed, as the explain view prints it
//	about    the explainers' words for it
//	sum      "1" if every row sums to 1
//
// To show one more intermediate, add its field here and assign its node
// where it is computed; reading, tracing, JSON and the explain view follow.
type AttentionSteps[T any] struct {
	X       T `json:"x" shape:"B,T,d_model" formula:"x" about:"vector"`
	Q       T `json:"q" shape:"B,H,T,d_k" graph:"B,T,H,d_k" formula:"q = x·W^Q" about:"query"`
	K       T `json:"k" shape:"B,H,T,d_k" graph:"B,T,H,d_k" formula:"k = x·W^K" about:"key"`
	V       T `json:"v" shape:"B,H,T,d_k" graph:"B,T,H,d_k" formula:"v = x·W^V" about:"value"`
	Scores  T `json:"scores" shape:"B,H,T,T" formula:"score_j = q · k_j" about:"the dot product with every word's key"`
	Scaled  T `json:"scaled" shape:"B,H,T,T" formula:"scaled_j = score_j / sqrt(d_k)" about:"keeps the softmax out of saturation"`
	Weights T `json:"weights" shape:"B,H,T,T" formula:"weight_j = softmax(scaled)_j" about:"weights are positive and sum to 1" sum:"1"`
	Z       T `json:"z" shape:"B,H,T,d_k" graph:"B,T,H,d_k" formula:"z = Σ_j weight_j · v_j" about:"the weighted sum of the values"`
}

// attentionNodes is the record's nodes and one node only building needs.
type attentionNodes struct {
	AttentionSteps[*G.Node]
	masked *G.Node // Scaled + M, the logits of Weights; supervision.go's input
}

// q, k, v are stored (B, T, H, d_k). divisor is sqrt(d_k), or 1 for the
// unscaled attention some experiments use. Unless allSteps, Scaled is left
// nil: the scaling and the mask are one op then (gorgoniax.ScaleAddData,
// bit for bit the two), and Scaled is not a node of its own. allSteps builds
// it beside that op, for the explainers to read.
func scaledDotProductAttention(q, k, v, mask *G.Node, divisor float64, allSteps bool) (attentionNodes, error) {
	s := attentionNodes{AttentionSteps: AttentionSteps[*G.Node]{Q: q, K: k, V: v}}
	if !(divisor > 0) {
		return s, fmt.Errorf("attention score divisor must be positive, got %v", divisor)
	}
	var err error
	if s.Scores, err = gorgoniax.BatchedMatMulInterleaved(q, k, false, true, gorgoniax.Interleaved{A: true, B: true}); err != nil {
		return s, err
	}
	if err = s.scaleAndMask(mask, divisor, allSteps); err != nil {
		return s, err
	}
	if s.Weights, err = softmax(s.masked, 3); err != nil {
		return s, err
	}
	s.Z, err = gorgoniax.BatchedMatMulInterleaved(s.Weights, v, false, false, gorgoniax.Interleaved{B: true, Out: true})
	return s, err
}

// scaleAndMask sets masked = Scores / divisor + M (steps 2 and 3's logits)
// and, if allSteps, Scaled = Scores / divisor.
func (s *attentionNodes) scaleAndMask(mask *G.Node, divisor float64, allSteps bool) error {
	var err error
	if divisor == 1 {
		s.Scaled = s.Scores
		s.masked, err = gorgoniax.BroadcastAddData(s.Scores, mask, 1, 2)
		return err
	}
	if allSteps {
		if s.Scaled, err = gorgoniax.Scale(s.Scores, 1/divisor); err != nil {
			return err
		}
	}
	s.masked, err = gorgoniax.ScaleAddData(s.Scores, 1/divisor, mask, 1, 2)
	return err
}
