package inference

// Attribution: which words decided the answer. For the answer a and the
// input vectors X (one row x_t = embedding·sqrt(d_model) + position per word),
// f(X) = log P(a | X), and every gradient is Gorgonia's autodiff of the
// model's graph with X as a fed node (model/inputgrad.go):
//
//	gradient × input   GxI_t = Σ_d X[t,d] · ∂f/∂X[t,d] (X)
//	integrated grads   IG_t  = Σ_d (X − X')[t,d] · ∫_0^1 ∂f/∂X[t,d] (X' + α(X − X')) dα
//	                   (Sundararajan et al., 2017), the integral by the
//	                   trapezoid rule on α = k/m, k = 0..m (AttributionSteps = m)
//	completeness       Σ_t IG_t = f(X) − f(X'), up to the rule's error
//
// The baseline X' keeps every word's position and drops its meaning: row t is
// the positional encoding PE[t] alone, as if the word's embedding were a zero
// vector. A zero baseline for the whole of X would also remove where the words
// stand, and the model cannot read an all-zero sentence as "no words"; the
// question here is which word's meaning moved the answer, so only the
// meanings are integrated. IG_t is then word t's share of the change in the
// answer's log-probability from "no words, same positions" to the sentence.
// GxI is the one-step, local reading (the gradient at the sentence itself,
// times the whole input vector, position included).
//
// The m+1 path points run as the rows of one batch, so IG costs one forward
// and backward pass of an (m+1)-sentence batch; Resolve never pays it.

import (
	"fmt"
	"math"

	"itformer/model"
)

// AttributionSteps is m, the number of trapezoid intervals on the path.
const AttributionSteps = 64

// CompletenessTolerance bounds |Σ IG − (f(X) − f(X'))|, in nats, for
// Attribution.Complete: a path with a sharp step (a saturated softmax
// flipping) is integrated less exactly by a fixed rule, and the output
// says so instead of hiding it.
const CompletenessTolerance = 0.05

// AttributionRule is the definition the -json output carries.
const AttributionRule = "f = log P(answer); gradient_x_input[t] = sum_d x[t,d] * df/dx[t,d]; " +
	"integrated_gradients[t] = sum_d (x - x')[t,d] * mean of df/dx[t,d] over the path x' + alpha (x - x'), " +
	"alpha = k/m, k = 0..m, trapezoid rule; x[t] = word t's embedding * sqrt(d_model) + its positional encoding; " +
	"baseline x'[t] = the positional encoding alone (no word, same position); " +
	"completeness: sum of integrated_gradients = log_probability - baseline_log_probability, within completeness_tolerance"

// Attribution is one answer's attribution to the words of its sentence.
type Attribution struct {
	Target   int    `json:"target"`   // position of the word whose log-probability is explained: the answer
	Baseline string `json:"baseline"` // what x' is, in words
	Steps    int    `json:"steps"`    // m, trapezoid intervals from x' to x
	// LogProbability is f(x) = log P(target), BaselineLogProbability f(x').
	LogProbability         float64 `json:"log_probability"`
	BaselineLogProbability float64 `json:"baseline_log_probability"`
	// GradientXInput[t] and IntegratedGradients[t] are word t's attributions, in nats.
	GradientXInput      []float64 `json:"gradient_x_input"`
	IntegratedGradients []float64 `json:"integrated_gradients"`
	// Sum is Σ_t IntegratedGradients[t]; Gap is Sum − (LogProbability −
	// BaselineLogProbability); Complete is |Gap| <= Tolerance.
	Sum       float64 `json:"integrated_gradients_sum"`
	Gap       float64 `json:"completeness_gap"`
	Tolerance float64 `json:"completeness_tolerance"`
	Complete  bool    `json:"complete"`
	// answerProbs is P(word) at the sentence, the path's last point.
	answerProbs []float64
}

const baselineText = "every word's embedding replaced by zeros, its positional encoding kept"

// Attribute computes pr's Attribution, for its answer, and stores it in
// pr.Attribution. It runs the (AttributionSteps+1)-row input-gradient graph
// for the sentence's length, built on first use and kept.
func (p *Predictor) Attribute(pr *Prediction) error {
	return p.attribute(pr, AttributionSteps)
}

// attribute integrates with m steps; only m = AttributionSteps keeps its graph.
func (p *Predictor) attribute(pr *Prediction, m int) error {
	a, err := p.attributeTokens(pr.Tokens, pr.Pronoun, pr.Answer, m)
	if err != nil {
		return err
	}
	pr.Attribution = a
	return nil
}

// attributeTokens attributes log P(target) for the pronoun at pronoun in tokens.
func (p *Predictor) attributeTokens(tokens []string, pronoun, target, m int) (*Attribution, error) {
	ids, _ := p.ck.Vocab.Encode(tokens)
	x, base, err := p.ck.Params.InputVectors(ids)
	if err != nil {
		return nil, err
	}
	n := len(ids)
	b := model.Batch{Vectors: pathPoints(x, base, m)}
	for k := 0; k <= m; k++ {
		b.IDs, b.Lengths = append(b.IDs, ids...), append(b.Lengths, n)
		b.Pronoun, b.Antecedent = append(b.Pronoun, pronoun), append(b.Antecedent, target)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	cache := p.attribution
	if m != AttributionSteps {
		cache = map[int]*model.Graph{}
		defer func() {
			if g := cache[n]; g != nil {
				g.Close()
			}
		}()
	}
	g, err := p.graph(cache, n, model.GraphOptions{Batch: m + 1, SeqLen: n, InputGradients: true, Ablate: p.ablate})
	if err != nil {
		return nil, err
	}
	out, err := g.Run(b)
	if err != nil {
		return nil, err
	}
	return attribution(out, x, base, target, n)
}

// pathPoints lays out X' + (k/m)(X − X'), k = 0..m, as the rows of one batch.
func pathPoints(x, base []float64, m int) []float64 {
	out := make([]float64, 0, (m+1)*len(x))
	for k := 0; k <= m; k++ {
		alpha := float64(k) / float64(m)
		for i := range x {
			out = append(out, base[i]+alpha*(x[i]-base[i]))
		}
	}
	return out
}

// attribution reads the path's gradients: row 0 is the baseline, row m the sentence.
func attribution(out *model.Output, x, base []float64, target, n int) (*Attribution, error) {
	m := len(out.Lengths) - 1
	if err := finite("the attribution's gradients", out.InputGrad.Data); err != nil {
		return nil, err
	}
	d := len(x) / n
	a := &Attribution{Target: target, Baseline: baselineText, Steps: m, Tolerance: CompletenessTolerance,
		LogProbability:         math.Log(out.Probs.Row(m)[target]),
		BaselineLogProbability: math.Log(out.Probs.Row(0)[target]),
		GradientXInput:         make([]float64, n), IntegratedGradients: make([]float64, n),
		answerProbs: append([]float64(nil), out.Probs.Row(m)[:n]...)}
	for t := 0; t < n; t++ {
		for j := 0; j < d; j++ {
			i := t*d + j
			a.GradientXInput[t] += x[i] * out.InputGrad.Row(m, t)[j]
			a.IntegratedGradients[t] += (x[i] - base[i]) * trapezoidMean(out.InputGrad, t, j)
		}
		a.Sum += a.IntegratedGradients[t]
	}
	a.Gap = a.Sum - (a.LogProbability - a.BaselineLogProbability)
	a.Complete = math.Abs(a.Gap) <= a.Tolerance
	if math.IsInf(a.LogProbability, 0) || math.IsInf(a.BaselineLogProbability, 0) {
		return nil, fmt.Errorf("the answer's probability underflows to 0 on the attribution path: %w", ErrBrokenModel)
	}
	return a, nil
}

// trapezoidMean is (1/m) Σ_k w_k g_k[t, j] with w_0 = w_m = 1/2, else 1:
// the mean of the gradient over the path by the trapezoid rule.
func trapezoidMean(g model.Tensor, t, j int) float64 {
	m := g.Shape[0] - 1
	sum := (g.Row(0, t)[j] + g.Row(m, t)[j]) / 2
	for k := 1; k < m; k++ {
		sum += g.Row(k, t)[j]
	}
	return sum / float64(m)
}
