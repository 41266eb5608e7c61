package inference

// Attribution: which words decided the answer. For the answer a and the
// input vectors X (one row x_t = embedding·sqrt(d_model) + position per word),
// f(X) = log P(a | X), and every gradient is Gorgonia's autodiff of the
// model's graph with X as a fed node (model/inputgrad.go):
//
//	gradient × input   GxI_t = Σ_d X[t,d] · ∂f/∂X[t,d] (X)
//	integrated grads   IG_t  = Σ_d (X − X')[t,d] · ∫_0^1 ∂f/∂X[t,d] (X' + α(X − X')) dα
//	                   (Sundararajan et al., 2017), the integral by the
//	                   trapezoid rule on α = k/m, k = 0..m (m = AttributionSteps,
//	                   doubled while the completeness gap is beyond tolerance)
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
// and backward pass of an (m+1)-sentence batch, and a doubling of m one more
// such pass per AttributionSteps+1 new points; Resolve never pays it.

import (
	"fmt"
	"math"

	"itformer/model"
)

// AttributionSteps is m's first value, the number of trapezoid intervals on
// the path: the m+1 points run as one batch through a kept graph.
const AttributionSteps = 64

// MaxAttributionSteps caps m. While the completeness gap exceeds the
// tolerance, m is doubled: T_2m = (T_m + M_m)/2, where M_m is the midpoint
// rule's mean on m's intervals, so each doubling runs only the m new
// midpoints, through the same kept graph, AttributionSteps+1 at a time.
const MaxAttributionSteps = 1024

// CompletenessTolerance bounds |Σ IG − (f(X) − f(X'))|, in nats, for
// Attribution.Complete: a path with a sharp step (a saturated softmax
// flipping) is integrated less exactly by a fixed rule, so m is doubled
// until the gap is within it, and an output beyond it at MaxAttributionSteps
// says so instead of hiding it.
const CompletenessTolerance = 0.05

// AttributionRule is the definition the -json output carries.
const AttributionRule = "f = log P(answer); gradient_x_input[t] = sum_d x[t,d] * df/dx[t,d]; " +
	"integrated_gradients[t] = sum_d (x - x')[t,d] * mean of df/dx[t,d] over the path x' + alpha (x - x'), " +
	"alpha = k/m, k = 0..m, trapezoid rule, m = 64, doubled up to 1024 while the completeness gap exceeds completeness_tolerance; " +
	"x[t] = word t's embedding * sqrt(d_model) + its positional encoding; " +
	"baseline x'[t] = the positional encoding alone (no word, same position); " +
	"completeness: sum of integrated_gradients = log_probability - baseline_log_probability, within completeness_tolerance"

// Attribution is one answer's attribution to the words of its sentence.
type Attribution struct {
	Target   int    `json:"target"`   // position of the word whose log-probability is explained: the answer
	Baseline string `json:"baseline"` // what x' is, in words
	Steps    int    `json:"steps"`    // m, trapezoid intervals from x' to x (64 to 1024)
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
// for the sentence's length, built on first use and kept: once, or up to 16
// times where the path needs more steps.
func (p *Predictor) Attribute(pr *Prediction) error {
	a, err := p.member(pr).attributeTokens(pr.Tokens, pr.Pronoun, pr.Answer)
	if err != nil {
		return err
	}
	pr.Attribution = a
	return nil
}

// attributionPath is what the path's runs share: the sentence's ids, its
// input vectors x and the baseline x' (n·d each), the pronoun and the target.
type attributionPath struct {
	ids             []int
	x, base         []float64
	pronoun, target int
}

// attributeTokens attributes log P(target) for the pronoun at pronoun in
// tokens, within CompletenessTolerance where MaxAttributionSteps allow.
func (p *Predictor) attributeTokens(tokens []string, pronoun, target int) (*Attribution, error) {
	return p.attributeWithin(tokens, pronoun, target, CompletenessTolerance, MaxAttributionSteps)
}

// attributeWithin doubles m from AttributionSteps until |gap| <= tolerance
// or m = maxSteps.
func (p *Predictor) attributeWithin(tokens []string, pronoun, target int, tolerance float64, maxSteps int) (*Attribution, error) {
	ids, _ := p.ck.Vocab.Encode(tokens)
	x, base, err := p.ck.Params.InputVectors(ids)
	if err != nil {
		return nil, err
	}
	path := attributionPath{ids: ids, x: x, base: base, pronoun: pronoun, target: target}
	p.mu.Lock()
	defer p.mu.Unlock()
	out, err := p.runPath(path, uniformAlphas(AttributionSteps))
	if err != nil {
		return nil, err
	}
	a, mean, err := attribution(out, path, tolerance)
	for m := AttributionSteps; err == nil && !a.Complete && m < maxSteps; m *= 2 {
		var mid []float64
		if mid, err = p.midpointMean(path, m); err == nil {
			for i := range mean {
				mean[i] = (mean[i] + mid[i]) / 2
			}
			a.integrate(path, mean, 2*m)
		}
	}
	return a, err
}

// uniformAlphas is k/m, k = 0..m: the trapezoid rule's points.
func uniformAlphas(m int) []float64 {
	alphas := make([]float64, m+1)
	for k := range alphas {
		alphas[k] = float64(k) / float64(m)
	}
	return alphas
}

// runPath runs the kept input-gradient graph on the path points at alphas
// (at most AttributionSteps+1; the rest of the batch repeats the last).
// The caller holds p.mu and reads the output before the next run.
func (p *Predictor) runPath(path attributionPath, alphas []float64) (*model.Output, error) {
	n, rows := len(path.ids), AttributionSteps+1
	g, err := p.graph(attributionGraph, model.GraphOptions{Batch: rows, SeqLen: n, InputGradients: true, Ablate: p.ablate, HeadGates: p.gated})
	if err != nil {
		return nil, err
	}
	b := model.Batch{Vectors: make([]float64, 0, rows*len(path.x))}
	for k := 0; k < rows; k++ {
		alpha := alphas[min(k, len(alphas)-1)]
		for i, xi := range path.x {
			b.Vectors = append(b.Vectors, path.base[i]+alpha*(xi-path.base[i]))
		}
		b.IDs, b.Lengths = append(b.IDs, path.ids...), append(b.Lengths, n)
		b.Pronoun, b.Antecedent = append(b.Pronoun, path.pronoun), append(b.Antecedent, path.target)
	}
	out, err := g.Run(b)
	if err != nil {
		return nil, err
	}
	return out, finite("the attribution's gradients", out.InputGrad.Data)
}

// midpointMean is M_m: the mean gradient, entry by entry, at the midpoints
// α = (2k+1)/(2m), k = 0..m-1, run AttributionSteps+1 at a time.
func (p *Predictor) midpointMean(path attributionPath, m int) ([]float64, error) {
	mean := make([]float64, len(path.x))
	for first := 0; first < m; first += AttributionSteps + 1 {
		var alphas []float64
		for k := first; k < min(m, first+AttributionSteps+1); k++ {
			alphas = append(alphas, float64(2*k+1)/float64(2*m))
		}
		out, err := p.runPath(path, alphas)
		if err != nil {
			return nil, err
		}
		for k := range alphas {
			for i, g := range out.InputGrad.Data[k*len(mean) : (k+1)*len(mean)] {
				mean[i] += g / float64(m)
			}
		}
	}
	return mean, nil
}

// attribution reads the first run of the path (α = k/m, k = 0..m; row 0 is
// the baseline, row m the sentence) and returns the attribution with its
// trapezoid mean gradient per entry of x, which refinements update.
func attribution(out *model.Output, path attributionPath, tolerance float64) (*Attribution, []float64, error) {
	m, n := len(out.Lengths)-1, len(path.ids)
	d := len(path.x) / n
	a := &Attribution{Target: path.target, Baseline: baselineText, Tolerance: tolerance,
		LogProbability:         math.Log(out.Probs.Row(m)[path.target]),
		BaselineLogProbability: math.Log(out.Probs.Row(0)[path.target]),
		GradientXInput:         make([]float64, n),
		answerProbs:            append([]float64(nil), out.Probs.Row(m)[:n]...)}
	if math.IsInf(a.LogProbability, 0) || math.IsInf(a.BaselineLogProbability, 0) {
		return nil, nil, fmt.Errorf("the answer's probability underflows to 0 on the attribution path: %w", ErrBrokenModel)
	}
	mean := make([]float64, len(path.x))
	for t := 0; t < n; t++ {
		for j := 0; j < d; j++ {
			i := t*d + j
			a.GradientXInput[t] += path.x[i] * out.InputGrad.Row(m, t)[j]
			mean[i] = trapezoidMean(out.InputGrad, t, j)
		}
	}
	a.integrate(path, mean, m)
	return a, mean, nil
}

// integrate sets IG_t = Σ_d (x − x')[t,d] · mean[t,d] on m intervals, the
// sum, the gap and whether it is complete.
func (a *Attribution) integrate(path attributionPath, mean []float64, m int) {
	n := len(path.ids)
	d := len(path.x) / n
	a.Steps, a.Sum, a.IntegratedGradients = m, 0, make([]float64, n)
	for t := 0; t < n; t++ {
		for j := 0; j < d; j++ {
			i := t*d + j
			a.IntegratedGradients[t] += (path.x[i] - path.base[i]) * mean[i]
		}
		a.Sum += a.IntegratedGradients[t]
	}
	a.Gap = a.Sum - (a.LogProbability - a.BaselineLogProbability)
	a.Complete = math.Abs(a.Gap) <= a.Tolerance
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
