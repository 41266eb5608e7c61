// Challenge sets: held-out examinations reported apart from the ordinary
// splits, each testing one thing the meaning must be composed from: a noun
// in a new role, a (verb, predicate, polarity) cell never trained on, a third
// noun and adjectives that do not decide, "not", the outcome ("could" /
// "could not"), the connective ("because" / "although"), a new sentence
// shape, two "it"s, an unknown deciding word.
//
// Every challenge sentence comes with a twin:
// the same nouns in the same places and the same surface words, with one
// deciding thing changed so that the answer moves to the other noun. In each
// twin one answer is the first noun and one the second, so any rule that
// ignores what changed (first noun, nearest noun, noun identity, and the
// one feature that did not change) scores exactly 50%.

package data

import (
	"slices"
	"strings"
)

// Challenge set names.
const (
	ChallengeHeldOutNounRole = "held_out_noun_role"
	ChallengeHeldOutCell     = "held_out_cell"
	ChallengeDistractor      = "distractor"
	ChallengeNegation        = "negation"
	ChallengeOutcome         = "outcome"
	ChallengeConcession      = "concession"
	ChallengeHeldOutShape    = "held_out_shape"
	ChallengeTwoIt           = "two_it"
	ChallengeUnknownWord     = "unknown_deciding_word"
)

// ChallengeSet is one challenge: a name, what it tests, and its sentences.
type ChallengeSet struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Examples    []Example `json:"examples"`
}

// variation turns a tuple into its twin: the same nouns, one thing of the
// meaning changed, the referent moved to the other noun (false if the
// change cannot do that here).
type variation func(g *generator, t tuple) (tuple, bool)

// rederive sets t's role from its meaning, and reports whether it moved.
func rederive(t tuple, was Role) (tuple, bool) {
	r, ok := t.frame.Referent(t.Meaning)
	t.role = r
	return t, ok && r != was
}

func flipNegation(_ *generator, t tuple) (tuple, bool) {
	t.Negated = !t.Negated
	return rederive(t, t.role)
}

func flipOutcome(_ *generator, t tuple) (tuple, bool) {
	t.Outcome = 1 - t.Outcome
	return rederive(t, t.role)
}

func flipConcession(_ *generator, t tuple) (tuple, bool) {
	t.Concessive = !t.Concessive
	return rederive(t, t.role)
}

// otherPredicate keeps outcome, connective and polarity and draws a
// predicate that points at the other noun.
func otherPredicate(g *generator, t tuple) (tuple, bool) {
	var options []string
	for _, p := range t.frame.predicates {
		m := t.Meaning
		m.Predicate = p
		if g.pointsAtOther(t, m) {
			options = append(options, p)
		}
	}
	if len(options) == 0 {
		return t, false
	}
	t.Predicate = g.pick(options)
	t.role = t.role.other()
	return t, true
}

// heldOutTwin is the other held-out combination of a held-out pair (see
// chooseHeldOutCells): the same predicate, with the other polarity or the
// other outcome.
func heldOutTwin(g *generator, t tuple) (tuple, bool) {
	for _, v := range []variation{flipNegation, flipOutcome} {
		if twin, ok := v(g, t); ok && g.heldOut[twin.cell().key()] {
			return twin, true
		}
	}
	return t, false
}

// anyVariation tries the three variations that keep the predicate in a
// random order, then another predicate, and keeps the first that moves the
// answer: twins that keep the predicate (and so give the predicate alone
// nothing to go on) wherever the frame allows. (Drawing all four in a
// random order let the predicate baseline reach 55.6% on a set once the
// poles had more words.)
func anyVariation(g *generator, t tuple) (tuple, bool) {
	keeping := []variation{flipNegation, flipOutcome, flipConcession}
	vs := []variation{}
	for _, i := range g.rng.Perm(len(keeping)) {
		vs = append(vs, keeping[i])
	}
	for _, v := range append(vs, otherPredicate) {
		if twin, ok := v(g, t); ok && !g.heldOut[twin.cell().key()] {
			return twin, true
		}
	}
	return t, false
}

// twinShapes are the training shapes a twin can be written in by changing
// one deciding thing: not "so-it", which names the answer first in both
// twins, nor "two-it", whose other clause would have to change too (the
// two_it set has twins of its own).
var twinShapes = []string{ShapeActive, ShapePassive, ShapeFronted, ShapeFrontedPassive}

// twinSpec says how one challenge set draws its twins.
type twinSpec struct {
	base     func(g *generator, i int) (tuple, bool) // the first sentence's meaning and nouns
	vary     variation                               // how the twin differs; nil: the other "it" of a two-reason sentence
	shapes   []string                                // shapes to write them in
	dress    func(g *generator, t tuple, sh Shape, sf *surface, avoid []string, i int) bool
	keep     func(tuple) bool // which nouns and meanings a second clause may use
	unknown  bool             // the predicates become unknown synonyms
	describe string
}

// challenges builds every set, each of up to size sentences.
func (g *generator) challenges(exclude map[string]bool, size int) []ChallengeSet {
	test := g.scheduledBase(size/2, g.inSplit(testSplit))
	ordinary := g.scheduledBase(size/2, anyNouns)
	specs := []struct {
		name string
		twinSpec
	}{
		{ChallengeHeldOutNounRole, twinSpec{base: g.heldOutNounRoleBase(), vary: anyVariation, shapes: twinShapes,
			describe: "nouns in a role no split gives them (" + nounRoleList(g.heldPairs()) + "); twins differ in one deciding thing"}},
		{ChallengeHeldOutCell, twinSpec{base: g.heldOutCellBase(), vary: heldOutTwin, shapes: twinShapes,
			describe: "(verb, predicate, polarity) combinations no split has (" + strings.Join(g.heldOutCellNames(), "; ") + "), in twins that differ in the negation or the outcome; the verb and the predicate are each seen in training, never together that way"}},
		{ChallengeDistractor, twinSpec{base: test, vary: anyVariation, shapes: twinShapes, dress: distract,
			describe: "a place noun (\"the cake on the plate\", \"In the barn, ...\") and adjectives before both nouns (\"the weak dog\") that never decide; test meanings"}},
		{ChallengeNegation, twinSpec{base: test, vary: flipNegation, shapes: twinShapes,
			describe: "\"it was fast\" against \"it was not fast\" (or \"wasn't\") in the same sentence: the negation moves the answer; test meanings"}},
		{ChallengeOutcome, twinSpec{base: test, vary: flipOutcome, shapes: twinShapes,
			describe: "\"caught\" against \"could not catch\" in the same sentence: the outcome moves the answer; test meanings"}},
		{ChallengeConcession, twinSpec{base: test, vary: flipConcession, shapes: twinShapes,
			describe: "\"because\" against \"although\" in the same sentence: the connective moves the answer; test meanings"}},
		{ChallengeHeldOutShape, twinSpec{base: test, vary: anyVariation, shapes: challengeShapes,
			describe: "shapes no split uses: \"It was hungry, so the dog ate the food.\" and \"The dog ate the food. It was hungry.\"; test meanings"}},
		{ChallengeTwoIt, twinSpec{base: test, shapes: []string{ShapeTwoIt}, keep: g.inSplit(testSplit),
			describe: "two \"it\"s that mean different nouns (\"... because it was weak and it was heavy\"); twins ask about one and the other; test meanings"}},
		{ChallengeUnknownWord, twinSpec{base: ordinary, vary: otherPredicate, shapes: twinShapes, unknown: true,
			describe: "the predicate replaced by a real adjective never seen in training (unknown.txt: famished, zippy, ...): Uncertain, the answer is what the word means"}},
	}
	out := make([]ChallengeSet, 0, len(specs))
	for _, s := range specs {
		ex := g.drawTwins(size, exclude, s.unknown, s.twinSpec)
		out = append(out, ChallengeSet{Name: s.name, Description: s.describe, Examples: ex})
	}
	return out
}

func anyNouns(tuple) bool { return true }

// scheduledBase gives the i-th twin the i-th cell of a schedule (see
// generator.schedule), with nouns that pass keep.
func (g *generator) scheduledBase(n int, keep func(tuple) bool) func(*generator, int) (tuple, bool) {
	cells, next := g.schedule(n), 0
	return func(g *generator, _ int) (tuple, bool) {
		if len(cells) == 0 {
			return tuple{}, false
		}
		next++
		return g.drawTuple(cells[next%len(cells)], keep)
	}
}

// inSplit keeps tuples whose combination belongs to split s.
func (g *generator) inSplit(s splitID) func(tuple) bool {
	return func(t tuple) bool { return g.splitOf(t.key()) == s }
}

// drawTwins collects up to size sentences, two at a time, keeping only
// twins whose words are all in the training vocabulary (but for the
// deciding word when allowUnknown) and that no split or earlier twin has.
func (g *generator) drawTwins(size int, exclude map[string]bool, allowUnknown bool, spec twinSpec) []Example {
	var out []Example
	seen := map[string]bool{}
	for tries := 0; len(out)+1 < size && tries < 50*size; tries++ {
		pair, ok := g.twin(spec, len(out)/2)
		if !ok || !g.usable(pair[0], allowUnknown, exclude, seen) || !g.usable(pair[1], allowUnknown, exclude, seen) {
			continue
		}
		seen[pair[0].Text], seen[pair[1].Text] = true, true
		out = append(out, pair[0], pair[1])
	}
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// twin draws one pair by spec.
func (g *generator) twin(spec twinSpec, i int) ([2]Example, bool) {
	a, ok := spec.base(g, i)
	if !ok {
		return [2]Example{}, false
	}
	b := a
	if spec.vary != nil {
		if b, ok = spec.vary(g, a); !ok || g.heldOut[b.cell().key()] != g.heldOut[a.cell().key()] {
			return [2]Example{}, false
		}
	}
	sh, ok := g.pickShape(shapesWriting(fittingShapes(spec.shapes, a.frame), a.frame, a.Meaning, b.Meaning))
	if !ok {
		return [2]Example{}, false
	}
	avoid := []string{a.Predicate, b.Predicate}
	sf, ok := g.surface(a, sh, avoid, spec.keep)
	if !ok || (spec.dress != nil && !spec.dress(g, a, sh, &sf, avoid, i)) {
		return [2]Example{}, false
	}
	sf.pp, sf.adverb = g.keepPlace(sf.pp, spec.dress != nil), g.keepAdverb(sf.adverb, spec.unknown)
	sf.refuge = Place{}   // "it hid in the barn": a place noun, which only the distractor set has, one a sentence
	sf.mainFirst = false  // twins keep their clauses in one order whatever the connective
	if spec.vary == nil { // two "it"s: ask about one, then the other
		sfb := sf
		sf.askSecond, sfb.askSecond = false, true
		return [2]Example{realise(a, sh, sf), realise(a, sh, sfb)}, true
	}
	if spec.unknown {
		return g.unknownTwin(a, b, sh, sf)
	}
	return [2]Example{realise(a, sh, sf), realise(b, sh, sf)}, true
}

// keepPlace keeps a drawn place phrase only where the set tests them, so
// other sets test one thing.
func (g *generator) keepPlace(pp placePhrase, keep bool) placePhrase {
	if keep {
		return pp
	}
	return placePhrase{}
}

// keepAdverb drops the adverb before an unknown word ("much oversized" would
// not be English, and "too" depends on a meaning the word hides).
func (g *generator) keepAdverb(adverb string, unknown bool) string {
	if unknown {
		return ""
	}
	return adverb
}

func (t tuple) cell() cell { return cell{t.frameIndex, t.Meaning, t.role} }

func (g *generator) usable(e Example, allowUnknown bool, exclude, seen map[string]bool) bool {
	if exclude[e.Text] || seen[e.Text] || len(e.Tokens) > MaxTokens {
		return false
	}
	_, unknown := g.vocab.Encode(e.Tokens)
	if allowUnknown && len(unknown) == 1 && len(e.Deciding) >= 1 && unknown[0] == e.Tokens[e.Deciding[len(e.Deciding)-1]] {
		return true
	}
	return len(unknown) == 0
}

// heldPairs are the held-out (noun, role) pairs, sorted.
func (g *generator) heldPairs() []NounRole {
	var out []NounRole
	for p := range g.held {
		out = append(out, p)
	}
	slices.SortFunc(out, compareNounRoles)
	return out
}

// heldOutNounRoleBase cycles through the held-out pairs so each gets the
// same share; the other noun plays a role it also plays in training.
func (g *generator) heldOutNounRoleBase() func(*generator, int) (tuple, bool) {
	pairs := g.heldPairs()
	return func(g *generator, i int) (tuple, bool) {
		if len(pairs) == 0 {
			return tuple{}, false
		}
		p := pairs[i%len(pairs)]
		c := g.drawCell()
		f := &g.lex.Frames[c.frameIndex]
		if !slices.Contains(f.Nouns(p.Role), p.Noun) {
			return tuple{}, false
		}
		other := f.Nouns(p.Role.other())
		t := tuple{frameIndex: c.frameIndex, frame: f, Meaning: c.Meaning, role: c.role}
		nouns := [2]string{}
		nouns[p.Role], nouns[p.Role.other()] = p.Noun, g.pick(other)
		t.agent, t.object = nouns[Agent], nouns[Object]
		otherPair := NounRole{nouns[p.Role.other()], p.Role.other()}
		return t, t.agent != t.object && !g.held[otherPair]
	}
}

// heldOutCellBase draws one of the held-out cells.
func (g *generator) heldOutCellBase() func(*generator, int) (tuple, bool) {
	var held []cell
	for _, c := range g.cells {
		if g.heldOut[c.key()] {
			held = append(held, c)
		}
	}
	return func(g *generator, _ int) (tuple, bool) {
		if len(held) == 0 {
			return tuple{}, false
		}
		return g.drawTuple(held[g.rng.Intn(len(held))], anyNouns)
	}
}

// heldOutCellNames names the held-out cells, "could not lift / not heavy", sorted.
func (g *generator) heldOutCellNames() []string {
	var out []string
	for k := range g.heldOut {
		out = append(out, g.lex.cellName(k))
	}
	slices.Sort(out)
	return out
}

// cellName names a cell by its words, "could not lift / not heavy".
func (l *Lexicon) cellName(k cellKey) string {
	not := ""
	if k.negated {
		not = "not "
	}
	return l.Frames[k.frameIndex].Verb(k.outcome) + " / " + not + k.predicate
}

// distract puts a place phrase in slot i%3 (before both candidates, between
// them, after both) and an adjective before both nouns.
func distract(g *generator, t tuple, sh Shape, sf *surface, avoid []string, i int) bool {
	slot := i % 3
	if slot == 0 && sh.layout != reasonLast || sh.layout == soIt || sh.layout == twoReasons {
		return false // only a sentence that opens with its main clause can open with a place
	}
	at := slotAttachment(slot, sh)
	places := t.frame.Places(at)
	if len(places) == 0 {
		return false
	}
	sf.pp = placePhrase{at: at, place: places[g.rng.Intn(len(places))], set: true}
	for _, r := range []Role{Agent, Object} {
		if sf.attributes[r] == "" { // drawing attribute until it gives one could fail 50 times (0.8^50 a noun)
			sf.attributes[r] = g.anyAttribute(t.frame, r, avoid)
		}
	}
	return true
}

// slotAttachment is where a place phrase must attach to land in slot 0
// (before both nouns), 1 (between) or 2 (after both) in shape sh.
func slotAttachment(slot int, sh Shape) Attachment {
	first, second := AttachAgent, AttachObject
	if sh.Passive {
		first, second = second, first
	}
	return [...]Attachment{AttachScene, first, second}[slot]
}

// unknownTwin writes both sentences with unknown synonyms of their predicates.
func (g *generator) unknownTwin(a, b tuple, sh Shape, sf surface) ([2]Example, bool) {
	synonyms := g.unknownSynonyms
	if len(synonyms[a.Predicate]) == 0 || len(synonyms[b.Predicate]) == 0 {
		return [2]Example{}, false
	}
	sf.attributes = [2]string{}
	a.Predicate, b.Predicate = g.pick(synonyms[a.Predicate]), g.pick(synonyms[b.Predicate])
	ea, eb := realise(a, sh, sf), realise(b, sh, sf)
	ea.Uncertain, eb.Uncertain = true, true
	return [2]Example{ea, eb}, true
}

func nounRoleList(pairs []NounRole) string {
	var s []string
	for _, p := range pairs {
		s = append(s, p.String())
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
