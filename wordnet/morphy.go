// Morphy: from an inflected word to the base forms WordNet lists
// (morphy(7WN)): "dogs" -> dog, "ate" -> eat, "larger" -> large.

package wordnet

import (
	"slices"
	"strings"
)

// Lookup is what morphy needs of a database: whether a lemma is in a part
// of speech's index, and the base forms its exception list gives a word.
// DB is one; package data has another, over the committed lists.
type Lookup interface {
	Has(pos POS, lemma string) bool
	Exceptions(pos POS, word string) []string
}

// detachment is one of morphy(7WN)'s rules: strip Suffix, add Ending.
type detachment struct{ Suffix, Ending string }

// detachments are morphy(7WN)'s rules of detachment, in its order. No rule
// applies to adverbs.
var detachments = map[POS][]detachment{
	Noun: {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
	Verb: {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
	Adj:  {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
}

// Lemmas returns the base forms of word (lower case) as pos that the
// database lists, each once: the word itself if it is a lemma; then, if the
// exception list has the word, the base forms it gives; otherwise the forms
// the rules of detachment make ("dogs" -> dog, "boxes" -> box, "larger" ->
// large). As WordNet's own morph.c does, a noun ending in "ss" or of two
// letters or fewer is not detached ("glass" is not "glas").
func Lemmas(word string, pos POS, db Lookup) []string {
	var out []string
	add := func(l string) {
		if l != "" && db.Has(pos, l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	add(word)
	if exc := db.Exceptions(pos, word); len(exc) > 0 {
		for _, l := range exc {
			add(l)
		}
		return out
	}
	if pos == Noun && (strings.HasSuffix(word, "ss") || len(word) <= 2) {
		return out
	}
	for _, d := range detachments[pos] {
		if stem, ok := strings.CutSuffix(word, d.Suffix); ok {
			add(stem + d.Ending)
		}
	}
	return out
}
