package train

import (
	"math/rand"
	"slices"
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
