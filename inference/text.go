package inference

// Text as the model reads it. Two spellings of one word must be one token:
// "dóg" typed as d, o, U+0301, g was read as an unknown word beside the
// "dóg" of a precomposed ó, so text is put in Unicode's composed form (NFC)
// first. And a terminal's escape sequences are no words: the colour code
// ESC [ 3 1 m left "31m" among the candidates, so they are removed. And
// every sentence the model trained on ends with a full stop, so one typed
// without it is read with it (withFinalStop).

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"itformer/data"
)

// readable is s with terminal control sequences removed, in NFC.
func readable(s string) string {
	return norm.NFC.String(withoutEscapes(s))
}

// withoutEscapes removes ECMA-48 control sequences: CSI (ESC [ or U+009B,
// then parameter and intermediate bytes, then one final byte: colours,
// cursor moves), OSC and the other string controls (ESC ] ... ended by BEL or
// ESC \: titles, links), and two-character escapes (ESC and one byte). An ESC
// at the very end goes too. The text around a sequence is joined, as it is
// drawn: "hun" ESC[1m "gry" is "hungry".
func withoutEscapes(s string) string {
	if !strings.ContainsAny(s, "\x1b\u009b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == 0x1b:
			i = afterEscape(s, i+1)
		case strings.HasPrefix(s[i:], "\u009b"):
			i = afterCSI(s, i+len("\u009b"))
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// afterEscape is where the sequence whose ESC ends before i ends.
func afterEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return afterCSI(s, i+1)
	case ']', 'P', '^', '_', 'X': // OSC, DCS, PM, APC: a string up to BEL or ST
		return afterString(s, i+1)
	}
	return i + 1
}

// afterCSI skips a CSI's parameter (0x30-0x3F) and intermediate (0x20-0x2F)
// bytes and its final byte (0x40-0x7E).
func afterCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// afterString skips a control string's text and its terminator, BEL or
// ESC \; an unterminated one runs to the end.
func afterString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		}
		i++
	}
	return i
}

// withFinalStop is tokens with "." after them where there are two or more,
// the last is a word and the sentence has room for one more token (max): a
// lone word is no sentence to end. The model only ever read
// sentences that end with a stop, and without it read them less surely:
// member 1 of an earlier default model spread its supervised head over
// "dog", "a" and "ate" on "A dog ate the food because it was hungry", and
// gave "dog" all of it with the stop. One that ends in punctuation is left as it is
// ("!" and "?" are read as "." already: data.ExpandContractions).
func withFinalStop(tokens []string, max int) []string {
	if len(tokens) < 2 || len(tokens) >= max {
		return tokens
	}
	if !data.IsWord(tokens[len(tokens)-1]) {
		return tokens
	}
	return append(slices.Clip(tokens), ".") // never into a caller's spare capacity
}
