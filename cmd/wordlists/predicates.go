// Predicates: for each pole word of properties.txt, the adjectives WordNet
// puts in its cluster ("famished", "ravenous" beside "hungry"). Proposals
// too: no frame uses them.

package main

import (
	"fmt"
	"slices"
	"strings"

	"itformer/data"
	"itformer/wordnet"
)

// expansion is one pole word's proposed adjectives.
type expansion struct {
	dim   string
	sign  string // "+" or "-"
	word  string
	words []string
	same  []string // the words of the pole word's sense itself: its synonyms
}

// cluster is the head of s's adjective cluster: s, or the head synset a
// satellite's similar-to pointer leads to.
func cluster(db *wordnet.DB, s *wordnet.Synset) *wordnet.Synset {
	if s.Satellite {
		for _, h := range db.Targets(s, wordnet.SimilarTo, "") {
			if !h.Satellite {
				return h
			}
		}
	}
	return s
}

// clusterWords are the words of a head synset and of its satellites.
func clusterWords(db *wordnet.DB, head *wordnet.Synset) []string {
	var out []string
	for _, s := range append([]*wordnet.Synset{head}, db.Targets(head, wordnet.SimilarTo, "")...) {
		for _, w := range s.Words {
			out = append(out, w.Lemma)
		}
	}
	return out
}

// antonymClusters are the clusters the head's words' antonyms head.
func antonymClusters(db *wordnet.DB, head *wordnet.Synset) []*wordnet.Synset {
	var out []*wordnet.Synset
	for _, w := range head.Words {
		out = append(out, db.Targets(head, wordnet.Antonym, w.Lemma)...)
	}
	return out
}

// poleSense is the sense of word that stands against the other pole: its
// most frequent adjective sense whose cluster's antonyms have a word of the
// other pole ("heavy" as against "light" in weight, not "heavy" rain).
// With none, or no other pole, it is the word's most frequent adjective
// sense; nil if the word is no adjective.
func poleSense(db *wordnet.DB, word string, other []string) *wordnet.Synset {
	senses := db.Senses(wordnet.Adj, word)
	for _, s := range senses {
		for _, a := range antonymClusters(db, cluster(db, s)) {
			if slices.ContainsFunc(clusterWords(db, a), func(w string) bool { return slices.Contains(other, w) }) {
				return s
			}
		}
	}
	if len(senses) == 0 {
		return nil
	}
	return senses[0]
}

// similar are the words beside sense s: its own words and, if it is a
// cluster's head, those of its satellites ("big": large, enormous, huge).
// A satellite's head is broader than it ("thirsty" is a satellite of "dry"),
// so it does not count. Only words whose most frequent adjective sense is
// in s's cluster count: "dead" stands beside "tired", but is mostly the
// opposite of "alive".
func similar(db *wordnet.DB, s *wordnet.Synset) []string {
	near := []*wordnet.Synset{s}
	if !s.Satellite {
		near = append(near, db.Targets(s, wordnet.SimilarTo, "")...)
	}
	var out []string
	for _, n := range near {
		for _, w := range n.Words {
			first := db.Senses(wordnet.Adj, strings.ToLower(w.Lemma))
			if len(first) > 0 && cluster(db, first[0]) == cluster(db, s) && !slices.Contains(out, w.Lemma) {
				out = append(out, w.Lemma)
			}
		}
	}
	return out
}

// predicateExpansions are every pole word's proposals, filtered: a plain
// word in lower case, no word of the lexicon (unknown.txt's words stay, and
// the file says which they are), not a common noun (it would be taken for
// a candidate), in no cluster the pole stands against, beside no word of
// the other pole, and beside the words of one dimension only. A word
// beside two pole words of one pole is listed under the first.
func predicateExpansions(db *wordnet.DB, lex lexiconWords, dims []data.Dimension) []expansion {
	var all []expansion
	dimsOf := map[string]map[string]bool{}   // word -> the dimensions it stands in
	against := map[string]map[string]bool{}  // dimension and sign ("size+") -> words of the clusters the pole stands against
	poleOf := map[string]map[string]string{} // dimension -> word -> its pole
	for _, d := range dims {
		poleOf[d.Name] = map[string]string{}
		for pole, sign := range []string{"+", "-"} {
			against[d.Name+sign] = map[string]bool{}
			for _, w := range d.Poles[pole] {
				e := expansion{dim: d.Name, sign: sign, word: w}
				s := poleSense(db, w, d.Poles[1-pole])
				if s == nil {
					all = append(all, e)
					continue
				}
				for _, w := range s.Words {
					e.same = append(e.same, w.Lemma)
				}
				for _, x := range similar(db, s) {
					if dimsOf[x] == nil {
						dimsOf[x] = map[string]bool{}
					}
					dimsOf[x][d.Name] = true
					switch p, seen := poleOf[d.Name][x]; {
					case !seen:
						poleOf[d.Name][x] = sign
						e.words = append(e.words, x)
					case p != sign: // beside both poles
						against[d.Name+"+"][x], against[d.Name+"-"][x] = true, true
					}
				}
				for _, a := range antonymClusters(db, cluster(db, s)) {
					for _, x := range clusterWords(db, a) {
						against[d.Name+sign][x] = true
					}
				}
				all = append(all, e)
			}
		}
	}
	for i := range all {
		e := &all[i]
		e.words = slices.DeleteFunc(e.words, func(x string) bool {
			return !plainProposal(db, x, wordnet.Adj) || (lex.words[x] && !lex.unknown[x]) || against[e.dim+e.sign][x] ||
				len(dimsOf[x]) > 1 || wordnet.Analyze(x, db).Reading == wordnet.CommonNoun
		})
		slices.Sort(e.words)
	}
	return all
}

// predicateFile writes predicates.txt: "dimension sign pole: words" lines.
func predicateFile(exps []expansion, lex lexiconWords) (string, int) {
	var b strings.Builder
	var unknown []string
	n := 0
	for _, e := range exps {
		n += len(e.words)
		for _, w := range e.words {
			if lex.unknown[w] {
				unknown = append(unknown, w)
			}
		}
	}
	slices.Sort(unknown)
	b.WriteString(header(fmt.Sprintf(`Proposed predicates: %d adjectives beside the pole words of
properties.txt. A line is a dimension, its pole (+ or -), a pole word, and
the adjectives of the WordNet cluster of that word's sense that stands
against the other pole (a head synset and its similar-to satellites): "hunger
+ hungry: famished, ravenous". A word is left out when the lexicon already
uses it, when it is a noun in at least half of its tagged uses, when a
cluster of the other pole has it, or when the clusters of two dimensions
have it. No frame uses these words yet. unknown.txt, the words kept out of
training so a model can be tested on words it never read, has %d of them:
%s.`, n, len(unknown), strings.Join(unknown, ", "))))
	for _, e := range exps {
		fmt.Fprintf(&b, "%s %s %s: %s\n", e.dim, e.sign, e.word, strings.Join(e.words, ", "))
	}
	return b.String(), n
}
