// Example: one generated sentence with the token positions a model needs
// (pronoun, antecedent, both candidate nouns) and where it came from.

package data

import (
	"fmt"
	"strings"
)

// Example is one pronoun-resolution sentence. All positions index Tokens.
type Example struct {
	Text            string   `json:"text"`
	Tokens          []string `json:"tokens"`
	Pronoun         int      `json:"pronoun"`          // position of "it"
	Antecedent      int      `json:"antecedent"`       // position of the noun "it" refers to
	Candidates      [2]int   `json:"candidates"`       // both nouns, in sentence order
	Frame           string   `json:"frame"`            // e.g. "eat"
	Shape           string   `json:"shape"`            // sentence template, e.g. "passive"
	Predicate       string   `json:"predicate"`        // e.g. "hungry", "too big"
	Role            Role     `json:"role"`             // which participant the predicate describes
	AntecedentFirst bool     `json:"antecedent_first"` // antecedent is Candidates[0]
}

// Answer is the antecedent noun, or "" if the positions are out of range.
func (e Example) Answer() string { return e.word(e.Antecedent) }

// Other is the candidate noun that is not the antecedent.
func (e Example) Other() string {
	if e.AntecedentFirst {
		return e.word(e.Candidates[1])
	}
	return e.word(e.Candidates[0])
}

// Combination names what the split holds out: the two nouns (alphabetical,
// so the order in the sentence does not matter) and the predicate.
func (e Example) Combination() string {
	a, b := e.word(e.Candidates[0]), e.word(e.Candidates[1])
	return newComboKey(a, b, e.Predicate).String()
}

func (e Example) word(pos int) string {
	if pos < 0 || pos >= len(e.Tokens) {
		return ""
	}
	return e.Tokens[pos]
}

// comboKey is a (noun pair, predicate) combination; nounA < nounB.
type comboKey struct{ nounA, nounB, predicate string }

func newComboKey(x, y, predicate string) comboKey {
	if y < x {
		x, y = y, x
	}
	return comboKey{x, y, predicate}
}

func (k comboKey) String() string {
	return fmt.Sprintf("%s+%s/%s", k.nounA, k.nounB, k.predicate)
}

// renderText writes tokens as a sentence: capitalised, no space before
// punctuation. Tokenize(renderText(t)) == t for generated sentences.
func renderText(tokens []string) string {
	var b strings.Builder
	for i, t := range tokens {
		if i > 0 && t != "," && t != "." {
			b.WriteByte(' ')
		}
		if i == 0 && t != "" {
			t = strings.ToUpper(t[:1]) + t[1:]
		}
		b.WriteString(t)
	}
	return b.String()
}
