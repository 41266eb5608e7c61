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
		"dog": true, "food": true, "box": true, "car": true, "bridge": true, "barn": true, "plate": true,
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
// is no lexicon noun) and exactly one pronoun, or two in a two-it sentence
// ("... because it was weak and it was heavy."), one of them the example's.
func TestNounPositionsMatchCandidates(t *testing.T) {
	for _, set := range namedSets(testCorpus(t)) {
		for _, e := range set.examples {
			want := slices.DeleteFunc(slices.Concat(e.Candidates[:], e.Distractors, e.OtherNouns), func(p int) bool { return e.Tokens[p] == Unk })
			slices.Sort(want)
			if got := NounPositions(e.Tokens); !slices.Equal(got, want) {
				t.Fatalf("%s: %q: NounPositions %v, Candidates %v, Distractors %v", set.name, e.Text, got, e.Candidates, e.Distractors)
			}
			n := 1
			if e.Shape == ShapeTwoIt {
				n = 2
			}
			if got := Pronouns(e.Tokens); len(got) != n || !slices.Contains(got, e.Pronoun) {
				t.Fatalf("%s: %q (shape %s): Pronouns %v, Pronoun %d", set.name, e.Text, e.Shape, got, e.Pronoun)
			}
		}
	}
}
