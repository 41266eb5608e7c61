// Challenge sets: held-out examinations reported apart from the ordinary
// splits, each testing one thing (a noun in a new role, a third noun, "not",
// a new sentence shape, an unknown deciding word).
//
// Every challenge sentence comes with a twin: the same nouns in the same
// places and the same surface words, with only the deciding words changed so
// that the answer moves to the other noun. In each twin one answer is the
// first noun and one the second, so any rule that ignores the deciding
// words (first noun, nearest noun, majority position, noun identity) scores
// exactly 50%.

package data

import (
	"slices"
	"strings"
)

// Challenge set names.
const (
	ChallengeHeldOutNounRole = "held_out_noun_role"
	ChallengeDistractor      = "distractor"
	ChallengeNegation        = "negation"
	ChallengeHeldOutShape    = "held_out_shape"
	ChallengeUnknownWord     = "unknown_deciding_word"
)

// ChallengeSet is one challenge: a name, what it tests, and its sentences.
type ChallengeSet struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Examples    []Example `json:"examples"`
}

// pairKey is a frame with its two nouns.
type pairKey struct {
	frame         int
	agent, object string
}

// twinIndex groups positive tuples by frame and nouns, so a twin (one tuple
// whose predicate describes the agent, one the object) can be drawn.
type twinIndex struct {
	byPair map[pairKey]*[2][]tuple
	frames [][]pairKey // per frame, the pairs with tuples of both roles
}

func newTwinIndex(nFrames int, tuples []tuple, keep func(tuple) bool) *twinIndex {
	ix := &twinIndex{byPair: map[pairKey]*[2][]tuple{}, frames: make([][]pairKey, nFrames)}
	var order []pairKey
	for _, t := range tuples {
		if t.negated || !keep(t) {
			continue
		}
		k := pairKey{t.frameIndex, t.agent, t.object}
		if ix.byPair[k] == nil {
			ix.byPair[k] = &[2][]tuple{}
			order = append(order, k)
		}
		ix.byPair[k][t.role] = append(ix.byPair[k][t.role], t)
	}
	for _, k := range order {
		if p := ix.byPair[k]; len(p[Agent]) > 0 && len(p[Object]) > 0 {
			ix.frames[k.frame] = append(ix.frames[k.frame], k)
		}
	}
	return ix
}

// empty reports whether the index has no twin at all.
func (ix *twinIndex) empty() bool {
	for _, pairs := range ix.frames {
		if len(pairs) > 0 {
			return false
		}
	}
	return true
}

// draw picks a frame uniformly, then a noun pair, then one tuple per role.
func (ix *twinIndex) draw(g *generator) (agent, object tuple, ok bool) {
	var frames []int
	for f, pairs := range ix.frames {
		if len(pairs) > 0 {
			frames = append(frames, f)
		}
	}
	if len(frames) == 0 {
		return tuple{}, tuple{}, false
	}
	pairs := ix.frames[frames[g.rng.Intn(len(frames))]]
	p := ix.byPair[pairs[g.rng.Intn(len(pairs))]]
	return p[Agent][g.rng.Intn(len(p[Agent]))], p[Object][g.rng.Intn(len(p[Object]))], true
}

// negTwin is a positive tuple and its negation ("fast" / "not fast") in the
// same frame with the same nouns; their answers differ.
type negTwin struct{ pos, neg tuple }

// negationTwins lists, per role of the negated tuple and per frame, every
// negated tuple whose positive form is also among tuples.
func negationTwins(nFrames int, tuples []tuple) [2][][]negTwin {
	type key struct {
		frame                    int
		agent, object, predicate string
	}
	positive := map[key]tuple{}
	for _, t := range tuples {
		if !t.negated {
			positive[key{t.frameIndex, t.agent, t.object, t.predicate}] = t
		}
	}
	out := [2][][]negTwin{make([][]negTwin, nFrames), make([][]negTwin, nFrames)}
	for _, t := range tuples {
		if pos, ok := positive[key{t.frameIndex, t.agent, t.object, t.predicate}]; ok && t.negated {
			out[t.role][t.frameIndex] = append(out[t.role][t.frameIndex], negTwin{pos, t})
		}
	}
	return out
}

// challengeSources are the tuples the challenge sets draw from.
type challengeSources struct {
	test, ordinary, heldOut []tuple
	pairs                   []NounRole
	held                    heldOutSet
	exclude                 map[string]bool // sentences of the ordinary splits
}

// challenges builds the five sets, each of up to size sentences (twins).
func (g *generator) challenges(src challengeSources, size int) []ChallengeSet {
	builders := []struct {
		name, description string
		allowUnknown      bool
		next              func(i int) (Example, Example, bool)
	}{
		{ChallengeHeldOutNounRole, "nouns in a role no split gives them (" + nounRoleList(src.pairs) + "); twins differ only in the predicate",
			false, g.heldOutNounRoleTwins(src)},
		{ChallengeDistractor, "a third noun in a place phrase (\"the cake on the plate\", \"In the barn, ...\") that is never the answer; test meanings",
			false, g.distractorTwins(src.test)},
		{ChallengeNegation, "\"it was fast\" against \"it was not fast\" (or \"wasn't\") in the same sentence: the negation moves the answer; test meanings",
			false, g.negationTwins(src.test)},
		{ChallengeHeldOutShape, "shapes no split uses: \"It was hungry, so the dog ate the food.\" and \"The dog ate the food. It was hungry.\"; test meanings",
			false, g.shapeTwins(src.test)},
		{ChallengeUnknownWord, "the predicate replaced by a real adjective never seen in training (unknown.txt: famished, zippy, ...): Uncertain, the answer is what the word means",
			true, g.unknownWordTwins(src.ordinary)},
	}
	out := make([]ChallengeSet, 0, len(builders))
	for _, b := range builders {
		ex := g.drawTwins(size, src.exclude, b.allowUnknown, b.next)
		out = append(out, ChallengeSet{Name: b.name, Description: b.description, Examples: ex})
	}
	return out
}

// drawTwins collects up to size sentences from next, two at a time, keeping
// only twins whose words are all in the training vocabulary (but for the
// deciding word when allowUnknown) and that no split or earlier twin has.
func (g *generator) drawTwins(size int, exclude map[string]bool, allowUnknown bool, next func(i int) (Example, Example, bool)) []Example {
	var out []Example
	seen := map[string]bool{}
	for tries := 0; len(out)+1 < size && tries < 50*size; tries++ {
		a, b, ok := next(len(out) / 2)
		if !ok || !g.usable(a, allowUnknown, exclude, seen) || !g.usable(b, allowUnknown, exclude, seen) {
			continue
		}
		seen[a.Text], seen[b.Text] = true, true
		out = append(out, a, b)
	}
	g.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func (g *generator) usable(e Example, allowUnknown bool, exclude, seen map[string]bool) bool {
	if exclude[e.Text] || seen[e.Text] || len(e.Tokens) > MaxTokens {
		return false
	}
	_, unknown := g.vocab.Encode(e.Tokens)
	if allowUnknown && len(unknown) == 1 && len(e.Deciding) == 1 && unknown[0] == e.Tokens[e.Deciding[0]] {
		return true
	}
	return len(unknown) == 0
}

// twin writes a and b (same frame and nouns) in the same shape and surface.
func twin(a, b tuple, sh Shape, sf surface) (Example, Example, bool) {
	return realise(a, sh, sf), realise(b, sh, sf), true
}

// plainSurface is a surface without a place phrase, for sets that test
// something else.
func (g *generator) plainSurface(t tuple, sh Shape) surface {
	sf := g.surface(t, sh)
	sf.pp = placePhrase{}
	return sf
}

func (g *generator) trainShape(f *Frame) (Shape, bool) {
	return g.pickShape(fittingShapes(trainShapes, f))
}

func (g *generator) pickShape(shapes []Shape) (Shape, bool) {
	if len(shapes) == 0 {
		return Shape{}, false
	}
	return shapes[g.rng.Intn(len(shapes))], true
}

// heldOutNounRoleTwins cycles through the held-out pairs so each gets the
// same share; the other noun plays a role it also plays in training.
func (g *generator) heldOutNounRoleTwins(src challengeSources) func(int) (Example, Example, bool) {
	var ix []*twinIndex // one per held-out pair that has twins at all
	for _, p := range src.pairs {
		pairIx := newTwinIndex(len(g.lex.Frames), src.heldOut, func(t tuple) bool {
			other := NounRole{t.noun(p.Role.other()), p.Role.other()}
			return t.noun(p.Role) == p.Noun && !src.held[other]
		})
		if !pairIx.empty() {
			ix = append(ix, pairIx)
		}
	}
	return func(i int) (Example, Example, bool) {
		if len(ix) == 0 {
			return Example{}, Example{}, false
		}
		a, b, _ := ix[i%len(ix)].draw(g)
		sh, fits := g.trainShape(a.frame)
		if !fits {
			return Example{}, Example{}, false
		}
		return twin(a, b, sh, g.plainSurface(a, sh))
	}
}

// distractorTwins always add a place phrase, cycling through the three
// slots it can take: before both candidates (a scene phrase opening the
// sentence), between them (after the first noun), after both.
func (g *generator) distractorTwins(test []tuple) func(int) (Example, Example, bool) {
	ix := newTwinIndex(len(g.lex.Frames), test, func(t tuple) bool {
		return len(t.frame.AgentPlaces)+len(t.frame.ObjectPlaces)+len(t.frame.ScenePlaces) > 0
	})
	return func(i int) (Example, Example, bool) {
		a, b, ok := ix.draw(g)
		if !ok {
			return Example{}, Example{}, false
		}
		slot := i % 3
		shapes := fittingShapes(trainShapes, a.frame)
		if slot == 0 { // only a sentence that opens with its main clause can open with a place
			shapes = slices.DeleteFunc(shapes, func(s Shape) bool { return s.layout != reasonLast })
		}
		sh, fits := g.pickShape(shapes)
		if !fits {
			return Example{}, Example{}, false
		}
		at := slotAttachment(slot, sh)
		places := a.frame.Places(at)
		if len(places) == 0 {
			return Example{}, Example{}, false
		}
		sf := g.plainSurface(a, sh)
		sf.pp = placePhrase{at: at, place: places[g.rng.Intn(len(places))], set: true}
		return twin(a, b, sh, sf)
	}
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

// negationTwins alternate which role the negated sentence points at.
func (g *generator) negationTwins(test []tuple) func(int) (Example, Example, bool) {
	twins := negationTwins(len(g.lex.Frames), test)
	return func(i int) (Example, Example, bool) {
		var frames []int
		for f, list := range twins[i%2] {
			if len(list) > 0 {
				frames = append(frames, f)
			}
		}
		if len(frames) == 0 {
			return Example{}, Example{}, false
		}
		list := twins[i%2][frames[g.rng.Intn(len(frames))]]
		nt := list[g.rng.Intn(len(list))]
		sh, fits := g.trainShape(nt.pos.frame)
		if !fits {
			return Example{}, Example{}, false
		}
		return twin(nt.pos, nt.neg, sh, g.plainSurface(nt.pos, sh))
	}
}

// shapeTwins write test meanings in the shapes no split uses.
func (g *generator) shapeTwins(test []tuple) func(int) (Example, Example, bool) {
	ix := newTwinIndex(len(g.lex.Frames), test, func(tuple) bool { return true })
	return func(int) (Example, Example, bool) {
		a, b, ok := ix.draw(g)
		if !ok {
			return Example{}, Example{}, false
		}
		sh, fits := g.pickShape(fittingShapes(challengeShapes, a.frame))
		if !fits {
			return Example{}, Example{}, false
		}
		return twin(a, b, sh, g.plainSurface(a, sh))
	}
}

// unknownWordTwins replace both predicates by unknown synonyms. No adverb:
// "much oversized" would not be English.
func (g *generator) unknownWordTwins(ordinary []tuple) func(int) (Example, Example, bool) {
	synonyms := map[string][]string{}
	for _, u := range g.lex.unknown {
		synonyms[u.Means] = append(synonyms[u.Means], u.Word)
	}
	ix := newTwinIndex(len(g.lex.Frames), ordinary, func(t tuple) bool { return len(synonyms[t.predicate]) > 0 })
	return func(int) (Example, Example, bool) {
		a, b, ok := ix.draw(g)
		if !ok {
			return Example{}, Example{}, false
		}
		sh, fits := g.trainShape(a.frame)
		if !fits {
			return Example{}, Example{}, false
		}
		a.predicate, b.predicate = g.pick(synonyms[a.predicate]), g.pick(synonyms[b.predicate])
		sf := g.plainSurface(a, sh)
		sf.adverb = ""
		ea, eb, _ := twin(a, b, sh, sf)
		ea.Uncertain, eb.Uncertain = true, true
		return ea, eb, true
	}
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
