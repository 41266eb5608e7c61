package data

import (
	"slices"
	"testing"
)

func TestExpandContractions(t *testing.T) {
	// The embedded model's words that matter here: "isn't" and "wasn't" but
	// not "didn't"; "cannot" but not "can"; no "will", "are", "that".
	vocab := []string{"the", "dog", "ate", "food", "because", "it", "is", "was", "isn't", "wasn't",
		"did", "does", "could", "not", "cannot", "hungry", "he", "have", "let", "us", "we", "am", "i", ".", ","}
	known := func(w string) bool { return slices.Contains(vocab, w) }
	tests := []struct {
		name, in string
		want     []string
		read     []Contraction
	}{
		{"known contraction kept", "it wasn't hungry", []string{"it", "wasn't", "hungry"}, nil},
		{"it's", "because it's hungry", []string{"because", "it", "is", "hungry"},
			[]Contraction{{"it's", []string{"it", "is"}, 1}}},
		{"capitalised It's", "It's hungry", []string{"it", "is", "hungry"},
			[]Contraction{{"it's", []string{"it", "is"}, 0}}},
		{"curly apostrophe", "it’s hungry", []string{"it", "is", "hungry"},
			[]Contraction{{"it's", []string{"it", "is"}, 0}}},
		{"didn't at sentence start", "Didn't the dog eat", []string{"did", "not", "the", "dog", "eat"},
			[]Contraction{{"didn't", []string{"did", "not"}, 0}}},
		{"two in a row, positions count the expanded tokens", "didn't, it's",
			[]string{"did", "not", ",", "it", "is"},
			[]Contraction{{"didn't", []string{"did", "not"}, 0}, {"it's", []string{"it", "is"}, 3}}},
		{"doesn't", "doesn't", []string{"does", "not"}, []Contraction{{"doesn't", []string{"does", "not"}, 0}}},
		{"couldn't", "couldn't", []string{"could", "not"}, []Contraction{{"couldn't", []string{"could", "not"}, 0}}},
		{"can't as cannot", "can't", []string{"cannot"}, []Contraction{{"can't", []string{"cannot"}, 0}}},
		{"won't needs will", "won't", []string{"won't"}, nil},
		{"not all parts known", "they're", []string{"they're"}, nil},
		{"'m", "I'm", []string{"i", "am"}, []Contraction{{"i'm", []string{"i", "am"}, 0}}},
		{"ending after an expanded stem", "couldn't've", []string{"could", "not", "have"},
			[]Contraction{{"couldn't've", []string{"could", "not", "have"}, 0}}},
		{"possessive untouched", "the dog's food", []string{"the", "dog's", "food"}, nil},
		{"'s only after a subject word", "he's", []string{"he", "is"}, []Contraction{{"he's", []string{"he", "is"}, 0}}},
		{"'d is ambiguous, but it stays a word of its own", "it'd", []string{"it", "'d"},
			[]Contraction{{"it'd", []string{"it", "'d"}, 0}}},
		{"it'll without will: it stays a word of its own", "it'll", []string{"it", "'ll"},
			[]Contraction{{"it'll", []string{"it", "'ll"}, 0}}},
		{"'d after another word is left alone", "he'd", []string{"he'd"}, nil},
		{"let's", "let's", []string{"let", "us"}, []Contraction{{"let's", []string{"let", "us"}, 0}}},
		{"irregular stem not guessed", "ain't", []string{"ain't"}, nil},
		{"lone apostrophe", "dogs' food", []string{"dogs", "'", "food"}, nil},
		{"ending alone", "n't", []string{"n't"}, nil},
		{"! and ? end a sentence as . does", "it was hungry! was it?", []string{"it", "was", "hungry", ".", "was", "it", "."},
			[]Contraction{{"!", []string{"."}, 3}, {"?", []string{"."}, 6}}},
		{"; and : join clauses as , does", "it ate; it was: hungry", []string{"it", "ate", ",", "it", "was", ",", "hungry"},
			[]Contraction{{";", []string{","}, 2}, {":", []string{","}, 5}}},
		{"known marks and other symbols are kept", "it, the dog. (hungry)", []string{"it", ",", "the", "dog", ".", "(", "hungry", ")"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Tokenize(tt.in)
			orig := slices.Clone(in)
			got, read := ExpandContractions(in, known)
			if !slices.Equal(got, tt.want) {
				t.Errorf("tokens %q, want %q", got, tt.want)
			}
			if !slices.EqualFunc(read, tt.read, equalContraction) {
				t.Errorf("read %v, want %v", read, tt.read)
			}
			if !slices.Equal(in, orig) {
				t.Errorf("the input tokens changed to %q", in)
			}
			for _, c := range read {
				if !slices.Equal(got[c.Position:c.Position+len(c.ReadAs)], c.ReadAs) {
					t.Errorf("%v: tokens at %d are %q", c, c.Position, got[c.Position:])
				}
			}
		})
	}
}

func equalContraction(a, b Contraction) bool {
	return a.Word == b.Word && a.Position == b.Position && slices.Equal(a.ReadAs, b.ReadAs)
}

// "can't" is "can" "not" where the vocabulary has no "cannot"; the first
// reading the vocabulary has all of wins.
func TestExpandContractionsPrefersTheKnownReading(t *testing.T) {
	for _, tc := range []struct {
		vocab []string
		want  []string
	}{
		{[]string{"cannot", "can", "not"}, []string{"cannot"}},
		{[]string{"can", "not"}, []string{"can", "not"}},
		{[]string{"can"}, []string{"can't"}},
	} {
		got, _ := ExpandContractions([]string{"can't"}, func(w string) bool { return slices.Contains(tc.vocab, w) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("vocabulary %q: %q, want %q", tc.vocab, got, tc.want)
		}
	}
}

func TestContractionNote(t *testing.T) {
	if got := ContractionNote(nil); got != "" {
		t.Errorf("no contractions: %q", got)
	}
	cs := []Contraction{{"didn't", []string{"did", "not"}, 0}, {"it's", []string{"it", "is"}, 4}}
	if got, want := ContractionNote(cs), `read "didn't" as "did not", "it's" as "it is"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// No word of the corpus is a contraction the vocabulary lacks: expanding
// changes nothing the model was trained on, though the corpus writes every
// contraction of its negations.
func TestExpandContractionsLeavesCorpusAlone(t *testing.T) {
	c := testCorpus(t)
	v := BuildVocab(c.Train)
	for _, w := range []string{"couldn't", "didn't", "can't", "doesn't", "wasn't", "isn't"} {
		if _, ok := v.ID(w); !ok {
			t.Errorf("train never writes %q", w)
		}
	}
	known := func(w string) bool { _, ok := v.ID(w); return ok }
	for _, e := range slices.Concat(c.allSets()...) {
		if got, read := ExpandContractions(e.Tokens, known); len(read) > 0 || !slices.Equal(got, e.Tokens) {
			t.Fatalf("%q read as %q (%v)", e.Text, got, read)
		}
	}
}

// A contraction whose ending is a verb or "not" is never a noun; a
// possessive may be one.
func TestIsContraction(t *testing.T) {
	for word, want := range map[string]bool{
		"i'm": true, "they're": true, "didn't": true, "she'd": true, "we've": true, "you'll": true,
		"that's": true, "won't": true, "let's": true,
		"dog's": false, "sam's": false, "dog": false, "'m": false, "it": false,
	} {
		if got := IsContraction(word); got != want {
			t.Errorf("IsContraction(%q) = %v, want %v", word, got, want)
		}
	}
}
