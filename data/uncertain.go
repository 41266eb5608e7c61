// Uncertain training examples: sentences whose deciding words are hidden
// behind <unk>, so a model can learn to spread its answer over both nouns
// when the word that decides is unknown, and sentences with one noun
// hidden, so an unknown word where a noun stands is still read as a noun.

package data

import (
	"math"
	"slices"
)

// fillTrain draws the training split: ordinary sentences, then
// UncertainShare of them with the deciding words masked and
// UnknownNounShare with one candidate masked, all shuffled together.
func (g *generator) fillTrain(cfg Config) ([]Example, error) {
	nUncertain := int(math.Round(cfg.UncertainShare * float64(cfg.TrainSize)))
	nNoun := int(math.Round(cfg.UnknownNounShare * float64(cfg.TrainSize)))
	out, err := g.fill(trainSplit, cfg.TrainSize-nUncertain-nNoun, nil)
	if err != nil {
		return nil, err
	}
	seen := textSet(out)
	masks := []struct {
		n    int
		mask func(Example) Example
	}{
		{nUncertain, maskDeciding},
		{nNoun, func(e Example) Example { return maskCandidate(e, g.rng.Intn(2)) }},
	}
	for _, m := range masks {
		more, err := g.drawScheduled("train", m.n, seen, func(c cell) (Example, bool) {
			e, ok := g.sample(c, trainSplit, true)
			if !ok || e.ByGrammar() {
				return e, false // nothing to mask: no sentence, or the grammar decides
			}
			return m.mask(e), true
		})
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// maskDeciding replaces the predicate's words and "not" by <unk>: the
// sentence no longer says which noun "it" is. Antecedent keeps what the
// hidden words meant; Uncertain tells a trainer not to insist on it.
func maskDeciding(e Example) Example {
	e = cloneExample(e)
	for _, p := range e.Deciding {
		e.Tokens[p] = Unk
	}
	e.Text, e.Uncertain = renderText(e.Tokens), true
	return e
}

// maskCandidate replaces candidate i (0 or 1) by <unk>; the answer does not
// change, since the predicate still decides.
func maskCandidate(e Example, i int) Example {
	e = cloneExample(e)
	e.Tokens[e.Candidates[i]] = Unk
	e.Text = renderText(e.Tokens)
	return e
}

// cloneExample copies the slices, so masking one example never changes another.
func cloneExample(e Example) Example {
	e.Tokens = slices.Clone(e.Tokens)
	e.Distractors = slices.Clone(e.Distractors)
	e.Deciding = slices.Clone(e.Deciding)
	return e
}
