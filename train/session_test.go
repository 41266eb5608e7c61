package train

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"itformer/data"
)

// Session.Run pads each batch only to its longest sentence (rounded up to a
// multiple of config.PadMultiple). Padding is masked
// out of attention and the loss, so its rows add exact zeros to every sum:
// ten Adam steps on trimmed batches must give the weights of ten steps on
// batches padded to max_len, bit for bit.
func TestTrimmedBatchesTrainTheSameWeights(t *testing.T) {
	cfg := tinyConfig
	trimmed, full := newTestSession(t), newTestSession(t)
	batches, err := data.Batches(trimmed.Corpus.Train, trimmed.Vocab, cfg.Train.BatchSize, cfg.Model.MaxLen, rand.New(rand.NewSource(1)), true)
	if err != nil {
		t.Fatal(err)
	}
	shorter := 0
	for _, b := range batches[:10] {
		out, g, err := trimmed.Run(b)
		if err != nil {
			t.Fatal(err)
		}
		if g != trimmed.Graph {
			shorter++
		}
		want, err := full.Graph.Run(ModelBatch(b))
		if err != nil {
			t.Fatal(err)
		}
		if out.Objective != want.Objective {
			t.Fatalf("objective %v on the trimmed batch, %v padded to max_len", out.Objective, want.Objective)
		}
		if err := trimmed.Optimiser.Step(g.ValueGrads()); err != nil {
			t.Fatal(err)
		}
		if err := full.Optimiser.Step(full.Graph.ValueGrads()); err != nil {
			t.Fatal(err)
		}
	}
	if shorter == 0 {
		t.Fatal("no batch was shorter than max_len: the test compares nothing")
	}
	for _, s := range trimmed.Params.Specs() {
		if !slices.Equal(trimmed.Params.Values(s.Name), full.Params.Values(s.Name)) {
			t.Errorf("%s differs after ten steps", s.Name)
		}
	}
}

func newTestSession(t *testing.T) *Session {
	t.Helper()
	s, err := NewSession(tinyConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestCurriculumGrowsTheTrainingSplit: under train.curriculum_epochs 3 the
// first epoch trains on the sentences without a flip, the second on those of
// at most one, the third of at most two, each repeated to the split's size,
// and the fourth on the split itself.
func TestCurriculumGrowsTheTrainingSplit(t *testing.T) {
	s := newTestSession(t)
	s.Config.Train.CurriculumEpochs = 3
	for _, c := range []struct{ epoch, most int }{{1, 0}, {2, 1}, {3, 2}} {
		part := s.curriculum(c.epoch)
		if len(part) != len(s.Corpus.Train) {
			t.Errorf("epoch %d: %d sentences, want the split's %d", c.epoch, len(part), len(s.Corpus.Train))
		}
		seen := map[string]bool{}
		for _, e := range part {
			if e.Flips() > c.most {
				t.Fatalf("epoch %d trains on %q, of %d flips", c.epoch, e.Text, e.Flips())
			}
			seen[e.Text] = true
		}
		for _, e := range s.Corpus.Train {
			if e.Flips() <= c.most && !seen[e.Text] {
				t.Fatalf("epoch %d leaves out %q, of %d flips", c.epoch, e.Text, e.Flips())
			}
		}
	}
	if got := s.curriculum(4); !slices.EqualFunc(got, s.Corpus.Train, func(a, b data.Example) bool { return a.Text == b.Text }) {
		t.Errorf("after the curriculum: not the training split")
	}
}

// A training split made too small to hold the words of the other splits is
// refused naming data.train_size, not only the word it lacks.
func TestASmallTrainSizeIsNamed(t *testing.T) {
	cfg := tinyConfig
	cfg.Data.TrainSize = 200
	_, err := NewSession(cfg)
	if want := "data.train_size 200 is too small for data seed 1: "; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("train_size 200: %v, want it to say %q", err, want)
	}
}
