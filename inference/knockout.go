package inference

// What decided? The head trained to point from the pronoun to its antecedent
// looks at the answer, but looking is not deciding: KnockOut runs the sentence
// once more with that head ablated (ablation.go) and says whether the answer
// survives. On the default model it does, which is the lesson the pictures
// alone hide.

import (
	"fmt"
	"slices"

	"itformer/model"
)

// Knockout is what knocking out the supervised head does to one answer.
type Knockout struct {
	Head        string  `json:"head"`         // the head knocked out, "L2H1"
	AnswerWord  string  `json:"answer_word"`  // the answer without it, as the model read it
	TypedAnswer string  `json:"typed_answer"` // the same as typed (Candidate.Typed)
	Answer      int     `json:"answer"`       // its token position
	Probability float64 `json:"probability"`  // the answer's probability without it
	// Before is the probability of the prediction's own answer with every
	// head in (or with only the heads -ablate names out).
	Before float64 `json:"before"`
	// Rests is "changes", "weakens" or "holds": see KnockoutRule.
	Rests string `json:"rests"`
	head  model.Head
}

// Weakened is the drop in the answer's probability, in probability points,
// from which a knockout that keeps the answer is said to weaken it.
const Weakened = 0.10

// KnockoutRule is the definition the -json output carries.
const KnockoutRule = "knockout is the answer with the supervised head (the one trained to point at the antecedent) also knocked out, " +
	"one more forward pass: rests is \"changes\" if the answer changes, \"weakens\" if it keeps the answer " +
	"but the answer's probability drops by 0.10 or more, else \"holds\"; before is the answer's probability with that head in; " +
	"absent for a model without a supervised head, or when -ablate already knocks it out"

// KnockOut fills pr.Knockout: the answer with the supervised head knocked
// out, besides the heads Ablate names. It leaves pr.Knockout nil for a
// model without a supervised head, or when that head is already out.
func (p *Predictor) KnockOut(pr *Prediction) error {
	p = p.member(pr)
	layer, head, ok := p.SupervisedHead()
	sup := model.Head{Layer: layer, Head: head}
	if !ok || slices.Contains(p.ablate, sup) {
		return nil
	}
	probs, err := p.probsWithout(pr.Tokens, pr.Pronoun, sup)
	if err != nil {
		return err
	}
	after := candidates(pr.Tokens, pr.Typed, candidatePositions(pr.Candidates), probs)[0]
	k := &Knockout{Head: sup.String(), head: sup, AnswerWord: after.Word, TypedAnswer: after.Typed, Answer: after.Position,
		Probability: after.Probability, Before: pr.WordProbs[pr.Answer]}
	k.Rests = rests(pr.Answer, pr.WordProbs[pr.Answer], after.Position, probs[pr.Answer])
	pr.Knockout = k
	return nil
}

// rests judges a knockout (see KnockoutRule): before and after are the
// original answer's probabilities with the head in and out.
func rests(answer int, before float64, newAnswer int, after float64) string {
	switch {
	case newAnswer != answer:
		return "changes"
	case before-after >= Weakened:
		return "weakens"
	}
	return "holds"
}

// Describe is the knockout in words, for the text output and the pages:
// `knocking out L3 H1: dog 100.0% → dog 99.8% (the answer does not rest on this head)`.
// answerWord is the prediction's answer as typed (Prediction.TypedAnswer),
// as the answer after the knockout is named.
func (k *Knockout) Describe(answerWord string) string {
	why := map[string]string{
		"changes": "the answer rests on this head",
		"weakens": "the answer holds, weaker: it rests partly on this head",
		"holds":   "the answer does not rest on this head",
	}[k.Rests]
	return fmt.Sprintf("knocking out L%d H%d: %s %.1f%% → %s %.1f%% (%s)", k.head.Layer+1, k.head.Head+1,
		answerWord, 100*k.Before, k.TypedAnswer, 100*k.Probability, why)
}

// candidatePositions are the candidates' token positions.
func candidatePositions(cs []Candidate) []int {
	pos := make([]int, len(cs))
	for i, c := range cs {
		pos[i] = c.Position
	}
	return pos
}

// probsWithout runs tokens once with head knocked out besides p.ablate and
// returns the model's probabilities over the words for the pronoun. The
// graph, untraced and gated, is kept per sentence length as the others are.
func (p *Predictor) probsWithout(tokens []string, pronoun int, head model.Head) ([]float64, error) {
	ids, _ := p.ck.Vocab.Encode(tokens)
	p.mu.Lock()
	defer p.mu.Unlock()
	// Gated from the start, so a later Ablate changes the gates, not the graph.
	g, err := p.graph(knockoutGraph, model.GraphOptions{Batch: 1, SeqLen: len(ids), HeadGates: true})
	if err != nil {
		return nil, err
	}
	if err := g.SetAblation(append(slices.Clone(p.ablate), head)); err != nil {
		return nil, err
	}
	out, err := g.Run(model.Batch{IDs: ids, Lengths: []int{len(ids)}, Pronoun: []int{pronoun}})
	if err != nil {
		return nil, err
	}
	probs := append([]float64(nil), out.Probs.Row(0)...)
	return probs, finite("the knocked-out answer's probabilities", probs)
}
