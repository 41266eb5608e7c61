package inference

import (
	"math"
	"testing"

	"itformer/checkpoint"
	"itformer/model"
)

// smallPredictor is the default model's vocabulary and config on a small,
// randomly initialised model (d_model 8, 2 layers), whose answer is a smooth
// function of its input: the place for finite differences.
func smallPredictor(t *testing.T) *Predictor {
	t.Helper()
	base := defaultPredictor(t).Checkpoint()
	c := base.Meta.Model
	c.DModel, c.Heads, c.DFF, c.Layers = 8, 2, 12, 2
	p, err := model.NewParams(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	meta := base.Meta
	meta.Config.Model = c // the config that would make this model
	meta.Config.Model.VocabSize = 0
	dir := t.TempDir()
	if err := checkpoint.Save(dir, meta, p); err != nil {
		t.Fatal(err)
	}
	ck, err := checkpoint.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return New(ck)
}

// attributed resolves sentence and attributes its first answer.
func attributed(t *testing.T, p *Predictor, sentence string) *Prediction {
	t.Helper()
	res, err := p.Resolve(sentence)
	if err != nil {
		t.Fatal(err)
	}
	pr := &res.Predictions[0]
	if err := p.Attribute(pr); err != nil {
		t.Fatal(err)
	}
	return pr
}

// logProbOf runs the answer's log-probability for input vectors x.
func logProbOf(t *testing.T, p *Predictor, pr *Prediction, x []float64) float64 {
	t.Helper()
	n := len(pr.Tokens)
	g, err := model.NewGraph(p.ck.Params, model.GraphOptions{Batch: 1, SeqLen: n, InputGradients: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ids, _ := p.ck.Vocab.Encode(pr.Tokens)
	out, err := g.Run(model.Batch{IDs: ids, Lengths: []int{n}, Pronoun: []int{pr.Pronoun}, Antecedent: []int{pr.Answer}, Vectors: x})
	if err != nil {
		t.Fatal(err)
	}
	return math.Log(out.Probs.Row(0)[pr.Answer])
}

// Gradient × input of word t is the derivative of f along x_t itself:
// GxI_t = d/dε f(X with x_t scaled by 1+ε) at ε = 0, which central
// differences give to about 1e-9 with ε = 1e-5 (truncation ε² times f”',
// rounding 1e-16/ε).
func TestGradientXInputMatchesFiniteDifferences(t *testing.T) {
	p := smallPredictor(t)
	pr := attributed(t, p, "A dog ate the food because it was hungry")
	ids, _ := p.ck.Vocab.Encode(pr.Tokens)
	x, _, err := p.ck.Params.InputVectors(ids)
	if err != nil {
		t.Fatal(err)
	}
	d, eps := p.Config().DModel, 1e-5
	scaled := func(word int, by float64) float64 {
		y := append([]float64(nil), x...)
		for j := word * d; j < (word+1)*d; j++ {
			y[j] *= by
		}
		return logProbOf(t, p, pr, y)
	}
	for word, got := range pr.Attribution.GradientXInput {
		numeric := (scaled(word, 1+eps) - scaled(word, 1-eps)) / (2 * eps)
		if math.Abs(got-numeric) > 1e-7+1e-5*math.Abs(numeric) {
			t.Errorf("word %d (%s): gradient x input %.10g, finite difference %.10g", word, pr.Tokens[word], got, numeric)
		}
	}
}

// Completeness: the integrated gradients add up to f(x) - f(x'). The
// feed-forward's ReLU puts kinks in the path, so the trapezoid rule's error
// shrinks only about as 1/m: on the small model the gap is about 0.03 at
// m = 16 and falls below 1e-3 by m = 1024, which doubling m from
// AttributionSteps reaches; on the trained, saturated default model the
// stated CompletenessTolerance must hold, after doubling where needed.
func TestIntegratedGradientsAreComplete(t *testing.T) {
	small := smallPredictor(t)
	doubled := false
	for _, s := range []string{"A dog ate the food because it was hungry", "The trophy did not fit in the suitcase because it was too big"} {
		pr := attributed(t, small, s)
		if a := pr.Attribution; !a.Complete {
			t.Errorf("small model, %q, m = %d: gap %.3g beyond %g", s, a.Steps, a.Gap, CompletenessTolerance)
		}
		a, err := small.attributeWithin(pr.Tokens, pr.Pronoun, pr.Answer, 1e-3, MaxAttributionSteps)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.Gap) > 1e-3 {
			t.Errorf("small model, %q, m = %d: sum %.6f, f(x) - f(x') = %.6f, gap %.3g > 1e-3", s, a.Steps, a.Sum, a.LogProbability-a.BaselineLogProbability, a.Gap)
		}
		doubled = doubled || a.Steps > AttributionSteps
	}
	if !doubled { // which sentence needs it depends on the small model's training
		t.Errorf("no sentence needed more than %d steps for a gap of 1e-3: the doubling went untested", AttributionSteps)
	}
	p := defaultPredictor(t)
	for _, s := range []string{"A dog ate the food because it was hungry", "A dog ate the food because it was tasty",
		"The trophy did not fit in the suitcase because it was too big", "A mouse hid from the chicken because it was famished"} {
		pr := attributed(t, p, s)
		a := pr.Attribution
		if !a.Complete || math.Abs(a.Gap) > CompletenessTolerance {
			t.Errorf("%q: sum %.4f, f(x) - f(x') = %.4f, gap %.3g beyond %g at m = %d", s, a.Sum, a.LogProbability-a.BaselineLogProbability, a.Gap, CompletenessTolerance, a.Steps)
		}
		if want := math.Log(pr.WordProbs[pr.Answer]); math.Abs(a.LogProbability-want) > 1e-9 {
			t.Errorf("%q: attribution's log P(answer) %.12f, Resolve's %.12f", s, a.LogProbability, want)
		}
		if a.Target != pr.Answer || len(a.IntegratedGradients) != len(pr.Tokens) || a.Steps < AttributionSteps || a.Steps > MaxAttributionSteps {
			t.Errorf("%q: target %d, %d attributions, %d steps", s, a.Target, len(a.IntegratedGradients), a.Steps)
		}
	}
}

// Doubling m reuses the first run's points: T_2m = (T_m + M_m)/2 is the
// trapezoid rule on 2m intervals, so the refined integral must equal a
// direct trapezoid rule on α = k/(2m) (the path's gradients computed
// point by point here, through the same graph).
func TestDoublingIsTheTrapezoidRuleOnTwiceTheSteps(t *testing.T) {
	p := smallPredictor(t)
	pr := attributed(t, p, "A dog ate the food because it was hungry")
	refined, err := p.attributeWithin(pr.Tokens, pr.Pronoun, pr.Answer, 0, 2*AttributionSteps)
	if err != nil {
		t.Fatal(err)
	}
	if refined.Steps != 2*AttributionSteps {
		t.Fatalf("refined to m = %d, want %d", refined.Steps, 2*AttributionSteps)
	}
	direct := directTrapezoid(t, p, pr, 2*AttributionSteps)
	for word, got := range refined.IntegratedGradients {
		if math.Abs(got-direct[word]) > 1e-12*(1+math.Abs(direct[word])) {
			t.Errorf("word %d (%s): refined %.15g, direct trapezoid %.15g", word, pr.Tokens[word], got, direct[word])
		}
	}
}

// directTrapezoid integrates IG by the trapezoid rule on α = k/m, running
// each chunk of AttributionSteps+1 points through runPath.
func directTrapezoid(t *testing.T, p *Predictor, pr *Prediction, m int) []float64 {
	ids, _ := p.ck.Vocab.Encode(pr.Tokens)
	x, base, err := p.ck.Params.InputVectors(ids)
	if err != nil {
		t.Fatal(err)
	}
	path := attributionPath{ids: ids, x: x, base: base, pronoun: pr.Pronoun, target: pr.Answer}
	mean, all := make([]float64, len(x)), uniformAlphas(m)
	for first := 0; first < len(all); first += AttributionSteps + 1 {
		alphas := all[first:min(len(all), first+AttributionSteps+1)]
		p.mu.Lock()
		out, err := p.runPath(path, alphas)
		if err != nil {
			p.mu.Unlock()
			t.Fatal(err)
		}
		for k, alpha := range alphas {
			w := 1.0
			if alpha == 0 || alpha == 1 {
				w = 0.5
			}
			for i := range mean {
				mean[i] += w * out.InputGrad.Data[k*len(x)+i] / float64(m)
			}
		}
		p.mu.Unlock()
	}
	ig := make([]float64, len(ids))
	for i := range x {
		ig[i/(len(x)/len(ids))] += (x[i] - base[i]) * mean[i]
	}
	return ig
}

func TestResolveLeavesAttributionOut(t *testing.T) {
	res, err := defaultPredictor(t).Resolve("A dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	if res.Predictions[0].Attribution != nil {
		t.Error("Resolve computed an attribution; it is left to Attribute")
	}
}
