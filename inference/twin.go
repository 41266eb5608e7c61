package inference

// Twins side by side: two sentences that differ in a word or two ("because
// it was hungry" / "because it was tasty"), each resolved and attributed, and
// their words aligned so that what changed stands out. The alignment is a
// longest common subsequence of the words as typed (what the user changed):
// equal words pair up in order, and the rest are the words that differ
// (replaced, or only in one sentence).

import "fmt"

// Twin compares the first "it" of two sentences.
type Twin struct {
	A *Resolution `json:"a"`
	B *Resolution `json:"b"`
	// Words aligns the two sentences word by word, in order.
	Words []TwinWord `json:"words"`
	// AnswerChanged says the answers are different words, as typed.
	AnswerChanged bool `json:"answer_changed"`
	// ProbabilityChange is P_b(b's answer) - P_a(a's answer).
	ProbabilityChange float64 `json:"probability_change"`
}

// TwinWord is one row of the alignment. A and B are positions in each
// sentence's tokens, -1 where the word is missing from that sentence.
type TwinWord struct {
	A int `json:"a"`
	B int `json:"b"`
	// Differs says the words as typed differ (Resolution.Typed), or one is
	// missing: "puppy" and "dog" differ, though both are read as "dog".
	Differs bool `json:"differs"`
	// Changes from a to b of the word's integrated gradients, gradient x
	// input, rollout (whole encoder) and probability of being the antecedent;
	// a missing word counts as 0.
	IntegratedGradientsChange float64 `json:"integrated_gradients_change"`
	GradientXInputChange      float64 `json:"gradient_x_input_change"`
	RolloutChange             float64 `json:"rollout_change"`
	ProbabilityChange         float64 `json:"probability_change"`
}

// Twins resolves and attributes both sentences and aligns them.
func (p *Predictor) Twins(a, b string) (*Twin, error) {
	ra, err := p.resolveAttributed(a)
	if err != nil {
		return nil, fmt.Errorf("sentence A: %w", err)
	}
	rb, err := p.resolveAttributed(b)
	if err != nil {
		return nil, fmt.Errorf("sentence B: %w", err)
	}
	pa, pb := ra.Predictions[0], rb.Predictions[0]
	tw := &Twin{A: ra, B: rb, AnswerChanged: pa.TypedAnswer != pb.TypedAnswer,
		ProbabilityChange: pb.WordProbs[pb.Answer] - pa.WordProbs[pa.Answer]}
	for _, pair := range align(ra.Typed, rb.Typed) {
		tw.Words = append(tw.Words, compareWord(pa, pb, pair[0], pair[1]))
	}
	return tw, nil
}

// resolveAttributed resolves sentence and attributes its first answer.
func (p *Predictor) resolveAttributed(sentence string) (*Resolution, error) {
	res, err := p.Resolve(sentence)
	if err != nil {
		return nil, err
	}
	return res, p.Attribute(&res.Predictions[0])
}

func compareWord(pa, pb Prediction, i, j int) TwinWord {
	w := TwinWord{A: i, B: j, Differs: i < 0 || j < 0 || pa.Typed[i] != pb.Typed[j]}
	at := func(p Prediction, k int, values []float64) float64 {
		if k < 0 {
			return 0
		}
		return values[k]
	}
	change := func(of func(Prediction) []float64) float64 { return at(pb, j, of(pb)) - at(pa, i, of(pa)) }
	w.IntegratedGradientsChange = change(func(p Prediction) []float64 { return p.Attribution.IntegratedGradients })
	w.GradientXInputChange = change(func(p Prediction) []float64 { return p.Attribution.GradientXInput })
	w.RolloutChange = change(func(p Prediction) []float64 { return p.Rollout[len(p.Rollout)-1] })
	w.ProbabilityChange = change(func(p Prediction) []float64 { return p.WordProbs })
	return w
}

// align pairs the tokens of a and b along a longest common subsequence;
// an unmatched word pairs with the other side's unmatched word at the same
// place if there is one (a replacement), else with -1.
func align(a, b []string) [][2]int {
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out [][2]int
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case i < len(a) && j < len(b) && lcs[i+1][j+1] == lcs[i][j]:
			out = append(out, [2]int{i, j}) // replaced
			i, j = i+1, j+1
		case j == len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, [2]int{i, -1})
			i++
		default:
			out = append(out, [2]int{-1, j})
			j++
		}
	}
	return out
}
