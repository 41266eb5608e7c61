package data

import (
	"errors"
	"slices"
	"testing"
	"testing/fstest"

	"itformer/wordnet"
)

// The committed table reads words through their lemmas, without WordNet
// installed: the words issue 26 found taken for nouns are not.
func TestReadWord(t *testing.T) {
	for word, want := range map[string]wordnet.NounReading{
		"dogs":     wordnet.CommonNoun, // through dog
		"suitcase": wordnet.CommonNoun,
		"bike":     wordnet.CommonNoun, // no tagged use at all
		"bear":     wordnet.RareNoun,   // 1 noun use, 83 verb uses
		"bad":      wordnet.RareNoun,
		"clean":    wordnet.RareNoun,
		"working":  wordnet.RareNoun, // "the workings" once; work, the verb, 228 times
		"anchored": wordnet.NotNoun,  // through the verb anchor
		"away":     wordnet.NotNoun,
		"ate":      wordnet.NotNoun, // through eat (Ate, a goddess, is a person's name)
		"larger":   wordnet.NotNoun, // through large
		"hungry":   wordnet.NotNoun,
		"mary":     wordnet.PersonName,
		"zorblax":  wordnet.Unlisted,
	} {
		if got := ReadWord(word); got.Reading != want {
			t.Errorf("%q reads as %v (%+v), want %v", word, got.Reading, got, want)
		}
	}
	if got := ReadWord("dogs").Lemmas[wordnet.Noun]; !slices.Equal(got, []string{"dog"}) {
		t.Errorf(`"dogs" as a noun is %q, want [dog]`, got)
	}
}

// Every noun a frame uses can be a noun by WordNet too (or WordNet does not
// know it), so a sentence of the corpus never loses a candidate by it.
func TestLexiconNounsCanBeNouns(t *testing.T) {
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range lex.Words() {
		if r := ReadWord(w).Reading; lex.IsNoun(w) && (r == wordnet.NotNoun || r == wordnet.PersonName) {
			t.Errorf("the lexicon's noun %q reads as %v", w, r)
		}
	}
}

// A broken line of the table is refused with its file and line.
func TestPartsOfSpeechErrorsNameFileAndLine(t *testing.T) {
	for _, c := range []struct{ pos, exc, want string }{
		{"# x\ndog n42 v2\ncat\n", "", `lexicon wordnet/pos.txt:3: "cat" lists no part of speech`},
		{"dog n42 x2\n", "", `lexicon wordnet/pos.txt:1: "x2" is no part of speech (n, p, v, a, r)`},
		{"dog n4x2\n", "", `lexicon wordnet/pos.txt:1: "n4x2": the tag count after n is not a number`},
		{"dog n\n", "v ate\n", `lexicon wordnet/exceptions.txt:1: want a part of speech, a form and its base forms, got "v ate"`},
	} {
		fsys := fstest.MapFS{"wordnet/pos.txt": {Data: []byte(c.pos)}, "wordnet/exceptions.txt": {Data: []byte(c.exc)}}
		_, err := LoadPartsOfSpeech(fsys)
		var le *LexiconError
		if !errors.As(err, &le) || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// The proposed nouns load, and propose nothing their list has already.
func TestWordNetNounListsLoad(t *testing.T) {
	proposed, err := WordNetNounLists()
	if err != nil {
		t.Fatal(err)
	}
	lists, err := NounLists()
	if err != nil {
		t.Fatal(err)
	}
	for name, words := range proposed {
		for _, w := range words {
			if slices.Contains(lists[name], w) {
				t.Errorf("wordnet/nouns/%s.txt proposes %q, which nouns/%s.txt has", name, w, name)
			}
		}
		t.Logf("nouns/%s.txt: %d proposed", name, len(words))
	}
	if len(proposed["animals"]) == 0 || len(proposed["vehicles"]) == 0 {
		t.Errorf("no animals or vehicles proposed: %v", proposed)
	}
}

// The proposed predicates load, each beside a pole word of properties.txt.
func TestWordNetPredicatesLoad(t *testing.T) {
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	preds, err := WordNetPredicates()
	if err != nil {
		t.Fatal(err)
	}
	hungry := PredicateProposal{Dimension: "hunger", Sign: 1, Pole: "hungry"}
	for _, p := range preds {
		i := slices.IndexFunc(lex.Dimensions, func(d Dimension) bool { return d.Name == p.Dimension })
		if i < 0 || !slices.Contains(lex.Dimensions[i].Poles[(1-p.Sign)/2], p.Pole) {
			t.Errorf("%v: no such pole word in properties.txt", p)
		}
		if p.Dimension == hungry.Dimension && p.Pole == hungry.Pole {
			hungry = p
		}
	}
	if !slices.Contains(hungry.Words, "famished") || !slices.Contains(hungry.Words, "ravenous") {
		t.Errorf("hungry's proposals %v lack famished and ravenous", hungry.Words)
	}
}
