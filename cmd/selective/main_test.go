package main

import (
	"reflect"
	"strings"
	"testing"

	"itformer/data"
	"itformer/inference"
)

func TestSplitSumsUpEachPart(t *testing.T) {
	examples := []data.Example{{Frame: "eat"}, {Frame: "catch", Negated: true}, {Frame: "eat", Outcome: data.Failed}}
	scored := []inference.Scored{{Right: true}, {Right: false, Guess: true}, {Right: false}}
	for _, tc := range []struct {
		by   string
		want []inference.Selective
	}{
		{"frame", []inference.Selective{{Name: "catch", N: 1}, {Name: "eat", N: 2, Accuracy: 0.5, Coverage: 1, SelectiveAccuracy: 0.5}}},
		{"flips", []inference.Selective{{Name: "0", N: 1, Accuracy: 1, Coverage: 1, SelectiveAccuracy: 1}, {Name: "1", N: 2, Coverage: 0.5}}},
	} {
		if got := split(examples, scored, groupings[tc.by]); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("-by %s: %+v, want %+v", tc.by, got, tc.want)
		}
	}
}

func TestAnUnknownSplitIsAMistake(t *testing.T) {
	var out, errs strings.Builder
	err := run([]string{"-by", "colour"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), `-by "colour": split by one of flips, frame, shape`) {
		t.Errorf("-by colour: %v", err)
	}
}
