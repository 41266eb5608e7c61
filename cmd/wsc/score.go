// Scoring: each item's sentence is resolved as infer resolves it, and its
// answer and its guess flag are read as infer reports them.

package main

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"itformer/data"
	"itformer/inference"
)

// Result is one item's outcome.
type Result struct {
	Item
	// Refused says why the model gave no answer (the sentence is longer than
	// it reads, has no noun it may refer to, ...); empty when it answered.
	Refused string `json:"refused,omitempty"`
	err     error  // the refusal, for grouping
	// Unknown are the words the model does not know (read as <unk>).
	Unknown []string `json:"unknown_words"`
	// Answer is the model's answer, the most probable candidate, and
	// Probability its share of the candidates' probability.
	Answer      string  `json:"answer,omitempty"`
	Probability float64 `json:"probability,omitempty"`
	Right       bool    `json:"right"`
	// Guess and GuessReason are the answer's confidence, as infer flags it
	// (docs/guess-rule.md).
	Guess       bool   `json:"guess"`
	GuessReason string `json:"guess_reason,omitempty"`
	// Candidates are the words the model could answer, most probable first.
	Candidates []string `json:"candidates,omitempty"`
	// TwoChoiceRight is whether the correct word gets more of the model's
	// probability than the other one (each at its most probable position;
	// for an ensemble, the mean of its members' probabilities), the choice
	// between two that WSC's published scores make; absent when either word
	// is not in the sentence as typed.
	TwoChoiceRight *bool `json:"two_choice_right,omitempty"`
}

// Summary counts the results.
type Summary struct {
	Items int `json:"items"`
	// WordsKnown is how many items have no word the model does not know.
	WordsKnown int `json:"words_known"`
	// Refused counts the items without an answer, by why.
	Refused  int            `json:"refused"`
	Why      map[string]int `json:"refused_why,omitempty"`
	Answered int            `json:"answered"`
	Right    int            `json:"right"`
	// Accuracy is Right over Answered; AccuracyAll over Items (a refused
	// item is not right).
	Accuracy    float64 `json:"accuracy"`
	AccuracyAll float64 `json:"accuracy_all_items"`
	// Sure are the answers not flagged as guesses, SureRight the right ones.
	Sure         int     `json:"not_guesses"`
	SureRight    int     `json:"not_guesses_right"`
	SureAccuracy float64 `json:"not_guesses_accuracy"`
	// GuessRate is the share of the answers flagged as guesses.
	GuessRate float64 `json:"guess_rate"`
	// TwoChoice counts the answered items where both words are in the
	// sentence, and TwoChoiceRight those where the correct one gets more
	// probability.
	TwoChoice         int     `json:"two_choice_scored"`
	TwoChoiceRight    int     `json:"two_choice_right"`
	TwoChoiceAccuracy float64 `json:"two_choice_accuracy"`
	// Twins counts the twin pairs (twins), TwinsRight those whose two
	// items are both answered right: the answer moved with the word.
	Twins      int `json:"twins"`
	TwinsRight int `json:"twins_both_right"`
	// Unknown are the words the model does not know, with how many items
	// hold each, the most common first: what a vocabulary would need.
	Unknown []WordCount `json:"unknown_words,omitempty"`
}

// WordCount is a word and how many items hold it.
type WordCount struct {
	Word  string `json:"word"`
	Items int    `json:"items"`
}

// countUnknown counts, per word the model does not know, the items that hold
// it, the most common first (then alphabetical).
func countUnknown(results []Result) []WordCount {
	n := map[string]int{}
	for _, r := range results {
		for _, w := range slices.Compact(slices.Sorted(slices.Values(r.Unknown))) {
			n[w]++
		}
	}
	out := make([]WordCount, 0, len(n))
	for w, k := range n {
		out = append(out, WordCount{w, k})
	}
	slices.SortFunc(out, func(a, b WordCount) int { return cmp.Or(b.Items-a.Items, strings.Compare(a.Word, b.Word)) })
	return out
}

// SourceSummary counts one source's items (the file's first column).
type SourceSummary struct {
	Source string `json:"source"`
	Summary
}

// errFewPronouns refuses an item whose id asks for an "it" the sentence
// does not have.
var errFewPronouns = errors.New(`the id asks about an "it" the sentence does not have`)

// score resolves every item with p, and with each of its members alone for
// two-choice (made once: a member's graphs are kept across items). A model
// whose output is not finite stops it: that is no refusal of the item, and
// an accuracy over the items it happened to survive would score a broken
// model as a working one.
func score(p *inference.Predictor, items []Item) ([]Result, error) {
	results := make([]Result, len(items))
	members := p.Each()
	for i, it := range items {
		results[i] = scoreItem(p, members, it)
		if errors.Is(results[i].err, inference.ErrBrokenModel) {
			return nil, fmt.Errorf("item %s %s: %w", it.Source, it.ID, results[i].err)
		}
	}
	return results, nil
}

// summarise counts results, in the file's order (twins are neighbours).
func summarise(results []Result) Summary {
	s := Summary{Items: len(results), Why: map[string]int{}}
	for i, r := range results {
		if i > 0 && twins(results[i-1].Item, r.Item) {
			s.Twins++
			s.TwinsRight += b2i(results[i-1].Right && r.Right)
		}
		if len(r.Unknown) == 0 {
			s.WordsKnown++
		}
		if r.Refused != "" {
			s.Refused++
			s.Why[refusalKind(r.err)]++
			continue
		}
		s.Answered++
		s.Right += b2i(r.Right)
		if !r.Guess {
			s.Sure++
			s.SureRight += b2i(r.Right)
		}
		if r.TwoChoiceRight != nil {
			s.TwoChoice++
			s.TwoChoiceRight += b2i(*r.TwoChoiceRight)
		}
	}
	s.Accuracy = share(s.Right, s.Answered)
	s.AccuracyAll = share(s.Right, s.Items)
	s.SureAccuracy = share(s.SureRight, s.Sure)
	s.GuessRate = share(s.Answered-s.Sure, s.Answered)
	s.TwoChoiceAccuracy = share(s.TwoChoiceRight, s.TwoChoice)
	s.Unknown = countUnknown(results)
	return s
}

// bySource summarises each source's results apart, in order of first
// appearance; nil when the file has one source.
func bySource(results []Result) []SourceSummary {
	var out []SourceSummary
	for _, r := range results {
		if !slices.ContainsFunc(out, func(s SourceSummary) bool { return s.Source == r.Source }) {
			mine := slices.DeleteFunc(slices.Clone(results), func(o Result) bool { return o.Source != r.Source })
			out = append(out, SourceSummary{Source: r.Source, Summary: summarise(mine)})
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// twins says whether a and b are a twin pair: items of one source about
// the same two words, the answer swapped, written in as many words with at
// most two of them different ("... because it was heavy" / "... because it
// was fragile").
func twins(a, b Item) bool {
	if a.Source != b.Source || a.Correct != b.Other || a.Other != b.Correct {
		return false
	}
	wa, wb := data.Tokenize(a.Sentence), data.Tokenize(b.Sentence)
	if len(wa) != len(wb) {
		return false
	}
	differ := 0
	for i := range wa {
		differ += b2i(wa[i] != wb[i])
	}
	return differ <= 2
}

// scoreItem resolves one item with p, and with members (p.Each()) for
// two-choice.
func scoreItem(p *inference.Predictor, members []*inference.Predictor, it Item) Result {
	r := Result{Item: it, Unknown: unknownWords(p, it.Sentence)}
	res, err := p.Resolve(it.Sentence)
	if err == nil && it.Pronoun >= len(res.Predictions) {
		err = fmt.Errorf(`%w: "it" number %d of %d`, errFewPronouns, it.Pronoun+1, len(res.Predictions))
	}
	if err != nil {
		r.Refused, r.err = err.Error(), err
		return r
	}
	pr := res.Predictions[it.Pronoun]
	// A word read as its WordNet relative ("puppy" as "dog") is scored as
	// the word typed, which the item names.
	r.Answer, r.Probability = pr.TypedAnswer, pr.Confidence.TopProbability
	r.Right = r.Answer == it.Correct
	r.Guess, r.GuessReason = pr.Confidence.Guess, pr.Confidence.Reason
	for _, c := range pr.Candidates {
		r.Candidates = append(r.Candidates, c.Typed)
	}
	if correct, other, ok := meanProbabilities(members, it); ok {
		right := correct > other
		r.TwoChoiceRight = &right
	}
	return r
}

// meanProbabilities are the members' mean probabilities for the item's
// correct and other word (each member's highest at any position of the word
// as typed): the ensemble's distribution, which published two-choice scores
// compare. ok is false if a member cannot answer or either word is missing.
func meanProbabilities(members []*inference.Predictor, it Item) (correct, other float64, ok bool) {
	for _, m := range members {
		res, err := m.Resolve(it.Sentence)
		if err != nil || it.Pronoun >= len(res.Predictions) {
			return 0, 0, false
		}
		pr := res.Predictions[it.Pronoun]
		c, cok := bestProbability(pr, it.Correct)
		o, ook := bestProbability(pr, it.Other)
		if !cok || !ook {
			return 0, 0, false
		}
		correct, other = correct+c, other+o
	}
	n := float64(len(members))
	return correct / n, other / n, true
}

// bestProbability is the model's highest probability for word at any of
// its positions in the sentence as typed.
func bestProbability(pr inference.Prediction, word string) (float64, bool) {
	best, found := 0.0, false
	for i, t := range pr.Typed {
		if t == word && (!found || pr.WordProbs[i] > best) {
			best, found = pr.WordProbs[i], true
		}
	}
	return best, found
}

// unknownWords are the words of the sentence, as infer reads them, that
// the model does not know; also for a sentence it refuses.
func unknownWords(p *inference.Predictor, sentence string) []string {
	known := func(w string) bool { _, ok := p.Checkpoint().Vocab.ID(w); return ok }
	tokens, _ := data.ExpandContractions(data.Tokenize(sentence), known)
	if p.Relatives() {
		tokens, _ = data.ReadRelatives(tokens, known)
	}
	out := []string{}
	for _, t := range tokens {
		if !known(t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// refusalKind groups refusals: by their kind where it has one, else by
// their message.
func refusalKind(err error) string {
	var tl *inference.TooLongError
	switch {
	case errors.As(err, &tl):
		return fmt.Sprintf("longer than the model's %d tokens", tl.MaxLen)
	case errors.Is(err, inference.ErrNoCandidate):
		return "no word the model may take for a noun"
	case errors.Is(err, errFewPronouns):
		return errFewPronouns.Error()
	}
	return err.Error()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
