// Relatives: for a common word the lexicon lacks, the nearest word it has,
// so that inference can read "famished" as "hungry" and "puppy" as "dog"
// instead of <unk> (package data, Relatives).

package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"itformer/data"
	"itformer/wordnet"
)

// relative is one line of relatives.txt.
type relative struct{ word, readAs, relation string }

// maxKindDepth is how many hypernym steps a noun may climb to a noun of the
// lexicon: a puppy is a kind of dog (1), a stallion a kind of male horse, a
// kind of horse (2). Further up, the lexicon's nouns are too general to
// stand for the word ("food", "animal").
const maxKindDepth = 2

// relativesFile writes relatives.txt: "word relative relation" lines,
// sorted by word, and how many there are.
func relativesFile(db *wordnet.DB, lex lexiconWords, exps []expansion) (string, int) {
	rels := append(adjectiveRelatives(db, lex, exps), nounRelatives(db, lex)...)
	slices.SortFunc(rels, func(a, b relative) int { return strings.Compare(a.word, b.word) })
	rels = slices.CompactFunc(rels, func(a, b relative) bool { return a.word == b.word })
	var b strings.Builder
	b.WriteString(header(fmt.Sprintf(`Relatives: %d words the lexicon does not have, each with
the nearest word it has and how WordNet relates them, for reading a word a
model does not know as one it does (package data, Relatives). A line is the
word, the relative, and the relation: synonym (a word of the pole word's
own sense), similar (an adjective of its cluster: the adjectives of
predicates.txt that are common, tagged in WordNet's texts or with one sense
only, and mostly adjectives), or kind (a common noun whose most frequent
sense lies at most %d hypernym steps under a noun's most frequent sense; the
nearest such noun, and none when two are as near).`, len(rels), maxKindDepth)))
	for _, r := range rels {
		fmt.Fprintf(&b, "%s %s %s\n", r.word, r.readAs, r.relation)
	}
	return b.String(), len(rels)
}

// adjectiveRelatives are predicates.txt's adjectives, each read as its pole
// word, that are common (tagged in the semantic concordances, or with one
// adjective sense only, so the reading is what they mean) and mostly
// adjectives (not "giving", a form of give, beside "generous").
func adjectiveRelatives(db *wordnet.DB, lex lexiconWords, exps []expansion) []relative {
	var out []relative
	for _, e := range exps {
		for _, w := range e.words {
			adj := db.TagCount(wordnet.Adj, w)
			if adj == 0 && len(db.Senses(wordnet.Adj, w)) > 1 || adj < otherTags(db, w) {
				continue
			}
			rel := "similar"
			if slices.Contains(e.same, w) {
				rel = "synonym"
			}
			out = append(out, relative{w, e.word, rel})
		}
	}
	return out
}

// otherTags are the tag counts of w's lemmas as a verb and an adverb.
func otherTags(db *wordnet.DB, w string) int {
	n := 0
	for _, p := range []wordnet.POS{wordnet.Verb, wordnet.Adv} {
		for _, l := range wordnet.Lemmas(w, p, db) {
			n += db.TagCount(p, l)
		}
	}
	return n
}

// nounRelatives are, for every common noun WordNet lists that the lexicon
// lacks, the lexicon's noun nearest above its most frequent sense.
func nounRelatives(db *wordnet.DB, lex lexiconWords) []relative {
	firstSense := map[*wordnet.Synset]string{} // a lexicon noun's most frequent sense -> the noun
	for _, w := range slices.Sorted(maps.Keys(lex.words)) {
		// In sorted order, and the first kept, where two lexicon nouns share
		// a sense ("rock" and "stone"): the same bytes on every run.
		senses := db.Senses(wordnet.Noun, w)
		if len(senses) > 0 && data.IsNoun(w) && !lex.unknown[w] && firstSense[senses[0]] == "" {
			firstSense[senses[0]] = w
		}
	}
	var out []relative
	for _, w := range db.IndexLemmas(wordnet.Noun) {
		if lex.words[w] || db.TagCount(wordnet.Noun, w) == 0 || !plainProposal(db, w, wordnet.Noun) ||
			wordnet.Analyze(w, db).Reading != wordnet.CommonNoun || db.PersonName(w) {
			continue
		}
		if near := nearestAbove(db, db.Senses(wordnet.Noun, w)[0], firstSense); near != "" {
			out = append(out, relative{w, near, "kind"})
		}
	}
	return out
}

// nearestAbove is the noun of nouns nearest above s through hypernyms, at
// most maxKindDepth steps, or "" when there is none or two are as near.
func nearestAbove(db *wordnet.DB, s *wordnet.Synset, nouns map[*wordnet.Synset]string) string {
	level := []*wordnet.Synset{s}
	for range maxKindDepth {
		var next []*wordnet.Synset
		found := map[string]bool{}
		for _, x := range level {
			for _, h := range db.Targets(x, wordnet.Hypernym, "") {
				if w, ok := nouns[h]; ok {
					found[w] = true
				}
				next = append(next, h)
			}
		}
		switch len(found) {
		case 0:
			level = next
		case 1:
			for w := range found {
				return w
			}
		default:
			return ""
		}
	}
	return ""
}
