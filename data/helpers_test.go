package data

import (
	"sync"
	"testing"
)

// testSeeds are the seeds whose default corpora the tests share: each is
// generated once per test binary, however many tests read it.
var testSeeds = []int64{1, 2, 3}

var seedCorpora = func() map[int64]func() (*Corpus, error) {
	m := map[int64]func() (*Corpus, error){}
	for _, seed := range testSeeds {
		m[seed] = sync.OnceValues(func() (*Corpus, error) { return Generate(seed) })
	}
	return m
}()

// corpusFor is the default corpus for one of testSeeds, generated once per
// test binary.
func corpusFor(t testing.TB, seed int64) *Corpus {
	t.Helper()
	gen, ok := seedCorpora[seed]
	if !ok {
		t.Fatalf("seed %d is not one of the shared test seeds %v", seed, testSeeds)
	}
	c, err := gen()
	if err != nil {
		t.Fatalf("Generate(%d): %v", seed, err)
	}
	return c
}

// testCorpus is the default corpus for seed 1, generated once per test binary.
func testCorpus(t testing.TB) *Corpus {
	t.Helper()
	return corpusFor(t, 1)
}

// testLexicon is the embedded lexicon, loaded afresh (the caller may change it).
func testLexicon(t testing.TB) *Lexicon {
	t.Helper()
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatalf("DefaultLexicon: %v", err)
	}
	return lex
}

func allExamples(c *Corpus) []Example {
	var all []Example
	all = append(all, c.Train...)
	all = append(all, c.Validation...)
	return append(all, c.Test...)
}

// namedSet is one split or challenge set, named for messages.
type namedSet struct {
	name     string
	examples []Example
}

// namedSets lists the three splits, then every challenge set.
func namedSets(c *Corpus) []namedSet {
	out := []namedSet{{"train", c.Train}, {"validation", c.Validation}, {"test", c.Test}}
	for _, ch := range c.Challenges {
		out = append(out, namedSet{ch.Name, ch.Examples})
	}
	return out
}

// otherReason reads, in a two-it sentence ("... because it was weak and it
// was not heavy."), what the clause of the "it" the example does not ask
// about says: its pronoun's position, whether it says "not", and its
// predicate. ok is false for any other sentence.
func otherReason(e Example) (pronoun int, negated bool, predicate string, ok bool) {
	its := Pronouns(e.Tokens)
	if e.Shape != ShapeTwoIt || len(its) != 2 {
		return 0, false, "", false
	}
	pronoun = its[0]
	if pronoun == e.Pronoun {
		pronoun = its[1]
	}
	for _, w := range e.Tokens[pronoun+1:] {
		switch w {
		case "was", "is", "very", "really", "so", "too":
		case "not", "wasn't", "isn't":
			negated = true
		default:
			return pronoun, negated, w, true
		}
	}
	return pronoun, negated, "", false
}
