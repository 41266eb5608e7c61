package model

// Resolution (the README's "resolution head"; in code, "head" means only an
// attention head): given the pronoun's position p, score every word j of the
// sentence as its antecedent, one more attention step whose weights are the answer:
//
//	q = h_p W^Q_res,  k_j = h_j W^K_res
//	s_j = q · k_j / sqrt(d_model) + C_j        C_j = -1e9 for padding and for j = p
//	log P(antecedent = j) = logsoftmax(s)_j
//	loss = - sum_b w_b log P_b(antecedent_b)   w_b = 1/(real sentences in the batch)
//
// Shapes: h (B·T, d_model), the last encoder layer's output; pronoun (B) of
// tensor.Int holding the flat row b·T + p_b of each pronoun; C (B, T); target
// (B, T) holding w_b at each antecedent and 0 elsewhere; log P (B, T); loss scalar.

import (
	"math"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// ResolutionWeights project the pronoun to a query and every word to a key
// (tags: layout.go).
type ResolutionWeights[T any] struct {
	WQ T `param:"w_q" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"pronoun vector -> query"`
	WK T `param:"w_k" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"word vectors -> keys"`
}

func resolve(h, pronoun, candidates *G.Node, w ResolutionWeights[*G.Node], s shape) (*G.Node, error) {
	query, err := pronounQuery(h, pronoun, w.WQ, s)
	if err != nil {
		return nil, err
	}
	keys, err := G.Mul(h, w.WK)
	if err != nil {
		return nil, err
	}
	if keys, err = G.Reshape(keys, []int{s.B, s.T, s.D}); err != nil {
		return nil, err
	}
	scores, err := gorgoniax.BatchedMatMul(query, keys, false, true) // (B, 1, T)
	if err != nil {
		return nil, err
	}
	if scores, err = G.Reshape(scores, []int{s.B, s.T}); err != nil {
		return nil, err
	}
	if scores, err = gorgoniax.Scale(scores, 1/math.Sqrt(float64(s.D))); err != nil {
		return nil, err
	}
	if scores, err = G.Add(scores, candidates); err != nil {
		return nil, err
	}
	return logSoftmax(scores, 1)
}

// pronounQuery picks each sentence's pronoun vector and projects it: (B, 1, d_model).
func pronounQuery(h, pronoun, wq *G.Node, s shape) (*G.Node, error) {
	hp, err := gorgoniax.ByIndices(h, pronoun, 0)
	if err != nil {
		return nil, err
	}
	q, err := G.Mul(hp, wq)
	if err != nil {
		return nil, err
	}
	return G.Reshape(q, []int{s.B, 1, s.D})
}

// crossEntropy is -sum(target ⊙ logP); the target's weights make it a batch mean.
func crossEntropy(logP, target *G.Node) (*G.Node, error) {
	picked, err := G.HadamardProd(target, logP)
	if err != nil {
		return nil, err
	}
	total, err := G.Sum(picked)
	if err != nil {
		return nil, err
	}
	return G.Neg(total)
}
