package data

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"only spaces", "  \t\n ", nil},
		{"simple", "A dog ate the food", []string{"a", "dog", "ate", "the", "food"}},
		{"clause first", "Because it was hungry, the dog", []string{"because", "it", "was", "hungry", ",", "the", "dog"}},
		{"final period", "it was tasty.", []string{"it", "was", "tasty", "."}},
		{"repeated punctuation", "what?!...", []string{"what", "?", "!", ".", ".", "."}},
		{"apostrophe inside word", "Don't", []string{"don't"}},
		{"curly apostrophe inside word", "don’t", []string{"don't"}},
		{"trailing apostrophe", "dogs' food", []string{"dogs", "'", "food"}},
		{"quoted", "'hi'", []string{"'", "hi", "'"}},
		{"lone apostrophe", "'", []string{"'"}},
		{"digits", "3.5 dogs", []string{"3", ".", "5", "dogs"}},
		{"accents", "Café Über", []string{"café", "über"}},
		{"combining mark", "cafe\u0301", []string{"cafe\u0301"}},
		{"cyrillic", "Собака съела", []string{"собака", "съела"}},
		{"cjk", "狗吃了", []string{"狗吃了"}},
		{"emoji", "dog🐶food", []string{"dog", "🐶", "food"}},
		{"lone mark", "\u0301a", []string{"\u0301", "a"}},
		{"control chars", "a\x00b\x1fc", []string{"a", "b", "c"}},
		{"invalid utf8", "a\xffb", []string{"a", "\uFFFD", "b"}},
		{"hyphen", "well-known", []string{"well", "-", "known"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestTokenizeLongInput(t *testing.T) {
	in := strings.Repeat("The dog ate it, ", 100000)
	got := Tokenize(in)
	if len(got) != 500000 || got[0] != "the" || got[len(got)-1] != "," {
		t.Errorf("long input: %d tokens, first %q last %q", len(got), got[0], got[len(got)-1])
	}
}

// Generated sentences must tokenize back to exactly their tokens, but for
// masked training sentences: <unk> is a vocabulary entry, not a word, and
// Tokenize reads "<unk>" as "<", "unk", ">".
func TestTokenizeRoundTripsGeneratedText(t *testing.T) {
	c := testCorpus(t)
	for _, e := range slices.Concat(c.allSets()...) {
		if slices.Contains(e.Tokens, Unk) {
			continue
		}
		if got := Tokenize(e.Text); !slices.Equal(got, e.Tokens) {
			t.Fatalf("Tokenize(%q) = %q, want %q", e.Text, got, e.Tokens)
		}
	}
}

// FuzzTokenize: any input, never a panic; tokens are non-empty, valid UTF-8,
// hold no white space, are lower case, and tokenising them again changes
// nothing. Seed corpus: testdata/fuzz/FuzzTokenize; run
// go test -run '^$' -fuzz=FuzzTokenize ./data
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "it's", "a\xffb", "🐶, it", "A dog ate the food because it was hungry.", "   ", "Don’t!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tokens := Tokenize(s)
		for _, tok := range tokens {
			if tok == "" || !utf8.ValidString(tok) || strings.ContainsFunc(tok, unicode.IsSpace) || tok != strings.ToLower(tok) {
				t.Fatalf("Tokenize(%q) produced bad token %q", s, tok)
			}
		}
		if again := Tokenize(strings.Join(tokens, " ")); !slices.Equal(again, tokens) {
			t.Fatalf("not stable: %q -> %q -> %q", s, tokens, again)
		}
	})
}

func TestIsWord(t *testing.T) {
	for token, want := range map[string]bool{"dog": true, "3": true, "dóg": true, "didn't": true, ".": false, ",": false, "'": false, "?": false, "": false} {
		if got := IsWord(token); got != want {
			t.Errorf("IsWord(%q) = %v, want %v", token, got, want)
		}
	}
}
