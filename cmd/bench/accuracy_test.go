package main

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/configs"
	"itformer/model"
	"itformer/train"
)

// TestTrainSpecReplaysRun: what pytorch_step.py --train is given (initial
// weights, every epoch's batches with their noun dropout and spread targets,
// decay rates) is the run train.Run trains. The test does in Go what the
// script does in PyTorch (warm-up schedule, decay, Adam; both in train/adam.go)
// on the spec as the script reads it, and must end with train.Run's weights
// after the same epochs, bit for bit. On 6,000 sentences, a quarter of
// tiny.json's: the replay does not depend on how many there are.
func TestTrainSpecReplaysRun(t *testing.T) {
	const epochs = 2
	cfg, err := configs.Load("tiny.json", "train.epochs=3", "train.noun_dropout=0.3", "train.embedding_decay=0.5", "data.train_size=6000")
	if err != nil {
		t.Fatal(err)
	}
	s, err := train.NewSession(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sp := specAsRead(t, s)
	if want := map[string]float64{"embedding": 0.5}; !equalRates(sp.Decay, want) {
		t.Fatalf("spec decay rates %v, want %v", sp.Decay, want)
	}
	want := runWeightsAfter(t, cfg, epochs)
	got := replay(t, s, sp, epochs)
	for _, ps := range s.Params.Specs() {
		if !slices.Equal(got.Values(ps.Name), want.Values(ps.Name)) {
			t.Errorf("%s after %d epochs differs between train.Run and the replay of the spec", ps.Name, epochs)
		}
	}
}

func equalRates(a, b map[string]float64) bool {
	return len(a) == len(b) && !slices.ContainsFunc(mapKeys(a), func(k string) bool { return a[k] != b[k] })
}

func mapKeys(m map[string]float64) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// specAsRead is newTrainSpec's output after the JSON round trip the script reads.
func specAsRead(t *testing.T, s *train.Session) trainSpec {
	t.Helper()
	sp, err := newTrainSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(sp)
	if err != nil {
		t.Fatal(err)
	}
	var read trainSpec
	if err := json.Unmarshal(raw, &read); err != nil {
		t.Fatal(err)
	}
	return read
}

// runWeightsAfter runs train.Run and stops it once epochs are done: its
// resumable checkpoint then holds the weights after those epochs.
func runWeightsAfter(t *testing.T, cfg config.Run, epochs int) *model.Params {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	_, err := train.Run(cfg, train.Options{OutDir: dir, NoHistory: true, Context: ctx,
		OnEpoch: func(rec train.EpochRecord, _ int) {
			if rec.Epoch == epochs {
				stop()
			}
		}})
	if !errors.Is(err, train.ErrInterrupted) {
		t.Fatalf("train.Run: %v, want it stopped after epoch %d", err, epochs)
	}
	ck, err := checkpoint.Load(filepath.Join(dir, checkpoint.ResumeDir))
	if err != nil {
		t.Fatal(err)
	}
	if r := ck.Meta.Resume; r.Epoch != epochs+1 || r.Batch != 0 {
		t.Fatalf("train.Run stopped at epoch %d batch %d, want epoch %d batch 0", r.Epoch, r.Batch, epochs+1)
	}
	return ck.Params
}

// replay trains the spec's initial weights on its first epochs as
// pytorch_step.py --train does, with Go's graphs and Adam.
func replay(t *testing.T, s *train.Session, sp trainSpec, epochs int) *model.Params {
	t.Helper()
	for name, raw := range sp.Params {
		var p struct{ Data []float64 }
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		if err := s.Params.SetValues(name, p.Data); err != nil {
			t.Fatal(err)
		}
	}
	adam := train.NewAdam(s.Config.Train)
	for _, ps := range s.Params.Specs() {
		adam.Decay = append(adam.Decay, sp.Decay[ps.Name])
	}
	graphs := map[int]*model.Graph{}
	defer func() {
		for _, g := range graphs {
			g.Close()
		}
	}()
	lr, warmup, step := sp.Train["learning_rate"], int(sp.Train["warmup_steps"]), 0
	for _, batches := range sp.Epochs[:epochs] {
		for _, b := range batches {
			mb, seqLen := specBatch(b)
			g := graphs[seqLen]
			if g == nil {
				var err error
				g, err = model.NewGraph(s.Params, model.GraphOptions{Batch: len(mb.Lengths), SeqLen: seqLen, Train: true,
					AttentionSupervision: sp.Train["attention_supervision"]})
				if err != nil {
					t.Fatal(err)
				}
				graphs[seqLen] = g
			}
			if _, err := g.Run(mb); err != nil {
				t.Fatal(err)
			}
			adam.LearningRate = lr
			if step < warmup {
				adam.LearningRate = lr * float64(step+1) / float64(warmup)
			}
			if err := adam.Step(g.ValueGrads()); err != nil {
				t.Fatal(err)
			}
			step++
		}
	}
	return s.Params
}

// specBatch is a spec batch as the model reads it, and its padded length:
// rows with other >= 0 spread their target over the antecedent and other.
func specBatch(b map[string][]int) (model.Batch, int) {
	mb := model.Batch{IDs: b["ids"], Lengths: b["lengths"], Pronoun: b["pronoun"], Antecedent: b["antecedent"],
		Spread: make([][]int, len(b["lengths"]))}
	for r, o := range b["other"] {
		if o >= 0 {
			mb.Spread[r] = []int{b["antecedent"][r], o}
		}
	}
	return mb, len(mb.IDs) / len(mb.Lengths)
}
