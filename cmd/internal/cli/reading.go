package cli

import (
	"fmt"
	"io"
	"strings"

	"itformer/data"
)

// WarnReading tells the user, on stderr, how the model read their sentence
// where it differs from what they wrote: the contractions read as their
// words, and the words it does not know (read as <unk>).
func WarnReading(stderr io.Writer, unknown []string, contractions []data.Contraction) {
	if note := data.ContractionNote(contractions); note != "" {
		fmt.Fprintf(stderr, "note: %s\n", note)
	}
	if len(unknown) > 0 {
		fmt.Fprintf(stderr, "warning: not in the model's vocabulary, read as <unk>: %s\n", strings.Join(unknown, ", "))
	}
}
