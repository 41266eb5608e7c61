// Noun classes: for a noun list of the lexicon (data/lexicon/nouns/), the
// common nouns WordNet places under the same hypernyms. They are proposals,
// written beside the lexicon, not into it: no frame uses them.

package main

import (
	"fmt"
	"slices"
	"strings"

	"itformer/wordnet"
)

// synset names a noun synset by a word of it and its offset in data.noun,
// so that the table below reads as words and a database of another version
// is refused rather than misread.
type synset struct {
	word   string
	offset int
}

// class is a noun list and the subtrees of WordNet's hypernym hierarchy its
// nouns come from.
type class struct {
	name   string   // nouns/<name>.txt of the lexicon, or a list no frame has yet
	why    string   // what the roots hold, for the file's header
	roots  []synset // every noun under one of them (by @ and @i) belongs
	except []synset // but not under one of these
}

// classes are the lexicon's noun lists that a WordNet subtree describes.
// Lists defined by a property rather than a kind (loads: heavy things;
// findables: small ones; things: what fits in a container) have none.
var classes = []class{
	{name: "animals", why: "animals", roots: []synset{{"animal", 15388}}},
	{name: "barriers", why: "barriers and walls", roots: []synset{{"barrier", 2796623}, {"wall", 4546855}}},
	{name: "breakables", why: "tableware", roots: []synset{{"tableware", 4381994}}},
	{name: "climbables", why: "hills, mountains, cliffs, trees and towers",
		roots: []synset{{"natural_elevation", 9366317}, {"cliff", 9246464}, {"tree", 13104059}, {"tower", 4460130}}},
	{name: "containers", why: "containers that are not vehicles (WordNet files wheeled vehicles under containers too)",
		roots: []synset{{"container", 3094503}}, except: []synset{{"conveyance", 3100490}}},
	{name: "crossings", why: "bridges", roots: []synset{{"bridge", 2898711}}},
	{name: "drinks", why: "beverages and juices", roots: []synset{{"beverage", 7881800}, {"juice", 7923748}}},
	{name: "foods", why: "solid food, dishes and foodstuffs that are not drinks",
		roots:  []synset{{"food", 7555863}, {"dish", 7557434}, {"foodstuff", 7566340}},
		except: []synset{{"beverage", 7881800}, {"juice", 7923748}}},
	{name: "supports", why: "furniture and shelves", roots: []synset{{"furniture", 3405725}, {"shelf", 4190052}}},
	{name: "vehicles", why: "wheeled vehicles and public transport", roots: []synset{{"wheeled_vehicle", 4576211}, {"public_transport", 4019101}}},
	{name: "tools", why: "tools (no list of the lexicon yet)", roots: []synset{{"tool", 4451818}}},
}

// lookUp finds a named synset, refusing one whose offset holds other words.
func lookUp(db *wordnet.DB, s synset) (*wordnet.Synset, error) {
	ss := db.Synset(wordnet.Noun, s.offset)
	if ss == nil || !slices.ContainsFunc(ss.Words, func(w wordnet.Word) bool { return w.Lemma == s.word }) {
		return nil, fmt.Errorf("data.noun has no synset %08d with the word %q: is this WordNet 3.0?", s.offset, s.word)
	}
	return ss, nil
}

func lookUpAll(db *wordnet.DB, names []synset) ([]*wordnet.Synset, error) {
	var out []*wordnet.Synset
	for _, n := range names {
		s, err := lookUp(db, n)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// members are the class's nouns that pass every filter (see expansion),
// sorted, with those the lexicon's list has already left out.
func (c class) members(db *wordnet.DB, lex lexiconWords) ([]string, error) {
	roots, err := lookUpAll(db, c.roots)
	if err != nil {
		return nil, err
	}
	except, err := lookUpAll(db, c.except)
	if err != nil {
		return nil, err
	}
	in := func(s *wordnet.Synset) bool {
		under := func(r *wordnet.Synset) bool { return db.Under(s, r) }
		return slices.ContainsFunc(roots, under) && !slices.ContainsFunc(except, under)
	}
	var out []string
	for _, w := range db.IndexLemmas(wordnet.Noun) {
		if plainProposal(db, w, wordnet.Noun) && !lex.listed(c.name, w) && classNoun(db, w, in) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out, nil
}

// classNoun says whether the noun w belongs to a class whose synsets in
// reports: a sense of w in the class, written in lower case (no proper
// name), has a tag count; those senses have at least half of w's noun tag
// count (a chicken is as often food as a bird, but a "game" is rarely the
// animals hunted); no sense that tagged text uses is a person ("it" never
// means a "queen" or an "adult", though both are animals too); and w reads
// as a common noun (wordnet.CommonNoun), so it is a candidate wherever it
// stands, not a verb or an adjective first.
func classNoun(db *wordnet.DB, w string, in func(*wordnet.Synset) bool) bool {
	inClass, total := 0, 0
	for _, s := range db.Senses(wordnet.Noun, w) {
		n := db.Count(w, s)
		total += n
		if s.LexFile == nounPerson && n > 0 {
			return false
		}
		if in(s) && slices.ContainsFunc(s.Words, func(x wordnet.Word) bool { return x.Lemma == w }) {
			inClass += n
		}
	}
	return inClass > 0 && 2*inClass >= total && wordnet.Analyze(w, db).Reading == wordnet.CommonNoun
}

// nounPerson is WordNet's lexicographer file of persons (lexnames(5WN)).
const nounPerson = 18

// classFile writes nouns/<name>.txt in the lexicon's noun-list format: a
// comment that says why its words belong, then one noun a line.
func classFile(c class, words []string) string {
	var b strings.Builder
	b.WriteString(header(fmt.Sprintf(`Proposed nouns for %s: %d common nouns WordNet files under %s:
%s. Each has a sense there that tagged text uses, at least half of its
noun uses are in such senses, it is a noun in at least half of all its uses,
and the lexicon's own list does not have it. No frame uses these words yet.`,
		listName(c.name), len(words), c.why, rootNames(c))))
	for _, w := range words {
		b.WriteString(w + "\n")
	}
	return b.String()
}

func listName(name string) string {
	if name == "tools" {
		return "a list of tools"
	}
	return "nouns/" + name + ".txt"
}

func rootNames(c class) string {
	var parts []string
	for _, r := range c.roots {
		parts = append(parts, fmt.Sprintf("%s (%08d)", r.word, r.offset))
	}
	s := strings.Join(parts, ", ")
	if len(c.except) > 0 {
		var ex []string
		for _, r := range c.except {
			ex = append(ex, fmt.Sprintf("%s (%08d)", r.word, r.offset))
		}
		s += ", less what is under " + strings.Join(ex, ", ")
	}
	return s
}
