// Tokenizer: splits text into lower-case word and punctuation tokens.

package data

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize lower-cases s and splits it into tokens. It accepts any string.
//
//   - A word is a run of letters and numbers of any script; combining marks
//     (accents, vowel signs) stay inside the word they follow.
//   - An apostrophe (' or ’) between two word characters stays inside the word
//     and is written as ': "Don’t" -> "don't". Any other apostrophe is
//     punctuation, also written as ': "dogs’" -> "dogs" "'".
//   - Spaces and control characters only separate tokens.
//   - Every other rune (punctuation, symbols, emoji, invalid UTF-8 read as
//     U+FFFD) is a token of its own: "3.5" -> "3" "." "5".
func Tokenize(s string) []string {
	runes := []rune(s)
	var tokens []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			tokens = append(tokens, word.String())
			word.Reset()
		}
	}
	for i, r := range runes {
		switch {
		case isWordRune(r):
			word.WriteRune(unicode.ToLower(r))
		case unicode.IsMark(r) && word.Len() > 0:
			word.WriteRune(r)
		case isApostrophe(r) && word.Len() > 0 && i+1 < len(runes) && isWordRune(runes[i+1]):
			word.WriteRune('\'')
		case unicode.IsSpace(r) || unicode.IsControl(r):
			flush()
		default:
			flush()
			tokens = append(tokens, symbolToken(r))
		}
	}
	flush()
	return tokens
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// IsWord says whether a token of Tokenize is a word, not punctuation or a
// symbol (each of which is a token of its own).
func IsWord(token string) bool {
	r, _ := utf8.DecodeRuneInString(token)
	return isWordRune(r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// symbolToken is the token for a rune that is neither word nor space.
func symbolToken(r rune) string {
	if isApostrophe(r) {
		return "'"
	}
	return string(unicode.ToLower(r))
}
