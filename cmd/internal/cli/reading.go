package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"itformer/data"
)

// WarnReading tells the user, on stderr, how the model read their sentence
// where it differs from what they wrote: the contractions read as their
// words, the words read as their WordNet relatives, and the words it does
// not know (read as <unk>).
func WarnReading(stderr io.Writer, unknown []string, contractions []data.Contraction, relatives []data.Relative) {
	if note := data.ContractionNote(contractions); note != "" {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	if note := data.RelativeNote(relatives); note != "" {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	if len(unknown) > 0 { // each word once: "!!!" is three "!"s, one unknown word
		once := slices.DeleteFunc(slices.Clone(unknown), seenBefore())
		for i, w := range once {
			once[i] = visible(w)
		}
		fmt.Fprintf(stderr, "warning: not in the model's vocabulary, read as <unk>: %s\n", strings.Join(once, ", "))
	}
}

// visible is w, or w quoted with escapes when it holds a character that
// prints as nothing (a zero-width space, a soft hyphen, a control character).
func visible(w string) string {
	if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) }) < 0 {
		return w
	}
	return strconv.QuoteToGraphic(w)
}

// seenBefore reports, called on each word in turn, whether it came before.
func seenBefore() func(string) bool {
	seen := map[string]bool{}
	return func(w string) bool {
		dup := seen[w]
		seen[w] = true
		return dup
	}
}
