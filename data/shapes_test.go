package data

import (
	"slices"
	"strings"
	"testing"
)

// TestConnectiveMarksTheJoiningWords: every sentence with a reason clause
// records where its connective stands, and the words there are one of the
// shape's connectives, a conceding one exactly when the sentence concedes
// (train.connective_dropout hides these words and trusts this).
func TestConnectiveMarksTheJoiningWords(t *testing.T) {
	c := testCorpus(t)
	for _, e := range append(slices.Clone(c.Train), c.Test...) {
		words := make([]string, len(e.Connective))
		for i, p := range e.Connective {
			words[i] = e.Tokens[p]
		}
		joined := strings.Join(words, " ")
		s := shapeByName(e.Shape)
		if s.layout == leadIt {
			if joined != "" {
				t.Errorf("%q (lead-it) has a connective %q", e.Text, joined)
			}
			continue
		}
		if !connectiveOf(s, e.Concessive, joined) {
			t.Errorf("%q (%s, concessive %v): connective %q at %v is not one of its shape's", e.Text, e.Shape, e.Concessive, joined, e.Connective)
		}
	}
}

// connectiveOf reports whether words (as tokens, space-separated) are one
// of shape s's connectives of that kind.
func connectiveOf(s Shape, concessive bool, words string) bool {
	for i := range 8 {
		if strings.Join(strings.Fields(s.connective(concessive, i)), " ") == words {
			return true
		}
	}
	return false
}
