// The part-of-speech table and the exceptions: what package data needs to
// read a word through its lemmas (wordnet.Analyze) without WordNet
// installed, and to read it exactly as it would over the whole database.

package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"itformer/wordnet"
)

// plainWord is a word the tokenizer can give whole: lower-case ASCII
// letters, an apostrophe only inside ("o'clock"). WordNet's collocations
// ("ice_cream"), hyphenated and capitalised lemmas are none.
var plainWord = regexp.MustCompile(`^[a-z]+('[a-z]+)*$`)

// tableLemmas chooses the lemmas of each part of speech the table lists.
// Every verb, adjective and adverb; a noun when dropping it could change how
// some word reads: it has tag counts, is a person's name, or some form that
// morphy reads as it is also read as something else ("rose": rise). The
// rest, nouns no tagged text uses and nothing else spells, read as
// wordnet.Unlisted without the table, which is what they read as with it:
// "may be a noun".
func tableLemmas(db *wordnet.DB) map[wordnet.POS][]string {
	out := map[wordnet.POS][]string{}
	plurals := map[string][]string{} // base -> its forms in noun.exc
	for form, bases := range db.ExceptionList(wordnet.Noun) {
		for _, b := range bases {
			plurals[b] = append(plurals[b], form)
		}
	}
	for _, p := range wordnet.All {
		for _, l := range db.IndexLemmas(p) {
			if plainWord.MatchString(l) && (p != wordnet.Noun || nounMatters(db, l, plurals[l])) {
				out[p] = append(out[p], l)
			}
		}
		slices.Sort(out[p])
	}
	return out
}

// nounMatters says whether the noun lemma must be in the table.
func nounMatters(db *wordnet.DB, lemma string, irregular []string) bool {
	if db.TagCount(wordnet.Noun, lemma) > 0 || db.PersonName(lemma) {
		return true
	}
	for _, form := range nounForms(db, lemma, irregular) {
		a := wordnet.Analyze(form, db)
		if len(a.Lemmas) > 1 || len(a.Lemmas[wordnet.Noun]) > 1 {
			return true
		}
	}
	return false
}

// nounForms are the words morphy reads as the noun lemma: itself, its
// regular plurals (the rules of detachment run backwards: box -> boxes,
// city -> cities, man -> men) and its irregular forms (noun.exc's).
func nounForms(db *wordnet.DB, lemma string, irregular []string) []string {
	cands := []string{lemma, lemma + "s", lemma + "es"}
	if s, ok := strings.CutSuffix(lemma, "y"); ok {
		cands = append(cands, s+"ies")
	}
	if s, ok := strings.CutSuffix(lemma, "man"); ok {
		cands = append(cands, s+"men")
	}
	cands = append(cands, irregular...)
	var out []string
	for _, c := range cands {
		if slices.Contains(wordnet.Lemmas(c, wordnet.Noun, db), lemma) {
			out = append(out, c)
		}
	}
	return out
}

// posTable writes pos.txt: one lemma a line, sorted, with a field for each
// part of speech it is listed as: the letter (n noun, p a noun that is
// only a person's name, v verb, a adjective, r adverb) and its tag count,
// if any.
func posTable(db *wordnet.DB, lemmas map[wordnet.POS][]string) (text string, rows int) {
	fields := map[string][]string{}
	for _, p := range wordnet.All {
		for _, l := range lemmas[p] {
			letter := string(p)
			if p == wordnet.Noun && db.PersonName(l) {
				letter = "p"
			}
			if n := db.TagCount(p, l); n > 0 {
				letter += fmt.Sprint(n)
			}
			fields[l] = append(fields[l], letter)
		}
	}
	words := sortedKeys(fields)
	var b strings.Builder
	b.WriteString(header(fmt.Sprintf(`Parts of speech: %d lemmas. A line is a lemma, then a field for each
part of speech WordNet lists it as, with its tag count (how often the
semantic concordances used it so) where it has one: n noun, p a noun that
is only a person's name, v verb, a adjective, r adverb. "bear n1 v83": a
noun once, a verb 83 times; "aah v": a verb no tagged text uses. Nouns that no tagged text uses and that nothing else spells are left
out: without them, as with them, a word reads as one that may be a noun.`, len(words))))
	for _, w := range words {
		b.WriteString(w + " " + strings.Join(fields[w], " ") + "\n")
	}
	return b.String(), len(words)
}

// exceptionTable writes exceptions.txt: "pos form base..." lines, sorted,
// for every irregular form the tokenizer can give whole. An entry stays even
// where pos.txt lists none of its base forms, since morphy applies no rule
// to a form the list has ("popes" is no form of the verb pop).
func exceptionTable(db *wordnet.DB) (text string, rows int) {
	var lines []string
	for _, p := range wordnet.All {
		for form, bases := range db.ExceptionList(p) {
			if plainWord.MatchString(form) {
				lines = append(lines, fmt.Sprintf("%c %s %s", p, form, strings.Join(bases, " ")))
			}
		}
	}
	slices.Sort(lines)
	return header(fmt.Sprintf(`Exceptions: %d irregular forms, from WordNet's noun.exc, verb.exc,
adj.exc and adv.exc. A line is a part of speech (n, v, a, r), the form, and
its base forms: "v ate eat".`, len(lines))) + strings.Join(lines, "\n") + "\n", len(lines)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
