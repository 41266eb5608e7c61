// Relatives: read a word the vocabulary lacks as its nearest relative in
// WordNet that the vocabulary has ("famished" as "hungry", "puppy" as
// "dog"), with a note that says so, as contractions are read as their words.
//
// Why: a model reads every word outside its vocabulary as <unk>, so "The
// puppy ate the food because it was famished" hides both the noun and the
// word that decides. WordNet knows that a puppy is a kind of dog and that
// famished is similar to hungry; cmd/wordlists commits those relatives as
// wordnet/relatives.txt, relative to the lexicon's words, and ReadRelatives
// maps only to words the loaded model knows.

package data

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"itformer/wordnet"
)

// Relative is one word read as a relative the vocabulary has.
type Relative struct {
	Word string `json:"word"` // the token as written, lower-case: "puppies"
	// Lemma is the WordNet lemma the table relates, when it is not Word
	// ("puppy" for "puppies"); empty otherwise.
	Lemma  string `json:"lemma,omitempty"`
	ReadAs string `json:"read_as"` // the word it was read as: "dog"
	// Relation is how WordNet relates them: "synonym" (same sense),
	// "similar" (an adjective similar to it), "kind" (a kind of it, through
	// hypernyms) or "form" (an inflected form of it: "dogs" of "dog").
	Relation string `json:"relation"`
	Position int    `json:"position"` // 0-based index of the word in the tokens as read
}

// relationText says a relation in words, for notes.
var relationText = map[string]string{"synonym": "a synonym", "similar": "similar to", "kind": "a kind of", "form": "a form of"}

// String is `"famished" as "hungry" (WordNet: similar to)`, or with the
// lemma the table relates, `"puppies" as "dog" (WordNet: puppy, a kind of)`.
func (r Relative) String() string {
	return fmt.Sprintf("%q as %q (WordNet: %s)", r.Word, r.ReadAs, r.How())
}

// How says how WordNet relates the word to what it was read as: "similar
// to", or through its lemma "puppy, a kind of".
func (r Relative) How() string {
	if r.Lemma != "" {
		return r.Lemma + ", " + relationText[r.Relation]
	}
	return relationText[r.Relation]
}

// RelativeNote is the sentence that tells a user which words were read as
// their relatives: `read "famished" as "hungry" (WordNet: similar to)`;
// empty for none.
func RelativeNote(rs []Relative) string { return readNote(rs) }

// relativeEntry is one line of relatives.txt.
type relativeEntry struct{ readAs, relation string }

// DefaultRelatives is the embedded wordnet/relatives.txt, read once: word ->
// its relative in the lexicon and the relation.
var DefaultRelatives = sync.OnceValues(func() (map[string]relativeEntry, error) {
	out := map[string]relativeEntry{}
	file := path.Join(WordNetDir, "relatives.txt")
	err := eachListLine(lexiconFiles(), file, func(n int, f []string) error {
		if len(f) != 3 || relationText[f[2]] == "" {
			return lexErr(file, n, "want a word, its relative and synonym, similar or kind, got %q", strings.Join(f, " "))
		}
		out[f[0]] = relativeEntry{f[1], f[2]}
		return nil
	})
	return out, err
})

// RelativeOf is what word, which known lacks, is read as, if anything: its
// entry in relatives.txt, through its lemmas ("puppies": puppy, a kind of
// dog); else a lemma known has ("dogs" as "dog", "bigger" as "big"). A word
// WordNet mostly uses as a noun is read only through its noun lemmas, any
// other only through its adjective lemmas, so that "giving" is never read
// as "generous". The relative must be a word known has.
func RelativeOf(word string, known func(string) bool) (Relative, bool) {
	if known(word) {
		return Relative{}, false
	}
	table, err := DefaultRelatives()
	pos, err2 := DefaultPartsOfSpeech()
	if err != nil || err2 != nil {
		return Relative{}, false
	}
	if e, ok := table[word]; ok && known(e.readAs) {
		return Relative{Word: word, ReadAs: e.readAs, Relation: e.relation}, true
	}
	p := wordnet.Adj
	if wordnet.Analyze(word, pos).Reading == wordnet.CommonNoun {
		p = wordnet.Noun
	}
	for _, l := range wordnet.Lemmas(word, p, pos) {
		if l == word {
			continue
		}
		if known(l) {
			return Relative{Word: word, ReadAs: l, Relation: "form"}, true
		}
		if e, ok := table[l]; ok && known(e.readAs) {
			return Relative{Word: word, Lemma: l, ReadAs: e.readAs, Relation: e.relation}, true
		}
	}
	return Relative{}, false
}

// ReadRelatives returns tokens with each word known lacks that has a
// relative known has (RelativeOf) replaced by it, and what it replaced, in
// order. Every other token is kept. tokens is not modified.
func ReadRelatives(tokens []string, known func(string) bool) ([]string, []Relative) {
	out := make([]string, len(tokens))
	var done []Relative
	for i, t := range tokens {
		out[i] = t
		if r, ok := RelativeOf(t, known); ok {
			r.Position = i
			out[i] = r.ReadAs
			done = append(done, r)
		}
	}
	return out, done
}
