package main

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/data"
	"itformer/inference"
)

func TestSplitSumsUpEachPart(t *testing.T) {
	examples := []data.Example{{Frame: "eat"}, {Frame: "catch", Negated: true}, {Frame: "eat", Outcome: data.Failed, Concessive: true}}
	scored := []inference.Scored{{Right: true}, {Right: false, Guess: true}, {Right: false}}
	for _, tc := range []struct {
		by   string
		want []inference.Selective
	}{
		{"frame", []inference.Selective{{Name: "catch", N: 1}, {Name: "eat", N: 2, Accuracy: 0.5, Coverage: 1, SelectiveAccuracy: 0.5}}},
		{"flips", []inference.Selective{{Name: "0", N: 1, Accuracy: 1, Coverage: 1, SelectiveAccuracy: 1}, {Name: "1", N: 1, Coverage: 0}, {Name: "2", N: 1, Coverage: 1}}},
		{"frame,concession", []inference.Selective{{Name: "catch/explains", N: 1}, {Name: "eat/concedes", N: 1, Coverage: 1}, {Name: "eat/explains", N: 1, Accuracy: 1, Coverage: 1, SelectiveAccuracy: 1}}},
	} {
		key, err := groupingKey(tc.by)
		if err != nil {
			t.Fatalf("-by %s: %v", tc.by, err)
		}
		if got := split(examples, scored, key); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("-by %s: %+v, want %+v", tc.by, got, tc.want)
		}
	}
}

func TestMistakesNameTheFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-by", "colour"}, `-by "colour": "colour" is no part to split by; give one or more of concession, flips, frame, shape, comma-separated`},
		{[]string{"-by", "shape,,frame"}, `-by "shape,,frame": "" is no part to split by`},
		{[]string{"-misses", "-1"}, `-misses -1: give how many wrong sentences to print per set, 0 or more`},
		{[]string{"-by", "shape, shape"}, `-by "shape, shape": "shape" is named twice; name each part once`},
		{[]string{"-member", "4", "-sets", "negation"}, `-member 4: the model has 3 member(s), 1 to 3 (0 asks them all)`},
		{[]string{"-temperature", "-sets", "negation"}, `-temperature scales one model's shares, and this model has 3 members; give -member K`},
	} {
		var out, errs strings.Builder
		if err := run(tc.args, &out, &errs); !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage mistake saying %s", tc.args, err, tc.want)
		}
	}
}

func TestWrongKeepsTheFirstNMisses(t *testing.T) {
	examples := []data.Example{
		{Text: "a", Tokens: []string{"dog", "food"}, Antecedent: 0},
		{Text: "b", Tokens: []string{"dog", "food"}, Antecedent: 1},
		{Text: "c", Tokens: []string{"dog", "food"}, Antecedent: 0},
		{Text: "d", Tokens: []string{"dog", "food"}, Antecedent: 1},
	}
	scored := []inference.Scored{{Right: true}, {Score: 0.9}, {Guess: true, Score: 0.6}, {Score: 0.7}}
	want := []inference.Miss{{Text: "b", Right: "food", Share: 0.9}, {Text: "c", Right: "dog", Guess: true, Share: 0.6}}
	if got := wrong(examples, scored, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("wrong(…, 2) = %+v, want %+v", got, want)
	}
	if got := wrong(examples, scored, 0); got != nil {
		t.Errorf("wrong(…, 0) = %+v, want none", got)
	}
}

// -plot is checked before the sets are evaluated, which takes half a minute:
// `-plot x.txt` had been refused only at the end. The -run that does not
// exist would fail first if -plot were not checked at once.
func TestPlotIsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	noRun := filepath.Join(dir, "no-run")
	for _, tc := range []struct{ plot, want string }{
		{"x.txt", `-plot x.txt: the extension ".txt" names no picture format (use .png, .svg or .pdf)`},
		{dir, "-plot " + dir + ": it is a folder, not a file"},
		{filepath.Join(dir, "no", "x.png"), "there is no folder " + filepath.Join(dir, "no") + " to write it in"},
	} {
		var out, errs strings.Builder
		err := run([]string{"-run", noRun, "-plot", tc.plot}, &out, &errs)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-plot %s: %v, want a usage mistake saying %s", tc.plot, err, tc.want)
		}
	}
}
