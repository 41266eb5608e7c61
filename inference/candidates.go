package inference

// Which words "it" may refer to. The model's softmax covers every word of the
// sentence, punctuation included; an answer must be a word that can head a
// noun phrase, so the answer is the most probable of those. Whether a word
// the model does not know can be a noun is WordNet's answer, read through
// its lemmas (data.ReadWord: "anchored" is the verb anchor, "dogs" the noun
// dog), and then where it stands.

import (
	"strings"
	"unicode"

	"itformer/data"
	"itformer/wordnet"
)

// closedClass are English pronouns and function words: never the head of a
// noun phrase, even when the model has never seen them.
var closedClass = wordSet(`
	i me my mine myself you your yours he him his she her hers they them their theirs
	we us our ours it its itself this that these those who whom whose which what
	something anything nothing everything someone anyone everyone nobody
	a an the some any every each no another all both either neither
	of in on at by for with from to into onto over under about after before
	through during without within between among against
	and or but nor so yet because since as although though while when if than whether unless until
	is are was were be been being am do does did have has had
	can could will would shall should may might must not
	very really too quite rather extremely also just then there here`)

// beforeNonNoun are words after which an unknown word is a verb or a
// predicate, not a noun: a subject pronoun ("it zorbled"), a copula or an
// auxiliary ("was glorpy", "could glorp"), a degree adverb ("very glorpy").
var beforeNonNoun = wordSet(`
	i you he she it we they
	is are was were be been being am do does did
	can could will would shall should may might must not
	very really too quite rather extremely so`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// determiners are the words after which a noun phrase begins: a word that
// is a noun only now and then ("the bear", "a present") is one there.
var determiners = wordSet(`a an the this that these those my your his her its our their
	some any every each no another`)

// nounHeads returns the positions of the words that may head a noun phrase:
// the lexicon's nouns, and unknown words (known reports the model's
// vocabulary) that can be nouns and stand where a noun could. An unknown
// word right after a head is taken for its verb ("the dog chased"), not a
// second noun, unless WordNet has it as a common noun after an unknown
// one, or it follows a possessive: then the two are one noun phrase, and
// the last word its head ("the sand castle", "Sam's drawing").
func nounHeads(tokens []string, known func(string) bool) []int {
	var out []int
	for i, t := range tokens {
		afterHead := len(out) > 0 && out[len(out)-1] == i-1
		switch {
		case data.IsNoun(t):
			out = append(out, i)
		case known(t) || !mayBeNoun(tokens, i):
		case !afterHead:
			out = append(out, i)
		case possessive(tokens[i-1]) || !data.IsNoun(tokens[i-1]) && data.ReadWord(t).Reading == wordnet.CommonNoun:
			out[len(out)-1] = i
		}
	}
	return out
}

// mayBeNoun says whether the unknown word tokens[i] may be a noun phrase's
// head: a word, not a function word or a contraction ("i'm"), that WordNet does not know or knows as
// a noun (canBeNoun), not where a verb or a predicate stands, and not a
// modifier of the noun after it ("the zorbly dog").
func mayBeNoun(tokens []string, i int) bool {
	t := tokens[i]
	switch {
	case !strings.ContainsFunc(t, unicode.IsLetter), closedClass[t], data.IsContraction(t), !canBeNoun(tokens, i):
		return false
	case i > 0 && beforeNonNoun[tokens[i-1]]:
		return false
	}
	return i+1 == len(tokens) || !data.IsNoun(tokens[i+1])
}

// canBeNoun says whether WordNet lets tokens[i] be a noun there: a word it
// does not know, or a noun in at least half of its tagged uses ("giraffes",
// through giraffe), anywhere; a word that is a noun less often ("bear",
// "bad", "working") only right after a determiner and any adjectives ("the
// big bear"); never a word that is no noun ("anchored", "away") or a
// person's name ("mary": "it" is never a person).
func canBeNoun(tokens []string, i int) bool {
	switch data.ReadWord(tokens[i]).Reading {
	case wordnet.Unlisted, wordnet.CommonNoun:
		return true
	case wordnet.RareNoun:
		return afterDeterminer(tokens, i)
	}
	return false
}

// afterDeterminer says whether a determiner comes before tokens[i], with
// only adjectives between ("the big brown bear").
func afterDeterminer(tokens []string, i int) bool {
	j := i - 1
	for j >= 0 && isAdjective(tokens[j]) {
		j--
	}
	return j >= 0 && (determiners[tokens[j]] || possessive(tokens[j]))
}

// possessive says whether w is a possessive ("sam's"), which stands where
// a determiner does.
func possessive(w string) bool { return strings.HasSuffix(w, "'s") && len(w) > 2 }

// isAdjective says whether WordNet has w as an adjective, and not mostly
// as a noun.
func isAdjective(w string) bool {
	a := data.ReadWord(w)
	return len(a.Lemmas[wordnet.Adj]) > 0 && a.Reading != wordnet.CommonNoun
}
