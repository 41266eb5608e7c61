package model

// Attention supervision (training only, off unless GraphOptions.AttentionSupervision > 0).
//
// Left alone, the model resolves "it" with high accuracy while no encoder head's
// attention from "it" prefers the antecedent: it can encode where the answer
// sits instead of looking at it. To make the explainers' picture ("it" attends
// to "dog") true of the model, one head, the first head of the last layer, is
// asked to point from the pronoun to its antecedent:
//
//	L_attention = - sum_b w_b log A[b, head, p_b, a_b]
//	loss        = L_resolution + λ · L_attention
//
// log A is the log-softmax of the head's masked, scaled scores: the very logits
// its attention softmax turns into weights. Shapes: Masked (B, H, T, T),
// flattened to (B·H·T, T) so that the pronoun's row of each sentence is gathered
// by index ((b·H + head)·T + p_b); the gathered rows are (B, T).

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// SupervisedHead is the (layer, head), 0-based, that attention supervision trains.
func SupervisedHead(c Config) (layer, head int) { return c.Layers - 1, 0 }

func attentionSupervisionLoss(masked, rows, target *G.Node, s shape) (*G.Node, error) {
	flat, err := G.Reshape(masked, []int{s.B * s.H * s.T, s.T})
	if err != nil {
		return nil, err
	}
	pronounRows, err := gorgoniax.ByIndices(flat, rows, 0)
	if err != nil {
		return nil, err
	}
	logA, err := logSoftmax(pronounRows, 1)
	if err != nil {
		return nil, err
	}
	return crossEntropy(logA, target)
}
