package train

// Adam (Kingma & Ba, 2015), with its moments in the open, and decoupled
// weight decay (AdamW, Loshchilov & Hutter, 2019) for the weights given a rate λ:
//
//	w ← w - η·λ·w                                  (only where λ > 0)
//	m ← β1·m + (1-β1)·g          v ← β2·v + (1-β2)·g²
//	w ← w - η · (m / (1-β1^t)) / (sqrt(v / (1-β2^t)) + ε)
//
// Why not G.AdamSolver? Its moment estimates are unexported, so a run stopped
// and resumed would restart them from zero and drift from the uninterrupted
// run. This is the same arithmetic in the same order (TestAdamMatchesGorgonia
// checks bit-identical weights against AdamSolver), with m, v and t saved in
// resumable checkpoints. Like AdamSolver, a step zeroes the gradients.

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/config"
)

// Adam holds the optimiser's settings and state, one moment pair per parameter.
type Adam struct {
	LearningRate, Beta1, Beta2, Eps float64 // LearningRate may change between steps (warm-up)
	// Decay[i] is λ for the i-th parameter Step is given; missing or 0: none.
	Decay []float64
	t     int         // steps taken
	m, v  [][]float64 // per parameter, as float64 whatever the model's dtype
}

// NewAdam makes an optimiser with a run config's settings and no state.
func NewAdam(c config.Train) *Adam {
	return &Adam{LearningRate: c.LearningRate, Beta1: c.Beta1, Beta2: c.Beta2, Eps: c.AdamEps}
}

// Moments returns the first and second moment estimates, per parameter in
// the order Step was given them (nil before the first step), for saving.
func (a *Adam) Moments() (m, v [][]float64) { return a.m, a.v }

// SetState restores the step count and the moments of a saved optimiser.
func (a *Adam) SetState(steps int, m, v [][]float64) { a.t, a.m, a.v = steps, m, v }

// Step updates every weight in place from its gradient and zeroes the gradient.
func (a *Adam) Step(params []G.ValueGrad) error {
	if a.m == nil {
		a.m, a.v = make([][]float64, len(params)), make([][]float64, len(params))
	}
	a.t++
	k := a.coefficients()
	for i, p := range params {
		if err := a.update(i, p, k); err != nil {
			return err
		}
	}
	return nil
}

func (a *Adam) update(i int, p G.ValueGrad, k coefficients) error {
	g, err := p.Grad()
	if err != nil {
		return fmt.Errorf("parameter %d has no gradient: %w", i, err)
	}
	w, gd := p.Value().(*tensor.Dense), g.(*tensor.Dense)
	if a.m[i] == nil {
		a.m[i], a.v[i] = make([]float64, w.Shape().TotalSize()), make([]float64, w.Shape().TotalSize())
	}
	if i < len(a.Decay) && a.Decay[i] > 0 {
		decay(w, k.lr*a.Decay[i])
	}
	switch wd := w.Data().(type) {
	case []float64:
		adamUpdate(wd, gd.Data().([]float64), a.m[i], a.v[i], k)
	case []float32:
		adamUpdate32(wd, gd.Data().([]float32), a.m[i], a.v[i], k)
	}
	gd.Zero()
	return nil
}

// coefficients are the step's constants; corr1 = 1-β1^t and corr2 = 1-β2^t
// are inverted in each dtype's own precision, as AdamSolver does.
type coefficients struct{ beta1, beta2, corr1, corr2, lr, eps float64 }

func (a *Adam) coefficients() coefficients {
	return coefficients{beta1: a.Beta1, beta2: a.Beta2, lr: a.LearningRate, eps: a.Eps,
		corr1: 1 - math.Pow(a.Beta1, float64(a.t)), corr2: 1 - math.Pow(a.Beta2, float64(a.t))}
}

// decay shrinks every weight by rate·w: w ← w - η·λ·w with rate = η·λ.
func decay(w *tensor.Dense, rate float64) {
	switch wd := w.Data().(type) {
	case []float64:
		for j := range wd {
			wd[j] -= rate * wd[j]
		}
	case []float32:
		r := float32(rate)
		for j := range wd {
			wd[j] -= r * wd[j]
		}
	}
}

func adamUpdate(w, g, m, v []float64, k coefficients) {
	omb1, omb2, c1, c2, negEta := 1-k.beta1, 1-k.beta2, 1/k.corr1, 1/k.corr2, -k.lr
	for j := range w {
		m[j] = g[j]*omb1 + m[j]*k.beta1
		v[j] = g[j]*g[j]*omb2 + v[j]*k.beta2
		w[j] += m[j] * c1 * negEta / (math.Sqrt(v[j]*c2) + k.eps)
	}
}

// adamUpdate32 does the arithmetic in float32, as AdamSolver does for float32
// weights; the moments are stored widened to float64, which is exact.
func adamUpdate32(w, g []float32, m, v []float64, k coefficients) {
	b1, b2, omb1, omb2 := float32(k.beta1), float32(k.beta2), float32(1)-float32(k.beta1), float32(1)-float32(k.beta2)
	c1, c2, negEta, eps := float32(1)/float32(k.corr1), float32(1)/float32(k.corr2), -float32(k.lr), float32(k.eps)
	for j := range w {
		mj := g[j]*omb1 + float32(m[j])*b1
		vj := g[j]*g[j]*omb2 + float32(v[j])*b2
		w[j] += mj * c1 * negEta / (float32(math.Sqrt(float64(vj*c2))) + eps)
		m[j], v[j] = float64(mj), float64(vj)
	}
}
