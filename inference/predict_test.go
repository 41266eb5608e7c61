package inference

import (
	"reflect"
	"testing"

	"itformer/checkpoint"
)

// defaultPredictor is a fresh Predictor for the embedded default model.
func defaultPredictor(t *testing.T) *Predictor {
	t.Helper()
	ck, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		t.Fatal(err)
	}
	return New(ck)
}

// Resolve keeps one graph per sentence length and reuses its buffers: the
// answers must not depend on what ran before. Sentences of the same length
// alternate on one checkpoint and are compared with a fresh checkpoint's.
func TestCachedGraphsGiveFreshAnswers(t *testing.T) {
	shared := defaultPredictor(t)
	sentences := []string{
		"A dog ate the food because it was hungry", "A dog ate the food because it was tasty",
		"The cat chased the mouse because it was hungry", "A dog ate the food because it was hungry",
	}
	for _, s := range sentences {
		want, err := defaultPredictor(t).Resolve(s)
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
