package data

import (
	"slices"
	"testing"
)

func TestPronouns(t *testing.T) {
	tests := []struct {
		tokens []string
		want   []int
	}{
		{nil, nil},
		{Tokenize("A dog ate the food because it was hungry."), []int{6}},
		{Tokenize("It said it"), []int{0, 2}},
		{Tokenize("its item"), nil},
	}
	for _, tt := range tests {
		if got := Pronouns(tt.tokens); !slices.Equal(got, tt.want) {
			t.Errorf("Pronouns(%q) = %v, want %v", tt.tokens, got, tt.want)
		}
	}
}

func TestIsNoun(t *testing.T) {
	for w, want := range map[string]bool{
		"dog": true, "food": true, "box": true, "car": true, "river": true, "barn": true, "plate": true,
		"it": false, "the": false, "hungry": false, "ate": false, "": false, "Dog": false,
	} {
		if IsNoun(w) != want {
			t.Errorf("IsNoun(%q) = %v, want %v", w, !want, want)
		}
	}
	got := NounPositions(Tokenize("Because it was hungry, the dog ate the food."))
	if !slices.Equal(got, []int{6, 9}) {
		t.Errorf("NounPositions = %v, want [6 9]", got)
	}
}

// Inference lists candidates with NounPositions; on generated data it must
// find exactly the candidates and place nouns (a masked candidate, <unk>,
// is no lexicon noun) and exactly one pronoun.
func TestNounPositionsMatchCandidates(t *testing.T) {
	for _, e := range allExamples(testCorpus(t)) {
		want := slices.DeleteFunc(append(e.Candidates[:], e.Distractors...), func(p int) bool { return e.Tokens[p] == Unk })
		slices.Sort(want)
		if got := NounPositions(e.Tokens); !slices.Equal(got, want) {
			t.Fatalf("%q: NounPositions %v, Candidates %v, Distractors %v", e.Text, got, e.Candidates, e.Distractors)
		}
		if got := Pronouns(e.Tokens); !slices.Equal(got, []int{e.Pronoun}) {
			t.Fatalf("%q: Pronouns %v, Pronoun %d", e.Text, got, e.Pronoun)
		}
	}
}
