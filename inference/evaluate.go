package inference

// Measuring the explanations on labelled sentences (cmd/explaineval):
//
//   - accuracy: the model's most probable word is the antecedent (as training
//     reports it), with the whole model and with each head knocked out;
//   - attention: the pronoun's strongest weight, among the words other than
//     itself, falls on the antecedent, for every head and for the rollout
//     (whose own-word share, from the identity added at every layer, would
//     otherwise win almost always);
//   - attribution: the word with the largest integrated gradients (or
//     gradient × input) for the model's answer is a deciding word (the
//     predicate's words and "not"); the same among the words that are not a
//     candidate noun; and the share whose attributions pass the
//     completeness check.
//
// Batched forward passes give accuracy and attention; attribution runs one
// integrated-gradients batch per sentence, so AttributionLimit can cap it.

import (
	"fmt"
	"math"
	"slices"
	"time"

	"itformer/data"
	"itformer/model"
)

// SetExplanations is one labelled set's figures. Shares are in [0, 1].
type SetExplanations struct {
	Name     string  `json:"name"`
	N        int     `json:"sentences"`
	Accuracy float64 `json:"accuracy"`
	// AblatedAccuracy[l][h] is the accuracy with head (l, h) knocked out.
	AblatedAccuracy [][]float64 `json:"ablated_accuracy"`
	// HeadOnAntecedent[l][h]: the head's strongest weight from the pronoun,
	// itself excluded, is on the antecedent; RolloutOnAntecedent the same
	// for the whole encoder's rollout.
	HeadOnAntecedent    [][]float64        `json:"head_on_antecedent"`
	RolloutOnAntecedent float64            `json:"rollout_on_antecedent"`
	Attribution         AttributionFigures `json:"attribution"`
}

// AttributionFigures measure the attributions of the model's answers.
type AttributionFigures struct {
	N int `json:"sentences"` // attributed (at most the evaluation's limit)
	// Top word overall on a deciding word, and on a candidate noun; and the
	// top word among the non-candidates on a deciding word.
	IGOnDeciding           float64 `json:"integrated_gradients_top_on_deciding"`
	IGOnCandidate          float64 `json:"integrated_gradients_top_on_candidate"`
	IGRestOnDeciding       float64 `json:"integrated_gradients_top_non_candidate_on_deciding"`
	GxIOnDeciding          float64 `json:"gradient_x_input_top_on_deciding"`
	GxIOnCandidate         float64 `json:"gradient_x_input_top_on_candidate"`
	GxIRestOnDeciding      float64 `json:"gradient_x_input_top_non_candidate_on_deciding"`
	Complete               float64 `json:"complete"`                  // |gap| <= tolerance
	MeanAbsGap             float64 `json:"mean_abs_completeness_gap"` // nats
	MaxAbsGap              float64 `json:"max_abs_completeness_gap"`
	MeanSteps              float64 `json:"mean_steps"`                // m, trapezoid intervals, after doubling
	MeanSecondsPerSentence float64 `json:"mean_seconds_per_sentence"` // wall-clock cost of one sentence's attribution
}

// EvalBatch is the batch size of the evaluation's forward passes.
const EvalBatch = 100

// ExplainSet measures set on the whole model and under every single-head
// ablation; attributionLimit > 0 attributes only the first that many
// sentences. Accuracy and attention ignore the Predictor's own ablation
// (Ablate); attribution, like Attribute, uses it.
func (p *Predictor) ExplainSet(name string, set []data.Example, attributionLimit int) (SetExplanations, error) {
	c := p.Config()
	e := SetExplanations{Name: name, N: len(set)}
	if len(set) == 0 {
		return e, fmt.Errorf("set %s has no sentences", name)
	}
	var err error
	if e.Accuracy, e.HeadOnAntecedent, e.RolloutOnAntecedent, err = p.forwardFigures(set, nil); err != nil {
		return e, err
	}
	for l := 0; l < c.Layers; l++ {
		e.AblatedAccuracy = append(e.AblatedAccuracy, make([]float64, c.Heads))
		for h := 0; h < c.Heads; h++ {
			if e.AblatedAccuracy[l][h], _, _, err = p.forwardFigures(set, []model.Head{{Layer: l, Head: h}}); err != nil {
				return e, err
			}
		}
	}
	if attributionLimit > 0 && attributionLimit < len(set) {
		set = set[:attributionLimit]
	}
	start := time.Now()
	e.Attribution, err = p.attributionFigures(set)
	e.Attribution.MeanSecondsPerSentence = time.Since(start).Seconds() / float64(len(set))
	return e, err
}

// forwardFigures runs set through batched forward graphs with heads ablated.
func (p *Predictor) forwardFigures(set []data.Example, ablate []model.Head) (acc float64, heads [][]float64, roll float64, err error) {
	seqLen := 0
	for _, ex := range set {
		seqLen = max(seqLen, len(ex.Tokens))
	}
	batches, err := data.Batches(set, p.ck.Vocab, EvalBatch, seqLen, nil, false)
	if err != nil {
		return 0, nil, 0, err
	}
	g, err := model.NewGraph(p.ck.Params, model.GraphOptions{Batch: EvalBatch, SeqLen: seqLen, Attention: true, Ablate: ablate})
	if err != nil {
		return 0, nil, 0, err
	}
	defer g.Close()
	t := newForwardTally(p.Config())
	for _, b := range batches {
		out, err := g.Run(model.Batch{IDs: b.IDs, Lengths: b.Lengths, Pronoun: b.Pronoun})
		if err == nil {
			err = checkResolved(out)
		}
		if err != nil {
			return 0, nil, 0, err
		}
		for r, ex := range b.Examples {
			t.add(out, r, b.Lengths[r], ex, ablate)
		}
	}
	acc, heads, roll = t.shares(len(set))
	return acc, heads, roll, nil
}

// forwardTally counts the sentences whose answer is right (correct), whose
// rollout (rolled) and each head's attention (heads[l][h]) point from the
// pronoun to the antecedent.
type forwardTally struct {
	correct, rolled int
	heads           [][]float64
}

func newForwardTally(c model.Config) *forwardTally {
	heads := make([][]float64, c.Layers)
	for l := range heads {
		heads[l] = make([]float64, c.Heads)
	}
	return &forwardTally{heads: heads}
}

// add counts example ex, row r of out with its n real words.
func (t *forwardTally) add(out *model.Output, r, n int, ex data.Example, ablate []model.Head) {
	if model.ArgMax(out.Probs.Row(r)[:n]) == ex.Antecedent {
		t.correct++
	}
	att := sentenceAttention(out, r, n)
	for l := range t.heads {
		for h := range t.heads[l] {
			if strongestOther(att[l][h][ex.Pronoun], ex.Pronoun) == ex.Antecedent {
				t.heads[l][h]++
			}
		}
	}
	rows := rollout(att, ablate, ex.Pronoun)
	if strongestOther(rows[len(rows)-1], ex.Pronoun) == ex.Antecedent {
		t.rolled++
	}
}

// shares turns the counts over n sentences into shares; heads is divided in
// place.
func (t *forwardTally) shares(n int) (acc float64, heads [][]float64, roll float64) {
	total := float64(n)
	for l := range t.heads {
		for h := range t.heads[l] {
			t.heads[l][h] /= total
		}
	}
	return float64(t.correct) / total, t.heads, float64(t.rolled) / total
}

// sentenceAttention is row r's attention, [l][h][i][j] over its n real words.
func sentenceAttention(out *model.Output, r, n int) [][][][]float64 {
	att := make([][][][]float64, len(out.Attention))
	for l, a := range out.Attention {
		att[l] = make([][][]float64, a.Shape[1])
		for h := range att[l] {
			for i := 0; i < n; i++ {
				att[l][h] = append(att[l][h], a.Row(r, h, i)[:n])
			}
		}
	}
	return att
}

// strongestOther is the position of the largest weight other than skip's.
func strongestOther(row []float64, skip int) int {
	best := -1
	for j, w := range row {
		if j != skip && (best < 0 || w > row[best]) {
			best = j
		}
	}
	return best
}

// attributionFigures attributes the model's answer in every sentence of set.
func (p *Predictor) attributionFigures(set []data.Example) (AttributionFigures, error) {
	f := AttributionFigures{N: len(set)}
	for _, ex := range set {
		a, err := p.attributeExample(ex)
		if err != nil {
			return f, fmt.Errorf("%q: %w", ex.Text, err)
		}
		count := func(share *float64, hit bool) {
			if hit {
				*share++
			}
		}
		igTop, gxiTop := topWord(a.IntegratedGradients, nil), topWord(a.GradientXInput, nil)
		cands := ex.Candidates[:]
		count(&f.IGOnDeciding, slices.Contains(ex.Deciding, igTop))
		count(&f.IGOnCandidate, slices.Contains(cands, igTop))
		count(&f.IGRestOnDeciding, slices.Contains(ex.Deciding, topWord(a.IntegratedGradients, cands)))
		count(&f.GxIOnDeciding, slices.Contains(ex.Deciding, gxiTop))
		count(&f.GxIOnCandidate, slices.Contains(cands, gxiTop))
		count(&f.GxIRestOnDeciding, slices.Contains(ex.Deciding, topWord(a.GradientXInput, cands)))
		count(&f.Complete, a.Complete)
		f.MeanAbsGap += math.Abs(a.Gap)
		f.MeanSteps += float64(a.Steps)
		f.MaxAbsGap = max(f.MaxAbsGap, math.Abs(a.Gap))
	}
	n := float64(max(1, len(set)))
	for _, share := range []*float64{&f.IGOnDeciding, &f.IGOnCandidate, &f.IGRestOnDeciding, &f.GxIOnDeciding,
		&f.GxIOnCandidate, &f.GxIRestOnDeciding, &f.Complete, &f.MeanAbsGap, &f.MeanSteps} {
		*share /= n
	}
	return f, nil
}

// attributeExample attributes the model's answer (its most probable word)
// for a labelled sentence, read from its tokens.
func (p *Predictor) attributeExample(ex data.Example) (*Attribution, error) {
	if len(ex.Tokens) > p.Config().MaxLen || ex.Pronoun < 0 || ex.Pronoun >= len(ex.Tokens) {
		return nil, fmt.Errorf("sentence does not fit the model (%d tokens, pronoun at %d)", len(ex.Tokens), ex.Pronoun)
	}
	// The answer first: the attribution's last path point is the sentence,
	// so a one-step run would do, but the m-step run gives it anyway.
	a, err := p.attributeTokens(ex.Tokens, ex.Pronoun, ex.Antecedent)
	if err != nil {
		return nil, err
	}
	answer := model.ArgMax(a.answerProbs)
	if answer == ex.Antecedent {
		return a, nil
	}
	return p.attributeTokens(ex.Tokens, ex.Pronoun, answer)
}

// topWord is the position of the largest value, skipping positions in skip.
func topWord(values []float64, skip []int) int {
	best := -1
	for j, v := range values {
		if !slices.Contains(skip, j) && (best < 0 || v > values[best]) {
			best = j
		}
	}
	return best
}
