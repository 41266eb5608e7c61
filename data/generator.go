// Generator: samples sentences for one split from the meanings and shapes
// that split may use, balanced so that "it" is the agent half of the time.

package data

import (
	"fmt"
	"math/rand"
)

// How often the surface varies. They change words, never the answer.
const (
	negatedShare    = 0.35 // of sentences whose frame and role have negated predicates
	presentShare    = 0.3  // "eats ... it is" where the frame has a present tense
	distractorShare = 0.3  // a place phrase, where the frame has places
	noCommaShare    = 0.25 // "Because it was hungry the dog ate the food."
)

// generator holds, per split, the tuples it may draw from.
type generator struct {
	lex *Lexicon
	rng *rand.Rand
	// pools[split][role][frame][negated] are the tuples of that split whose
	// (negated) predicate describes role; drawing the role first keeps
	// agent/object at 50/50.
	pools [3][2][][2][]tuple
	// shapes[split][frame] are the shapes the split may write that frame in.
	shapes [3][][]Shape
	// vocab, once train is drawn, is its vocabulary: held-out sentences may
	// use no other word.
	vocab *Vocab
}

func newGenerator(lex *Lexicon, rng *rand.Rand, tuples []tuple, assigned map[comboKey]splitID) *generator {
	g := &generator{lex: lex, rng: rng}
	for s := range g.pools {
		for r := range g.pools[s] {
			g.pools[s][r] = make([][2][]tuple, len(lex.Frames))
		}
		for i := range lex.Frames {
			g.shapes[s] = append(g.shapes[s], shapesFor(splitID(s), &lex.Frames[i]))
		}
	}
	for _, t := range tuples {
		s, neg := assigned[t.key()], boolIndex(t.negated)
		pool := &g.pools[s][t.role][t.frameIndex][neg]
		*pool = append(*pool, t)
	}
	return g
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fill draws distinct sentences for split s until it has n, starting with first.
func (g *generator) fill(s splitID, n int, first []Example) ([]Example, error) {
	out := append([]Example(nil), first...)
	seen := textSet(out)
	more, err := g.draw(s.String(), n-len(out), seen, func() (Example, bool) { return g.sample(s, false) })
	if err != nil {
		return nil, err
	}
	out = append(out, more...)
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// draw calls next until it has n sentences whose text is not in seen (and
// adds them to seen). It gives up after 50 tries per sentence.
func (g *generator) draw(what string, n int, seen map[string]bool, next func() (Example, bool)) ([]Example, error) {
	var out []Example
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		e, ok := next()
		if !ok || seen[e.Text] {
			continue
		}
		if len(e.Tokens) > MaxTokens {
			return nil, fmt.Errorf("%s: %q has %d tokens, more than MaxTokens %d", what, e.Text, len(e.Tokens), MaxTokens)
		}
		seen[e.Text] = true
		out = append(out, e)
	}
	if len(out) < n {
		return nil, fmt.Errorf("%s split: only %d distinct sentences of %d wanted; the lexicon has too few combinations", what, len(out), n)
	}
	return out, nil
}

func textSet(ex []Example) map[string]bool {
	seen := make(map[string]bool, len(ex))
	for _, e := range ex {
		seen[e.Text] = true
	}
	return seen
}

// sample draws role, then frame, then negation, tuple, shape and surface.
// With plain, the negation is never contracted ("was not", not "wasn't"),
// so that masking the deciding words keeps the copula.
func (g *generator) sample(s splitID, plain bool) (Example, bool) {
	role := Role(g.rng.Intn(2))
	frames := g.usableFrames(s, role)
	if len(frames) == 0 {
		return Example{}, false
	}
	f := frames[g.rng.Intn(len(frames))]
	pools := g.pools[s][role][f]
	pool := pools[0]
	if len(pool) == 0 || (len(pools[1]) > 0 && g.chance(negatedShare)) {
		pool = pools[1]
	}
	t := pool[g.rng.Intn(len(pool))]
	shapes := g.shapes[s][f]
	sh := shapes[g.rng.Intn(len(shapes))]
	sf := g.surface(t, sh)
	sf.contracted = sf.contracted && !plain
	e := realise(t, sh, sf)
	return e, g.known(e)
}

// known reports whether every token of e is in the training vocabulary
// (always true while train itself is drawn).
func (g *generator) known(e Example) bool {
	if g.vocab == nil {
		return true
	}
	_, unknown := g.vocab.Encode(e.Tokens)
	return len(unknown) == 0
}

// usableFrames lists frames with tuples for role in split s and a shape to write them.
func (g *generator) usableFrames(s splitID, role Role) []int {
	var out []int
	for f, pools := range g.pools[s][role] {
		if len(pools[0])+len(pools[1]) > 0 && len(g.shapes[s][f]) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// surface draws every choice that changes words but not the meaning. It
// always makes the same number of draws, so one choice never shifts another.
func (g *generator) surface(t tuple, sh Shape) surface {
	sf := surface{
		agentArticle:  g.article(t.agent),
		objectArticle: g.article(t.object),
		adverb:        g.adverb(t.frame, sh),
		present:       g.chance(presentShare) && t.frame.verb(sh.Passive, true) != "",
		contracted:    g.chance(0.5),
		noComma:       g.chance(noCommaShare) && sh.layout == reasonFirst,
	}
	if len(sh.Connectives) > 0 {
		sf.connective = g.pick(sh.Connectives)
	}
	if g.chance(distractorShare) {
		sf.pp = g.placePhrase(t.frame, sh)
	}
	return sf
}

// placePhrase draws a place phrase at an attachment the frame and shape
// allow (a scene phrase only before a main clause that opens the
// sentence), or none if there is no such attachment.
func (g *generator) placePhrase(f *Frame, sh Shape) placePhrase {
	var at []Attachment
	for _, a := range []Attachment{AttachAgent, AttachObject, AttachScene} {
		if len(f.Places(a)) > 0 && (a != AttachScene || sh.layout == reasonLast) {
			at = append(at, a)
		}
	}
	if len(at) == 0 {
		return placePhrase{}
	}
	a := at[g.rng.Intn(len(at))]
	places := f.Places(a)
	return placePhrase{at: a, place: places[g.rng.Intn(len(places))], set: true}
}

// article is "the" or "a"/"an" with equal odds; mass nouns always get "the".
func (g *generator) article(noun string) string {
	if g.rng.Intn(2) == 0 || g.lex.IsMass(noun) {
		return "the"
	}
	return indefinite(noun)
}

// adverb draws a degree adverb as the shape allows; never "so" where the
// shape joins with ", so" ("It was so hungry, so ..." repeats itself).
func (g *generator) adverb(f *Frame, sh Shape) string {
	if sh.adverb == adverbNever || len(f.Adverbs) == 0 {
		return ""
	}
	if sh.adverb == adverbSometimes && g.rng.Intn(2) == 0 {
		return ""
	}
	if a := g.pick(f.Adverbs); sh.layout != soClause || a != "so" {
		return a
	}
	return ""
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

func (g *generator) pick(words []string) string { return words[g.rng.Intn(len(words))] }

// tuples lists every meaning the lexicon can express, in file order.
func (l *Lexicon) tuples() []tuple {
	n := 0
	for _, f := range l.Frames {
		n += len(f.Agents) * len(f.Objects) * (len(f.AgentPredicates) + len(f.ObjectPredicates) + len(f.AgentNegated) + len(f.ObjectNegated))
	}
	out := make([]tuple, 0, n)
	for fi := range l.Frames {
		f := &l.Frames[fi]
		for _, a := range f.Agents {
			for _, o := range f.Objects {
				out = appendFrameTuples(out, fi, f, a, o)
			}
		}
	}
	return out
}

func appendFrameTuples(out []tuple, fi int, f *Frame, agent, object string) []tuple {
	if agent == object {
		return out
	}
	for _, role := range []Role{Agent, Object} {
		for _, p := range f.Predicates(role) {
			out = append(out, tuple{fi, f, agent, object, p, role, false})
		}
		for _, p := range f.NegatedPredicates(role) {
			out = append(out, tuple{fi, f, agent, object, p, role, true})
		}
	}
	return out
}

func (l *Lexicon) frameNames() []string {
	var out []string
	for _, f := range l.Frames {
		out = append(out, f.Name)
	}
	return out
}
