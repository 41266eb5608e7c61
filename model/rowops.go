package model

// Subtracting and dividing by a per-row statistic (a mean, a maximum, a sum),
// written so that Gorgonia's gradients do their work on the small statistic
// instead of on the full tensor:
//
//	x - s = x + (-s)      the gradient w.r.t. s is -Σ g, one Neg on s's shape,
//	                      where G.Sub's is Σ(-g), a Neg on x's shape (exact:
//	                      negation does not round, so both are bit for bit equal)
//	x / s = x ⊙ (1/s)     the gradient w.r.t. s is -Σ(g ⊙ x) / s², on s's shape,
//	                      where G.HadamardDiv's squares and divides x-sized
//	                      tensors (not exact: x·(1/s) may differ from x/s in the
//	                      last bit). Layer norm and softmax divide this way,
//	                      with gorgoniax.NormalizeRows and SoftmaxRows, which
//	                      also compute the whole gradient in one op.
//
// Every such x-sized temporary was a fresh allocation per step, since
// Gorgonia's unary ops (Neg, Square) cannot write into a kept buffer
// (docs/performance.md). Shapes: x of rank r; s lacks x's axes `axes`.

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// subtractRows returns x - s, s repeated along axes.
func subtractRows(x, s *G.Node, axes ...int) (*G.Node, error) {
	neg, err := gorgoniax.Unary(G.Neg, s)
	if err != nil {
		return nil, err
	}
	return gorgoniax.BroadcastAdd(x, neg, axes...)
}
