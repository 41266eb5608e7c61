package defaultmodel

import (
	"reflect"
	"testing"

	"itformer/train"
)

// The embedded model must be the one `go run ./cmd/train` makes from
// configs/default.json: retrain it (see the package doc) whenever that file changes.
func TestEmbeddedModelMatchesDefaultConfig(t *testing.T) {
	ck, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	want, err := train.LoadConfig("../../../configs/default.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ck.Meta.Config, want) {
		t.Fatalf("embedded model was trained with\n%s\nbut configs/default.json is\n%s", ck.Meta.Config.JSON(), want.JSON())
	}
}

// Resolve keeps one graph per sentence length and reuses its buffers: the
// answers must not depend on what ran before. Sentences of the same length
// alternate on one checkpoint and are compared with a fresh checkpoint's.
func TestCachedGraphsGiveFreshAnswers(t *testing.T) {
	shared, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	sentences := []string{
		"A dog ate the food because it was hungry", "A dog ate the food because it was tasty",
		"The cat chased the mouse because it was hungry", "A dog ate the food because it was hungry",
	}
	for _, s := range sentences {
		fresh, err := Load()
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := shared.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := shared.Trace(s); err != nil { // a traced run in between
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: the reused graph answered\n%+v\na fresh one\n%+v", s, got.Predictions[0], want.Predictions[0])
		}
	}
}
