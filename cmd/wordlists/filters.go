// Filters every proposal passes: no offensive word, no inflected form of
// another lemma.

package main

import (
	"slices"

	"itformer/wordnet"
)

// usageDomain is the pointer from a word's synset to the kind of usage it
// is ("shitless" points at obscenity).
const usageDomain = ";u"

// offensiveUsage are the usage domains no proposal comes from: obscenity,
// disparagement and ethnic slurs.
var offensiveUsage = []synset{{"obscenity", 7124340}, {"disparagement", 6717170}, {"ethnic_slur", 6718862}}

// offensive says whether a sense of w as pos is marked as one of them.
func offensive(db *wordnet.DB, w string, pos wordnet.POS) bool {
	for _, s := range db.Senses(pos, w) {
		for _, p := range s.Pointers {
			if p.Symbol == usageDomain && slices.ContainsFunc(offensiveUsage, func(o synset) bool { return o.offset == p.Offset }) {
				return true
			}
		}
	}
	return false
}

// inflected says whether morphy reads w as pos as another lemma too: WordNet
// lists "oxen", "cows" and "bigger" as lemmas, but they are forms of ox, cow
// and big, which a proposal would repeat.
func inflected(db *wordnet.DB, w string, pos wordnet.POS) bool {
	return len(wordnet.Lemmas(w, pos, db)) > 1
}

// plainProposal is what every proposed word must be: a plain word, no form
// of another lemma, and nothing offensive.
func plainProposal(db *wordnet.DB, w string, pos wordnet.POS) bool {
	return plainWord.MatchString(w) && !inflected(db, w, pos) && !offensive(db, w, pos)
}
