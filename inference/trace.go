package inference

// Tracing a sentence for the explain view: one run with every intermediate
// of every layer and head kept (model.GraphOptions.Trace).

import (
	"errors"

	"itformer/data"
	"itformer/model"
)

// Traced is a sentence and its full forward trace.
type Traced struct {
	Tokens []string
	// Typed are the words to show, one per token (Encoded.Typed).
	Typed   []string
	Unknown []string // read as <unk>
	// Contractions were read as their words (data.ExpandContractions).
	Contractions []data.Contraction
	// Relatives were read as their WordNet relatives (data.ReadRelatives).
	Relatives []data.Relative
	Pronouns  []int // positions of "it"; may be empty
	Output    *model.Output
	// Answer is the first "it"'s answer, with whether it is a guess; nil if
	// the sentence has no "it" or no word it may refer to.
	Answer *Prediction
}

// Trace runs sentence through the model keeping every step. The resolution
// head's answer in Output is for the first "it" (or word 0 if there is none);
// the encoder's steps do not depend on it. A NaN or an infinity in any step
// is an error (ErrBrokenModel).
//
// A Predictor with members traces the member Resolve would show for the
// first "it", and its Answer says how many members agree.
func (p *Predictor) Trace(sentence string) (*Traced, error) {
	if len(p.members) == 0 {
		return p.traceOne(sentence)
	}
	shown, agreements, err := p.vote(sentence)
	if err != nil && !errors.Is(err, ErrNoPronoun) && !errors.Is(err, ErrNoCandidate) {
		return nil, err
	}
	if err != nil { // a trace needs no answer: member 1 draws it
		return p.traceOne(sentence)
	}
	tr, err := shown.traceOne(sentence)
	if err == nil && tr.Answer != nil {
		agreements[0].apply(tr.Answer)
	}
	return tr, err
}

// traceOne is Trace by this model alone.
func (p *Predictor) traceOne(sentence string) (*Traced, error) {
	enc, err := p.Encode(sentence)
	if err != nil {
		return nil, err
	}
	tokens := enc.Tokens
	tr := &Traced{Tokens: tokens, Typed: enc.Typed, Unknown: enc.Unknown, Contractions: enc.Contractions, Relatives: enc.Relatives,
		Pronouns: data.Pronouns(tokens)}
	p.mu.Lock()
	defer p.mu.Unlock()
	g, err := p.graphFor(len(tokens))
	if err != nil {
		return nil, err
	}
	pronoun := 0
	if len(tr.Pronouns) > 0 {
		pronoun = tr.Pronouns[0]
	}
	if tr.Output, err = g.Run(model.Batch{IDs: enc.IDs, Lengths: []int{len(tokens)}, Pronoun: []int{pronoun}}); err != nil {
		return nil, err
	}
	if err := checkTrace(tr.Output); err != nil {
		return nil, err
	}
	if err := p.answer(tr, enc); err != nil {
		return nil, err
	}
	return tr, nil
}

// answer sets tr.Answer when the sentence (enc, as read) has an "it" and a
// candidate: a traced run computes the first "it"'s answer anyway, and
// explain says whether it is a guess. The caller holds p.mu.
func (p *Predictor) answer(tr *Traced, enc *Encoded) error {
	heads := nounHeads(tr.Tokens, p.known)
	if len(tr.Pronouns) == 0 || len(heads) == 0 {
		return nil
	}
	pr, err := p.prediction(enc, tr.Pronouns[0], tr.Output, heads)
	if err != nil {
		return err
	}
	tr.Answer = &pr
	return nil
}
