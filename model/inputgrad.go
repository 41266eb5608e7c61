package model

// Gradients of the answer with respect to the input vectors, for attribution
// (inference/attribution.go: gradient × input and integrated gradients).
//
//	X_b    = given (T, d_model) per sentence, fed instead of embed(ids) + PE
//	loss   = - Σ_b w_b log P_b(a_b)                   w_b = 1/(real sentences), as in resolution.go
//	G_b    = ∂ log P_b(a_b) / ∂ X_b = -(1/w_b) ∂loss/∂X_b     (T, d_model)
//
// a_b is Batch.Antecedent: the word whose log-probability is explained (for
// attribution, the model's own answer). Sentences of a batch do not interact,
// so one run gives every row's gradient: integrated gradients feeds its path
// points as the rows of one batch. The gradient is Gorgonia's autodiff of the
// same graph the forward pass uses (G.Grad with respect to the fed X node),
// not a hand-written backward pass; TestInputGradientMatchesFiniteDifferences
// checks it.
//
// Shapes: Batch.Vectors (B·T·d_model), row-major like X; Output.InputGrad
// (B, T, d_model).

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// compileInputGradients differentiates the loss by X and reads the gradient.
func (gr *Graph) compileInputGradients() error {
	grads, err := G.Grad(gr.loss, gr.in.vectors)
	if err != nil {
		return err
	}
	G.Read(grads[0], &gr.reads.inputGrad)
	gr.vm = gorgoniax.Collectable(G.NewTapeMachine(gr.g))
	return nil
}

// checkVectors refuses a batch an input-gradient graph cannot run.
func (gr *Graph) checkVectors(b Batch) error {
	s := gr.shape
	if !gr.opts.InputGradients {
		if b.Vectors != nil {
			return fmt.Errorf("batch has input vectors, but the graph embeds ids (build it with InputGradients)")
		}
		return nil
	}
	if len(b.Vectors) != s.B*s.T*s.D {
		return fmt.Errorf("batch has %d input vector entries, graph wants %d (B·T·d_model)", len(b.Vectors), s.B*s.T*s.D)
	}
	if b.Antecedent == nil {
		return fmt.Errorf("an input-gradient batch needs Antecedent: the word whose log-probability is differentiated")
	}
	return nil
}

// inputGrad is G_b for every row, undoing the loss's weight and sign.
func (gr *Graph) inputGrad(b Batch) Tensor {
	s := gr.shape
	g := tensorOf(gr.reads.inputGrad, s.B, s.T, s.D)
	scale := -float64(max(1, countLabelled(b)))
	for i := range g.Data {
		g.Data[i] *= scale
	}
	return g
}

// InputVectors returns X = E[id]·sqrt(d_model) + PE for one sentence, and
// the positional part PE alone (zeros if the model uses no positions), each
// (len(ids), d_model) row-major: what a graph with InputGradients is fed,
// and the baseline "no words, positions kept".
func (p *Params) InputVectors(ids []int) (x, positions []float64, err error) {
	c := p.config
	n, d := len(ids), c.DModel
	if n > c.MaxLen {
		return nil, nil, fmt.Errorf("%d tokens, the model reads at most %d", n, c.MaxLen)
	}
	positions = make([]float64, n*d)
	if c.usesPositions() {
		positions = PositionalEncoding(n, d)
	}
	table, scale := gorgoniax.Float64s(p.weights.Embedding), math.Sqrt(float64(d))
	x = make([]float64, n*d)
	for t, id := range ids {
		if id < 0 || id >= c.VocabSize {
			return nil, nil, fmt.Errorf("token %d: id %d outside the vocabulary [0, %d)", t, id, c.VocabSize)
		}
		for j := 0; j < d; j++ {
			x[t*d+j] = table[id*d+j]*scale + positions[t*d+j]
		}
	}
	return x, positions, nil
}
