// Example: one generated sentence with the token positions a model needs
// (pronoun, antecedent, both candidate nouns, place nouns, deciding words)
// and where it came from.

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
	Predicate       string   `json:"predicate"`        // e.g. "hungry", "too big", without "not"
	Role            Role     `json:"role"`             // which participant the (negated) predicate describes
	Verb            string   `json:"verb"`             // the frame's verb for the outcome, e.g. "could not lift"
	Outcome         Outcome  `json:"outcome"`          // whether the action happened
	Concessive      bool     `json:"concessive"`       // the reason clause concedes ("although", "but")
	AntecedentFirst bool     `json:"antecedent_first"` // antecedent is Candidates[0]
	// Negated: the reason clause says "not"/"n't" before the predicate.
	Negated bool `json:"negated"`
	// NegativePole: the predicate is of its dimension's second pole in
	// properties.txt (slow, small, full, stale), or an act's (attacked).
	NegativePole bool `json:"negative_pole,omitempty"`
	// Distractors are the positions of nouns in place phrases ("the milk in
	// the jar"): never the answer and never a candidate. Empty if none.
	Distractors []int `json:"distractors"`
	// OtherNouns are the positions of the other nouns that are never the
	// answer and never a candidate: the subject of a ByVerb sentence, the
	// third noun of an act ("the chicken" in "because the chicken protected it").
	OtherNouns []int `json:"other_nouns,omitempty"`
	// ByVerb: a lead-it sentence whose other candidate is not the agent but
	// a noun the verb cannot take, set beside the object ("The monkey found
	// the banana near the tree and climbed it."): the verb's words decide,
	// and are the Deciding words.
	ByVerb bool `json:"by_verb,omitempty"`
	// Deciding are the positions of the words that decide the answer: the
	// predicate's words and "not" or "wasn't"/"isn't" if negated.
	Deciding []int `json:"deciding"`
	// Connective are the positions of the words that join the reason clause
	// to the outcome ("because", ", so", "although", ". but"); empty where
	// no clause gives a reason (lead-it).
	Connective []int `json:"connective,omitempty"`
	// Uncertain: the deciding words are unknown (<unk> or a word never seen in
	// training), so the sentence alone does not decide between the two
	// candidates. Antecedent is still what the hidden words meant.
	Uncertain bool `json:"uncertain"`
}

// ByGrammar reports whether the grammar, not the meaning, decides the
// answer: in a lead-it sentence ("The dog found the food and ate it.") "it"
// is the object of a verb whose subject is the other noun. Such an example
// has no Predicate, and no Deciding words unless it is ByVerb.
func (e Example) ByGrammar() bool { return e.Shape == ShapeLeadIt }

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
// so the order in the sentence does not matter) and the predicate, with
// "not " before a negated one.
func (e Example) Combination() string {
	a, b := e.word(e.Candidates[0]), e.word(e.Candidates[1])
	return newComboKey(a, b, e.Predicate, e.Negated).String()
}

// candidateIn returns the position of the candidate that plays role r.
func (e Example) candidateIn(r Role) int {
	if r == e.Role {
		return e.Antecedent
	}
	if e.Antecedent == e.Candidates[0] {
		return e.Candidates[1]
	}
	return e.Candidates[0]
}

func (e Example) word(pos int) string {
	if pos < 0 || pos >= len(e.Tokens) {
		return ""
	}
	return e.Tokens[pos]
}

// comboKey is a (noun pair, predicate) combination; nounA < nounB.
type comboKey struct {
	nounA, nounB, predicate string
	negated                 bool
}

func newComboKey(x, y, predicate string, negated bool) comboKey {
	if y < x {
		x, y = y, x
	}
	return comboKey{x, y, predicate, negated}
}

func (k comboKey) String() string {
	not := ""
	if k.negated {
		not = "not "
	}
	return fmt.Sprintf("%s+%s/%s%s", k.nounA, k.nounB, not, k.predicate)
}

// renderText writes tokens as text: each sentence capitalised, no space
// before punctuation. Tokenize(renderText(t)) == t for generated sentences
// that contain no <unk>.
func renderText(tokens []string) string {
	var b strings.Builder
	for i, t := range tokens {
		if i > 0 && t != "," && t != "." {
			b.WriteByte(' ')
		}
		if (i == 0 || tokens[i-1] == ".") && t != "" {
			t = strings.ToUpper(t[:1]) + t[1:]
		}
		b.WriteString(t)
	}
	return b.String()
}

// MaxFlips is the most flips a sentence can have (Example.Flips).
const MaxFlips = 4

// Flips counts what turns the answer round on the way from the predicate to
// it: a predicate of the second pole, a failed outcome, "not" and a
// conceding connective. Where the predicate's dimension describes both roles
// ("fast" the hunter after "caught", the prey after "could not catch"),
// each flip moves the answer to the other role (train.curriculum_epochs).
func (e Example) Flips() int {
	n := 0
	for _, flip := range []bool{e.NegativePole, e.Outcome == Failed, e.Negated, e.Concessive} {
		if flip {
			n++
		}
	}
	return n
}
