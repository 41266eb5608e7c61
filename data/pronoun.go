// Pronouns and nouns: find "it" and the candidate nouns in a tokenized
// sentence, so inference on free text knows what to resolve and between what.

package data

// Pronoun is the only pronoun the corpus resolves.
const Pronoun = "it"

// Pronouns returns the positions of "it" in tokens (lower-case, as Tokenize gives).
func Pronouns(tokens []string) []int {
	var out []int
	for i, t := range tokens {
		if t == Pronoun {
			out = append(out, i)
		}
	}
	return out
}

// IsNoun reports whether word is a noun of the embedded lexicon (an agent or
// object of any frame, or the noun of a place phrase such as "barn" in "in
// the barn"). It is false for everything if the lexicon cannot load.
func IsNoun(word string) bool {
	lex, err := sharedLexicon()
	return err == nil && lex.IsNoun(word)
}

// NounPositions returns the positions of lexicon nouns in tokens: the
// possible antecedents. For every generated example it is Candidates,
// Distractors and OtherNouns together, in order (a place noun is a noun,
// just never the answer); <unk> is not a noun.
func NounPositions(tokens []string) []int {
	var out []int
	for i, t := range tokens {
		if IsNoun(t) {
			out = append(out, i)
		}
	}
	return out
}
