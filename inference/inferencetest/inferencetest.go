// Package inferencetest makes checkpoints for tests of the inference path.
package inferencetest

import (
	"testing"

	"itformer/checkpoint"
	"itformer/model"
)

// HugeWeights writes a checkpoint like base (same config and vocabulary)
// whose every weight is 1e308, and returns its folder. The weights are finite,
// so the checkpoint loads, but the model's outputs overflow to NaN: the kind
// of broken model the inference path must refuse to answer with.
func HugeWeights(tb testing.TB, base *checkpoint.Checkpoint) string {
	tb.Helper()
	p, err := model.NewParams(base.Meta.Model, 1)
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range p.Specs() {
		huge := make([]float64, len(p.Values(s.Name)))
		for i := range huge {
			huge[i] = 1e308
		}
		if err := p.SetValues(s.Name, huge); err != nil {
			tb.Fatal(err)
		}
	}
	return save(tb, base, p)
}

// save writes p with base's meta as a model of one member (a folder of its
// own has no members/ beside it) and returns its folder.
func save(tb testing.TB, base *checkpoint.Checkpoint, p *model.Params) string {
	tb.Helper()
	meta := base.Meta
	meta.Config.Train.Members = 0
	dir := tb.TempDir()
	if err := checkpoint.Save(dir, meta, p); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// FreshWeights writes a checkpoint like base (same config and vocabulary)
// with the untrained weights model.NewParams draws for seed, and returns its
// folder: a model that reads the same words and answers at random.
func FreshWeights(tb testing.TB, base *checkpoint.Checkpoint, seed int64) string {
	tb.Helper()
	p, err := model.NewParams(base.Meta.Model, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return save(tb, base, p)
}
