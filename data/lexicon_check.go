// Lexicon checks across files: word classes, that every predicate can
// decide, that no predicate word alone tells the role, and that unknown
// words stay unknown.

package data

import (
	"maps"
	"slices"
	"strings"
)

func (l *Lexicon) check() error {
	for i := range l.Frames {
		f := &l.Frames[i]
		for _, check := range []func(*Frame) error{l.checkWordClasses, checkDecides, l.checkNotObjectsAreNouns} {
			if err := check(f); err != nil {
				return err
			}
		}
	}
	for _, check := range []func() error{l.checkBothRoles, l.checkAttributes, l.checkUnknown} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// checkNotObjectsAreNouns asks that a noun a frame's verb cannot take be a
// candidate elsewhere: the lead-it choice is between two nouns of the corpus.
func (l *Lexicon) checkNotObjectsAreNouns(f *Frame) error {
	for _, noun := range f.NotObjects {
		if !l.nouns[noun] {
			return lexErr(f.File, f.lines["not objects"], "%q is no agent or object of any frame", noun)
		}
	}
	return nil
}

// verbKeyNames are the frame keys that hold verb phrases: the outcomes'
// forms and the lead verbs.
func verbKeyNames() []string {
	var out []string
	for _, k := range verbKeys() {
		out = append(out, k.name)
	}
	return append(out, "lead", "lead present")
}

// checkWordClasses rejects a verb, predicate or preposition word that is
// also a noun somewhere: IsNoun would then report it as a noun.
func (l *Lexicon) checkWordClasses(f *Frame) error {
	for _, key := range verbKeyNames() {
		for _, w := range strings.Fields(strings.Join(f.phrases(key), " ")) {
			if l.IsNoun(w) {
				return lexErr(f.File, f.lines[key], "%q is a noun elsewhere in the lexicon", w)
			}
		}
	}
	for _, p := range f.predicates {
		for _, w := range strings.Fields(p) {
			if l.IsNoun(w) {
				return lexErr("properties.txt", 0, "%q (a property of %s) is a noun elsewhere in the lexicon", w, f.Name)
			}
		}
	}
	for a, key := range placeKeys {
		for _, p := range f.Places(Attachment(a)) {
			if l.IsNoun(p.Prep) {
				return lexErr(f.File, f.lines[key], "preposition %q is a noun elsewhere in the lexicon", p.Prep)
			}
		}
	}
	return nil
}

// checkDecides makes sure every predicate of a frame decides in some
// meaning: a dimension given to both roles with the same sign would fit
// both whatever the sentence says.
func checkDecides(f *Frame) error {
	for _, p := range f.predicates {
		if len(f.meaningsOf(p)) == 0 {
			dim, _ := f.DimensionOf(p)
			return lexErr(f.File, 0, "%q never decides: %q favours the same outcome for agent and object", p, dim)
		}
	}
	return nil
}

// meaningsOf lists every meaning of predicate p that decides in f, in a
// fixed order: outcome, concession, negation.
func (f *Frame) meaningsOf(p string) []Meaning {
	var out []Meaning
	for _, o := range []Outcome{Succeeded, Failed} {
		for _, conc := range []bool{false, true} {
			for _, neg := range []bool{false, true} {
				m := Meaning{Outcome: o, Concessive: conc, Negated: neg, Predicate: p}
				if _, ok := f.Referent(m); ok {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// checkBothRoles is the rule that keeps a predicate from answering alone:
// every predicate some frame uses must describe the agent in some frame and
// the object in some frame ("hungry": the eater, but also the one fed). A
// deed that is a frame's own verb counts for the roles its dimension has
// there: the meaning gives it that role, only the wording is never written
// ("escaped" is the escaper's evasion; escape does not say "because it
// escaped"), and the training data's baselines show what that costs.
func (l *Lexicon) checkBothRoles() error {
	roles := map[string]*[2][]string{}
	var order []string
	add := func(p string, f *Frame, describes [2]bool) {
		if roles[p] == nil {
			roles[p] = &[2][]string{}
			order = append(order, p)
		}
		for r, ok := range describes {
			if ok {
				roles[p][r] = append(roles[p][r], f.Name)
			}
		}
	}
	for i := range l.Frames {
		f := &l.Frames[i]
		for _, p := range f.predicates {
			add(p, f, f.describes(p))
		}
		for _, p := range slices.Sorted(maps.Keys(f.ownVerbDeeds)) {
			add(p, f, f.describesDimension(f.ownVerbDeeds[p]))
		}
	}
	for _, p := range order {
		for r, frames := range roles[p] {
			if len(frames) == 0 {
				other := Role(r).other()
				return lexErr("properties.txt", 0, "%q describes only the %s (in %s): the word alone would tell the answer; give it a frame where it describes the %s, or drop it",
					p, other, strings.Join(roles[p][other], ", "), Role(r))
			}
		}
	}
	return nil
}

// checkAttributes keeps attributes from deciding: none may be a predicate
// or a noun.
func (l *Lexicon) checkAttributes() error {
	preds := l.predicateSet()
	for _, a := range l.Attributes {
		if preds[a] || l.IsNoun(a) {
			return lexErr("attributes.txt", 0, "%q is a predicate or a noun, so it could decide", a)
		}
	}
	return nil
}

// checkUnknown keeps the unknown words out of every frame, so no training
// sentence can contain one, and makes each mean a predicate some frame uses.
func (l *Lexicon) checkUnknown() error {
	words := l.allWords()
	preds := l.predicateSet()
	for _, u := range l.unknown {
		switch {
		case words[u.Word]:
			return lexErr("unknown.txt", u.line, "%q is used in the lexicon, so it would not be unknown", u.Word)
		case !preds[u.Means]:
			return lexErr("unknown.txt", u.line, "%q means %q, which is not a predicate of any frame", u.Word, u.Means)
		}
	}
	return nil
}

// predicateSet holds every predicate of every frame.
func (l *Lexicon) predicateSet() map[string]bool {
	set := map[string]bool{}
	for _, f := range l.Frames {
		addAll(set, f.predicates)
	}
	return set
}

// allWords holds every single word any frame or list can write.
func (l *Lexicon) allWords() map[string]bool {
	set := map[string]bool{}
	for i := range l.Frames {
		f := &l.Frames[i]
		for _, key := range append(verbKeyNames(), "agents", "objects") {
			addAll(set, strings.Fields(strings.Join(f.phrases(key), " ")))
		}
		addAll(set, strings.Fields(strings.Join(f.predicates, " ")))
		for a := range placeKeys {
			for _, p := range f.Places(Attachment(a)) {
				set[p.Prep], set[p.Noun] = true, true
			}
		}
	}
	addAll(set, l.Attributes, degreeAdverbWords())
	return set
}
