// Contractions: read an English contraction the vocabulary lacks as the
// words it stands for, when the vocabulary has them all.
//
// Why: Tokenize keeps "didn't" and "it's" as one token each, as the corpus
// writes "wasn't" and "isn't". The corpus writes other negations in full
// ("did not", "cannot"), so a user's "didn't" would be one unknown word the
// model reads as <unk>, and "it's" would hide the pronoun "it" altogether.
// What: ExpandContractions keeps every token the vocabulary knows (so
// "wasn't" stays), and replaces an unknown contraction by its words only when
// the vocabulary knows all of them ("didn't" -> "did" "not"); anything else
// is left to be read as <unk>. A possessive ("dog's") and the ambiguous "'d"
// (had or would) are never expanded, nor is "'s" after a word outside
// sIsAfter ("the dog's hungry" may be a possessive too). One exception: a
// contraction of "it" that cannot be read in full is still split after it
// ("it'd" -> "it" "'d"), so that the pronoun is not lost inside an unknown word.
// Punctuation the corpus never writes is read the same way, as the mark it
// writes in its place: "!" and "?" as ".", ";" and ":" as ",".

package data

import (
	"fmt"
	"strings"
)

// wholeContractions are the contracted words read as a whole: irregular
// stems ("won't" is not "wo" + "not") and "'s" after the words where it can
// only be "is". Each lists its readings in order of preference; the first
// whose words the vocabulary all has is taken.
var wholeContractions = map[string][][]string{
	"can't":  {{"cannot"}, {"can", "not"}},
	"won't":  {{"will", "not"}},
	"shan't": {{"shall", "not"}},
	"let's":  {{"let", "us"}},
}

// sIsAfter are the words after which "'s" is "is", never a possessive.
var sIsAfter = []string{"it", "that", "he", "she", "there", "here", "what", "who", "where"}

// contractedEndings are the endings that mean the same word after any stem:
// "couldn't" is "could" "not", "they're" is "they" "are".
var contractedEndings = []struct{ ending, word string }{
	{"n't", "not"},
	{"'re", "are"},
	{"'m", "am"},
	{"'ll", "will"},
	{"'ve", "have"},
}

// IsContraction says whether word is a contraction whose ending is a verb
// or "not" ("i'm", "they're", "didn't", "she'd", "that's", "won't"), by the
// tables above: such a word is never a noun, whatever the vocabulary knows.
// A possessive ("dog's", "sam's") is not one.
func IsContraction(word string) bool {
	if readings(word) != nil {
		return true
	}
	for _, e := range contractedEndings {
		if hasEnding(word, e.ending) {
			return true
		}
	}
	return hasEnding(word, "'d") // had or would: never expanded, but a verb all the same
}

// hasEnding says whether word is a stem followed by ending.
func hasEnding(word, ending string) bool {
	stem, ok := strings.CutSuffix(word, ending)
	return ok && stem != ""
}

// Contraction is one contracted word read as the words it stands for.
type Contraction struct {
	Word     string   `json:"word"`     // the token as written, lower-case: "didn't"
	ReadAs   []string `json:"read_as"`  // the tokens it became: "did", "not"
	Position int      `json:"position"` // 0-based index of ReadAs[0] in the expanded tokens
}

// String is `"didn't" as "did not"`.
func (c Contraction) String() string {
	return fmt.Sprintf("%q as %q", c.Word, strings.Join(c.ReadAs, " "))
}

// ContractionNote is the sentence that tells a user what was read how:
// `read "didn't" as "did not", "it's" as "it is"`; empty for none.
func ContractionNote(cs []Contraction) string { return readNote(cs) }

// readNote is `read X, Y`: the note that says how words were read, one
// item each (a contraction, a relative); empty for none.
func readNote[T fmt.Stringer](items []T) string {
	if len(items) == 0 {
		return ""
	}
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = it.String()
	}
	return "read " + strings.Join(parts, ", ")
}

// ExpandContractions returns tokens (lower-case, as Tokenize gives) with each
// contraction that known lacks, but whose words known all has, replaced by
// those words (and any other contraction of "it" split after "it"), and the
// list of what it replaced, in order. Every other token
// is kept as is. tokens is not modified.
func ExpandContractions(tokens []string, known func(string) bool) ([]string, []Contraction) {
	out := make([]string, 0, len(tokens))
	var done []Contraction
	for _, t := range tokens {
		if words := readAs(t, known); words != nil {
			done = append(done, Contraction{Word: t, ReadAs: words, Position: len(out)})
			out = append(out, words...)
			continue
		}
		out = append(out, t)
	}
	return out, done
}

// punctuationReadings read the marks the corpus never writes as the ones it
// does: it ends every sentence with "." and joins clauses with ",", so a
// user's "!" or "?" ends one, and ";" or ":" joins two.
var punctuationReadings = map[string]string{"!": ".", "?": ".", ";": ",", ":": ","}

// readAs is what a token the vocabulary lacks is read as, or nil to read it
// as <unk>: the mark the corpus writes in its place, a contraction's words,
// or a contraction of "it" split after "it".
func readAs(t string, known func(string) bool) []string {
	if known(t) {
		return nil
	}
	if p, ok := punctuationReadings[t]; ok && known(p) {
		return []string{p}
	}
	if !strings.Contains(t, "'") {
		return nil
	}
	if words := expandContraction(t, known); words != nil {
		return words
	}
	return splitAfterPronoun(t)
}

// splitAfterPronoun is "it" and the rest of word ("it'd" -> "it" "'d") for
// a contraction of "it" that cannot be read in full (the ending is ambiguous
// or a word the vocabulary lacks), else nil: the pronoun the model resolves
// must not hide inside an unknown word. The ending is then read as <unk>.
func splitAfterPronoun(word string) []string {
	if rest, ok := strings.CutPrefix(word, "it'"); ok && rest != "" {
		return []string{"it", "'" + rest}
	}
	return nil
}

// expandContraction is the words word stands for, all known, or nil. A known
// word stands for itself; an ending's stem is expanded in turn, so
// "couldn't've" is "could" "not" "have".
func expandContraction(word string, known func(string) bool) []string {
	if known(word) {
		return []string{word}
	}
	for _, reading := range readings(word) {
		if allKnown(reading, known) {
			return reading
		}
	}
	for _, e := range contractedEndings {
		stem, ok := strings.CutSuffix(word, e.ending)
		if !ok || stem == "" || !known(e.word) {
			continue
		}
		if words := expandContraction(stem, known); words != nil {
			return append(words, e.word)
		}
	}
	return nil
}

// readings are the whole-word readings of word, in order of preference.
func readings(word string) [][]string {
	if r, ok := wholeContractions[word]; ok {
		return r
	}
	for _, s := range sIsAfter {
		if word == s+"'s" {
			return [][]string{{s, "is"}}
		}
	}
	return nil
}

func allKnown(words []string, known func(string) bool) bool {
	for _, w := range words {
		if !known(w) {
			return false
		}
	}
	return true
}
