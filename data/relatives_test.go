package data

import (
	"slices"
	"testing"
)

// knownTo says whether a word is one of words: a vocabulary for the tests.
func knownTo(words ...string) func(string) bool {
	return func(w string) bool { return slices.Contains(words, w) }
}

func TestRelativeOf(t *testing.T) {
	known := knownTo("hungry", "dog", "big", "cat", "food", "the", "ate", "tired")
	cases := []struct {
		word string
		want Relative
		ok   bool
	}{
		{"famished", Relative{Word: "famished", ReadAs: "hungry", Relation: "similar"}, true},
		{"enormous", Relative{Word: "enormous", ReadAs: "big", Relation: "similar"}, true},
		{"puppy", Relative{Word: "puppy", ReadAs: "dog", Relation: "kind"}, true},
		{"puppies", Relative{Word: "puppies", Lemma: "puppy", ReadAs: "dog", Relation: "kind"}, true},
		{"dogs", Relative{Word: "dogs", ReadAs: "dog", Relation: "form"}, true},
		{"weary", Relative{Word: "weary", ReadAs: "tired", Relation: "similar"}, true},
		{"dog", Relative{}, false},      // known: never mapped
		{"hungry", Relative{}, false},   // known
		{"zorblax", Relative{}, false},  // not in WordNet: stays <unk>
		{"greedily", Relative{}, false}, // no relative: stays <unk>
		{"giving", Relative{}, false},   // a form of give, not read as generous
	}
	for _, c := range cases {
		got, ok := RelativeOf(c.word, known)
		if ok != c.ok || got != c.want {
			t.Errorf("RelativeOf(%q) = %+v, %v; want %+v, %v", c.word, got, ok, c.want, c.ok)
		}
	}
	// A relative the model does not know is no reading.
	if r, ok := RelativeOf("famished", knownTo("dog")); ok {
		t.Errorf("RelativeOf(famished) without hungry in the vocabulary = %+v", r)
	}
}

func TestReadRelatives(t *testing.T) {
	known := knownTo("the", "dog", "ate", "food", "because", "it", "was", "hungry")
	tokens := []string{"the", "puppy", "ate", "the", "food", "because", "it", "was", "famished", "greedily"}
	got, rels := ReadRelatives(tokens, known)
	want := []string{"the", "dog", "ate", "the", "food", "because", "it", "was", "hungry", "greedily"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
	if tokens[1] != "puppy" {
		t.Error("ReadRelatives modified its input")
	}
	wantRels := []Relative{{Word: "puppy", ReadAs: "dog", Relation: "kind", Position: 1}, {Word: "famished", ReadAs: "hungry", Relation: "similar", Position: 8}}
	if !slices.Equal(rels, wantRels) {
		t.Errorf("relatives %+v, want %+v", rels, wantRels)
	}
	note := RelativeNote(rels)
	wantNote := `read "puppy" as "dog" (WordNet: a kind of), "famished" as "hungry" (WordNet: similar to)`
	if note != wantNote {
		t.Errorf("note %q, want %q", note, wantNote)
	}
	if RelativeNote(nil) != "" {
		t.Error("a note for no relatives")
	}
}

// Every relative in the table is a word of the lexicon, and no word of the
// lexicon has one.
func TestRelativesTableIsRelativeToTheLexicon(t *testing.T) {
	table, err := DefaultRelatives()
	if err != nil {
		t.Fatal(err)
	}
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]bool{}
	for _, w := range lex.Words() {
		words[w] = true
	}
	for w, e := range table {
		if words[w] {
			t.Errorf("%q is a word of the lexicon, yet has the relative %q", w, e.readAs)
		}
		if !words[e.readAs] {
			t.Errorf("%q's relative %q is no word of the lexicon", w, e.readAs)
		}
	}
}
