package inference

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestWithoutEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":             "plain text",
		"\x1b[31mred\x1b[0m dog": "red dog",
		"hun\x1b[1;4mgry":        "hungry",
		"\u009b31mred":           "red",
		"a \x1b]8;;http://x\x07link\x1b]8;;\x1b\\ b": "a link b",
		"\x1b]0;title":  "",
		"\x1bMup":       "up",
		"trailing \x1b": "trailing ",
		"\x1b[":         "",
		"é ü 😀":         "é ü 😀",
	} {
		if got := withoutEscapes(in); got != want {
			t.Errorf("withoutEscapes(%q) = %q, want %q", in, got, want)
		}
	}
}

// A word spelt with a combining accent reads as the same token as its
// precomposed spelling; an unknown answer is a guess, however sure the model
// is. "A do\u0301g ate the foo\u0308d because it was hungry" had answered
// "dóg" at 100% with no note.
func TestDecomposedTextReadsAsComposed(t *testing.T) {
	p := defaultPredictor(t)
	decomposed, err := p.Resolve("A do\u0301g ate the foo\u0308d because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	composed, err := p.Resolve("A d\u00f3g ate the fo\u00f6d because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(decomposed.Tokens, composed.Tokens) {
		t.Errorf("decomposed tokens %q, composed %q", decomposed.Tokens, composed.Tokens)
	}
	pr := decomposed.Predictions[0]
	if !slices.Contains(decomposed.Unknown, pr.AnswerWord) || !pr.Confidence.Guess || !pr.Confidence.UnknownAnswer {
		t.Errorf("the unknown answer %q (unknown words %q) is not a guess: %+v", pr.AnswerWord, decomposed.Unknown, pr.Confidence)
	}
}

// A terminal colour code in a sentence is no word: "31m" was a candidate.
func TestEscapeSequencesAreNoWords(t *testing.T) {
	p := defaultPredictor(t)
	coloured, err := p.Resolve("A dog ate the \x1b[31mfood\x1b[0m because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := p.Resolve("A dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(coloured.Tokens, plain.Tokens) || !reflect.DeepEqual(coloured.Predictions[0].Candidates, plain.Predictions[0].Candidates) {
		t.Errorf("with colour codes: tokens %q, candidates %+v; want %q, %+v",
			coloured.Tokens, coloured.Predictions[0].Candidates, plain.Tokens, plain.Predictions[0].Candidates)
	}
}

// A sentence that ends with a word is read with a full stop, as every
// training sentence ends; one that ends with punctuation, or fills the
// model, is read as typed.
func TestWithFinalStop(t *testing.T) {
	tests := []struct {
		tokens string
		max    int
		want   string
	}{
		{"the dog ate it", 64, "the dog ate it ."},
		{"the dog ate it .", 64, "the dog ate it ."},
		{"did the dog eat it ?", 64, "did the dog eat it ?"},
		{"it was 3", 64, "it was 3 ."},
		{"the dog ate it", 4, "the dog ate it"}, // no room: not pushed past the limit
		{"", 64, ""},
		{"it", 64, "it"}, // one word: "has no word besides the pronoun"
	}
	for _, tc := range tests {
		if got := strings.Join(withFinalStop(strings.Fields(tc.tokens), tc.max), " "); got != tc.want {
			t.Errorf("withFinalStop(%q, %d) = %q, want %q", tc.tokens, tc.max, got, tc.want)
		}
	}
}
