// Whether a word can be a noun, by WordNet: through its lemmas, and by how
// often the semantic concordances tagged them as each part of speech. One
// rule, used both to write the committed lists (cmd/wordlists, over the
// database) and to choose candidates (package data, over those lists).

package wordnet

// Source is what reading a word needs: morphy's Lookup, tag counts, and
// which nouns are only persons' names.
type Source interface {
	Lookup
	// TagCount is lemma's tag count as pos, summed over its senses.
	TagCount(pos POS, lemma string) int
	// PersonName reports whether every noun sense of lemma is a person's
	// name ("Mary"): capitalised, in WordNet's noun.person file.
	PersonName(lemma string) bool
}

// NounReading says whether a word can be a noun.
type NounReading int

const (
	// Unlisted: no lemma of the word is listed. WordNet does not know the
	// word (or, in the committed lists, knows it only as a noun that no
	// tagged text uses, which reads the same: it may be a noun).
	Unlisted NounReading = iota
	// CommonNoun: a noun in at least half of the word's tagged uses, or a
	// noun with no tagged use of any part of speech ("dog", "dogs", "bike").
	CommonNoun
	// RareNoun: a noun in under half of its tagged uses ("bear", 1 of 84;
	// "bad", 2 of 62; "clean", 1 of 46): a noun only where the sentence makes
	// it one ("the bear").
	RareNoun
	// NotNoun: listed only as a verb, adjective or adverb ("anchored" through
	// anchor, "away", "hungry", "ate" through eat).
	NotNoun
	// PersonName: a noun only as a person's name ("mary"), and nothing
	// else; "it" never refers to one.
	PersonName
)

func (r NounReading) String() string {
	return [...]string{"unlisted", "common noun", "rare noun", "not a noun", "person's name"}[r]
}

// Analysis is how WordNet reads one word.
type Analysis struct {
	// Lemmas are the word's base forms by part of speech (Lemmas): "ate" is
	// eat as a verb and Ate (a goddess) as a noun.
	Lemmas map[POS][]string
	// NounCount is the tag count of its noun lemmas that are no person's
	// name; OtherCount that of its verb, adjective and adverb lemmas.
	NounCount, OtherCount int
	Reading               NounReading
}

// Analyze reads word (lower case) through its lemmas in every part of speech.
func Analyze(word string, src Source) Analysis {
	a := Analysis{Lemmas: map[POS][]string{}}
	common, names := false, false
	for _, p := range All {
		lemmas := Lemmas(word, p, src)
		if len(lemmas) > 0 {
			a.Lemmas[p] = lemmas
		}
		for _, l := range lemmas {
			switch {
			case p != Noun:
				a.OtherCount += src.TagCount(p, l)
			case src.PersonName(l):
				names = true
			default:
				common = true
				a.NounCount += src.TagCount(p, l)
			}
		}
	}
	others := len(a.Lemmas[Verb])+len(a.Lemmas[Adj])+len(a.Lemmas[Adv]) > 0
	switch {
	case common && 2*a.NounCount >= a.NounCount+a.OtherCount:
		a.Reading = CommonNoun
	case common:
		a.Reading = RareNoun
	case others:
		a.Reading = NotNoun
	case names:
		a.Reading = PersonName
	default:
		a.Reading = Unlisted
	}
	return a
}
