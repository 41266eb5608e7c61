package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"gorgonia.org/tensor"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// shardSession is a Session of the tiny config on the small corpus, with overrides.
func shardSession(t *testing.T, overrides ...string) *Session {
	t.Helper()
	cfg, err := config.Load("../configs/tiny.json", append([]string{smallCorpus}, overrides...)...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// shardBatches is the first n training batches of s, a fifth of their nouns
// hidden (so that some rows spread their target over both candidates).
func shardBatches(t *testing.T, s *Session, n int) []data.Batch {
	t.Helper()
	batches, err := data.Batches(s.Corpus.Train, s.Vocab, s.Config.Train.BatchSize, s.Config.Model.MaxLen, rand.New(rand.NewSource(1)), true)
	if err != nil {
		t.Fatal(err)
	}
	batches = batches[:n]
	dropNouns(batches, 0.2, 1, 1)
	return batches
}

// gradients copies a graph's gradients, parameter by parameter, and zeroes them.
func gradients(t *testing.T, g *model.Graph) [][]float64 {
	t.Helper()
	var out [][]float64
	for _, vg := range g.ValueGrads() {
		d, err := vg.Grad()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, slices.Clone(floats(d.Data())))
		d.(*tensor.Dense).Zero()
	}
	return out
}

// A batch split into shards has the same objective and gradients as the
// whole batch, up to rounding: every loss term of a shard is weighted by the
// whole batch's count of labelled rows. With and without attention
// supervision, on batches with spread (hidden-noun) rows.
func TestShardedGradientsMatchWholeBatch(t *testing.T) {
	t.Parallel() // a long test (see smallCorpus)
	for _, lambda := range []string{"1.0", "0"} {
		whole := shardSession(t, "train.attention_supervision="+lambda)
		batches := shardBatches(t, whole, 3)
		// Which batches have spread rows depends on the corpus's draw; one of
		// those checked must, or the test would not check them.
		if !slices.ContainsFunc(batches, func(b data.Batch) bool { return ModelBatch(b).Spread != nil }) {
			t.Fatalf("none of the %d batches has a spread row: the test would not check them", len(batches))
		}
		for _, shards := range []string{"2", "4", "32"} {
			sharded := shardSession(t, "train.attention_supervision="+lambda, "train.shards="+shards)
			for i, b := range batches {
				want, wg, err := whole.Run(b)
				if err != nil {
					t.Fatal(err)
				}
				got, gg, err := sharded.Run(b)
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("λ=%s shards=%s batch %d", lambda, shards, i)
				closeEnough(t, where+" objective", []float64{got.Objective, got.Loss, got.AttentionLoss}, []float64{want.Objective, want.Loss, want.AttentionLoss})
				closeEnough(t, where+" probabilities", got.Probs.Data, want.Probs.Data)
				if !slices.Equal(got.Probs.Shape, want.Probs.Shape) || !slices.Equal(got.Lengths, want.Lengths) {
					t.Errorf("%s: probabilities %v, lengths %v; want %v, %v", where, got.Probs.Shape, got.Lengths, want.Probs.Shape, want.Lengths)
				}
				wantG, gotG := gradients(t, wg), gradients(t, gg)
				for p := range wantG {
					closeEnough(t, where+" gradient of "+whole.Params.Specs()[p].Name, gotG[p], wantG[p])
				}
			}
		}
	}
}

// closeEnough demands |got - want| <= 1e-12 · max |want| entry by entry.
func closeEnough(t *testing.T, what string, got, want []float64) {
	t.Helper()
	scale := 0.0
	for _, x := range want {
		scale = max(scale, math.Abs(x))
	}
	for j := range want {
		if d := math.Abs(got[j] - want[j]); d > 1e-12*scale || math.IsNaN(got[j]) {
			t.Fatalf("%s, entry %d: %v, want %v (difference %.2g, scale %.2g)", what, j, got[j], want[j], d, scale)
		}
	}
}

// steps takes an Adam step on each batch and returns the objectives.
func steps(t *testing.T, s *Session, batches []data.Batch) []float64 {
	t.Helper()
	var objectives []float64
	for _, b := range batches {
		out, g, err := s.Run(b)
		if err != nil {
			t.Fatal(err)
		}
		objectives = append(objectives, out.Objective)
		if err := s.Optimiser.Step(g.ValueGrads()); err != nil {
			t.Fatal(err)
		}
	}
	return objectives
}

func sameWeights(t *testing.T, a, b *Session, what string) {
	t.Helper()
	for _, spec := range a.Params.Specs() {
		if !slices.Equal(a.Params.Values(spec.Name), b.Params.Values(spec.Name)) {
			t.Errorf("%s: %s differs", what, spec.Name)
		}
	}
}

// train.shards = 1 is the unsharded step of before, bit for bit: the same
// objectives and weights over several Adam steps as running each batch on
// one graph of the whole batch, directly.
func TestOneShardIsTheWholeBatch(t *testing.T) {
	one, direct := shardSession(t, "train.shards=1"), shardSession(t)
	batches := shardBatches(t, one, 6)
	got := steps(t, one, batches)
	for i, b := range batches {
		g, err := model.NewGraph(direct.Params, direct.graphOptions(PaddedLength(b, direct.Config.Model.MaxLen)))
		if err != nil {
			t.Fatal(err)
		}
		out, err := g.Run(ModelBatch(b.Repadded(PaddedLength(b, direct.Config.Model.MaxLen))))
		if err == nil {
			err = direct.Optimiser.Step(g.ValueGrads())
		}
		g.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got[i] != out.Objective {
			t.Fatalf("step %d: objective %v with one shard, %v on the whole batch", i, got[i], out.Objective)
		}
	}
	sameWeights(t, one, direct, "one shard against the whole batch")
}

// Sharded training is deterministic: the gradients are summed in shard
// order, whichever goroutine finishes first, so two runs give the same
// weights bit for bit. Under -race this is also the race check of a sharded
// step (shared weights read by two tape machines at once).
func TestShardedTrainingIsDeterministic(t *testing.T) {
	a, b := shardSession(t, "train.shards=2"), shardSession(t, "train.shards=2")
	batches := shardBatches(t, a, 8)
	if x, y := steps(t, a, batches), steps(t, b, batches); !slices.Equal(x, y) {
		t.Errorf("objectives differ between two sharded runs:\n%v\n%v", x, y)
	}
	sameWeights(t, a, b, "two sharded runs")
}

// A sharded run stopped and resumed ends where the uninterrupted sharded run does.
func TestShardedRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("trains an epoch twice")
	}
	t.Parallel() // a long test (see smallCorpus)
	want, err := trainConfig(t, t.TempDir(), "train.epochs=1", "train.shards=2", smallCorpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Run(want.cfg, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 40}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("stop: %v, want ErrInterrupted", err)
	}
	if _, err := Resume(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	a, errA := checkpoint.Load(dir)
	b, errB := checkpoint.Load(want.dir)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.Meta.SHA256 != b.Meta.SHA256 || a.Meta.Config.Train.Shards != 2 {
		t.Errorf("resumed sharded run: weights %s, shards %d; uninterrupted: %s", a.Meta.SHA256[:12], a.Meta.Config.Train.Shards, b.Meta.SHA256[:12])
	}
}
