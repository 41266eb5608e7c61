// Generator: samples sentences for one split. Meanings are drawn from cells
// (frame, outcome, concession, negation, predicate), weighted so that every
// single feature a shortcut could use (the predicate, the verb, the
// negation, the connective, the frame) points at the agent as often as at
// the object; then nouns, shape and surface are drawn.

package data

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"slices"
	"sort"
)

// How often the surface varies. They change words, never the answer.
const (
	negatedShare    = 0.2  // of sentences whose reason clause says "not"
	concessiveShare = 0.12 // of sentences whose reason clause concedes ("although")
	presentShare    = 0.3  // "eats ... it is" where the frame has a present tense
	contractedShare = 0.4  // "wasn't", "couldn't" where there is a negation
	distractorShare = 0.25 // a place phrase, where the frame has places
	attributeShare  = 0.2  // an adjective before a noun, per noun
	noCommaShare    = 0.25 // "Because it was hungry the dog ate the food."
	choiceShare     = 0.7  // of lead-it sentences, where the frame names nouns its verb cannot take
	determinerShare = 0.2  // "my", "this" before a noun instead of "the" or "a"
	refugeShare     = 0.5  // after a deed of "it", where it went: "it hid in the barn"
)

// determiners are the words other than the articles that may open a noun
// phrase: which one it is decides nothing.
var determiners = []string{"my", "your", "our", "their", "his", "this", "that"}

// shapeWeight is how often a training shape is drawn against the others'
// 1: "so-it" names the described noun first, so it would make "the first
// noun" a shortcut if it were as common as the rest; "two-it" is drawn
// more often than the rest, because two "it"s are one word and only their
// places tell them apart, and at 0.6 a seed could end without learning which
// is asked (corpus-35, seed 2: two_it 50.0%; at 1.2, 98.4-99.5% over seeds
// 1-3); "lead-it" writes no predicate (the
// grammar answers, or beside a noun its verb cannot take, the verb), so it
// is kept near an eighth of the sentences.
var shapeWeight = map[string]float64{ShapeSoIt: 0.4, ShapeTwoIt: 1.2, ShapeLeadIt: 0.9}

// cell is one meaning a frame can express, with the role it derives.
type cell struct {
	frameIndex int
	Meaning
	role Role
}

// cellKey is what the held_out_cell challenge holds out: a verb (frame and
// outcome), a predicate and a polarity, with or without "although".
type cellKey struct {
	frameIndex int
	outcome    Outcome
	predicate  string
	negated    bool
}

func (c cell) key() cellKey { return cellKey{c.frameIndex, c.Outcome, c.Predicate, c.Negated} }

// generator draws sentences for every split from the same weighted cells.
type generator struct {
	lex     *Lexicon
	rng     *rand.Rand
	seed    int64
	cfg     Config
	cells   []cell
	cum     []float64        // cumulative weights of cells; held-out cells weigh 0
	heldOut map[cellKey]bool // cells no split has
	held    heldOutSet       // (noun, role) pairs no split has
	forced  map[comboKey]splitID
	// unknownSynonyms are, per known predicate, the unknown words that mean
	// it (unknown.txt), for the unknown_deciding_word set.
	unknownSynonyms map[string][]string
	// vocab, once train is drawn, is its vocabulary: held-out sentences may
	// use no other word.
	vocab *Vocab
}

func newGenerator(lex *Lexicon, cfg Config, seed int64, rng *rand.Rand, held heldOutSet, forced map[comboKey]splitID) *generator {
	g := &generator{lex: lex, rng: rng, seed: seed, cfg: cfg, held: held, forced: forced, unknownSynonyms: map[string][]string{}}
	for _, u := range lex.unknown {
		g.unknownSynonyms[u.Means] = append(g.unknownSynonyms[u.Means], u.Word)
	}
	g.cells = lex.cells()
	g.heldOut = chooseHeldOutCells(lex, g.cells, cfg.HeldOutCellShare, rng)
	w := make([]float64, len(g.cells))
	for i, c := range g.cells {
		if !g.heldOut[c.key()] {
			w[i] = 1
		}
	}
	balance(g.cells, w)
	g.cum = cumulative(w)
	return g
}

// cells lists every meaning every frame can express, in file order.
func (l *Lexicon) cells() []cell {
	var out []cell
	for fi := range l.Frames {
		f := &l.Frames[fi]
		for _, p := range f.predicates {
			for _, m := range f.meaningsOf(p) {
				r, _ := f.Referent(m)
				out = append(out, cell{fi, m, r})
			}
		}
	}
	return out
}

func cumulative(w []float64) []float64 {
	out := make([]float64, len(w))
	sum := 0.0
	for i, x := range w {
		sum += x
		out[i] = sum
	}
	return out
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// splitOf assigns a (noun pair, predicate, negation) combination to a split
// by a hash of the seed and the combination, so the assignment needs no
// list of every combination and is the same for a seed whichever split
// asks first.
func (g *generator) splitOf(k comboKey) splitID {
	if s, ok := g.forced[k]; ok {
		return s
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", g.seed, k)
	u := float64(h.Sum64()%1_000_000) / 1_000_000
	switch {
	case u < g.cfg.TestShare:
		return testSplit
	case u < g.cfg.TestShare+g.cfg.ValidationShare:
		return validationSplit
	}
	return trainSplit
}

// fill draws distinct sentences for split s until it has n, starting with
// first: one for each cell of a schedule (so each meaning's share is its
// weight, not a random number near it), then, if some cell gave nothing
// new, from randomly drawn cells.
func (g *generator) fill(s splitID, n int, first []Example) ([]Example, error) {
	out := append([]Example(nil), first...)
	seen := textSet(out)
	more, err := g.drawScheduled(s.String(), n-len(out), seen, func(c cell) (Example, bool) { return g.sample(c, s, false) })
	if err != nil {
		return nil, err
	}
	out = append(out, more...)
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// drawScheduled makes n distinct sentences, each from the next cell of a
// schedule (a few tries each), then tops up from random cells.
func (g *generator) drawScheduled(what string, n int, seen map[string]bool, make func(cell) (Example, bool)) ([]Example, error) {
	var out []Example
	for _, c := range g.schedule(n) {
		for range 20 {
			if e, ok := make(c); ok && !seen[e.Text] && len(e.Tokens) <= MaxTokens {
				seen[e.Text] = true
				out = append(out, e)
				break
			}
		}
	}
	more, err := g.draw(what, n-len(out), seen, func() (Example, bool) { return make(g.drawCell()) })
	return append(out, more...), err
}

// schedule lists n cells in a random order, each cell about n × its share
// of the weight times (systematic sampling: one random offset, then even
// steps through the cumulative weights).
func (g *generator) schedule(n int) []cell {
	if n <= 0 {
		return nil
	}
	total, u := g.cum[len(g.cum)-1], g.rng.Float64()
	out := make([]cell, n)
	for k := range out {
		out[k] = g.cells[sort.SearchFloat64s(g.cum, (u+float64(k))/float64(n)*total)]
	}
	g.rng.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
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

// sample writes cell c with nouns of split s, a shape and the surface.
// With plain, nothing is contracted, so that masking the deciding words
// keeps the copula.
func (g *generator) sample(c cell, s splitID, plain bool) (Example, bool) {
	t, ok := g.drawTuple(c, g.inSplit(s))
	if !ok {
		return Example{}, false
	}
	sh, ok := g.pickShape(shapesWriting(shapesFor(s, t.frame), t.frame, t.Meaning))
	if !ok {
		return Example{}, false
	}
	sf, ok := g.surface(t, sh, nil, g.inSplit(s))
	sf.contracted = sf.contracted && !plain
	if !ok {
		return Example{}, false
	}
	e := realise(t, sh, sf)
	return e, g.known(e)
}

// drawCell draws a cell by its weight.
func (g *generator) drawCell() cell {
	x := g.rng.Float64() * g.cum[len(g.cum)-1]
	return g.cells[sort.SearchFloat64s(g.cum, x)]
}

// drawTuple gives cell c nouns: an agent and an object that differ, use no
// held-out (noun, role) pair and pass keep. It tries a few times.
func (g *generator) drawTuple(c cell, keep func(tuple) bool) (tuple, bool) {
	f := &g.lex.Frames[c.frameIndex]
	for range 20 {
		t := tuple{frameIndex: c.frameIndex, frame: f, Meaning: c.Meaning, role: c.role,
			agent: g.pick(f.Agents), object: g.pick(f.Objects)}
		if t.agent != t.object && !g.held.has(t) && keep(t) {
			return t, true
		}
	}
	return tuple{}, false
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

// pickShape draws one of shapes by shapeWeight.
func (g *generator) pickShape(shapes []Shape) (Shape, bool) {
	if len(shapes) == 0 {
		return Shape{}, false
	}
	total := 0.0
	for _, sh := range shapes {
		total += weightOf(sh)
	}
	x := g.rng.Float64() * total
	for _, sh := range shapes {
		if x -= weightOf(sh); x < 0 {
			return sh, true
		}
	}
	return shapes[len(shapes)-1], true
}

func weightOf(sh Shape) float64 {
	if w, ok := shapeWeight[sh.Name]; ok {
		return w
	}
	return 1
}

// surface draws every choice that changes words but not the meaning. It
// always makes the same number of draws, so one choice never shifts
// another. A two-reason shape also gets what it says of the other noun,
// a meaning whose combination keep accepts (false if there is none). avoid
// are predicates (of twins) whose dimensions an adjective before a noun
// must not speak of.
func (g *generator) surface(t tuple, sh Shape, avoid []string, keep func(tuple) bool) (surface, bool) {
	sf := surface{
		agentArticle:  g.article(t.agent),
		objectArticle: g.article(t.object),
		connective:    g.rng.Intn(12),
		verb:          g.rng.Intn(12),
		adverb:        g.adverb(sh),
		present:       g.chance(presentShare) && t.frame.hasPresent(sh.Passive) && t.frame.saidWithCopula(t.Predicate), // a deed is told in the past
		contracted:    g.chance(contractedShare),
		noComma:       g.chance(noCommaShare) && sh.layout == reasonFirst,
	}
	ok := true
	if keep == nil {
		keep = anyNouns
	}
	if sh.layout == twoReasons {
		sf.second, ok = g.secondMeaning(t, keep)
		sf.askSecond = g.rng.Intn(2) == 1
		avoid = append(avoid, sf.second.Predicate)
	}
	avoid = append(avoid, t.Predicate)
	for _, r := range []Role{Agent, Object} {
		sf.attributes[r] = g.attribute(t.frame, r, avoid)
	}
	if g.chance(distractorShare) && sh.layout != soIt {
		sf.pp = g.placePhrase(t.frame, sh)
	}
	sf.mainFirst = sf.connective >= 6 // half the time, from a draw made already: a new one would shift every later draw
	sf.actor = g.actor(t)
	sf.refuge = g.refuge(t.frame, sf.pp)
	sf.choice = g.choicePhrase(t, sh, sf.present)
	if sf.pp.set && sf.pp.place.Noun == sf.choice.decoy {
		sf.choice = choicePhrase{} // "the fox under the bush found a bush near the duck"
	}
	return sf, ok
}

// refuge draws, half the time, where a deed of "it" took it ("it hid in
// the barn"): a scene place of the frame not at the preposition "near"
// (one does not hide near a thing), and only where the sentence names no
// other place (the distractor set holds one place noun a sentence); none
// otherwise. It draws twice whatever it returns.
func (g *generator) refuge(f *Frame, named placePhrase) Place {
	places := slices.DeleteFunc(slices.Clone(f.ScenePlaces), func(p Place) bool { return p.Prep == "near" })
	use, i := g.chance(refugeShare), g.rng.Intn(1<<20)
	if !use || len(places) == 0 || named.set {
		return Place{}
	}
	return places[i%len(places)]
}

// actor draws the third noun an act's clause names ("the chicken protected
// it"): one of the frame's agents other than both nouns ("" if none).
func (g *generator) actor(t tuple) string {
	others := slices.DeleteFunc(slices.Clone(t.frame.Agents), func(n string) bool { return n == t.agent || n == t.object })
	i := g.rng.Intn(1 << 16)
	if len(others) == 0 {
		return ""
	}
	return others[i%len(others)]
}

// choicePhrase draws, choiceShare of the lead-it sentences whose frame names
// nouns its verb cannot take, one of them to set beside the object, the
// order of the two, and the preposition between: "near", or one the place
// lists give the second noun ("in the bowl"). None otherwise, and none
// where the frame has no lead verb in the sentence's tense that suits any
// noun.
func (g *generator) choicePhrase(t tuple, sh Shape, present bool) choicePhrase {
	use, objectLast := g.chance(choiceShare), g.rng.Intn(2) == 1
	decoyIndex, prepIndex := g.rng.Intn(1<<16), g.rng.Intn(1<<16)
	if !use || sh.layout != leadIt || len(t.frame.NotObjects) == 0 || len(anyNounLeads(t.frame.Lead[boolIndex(present)])) == 0 {
		return choicePhrase{}
	}
	c := choicePhrase{decoy: t.frame.NotObjects[decoyIndex%len(t.frame.NotObjects)], objectLast: objectLast}
	c.article = g.article(c.decoy)
	second := c.decoy
	if objectLast {
		second = t.object
	}
	preps := []string{"near"}
	for _, p := range g.lex.prepositions[second] {
		if !slices.Contains(preps, p) {
			preps = append(preps, p)
		}
	}
	c.prep = preps[prepIndex%len(preps)]
	return c
}

// hasPresent reports whether both outcomes have a present tense in the voice.
func (f *Frame) hasPresent(passive bool) bool {
	return len(f.verbs(Succeeded, passive, true)) > 0 && len(f.verbs(Failed, passive, true)) > 0
}

// secondMeaning draws what a two-reason sentence says of the other noun: a
// predicate that, with the same outcome and connective, points at it, in a
// combination of the same split (keep) and not held out, so that no split
// holds a combination of another in its second clause.
func (g *generator) secondMeaning(t tuple, keep func(tuple) bool) (Meaning, bool) {
	var options []Meaning
	for _, p := range t.frame.predicates {
		if p == t.Predicate || !t.frame.saidWithCopula(p) {
			continue // "it was fast and it wasn't fast" reads as a contradiction; an act or a deed is never beside a second "it"
		}
		for _, neg := range []bool{false, true} {
			m := Meaning{Outcome: t.Outcome, Concessive: t.Concessive, Negated: neg, Predicate: p}
			second := t
			second.Meaning = m
			if g.pointsAtOther(t, m) && keep(second) {
				options = append(options, m)
			}
		}
	}
	if len(options) == 0 {
		return Meaning{}, false
	}
	return options[g.rng.Intn(len(options))], true
}

// pointsAtOther says whether meaning m, in t's frame, points at the noun t
// does not, in a cell some split or set may use (not held out): what a twin's
// new predicate and a two-it sentence's second clause must both do.
func (g *generator) pointsAtOther(t tuple, m Meaning) bool {
	r, ok := t.frame.Referent(m)
	return ok && r != t.role && !g.heldOut[cellKey{t.frameIndex, m.Outcome, m.Predicate, m.Negated}]
}

// predicativeOnly are predicates English never puts before a noun ("the
// afraid dog").
var predicativeOnly = []string{"afraid"}

// attribute draws, attributeShare of the time, an adjective for role r's
// noun: a colour or age, or a property of the frame's dimensions for that
// role that no reason clause of the sentence (or its twin) speaks of.
func (g *generator) attribute(f *Frame, r Role, avoid []string) string {
	if !g.chance(attributeShare) {
		return ""
	}
	return g.anyAttribute(f, r, avoid)
}

// anyAttribute draws an adjective for role r's noun, as attribute does
// when it draws one.
func (g *generator) anyAttribute(f *Frame, r Role, avoid []string) string {
	var avoidDims []string
	for _, p := range avoid {
		if d, ok := f.DimensionOf(p); ok {
			avoidDims = append(avoidDims, d)
		}
	}
	options := slices.Clone(g.lex.Attributes)
	for _, p := range f.predicates {
		d, _ := f.DimensionOf(p)
		if f.describes(p)[r] && !slices.Contains(avoidDims, d) && !slices.Contains(predicativeOnly, p) && f.saidWithCopula(p) {
			options = append(options, p)
		}
	}
	if len(options) == 0 {
		return ""
	}
	return g.pick(options)
}

// placePhrase draws a place phrase at an attachment the frame and shape
// allow (a scene phrase only before a main clause that opens the
// sentence), or none if there is no such attachment.
func (g *generator) placePhrase(f *Frame, sh Shape) placePhrase {
	var at []Attachment
	for a := range placeKeys {
		if len(f.Places(Attachment(a))) > 0 && (Attachment(a) != AttachScene || sh.layout == reasonLast) {
			at = append(at, Attachment(a))
		}
	}
	if len(at) == 0 {
		return placePhrase{}
	}
	a := at[g.rng.Intn(len(at))]
	places := f.Places(a)
	return placePhrase{at: a, place: places[g.rng.Intn(len(places))], set: true}
}

// article is, for determinerShare of the nouns, a determiner that decides
// nothing ("my dog ate this food": people type them), else "the" or "a"
// (made "an" where it must be) with equal odds; mass nouns never get "a".
func (g *generator) article(noun string) string {
	if g.chance(determinerShare) {
		return g.pick(determiners)
	}
	if g.rng.Intn(2) == 0 || g.lex.IsMass(noun) {
		return "the"
	}
	return "a"
}

// adverb draws a degree adverb as the shape allows; never "so" where the
// shape joins with ", so" ("It was so hungry, so ..." repeats itself).
func (g *generator) adverb(sh Shape) string {
	if sh.adverb == adverbNever || (sh.adverb == adverbSometimes && g.rng.Intn(2) == 0) {
		return ""
	}
	if a := g.pick(degreeAdverbs); a != "so" || (sh.layout != soClause && sh.layout != soIt) {
		return a
	}
	return "very"
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

func (g *generator) pick(words []string) string { return words[g.rng.Intn(len(words))] }

func (l *Lexicon) frameNames() []string {
	var out []string
	for _, f := range l.Frames {
		out = append(out, f.Name)
	}
	return out
}
