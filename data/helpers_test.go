package data

import (
	"sync"
	"testing"
)

var seedOneCorpus = sync.OnceValues(func() (*Corpus, error) { return Generate(1) })

// testCorpus is the default corpus for seed 1, generated once per test binary.
func testCorpus(t testing.TB) *Corpus {
	t.Helper()
	c, err := seedOneCorpus()
	if err != nil {
		t.Fatalf("Generate(1): %v", err)
	}
	return c
}

func allExamples(c *Corpus) []Example {
	var all []Example
	all = append(all, c.Train...)
	all = append(all, c.Validation...)
	return append(all, c.Test...)
}
