// Reasons the corpus gives: whether a sentence's verb and what it says of
// "it" ever meet in the corpus. A model can only learn what a predicate
// means for a verb from sentences that pair them; for a pair the corpus never
// writes ("The dog chased the cat because it was angry": "angry" only ever
// describes the one avoided or hidden from), its answer comes from what the
// predicate meant beside other verbs, so it is a guess however sure it looks.

package data

import (
	"iter"
	"slices"
	"strings"
	"sync"
)

// Reason is a sentence's verb and what it says of "it", looked up in the lexicon.
type Reason struct {
	// Verbs are the frames' verb phrases found outside the pronoun's clause,
	// each once, in the lexicon's frame order ("chased", "was eaten by").
	Verbs []string `json:"verbs"`
	// Predicate is what the clause of "it" says of it, as the corpus writes
	// it: "angry", "too big", "not fast" (with "not" when negated).
	Predicate string `json:"predicate"`
	// Paired says whether some frame of Verbs gives Predicate as a reason.
	Paired bool `json:"paired"`
	// Elsewhere are the frames that do give Predicate as a reason: their
	// active verb and the role it then describes, in frame order.
	Elsewhere []Use `json:"elsewhere"`
}

// Use is one frame's use of a predicate: "angry" describes the object of "avoided".
type Use struct {
	Verb string `json:"verb"` // the frame's active verb phrase
	Role Role   `json:"role"`
}

// Unpaired says whether the sentence has a frame's verb and a predicate that
// no frame of its verbs gives as a reason.
func (r Reason) Unpaired() bool { return len(r.Verbs) > 0 && r.Predicate != "" && !r.Paired }

// negators are the tokens that negate a predicate in the corpus's reason
// clauses: "it was not fast", "it wasn't fast", "it isn't fast".
var negators = []string{"not", "wasn't", "isn't", "never"}

// LookUpReason finds the lexicon's first predicate in the pronoun's clause
// (tokens after the pronoun, before clauseEnd) when "it" is a copula's
// subject ("it was hungry"), or else in the clause before it, after its
// copula ("The box was heavy, so the dog could not lift it" says it of the
// noun "it" stands for), or else a deed of "it" right after it ("because it
// hid"), and the frames' verbs in the
// rest of the sentence (before the pronoun, and after the predicate: a
// fronted clause may run on into the main one, "since it was fast a camel
// escaped"), and says whether the corpus pairs them. A Reason with no verbs
// or no predicate says nothing either way.
func LookUpReason(tokens []string, pronoun, clauseEnd int) Reason {
	lex, err := sharedLexicon()
	if err != nil {
		return Reason{}
	}
	start, end := pronoun+1, clauseEnd
	if start >= len(tokens) || !slices.Contains(copulas, tokens[start]) {
		// "The old box was heavy, so the dog could not lift it": "it" is no
		// copula's subject; what decides is said of the noun named before,
		// by a copula: with none, an adjective before a noun ("I put the
		// heavy book on the table and it broke") says nothing of "it"
		start, end = copulaBefore(tokens, pronoun), pronoun
	}
	var at int
	var words []string
	negated := false
	if start >= 0 {
		at, words, negated = predicateIn(tokens[start:end], sharedPredicates())
	}
	if words != nil && !onlyModifiers(tokens[start+1:start+at]) {
		words = nil // "(it) was helped by a greedy hare": an adjective before a noun says nothing of "it"
	}
	if words == nil && actAt(tokens, pronoun) {
		// "because the chicken protected it": a third noun's deed done to "it"
		return lex.reason(tokens[pronoun-1], false, slices.Concat(tokens[:pronoun-2], tokens[pronoun+1:]))
	}
	if deed := deedAfter(tokens[pronoun+1:]); words == nil && deed != nil && !followsOn(tokens, pronoun) {
		// "because it hid": a deed of "it" itself, where nothing else is
		// said of it ("The spider was not slow, so it escaped from the
		// jackdaw": the frame's verb, and "not slow" is what is said)
		return lex.reason(strings.Join(deed, " "), false, slices.Concat(tokens[:pronoun], tokens[pronoun+1+len(deed):]))
	}
	if words == nil {
		return Reason{}
	}
	p := strings.Join(words, " ")
	// the rest of the sentence, without the pronoun and what its clause says
	outside := append(slices.Clone(tokens[:min(start, pronoun)]), tokens[start+at+len(words):]...)
	if start < pronoun { // the clause before "it": the rest is everything but the predicate
		outside = append(slices.Clone(tokens[:start+at]), tokens[start+at+len(words):]...)
	}
	return lex.reason(p, negated, outside)
}

// reason pairs predicate p (negated or not) with the frames' verbs in the
// rest of the sentence, outside.
func (l *Lexicon) reason(p string, negated bool, outside []string) Reason {
	r := Reason{Predicate: p}
	if negated {
		r.Predicate = "not " + p
	}
	frames := l.framesIn(outside)
	for _, f := range frames {
		r.Verbs = appendNew(r.Verbs, f.verbIn(outside))
	}
	r.Paired = slices.ContainsFunc(frames, func(f *Frame) bool { return f.givesReason(p) })
	r.Elsewhere = l.uses(p)
	return r
}

// actOpeners open a reason clause: "because the chicken protected it", "..., but
// the dog protected it", "... . The owl helped it.": the last word of each
// connective of the layouts whose reason clause follows its connective (not
// so-it's or the "so" layout's, whose "so" follows the reason).
var actOpeners = sync.OnceValue(func() []string {
	lists := slices.Clone(frontedAs[:])
	for _, l := range []layout{reasonLast, reasonFirst, twoSentences, twoReasons} {
		lists = append(lists, connectives[l][0], connectives[l][1])
	}
	var out []string
	for _, c := range slices.Concat(lists...) {
		words := strings.Fields(c)
		out = appendNew(out, words[len(words)-1])
	}
	return out
})

// actAt says whether "it" is the object of an act in a reason clause, its
// doer named just before it ("because the chicken protected it"; or opening the
// sentence, "The chicken protected it, so ..."), not of a main clause's verb
// ("found the egg and protected it", "the hare was scared, so a wolf
// attacked it"). A few words (an article, adjectives) may stand between the
// opener and the doer.
func actAt(tokens []string, pronoun int) bool {
	if pronoun < 2 || !slices.Contains(sharedActs(), tokens[pronoun-1]) || !(IsNoun(tokens[pronoun-2]) || tokens[pronoun-2] == Unk) {
		return false
	}
	for i := pronoun - 3; i >= 0; i-- {
		switch {
		case slices.Contains(actOpeners(), tokens[i]):
			return true
		case slices.Contains(actJoiners, tokens[i]) || i <= pronoun-7:
			return false
		}
	}
	return true // the doer opens the sentence: "The chicken protected it, so ..."
}

// followOnWords open a clause that follows on from the one before: "so
// it hid", "and protected it", "then it fled".
var followOnWords = []string{"so", "and", "then"}

// actJoiners join a main clause: "and protected it", "so a wolf attacked it".
var actJoiners = append(slices.Clone(followOnWords), ",")

// followsOn says whether "it" opens a clause that follows on from the one
// before ("so it hid", "and it hid"): a deed there is what happened next,
// not a reason, and the corpus never writes one there.
func followsOn(tokens []string, pronoun int) bool {
	return pronoun > 0 && slices.Contains(followOnWords, tokens[pronoun-1])
}

// deedAfter returns the deed of deeds.txt that tokens (what follows "it")
// open with, split into words, or nil: "hid", "ran away", "hid in the
// barn".
func deedAfter(tokens []string) []string {
	for _, d := range sharedDeeds() {
		if startsWith(tokens, d) {
			return d
		}
	}
	return nil
}

// sharedDeeds are the deeds of deeds.txt, each split into words, the
// longest first (so "ran away" is not read as a shorter deed).
var sharedDeeds = sync.OnceValue(func() [][]string {
	lex, err := sharedLexicon()
	if err != nil {
		return nil
	}
	var out [][]string
	for _, w := range dimensionWords(lex.Deeds) {
		out = append(out, strings.Fields(w))
	}
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
})

// dimensionWords are the words of both poles of every dimension of dims.
func dimensionWords(dims []Dimension) []string {
	var out []string
	for _, d := range dims {
		out = slices.Concat(out, d.Poles[0], d.Poles[1])
	}
	return out
}

// sharedActs are the words of every act (acts.txt).
var sharedActs = sync.OnceValue(func() []string {
	lex, err := sharedLexicon()
	if err != nil {
		return nil
	}
	return dimensionWords(lex.Acts)
})

// onlyModifiers says whether words are only negations and degree adverbs:
// what may stand between a copula and its predicate ("was not really heavy").
func onlyModifiers(words []string) bool {
	return !slices.ContainsFunc(words, func(w string) bool {
		return !slices.Contains(negators, w) && !slices.Contains(degreeAdverbWords(), w)
	})
}

// copulas are the verbs a clause says a property with.
var copulas = []string{"was", "is", "wasn't", "isn't"}

// copulaBefore is the position of the last copula before the pronoun (-1 if
// none): where what a preceding clause says of its noun starts, after any
// adjective before the noun ("the old box was heavy"). A copula whose
// subject is another "it" says nothing of this one ("... because it was
// hungry, and it ran away": "hungry" is the first "it"'s), so there is none.
func copulaBefore(tokens []string, pronoun int) int {
	for i := pronoun - 1; i >= 0; i-- {
		if slices.Contains(copulas, tokens[i]) {
			if i > 0 && tokens[i-1] == Pronoun {
				return -1
			}
			return i
		}
	}
	return -1
}

// framesIn returns the frames whose verb phrases occur in tokens, in frame order.
func (l *Lexicon) framesIn(tokens []string) []*Frame {
	var out []*Frame
	for i := range l.Frames {
		if l.Frames[i].verbIn(tokens) != "" {
			out = append(out, &l.Frames[i])
		}
	}
	return out
}

// verbIn returns the longest of f's verb phrases (verbPhrases) that occurs in
// tokens, or "".
func (f *Frame) verbIn(tokens []string) string {
	best := ""
	for w := range f.verbPhrases() {
		if len(w) > len(best) && contains(tokens, strings.Fields(w)) {
			best = w
		}
	}
	return best
}

// verbPhrases yields f's verb phrases of either outcome, in every voice and
// tense, written out and contracted ("could not lift", "couldn't lift").
func (f *Frame) verbPhrases() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, o := range []Outcome{Succeeded, Failed} {
			for _, form := range verbForms {
				for _, v := range f.verbs(o, form.passive, form.present) {
					if !yield(v) || !yield(contract(v)) {
						return
					}
				}
			}
		}
	}
}

// ObjectOfVerb says whether the pronoun is the object of one of the frames'
// active verb phrases joined to the main clause by "and" ("found the banana
// and ate it"): "it" is then that verb's object and the main clause's
// subject is its subject, which the grammar decides, as in the corpus's
// lead-it sentences, with no reason clause needed. A verb with a subject of
// its own ("..., so the donkey carried it") is no sentence the corpus
// writes: there the corpus says "it" by a reason clause, or not at all.
func ObjectOfVerb(tokens []string, pronoun int) bool {
	lex, err := sharedLexicon()
	if err != nil {
		return false
	}
	before := tokens[:pronoun]
	for i := range lex.Frames {
		for w := range lex.Frames[i].verbPhrases() {
			// a passive ends in "by" (the loader checks): "it" is then its agent
			if v := strings.Fields(w); !strings.HasSuffix(w, " by") && endsWith(before, append([]string{"and"}, v...)) {
				return true
			}
		}
	}
	return false
}

// predicateIn returns the position and words of the longest of preds that
// starts at the first position of tokens where one does, and whether a
// negator precedes it; words is nil if there is none.
func predicateIn(tokens []string, preds [][]string) (at int, words []string, negated bool) {
	for i := range tokens {
		for _, q := range preds {
			if len(q) > len(words) && startsWith(tokens[i:], q) {
				words = q
			}
		}
		if words != nil {
			return i, words, slices.ContainsFunc(tokens[:i], func(t string) bool { return slices.Contains(negators, t) })
		}
	}
	return 0, nil, false
}

// sharedPredicates are every frame's predicates said with a copula ("it was
// hungry"; not the acts, "the dog protected it", nor the deeds, "it hid"), each once, split into
// words: looked up on every sentence infer reads.
var sharedPredicates = sync.OnceValue(func() [][]string {
	lex, err := sharedLexicon()
	if err != nil {
		return nil
	}
	var seen []string
	var out [][]string
	for _, f := range lex.Frames {
		for _, p := range f.predicates {
			if !slices.Contains(seen, p) && f.saidWithCopula(p) {
				seen, out = append(seen, p), append(out, strings.Fields(p))
			}
		}
	}
	return out
})

// givesReason says whether p is a property f explains its outcome by ("not
// p" then is too: the meaning decides which role it describes).
func (f *Frame) givesReason(p string) bool {
	_, ok := f.properties[p]
	return ok
}

// uses lists, per frame that explains its outcome by p, the roles p can
// describe there (either, depending on outcome, negation and connective).
func (l *Lexicon) uses(p string) []Use {
	out := []Use{}
	for i := range l.Frames {
		f := &l.Frames[i]
		for r, ok := range f.describes(p) {
			if ok { // two frames may share a verb (tempt, tempt_drink: "tempted")
				out = appendNew(out, Use{Verb: f.Verb(Succeeded), Role: Role(r)})
			}
		}
	}
	return out
}

// contains says whether words occur, in order and together, in tokens.
func contains(tokens, words []string) bool {
	for i := range tokens {
		if startsWith(tokens[i:], words) {
			return true
		}
	}
	return false
}

// startsWith says whether tokens begin with words.
func startsWith(tokens, words []string) bool {
	return len(tokens) >= len(words) && slices.Equal(tokens[:len(words)], words)
}

// endsWith says whether tokens end with words.
func endsWith(tokens, words []string) bool {
	return len(tokens) >= len(words) && slices.Equal(tokens[len(tokens)-len(words):], words)
}

// appendNew appends v unless it is the zero value ("" for a word) or
// already in list.
func appendNew[T comparable](list []T, v T) []T {
	var zero T
	if v == zero || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}
