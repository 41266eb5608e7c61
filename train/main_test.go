package train

import (
	"fmt"
	"os"
	"reflect"
	"sync"
	"testing"

	"itformer/config"
	"itformer/data"
)

// TestMain gives every session of the tests the one corpus of its data
// section (sharedCorpus), checks after the tests that no run changed it, and
// removes the reference run's folder: it outlives the test that made it, so
// no t.TempDir holds it.
func TestMain(m *testing.M) {
	sessionCorpus = sharedCorpus
	code := m.Run()
	if err := corporaUnchanged(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		code = 1
	}
	if reference.dir != "" {
		os.RemoveAll(reference.dir)
	}
	os.Exit(code)
}

// corpora are the corpora the tests' sessions have generated, by data section.
var corpora struct {
	sync.Mutex
	byData map[config.Data]*data.Corpus
}

// sharedCorpus is Corpus(d), generated once per data section for all the
// tests: they start dozens of runs on the same two or three, and generating
// tiny.json's 24,000 sentences again for each took a quarter of the
// package's CPU. A session only reads its corpus (data.Batches copies what
// it batches), so runs may share one; the tests that compare a run with an
// independent generation call Corpus itself.
func sharedCorpus(d config.Data) (*data.Corpus, error) {
	corpora.Lock()
	defer corpora.Unlock()
	if c, ok := corpora.byData[d]; ok {
		return c, nil
	}
	c, err := Corpus(d)
	if err == nil {
		if corpora.byData == nil {
			corpora.byData = map[config.Data]*data.Corpus{}
		}
		corpora.byData[d] = c
	}
	return c, err
}

// corporaUnchanged compares every shared corpus with a new generation: a
// run that wrote into its corpus would have changed the others' data.
func corporaUnchanged() error {
	for d, c := range corpora.byData {
		fresh, err := Corpus(d)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(c, fresh) {
			return fmt.Errorf("the shared corpus of %+v differs from a new generation after the tests: a run changed its corpus", d)
		}
	}
	return nil
}
