package data

import (
	"slices"
	"strings"
	"testing"
)

// TestOpenersDecideNothing checks, on every split and set, what openers.txt
// promises: a fifth of the training sentences open with one; no word of an
// opener is a candidate, the pronoun or a deciding word; a clause opener
// never stands before a connective ("I think because ..."), no opener
// right before "it"; a past-only opener never before a sentence in the
// present.
func TestOpenersDecideNothing(t *testing.T) {
	c, lex := testCorpus(t), testLexicon(t)
	o := lex.Openers
	for _, set := range namedSets(c) {
		checkOpeners(t, set.examples, o)
	}
	opened := 0
	for _, e := range c.Train {
		if words, _ := openerOf(e, o); words > 0 {
			opened++
		}
	}
	if share := float64(opened) / float64(len(c.Train)); share < 0.15 || share > 0.25 {
		t.Errorf("%.1f%% of training sentences open with an opener, want about 20%%", 100*share)
	}
}

// checkOpeners checks the openers of one set's sentences.
func checkOpeners(t *testing.T, set []Example, o Openers) {
	t.Helper()
	for _, e := range set {
		words, kind := openerOf(e, o)
		if words == 0 {
			continue
		}
		for _, p := range slices.Concat(e.Candidates[:], []int{e.Pronoun}, e.Deciding) {
			if p < words {
				t.Fatalf("%q: position %d of the opener is a candidate, the pronoun or deciding", e.Text, p)
			}
		}
		next := e.Tokens[words]
		if next == "," {
			next = e.Tokens[words+1]
		}
		if kind == "clause" && slices.Contains([]string{"because", "since", "although", "even", "as"}, next) {
			t.Errorf("%q: a clause opener before the connective %q", e.Text, next)
		}
		if next == Pronoun {
			t.Errorf("%q: an opener right before \"it\"", e.Text)
		}
		if kind == "past" && slices.Contains(e.Tokens, "is") {
			t.Errorf("%q: a past-only opener before a sentence in the present", e.Text)
		}
	}
}

// openerOf is how many tokens of e's opening are an opener of o, and
// under which key (0, "" for none); the longest match wins ("and then").
func openerOf(e Example, o Openers) (int, string) {
	best, kind := 0, ""
	for key, list := range map[string][]string{"clause": o.Clause, "adverb": o.Adverb, "past": o.Past} {
		for _, phrase := range list {
			w := strings.Fields(phrase)
			if len(w) > best && len(e.Tokens) > len(w) && slices.Equal(e.Tokens[:len(w)], w) {
				best, kind = len(w), key
			}
		}
	}
	return best, kind
}
