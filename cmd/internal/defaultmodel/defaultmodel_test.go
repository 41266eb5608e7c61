package defaultmodel

import (
	"reflect"
	"testing"

	"itformer/configs"
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
