// Lexicon checks across files: word classes, what negation means in each
// frame (against opposites.txt), and that unknown words stay unknown.

package data

import (
	"slices"
	"strings"
)

// phraseKeys are the frame keys whose words are not nouns.
var phraseKeys = []string{"active", "passive", "present", "present passive", "adverbs",
	"agent predicates", "object predicates", "agent predicates when negated", "object predicates when negated"}

func (l *Lexicon) check() error {
	for i := range l.Frames {
		f := &l.Frames[i]
		for _, check := range []func(*Frame) error{l.checkWordClasses, l.checkOpposites, l.checkNegation} {
			if err := check(f); err != nil {
				return err
			}
		}
	}
	if err := l.checkOppositesExist(); err != nil {
		return err
	}
	return l.checkUnknown()
}

// checkWordClasses rejects a verb, adverb, predicate or preposition word that
// is also a noun somewhere: IsNoun would then report it as a noun.
func (l *Lexicon) checkWordClasses(f *Frame) error {
	for _, key := range phraseKeys {
		for _, w := range strings.Fields(strings.Join(f.phrases(key), " ")) {
			if l.IsNoun(w) {
				return lexErr(f.File, f.lines[key], "%q is a noun elsewhere in the lexicon", w)
			}
		}
	}
	for _, key := range []string{"agent places", "object places", "scene places"} {
		for _, p := range f.Places(placeKeyAttachment(key)) {
			if l.IsNoun(p.Prep) {
				return lexErr(f.File, f.lines[key], "preposition %q is a noun elsewhere in the lexicon", p.Prep)
			}
		}
	}
	return nil
}

// checkOpposites rejects a frame that gives two opposites the same role:
// "fast" and "slow" cannot both be reasons for the same participant.
func (l *Lexicon) checkOpposites(f *Frame) error {
	for _, r := range []Role{Agent, Object} {
		for _, p := range f.Predicates(r) {
			for _, q := range l.opposites[p] {
				if slices.Contains(f.Predicates(r), q) {
					return lexErr(f.File, f.lines[r.String()+" predicates"], "%q and its opposite %q both describe the %s", p, q, r)
				}
			}
		}
	}
	return nil
}

// checkNegation makes every negated predicate's role follow from the
// lexicon: "not P" describes role R when P itself describes the other role
// (the negation flips it) or when an opposite of P describes R ("not
// hungry" is the one that is full). Anything else is a contradiction or a
// meaning the lexicon does not state.
func (l *Lexicon) checkNegation(f *Frame) error {
	for _, r := range []Role{Agent, Object} {
		key := r.String() + " predicates when negated"
		for _, p := range f.NegatedPredicates(r) {
			if msg := l.negationProblem(f, p, r); msg != "" {
				return lexErr(f.File, f.lines[key], "\"not %s\" %s", p, msg)
			}
		}
	}
	return nil
}

func (l *Lexicon) negationProblem(f *Frame, p string, r Role) string {
	opposite := func(role Role) (string, bool) {
		i := slices.IndexFunc(l.opposites[p], func(q string) bool { return slices.Contains(f.Predicates(role), q) })
		if i < 0 {
			return "", false
		}
		return l.opposites[p][i], true
	}
	if slices.Contains(f.Predicates(r), p) {
		return "cannot describe the " + r.String() + ": \"" + p + "\" already does"
	}
	if q, ok := opposite(r.other()); ok {
		return "cannot describe the " + r.String() + ": its opposite \"" + q + "\" describes the " + r.other().String()
	}
	if _, ok := opposite(r); !ok && !slices.Contains(f.Predicates(r.other()), p) {
		return "has no meaning in the lexicon: \"" + p + "\" must describe the " + r.other().String() +
			" or an opposite (opposites.txt) the " + r.String() + " in this frame"
	}
	return ""
}

// checkOppositesExist catches typos: every word of opposites.txt must be a
// predicate (positive or negated) of some frame.
func (l *Lexicon) checkOppositesExist() error {
	used := l.predicateSet(true)
	words := make([]string, 0, len(l.opposites))
	for w := range l.opposites {
		words = append(words, w)
	}
	slices.Sort(words)
	for _, w := range words {
		if !used[w] {
			return lexErr("opposites.txt", 0, "%q is not a predicate of any frame", w)
		}
	}
	return nil
}

// checkUnknown keeps the unknown words out of every frame, so no training
// sentence can contain one, and makes each mean a predicate some frame uses.
func (l *Lexicon) checkUnknown() error {
	words := l.allWords()
	positive := l.predicateSet(false)
	for _, u := range l.unknown {
		switch {
		case words[u.Word]:
			return lexErr("unknown.txt", u.line, "%q is used in the lexicon, so it would not be unknown", u.Word)
		case !positive[u.Means]:
			return lexErr("unknown.txt", u.line, "%q means %q, which is not a predicate of any frame", u.Word, u.Means)
		}
	}
	return nil
}

// predicateSet holds every positive predicate, and with negated also the
// negated ones.
func (l *Lexicon) predicateSet(negated bool) map[string]bool {
	set := map[string]bool{}
	for _, f := range l.Frames {
		addAll(set, f.AgentPredicates, f.ObjectPredicates)
		if negated {
			addAll(set, f.AgentNegated, f.ObjectNegated)
		}
	}
	return set
}

// allWords holds every single word any frame can write.
func (l *Lexicon) allWords() map[string]bool {
	set := map[string]bool{}
	for i := range l.Frames {
		f := &l.Frames[i]
		for _, key := range append(slices.Clone(phraseKeys), "agents", "objects") {
			addAll(set, strings.Fields(strings.Join(f.phrases(key), " ")))
		}
		for _, a := range []Attachment{AttachAgent, AttachObject, AttachScene} {
			for _, p := range f.Places(a) {
				set[p.Prep], set[p.Noun] = true, true
			}
		}
	}
	return set
}
