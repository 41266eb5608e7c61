package configs

import (
	"reflect"
	"strings"
	"testing"

	"itformer/config"
	"itformer/data"
)

// The built-in configs are the files beside this one, and all of them parse.
func TestBuiltInConfigsAreTheFiles(t *testing.T) {
	for _, name := range []string{Default, "tiny.json"} {
		got, err := Load(name, "train.epochs=3")
		if err != nil {
			t.Fatal(err)
		}
		want, err := config.Load(name, "train.epochs=3")
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: built in %+v, on disk %+v (%v)", name, got, want, err)
		}
	}
	if _, err := Load("nosuch.json"); err == nil || !strings.Contains(err.Error(), "configs/nosuch.json") {
		t.Errorf("Load(nosuch.json) = %v", err)
	}
	if _, err := Load(Default, "model.nope=1"); err == nil || !strings.Contains(err.Error(), "with the override model.nope=1: unknown key model.nope") {
		t.Errorf("a bad override: %v", err)
	}
}

// The corpus the default model is trained on (its data.seed and
// data.train_size, not the data package's default size) leaves every
// one-feature shortcut near chance: at most 60% on its own training
// sentences and 55% on every challenge set, the meaning issue's bounds.
// How a shortcut scores swings a few points with the size of the draw (the
// worst on any challenge set, seed 1, today's lexicon: 54.4% at 48,000
// sentences, 54.2% at 52,000, 53.9% at 56,000, 54.8% at 60,000; the lexicon
// before it, 55.6% at 56,000), so a new size must pass here.
func TestDefaultCorpusShortcutsAtChance(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the default corpus")
	}
	run, err := Load(Default)
	if err != nil {
		t.Fatal(err)
	}
	c, err := data.GenerateSized(run.Data.Seed, run.Data.TrainSize)
	if err != nil {
		t.Fatal(err)
	}
	if s := data.Baselines(c.Train, c.Train).Shortcut(); s > 0.60 {
		t.Errorf("on its training data the best shortcut scores %.3f, want <= 0.60", s)
	}
	for _, ch := range c.Challenges {
		if s := data.Baselines(c.Train, ch.Examples); s.Shortcut() > 0.55 {
			t.Errorf("%s: the best shortcut scores %.3f, want <= 0.55 (%s)", ch.Name, s.Shortcut(), s)
		}
	}
}
