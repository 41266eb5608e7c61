package inference

// Selective accuracy (Geifman & El-Yaniv 2017): a model that may say "this
// is a guess" is judged by two numbers, how many answers it states as facts
// (coverage) and how often those are right (selective accuracy). Ranking
// the answers by a confidence score and keeping the top share c of them
// gives the risk-coverage curve: the error rate among the kept answers as c
// goes from the surest answer alone to all of them.

import (
	"fmt"
	"sort"

	"itformer/data"
)

// Scored is one answered sentence: whether the shown answer is right, whether
// it is flagged as a guess, whether every member gave it, and its confidence
// score.
type Scored struct {
	Right, Guess, Unanimous bool
	// Besides is whether a condition other than the share flags it.
	Besides bool
	// Score ranks answers for the risk-coverage curve: the members' mean
	// share of the candidates' probability for the shown answer (one
	// model: its share).
	Score float64
}

// Selective sums up a set's scored answers.
type Selective struct {
	Name     string  `json:"name"`
	N        int     `json:"sentences"`
	Accuracy float64 `json:"accuracy"` // of every shown answer
	Coverage float64 `json:"coverage"` // the share not flagged as guesses
	// SelectiveAccuracy is how often the answers not flagged are right
	// (NaN-free: 0 when every answer is a guess, with Coverage 0).
	SelectiveAccuracy float64 `json:"selective_accuracy"`
	Unanimous         float64 `json:"unanimous"` // the share every member answers alike (1 for one model)
	// Temperature is the one the shares were scaled to (selective
	// -temperature), 0 for none.
	Temperature float64 `json:"temperature,omitempty"`
	// Groups are the same figures for each part of the set, when it is split
	// (selective -by frame: one per frame), sorted by name.
	Groups []Selective `json:"groups,omitempty"`
	// Misses are some of the set's wrongly answered sentences, when asked
	// for (selective -misses), in the set's order.
	Misses []Miss `json:"misses,omitempty"`
}

// Miss is a sentence whose shown answer is wrong.
type Miss struct {
	Text  string `json:"text"`
	Right string `json:"right"` // the noun "it" refers to
	Guess bool   `json:"guess"` // the wrong answer was flagged as a guess
	// Share is the members' mean share of the candidates' probability for
	// the wrong answer (Scored.Score).
	Share float64 `json:"share"`
}

// ScoreExample resolves ex's pronoun and scores the shown answer.
func (p *Predictor) ScoreExample(ex data.Example) (Scored, error) {
	r, err := p.Resolve(ex.Text)
	if err != nil {
		return Scored{}, fmt.Errorf("%q: %w", ex.Text, err)
	}
	for _, pr := range r.Predictions {
		if pr.Pronoun == ex.Pronoun {
			return scored(pr, pr.Answer == ex.Antecedent), nil
		}
	}
	return Scored{}, fmt.Errorf("%q: no answer for the pronoun at word %d", ex.Text, ex.Pronoun+1)
}

// scored is pr's entry; right says whether its answer is the right one.
func scored(pr Prediction, right bool) Scored {
	c := pr.Confidence
	return Scored{Right: right, Guess: c.Guess, Unanimous: c.Members.Unanimous(), Besides: c.flaggedBesidesShare(), Score: c.Share()}
}

// AtTemperature is all with every share scaled to temperature t
// (ScaleShare) and the guess rule applied to the scaled share.
func AtTemperature(all []Scored, t float64) []Scored {
	out := make([]Scored, len(all))
	for i, s := range all {
		s.Score = ScaleShare(s.Score, t)
		s.Guess = guessAt(s.Score, s.Besides)
		out[i] = s
	}
	return out
}

// EvaluateSelective scores every sentence of set, in order.
func (p *Predictor) EvaluateSelective(name string, set []data.Example) (Selective, []Scored, error) {
	all := make([]Scored, 0, len(set))
	for _, ex := range set {
		s, err := p.ScoreExample(ex)
		if err != nil {
			return Selective{Name: name, N: len(set)}, nil, fmt.Errorf("set %s: %w", name, err)
		}
		all = append(all, s)
	}
	return Summarize(name, all), all, nil
}

// Summarize sums up scored answers as the set called name.
func Summarize(name string, all []Scored) Selective {
	sel := Selective{Name: name, N: len(all)}
	var right, covered, coveredRight, unanimous int
	for _, s := range all {
		right += b2i(s.Right)
		unanimous += b2i(s.Unanimous)
		if !s.Guess {
			covered++
			coveredRight += b2i(s.Right)
		}
	}
	if sel.N > 0 {
		sel.Accuracy, sel.Coverage, sel.Unanimous = ratio(right, sel.N), ratio(covered, sel.N), ratio(unanimous, sel.N)
	}
	if covered > 0 {
		sel.SelectiveAccuracy = ratio(coveredRight, covered)
	}
	return sel
}

// RiskCoverage is the curve's points: Risk[i] is the error rate among the
// Coverage[i] share of answers with the highest scores (ties kept together).
func RiskCoverage(all []Scored) (coverage, risk []float64) {
	s := append([]Scored(nil), all...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Score > s[j].Score })
	wrong := 0
	for i, x := range s {
		wrong += b2i(!x.Right)
		if i+1 < len(s) && s[i+1].Score == x.Score {
			continue
		}
		coverage = append(coverage, ratio(i+1, len(s)))
		risk = append(risk, ratio(wrong, i+1))
	}
	return coverage, risk
}

func ratio(a, b int) float64 { return float64(a) / float64(b) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
