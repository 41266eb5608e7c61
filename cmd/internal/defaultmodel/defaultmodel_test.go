package defaultmodel

import (
	"errors"
	"io/fs"
	"reflect"
	"testing"

	"itformer/configs"
	"itformer/model"
	"itformer/train"
)

// The embedded model must be the one `go run ./cmd/train` makes from
// configs/default.json, which train reads built in (package configs): retrain
// it (see the package doc) whenever that file changes.
func TestEmbeddedModelMatchesDefaultConfig(t *testing.T) {
	ck, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want, err := configs.Load(configs.Default)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ck.Meta.Config, want) {
		t.Fatalf("embedded model was trained with\n%s\nbut configs/default.json is\n%s", ck.Meta.Config.JSON(), want.JSON())
	}
}

// README regenerates the model with `go run ./cmd/train -out
// cmd/internal/defaultmodel/model`: the folder must stay a run folder, or
// train refuses to write there.
func TestModelFolderIsARunFolder(t *testing.T) {
	if err := train.CheckOutDir("model", false); err != nil {
		t.Fatal(err)
	}
}

// The embedded history, once the model is retrained with it, describes this
// model: its sizes, its supervised head, and every epoch of its config.
func TestEmbeddedHistoryFitsTheModel(t *testing.T) {
	h, err := History()
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("the embedded model has no history.json yet: retrain it (see the package doc)")
	}
	if err != nil {
		t.Fatal(err)
	}
	ck, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	m, cfg := ck.Meta.Model, ck.Meta.Config
	sl, sh := model.SupervisedHead(m)
	if h.Layers != m.Layers || h.Heads != m.Heads || h.SupervisedLayer != sl || h.SupervisedHead != sh {
		t.Errorf("history of %d x %d heads, supervised (%d, %d); the model has %d x %d, (%d, %d)",
			h.Layers, h.Heads, h.SupervisedLayer, h.SupervisedHead, m.Layers, m.Heads, sl, sh)
	}
	if last := h.Points[len(h.Points)-1]; last.Step != cfg.Train.Epochs*h.StepsPerEpoch {
		t.Errorf("the last point is at step %d, want the end of epoch %d (%d)", last.Step, cfg.Train.Epochs, cfg.Train.Epochs*h.StepsPerEpoch)
	}
	if _, _, ok := h.Probe("mission"); !ok {
		t.Error("the history has no mission probe")
	}
}

// The embedded members are the default config's members 2..K: the same
// recipe with seed + k - 1, as train.MemberConfig makes them.
func TestEmbeddedMembersAreTheConfigsMembers(t *testing.T) {
	ck, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	members, err := Members(ck)
	if err != nil {
		t.Fatal(err)
	}
	if len(members) != ck.Meta.Config.Train.MemberCount()-1 {
		t.Fatalf("%d members embedded beside member 1, want %d", len(members), ck.Meta.Config.Train.MemberCount()-1)
	}
	for i, m := range members {
		if want := train.MemberConfig(ck.Meta.Config, i+2); !reflect.DeepEqual(m.Meta.Config, want) {
			t.Errorf("member %d was trained with\n%s\nwant\n%s", i+2, m.Meta.Config.JSON(), want.JSON())
		}
	}
}
