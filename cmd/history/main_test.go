package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/history"
)

// runWithHistory writes h as a run folder's history.json and runs the command on it.
func runWithHistory(t *testing.T, h *history.History, args ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	js, err := h.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, history.FileName), js, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = run(append([]string{"-run", dir}, args...), &out)
	return out.String(), err
}

func twoPoints() *history.History {
	h := history.New(1, 2, [2]int{0, 1}, 10, []history.Probe{{Name: "mission", Text: "a dog it",
		Tokens: []string{"a", "dog", "it"}, Pronoun: 2, Antecedent: 1, Candidates: [2]int{0, 1}}})
	h.Add(history.Point{Step: 0, Readings: []history.Reading{{Attention: [][][]float64{{{0.5, 0.2, 0.3}, {0.6, 0.3, 0.1}}},
		CandidateProbabilities: [2]float64{0.6, 0.4}}}})
	h.Add(history.Point{Step: 10, Epoch: 1, Readings: []history.Reading{{Attention: [][][]float64{{{0.5, 0.2, 0.3}, {0.02, 0.97, 0.01}}},
		CandidateProbabilities: [2]float64{0.01, 0.99}}}})
	return h
}

func TestTableAndStrip(t *testing.T) {
	png := filepath.Join(t.TempDir(), "strip.png")
	out, err := runWithHistory(t, twoPoints(), "-out", png, "-points", "0,1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`L1 H2 is the head trained to point from "it" to its antecedent`,
		"before training       0     40.0%           30.0%  a 60%",
		"epoch 1              10     99.0%           97.0%  dog 97%",
		"wrote " + png,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("no strip written: %v", err)
	}
}

// -out must name a PNG, in a folder that exists, before anything is read:
// -out strip.txt had written a PNG named strip.txt, where reliability -out
// refuses the name.
func TestOutIsAPNG(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ out, want string }{
		{filepath.Join(dir, "strip.txt"), `: the extension ".txt" names no picture format (use .png)`},
		{filepath.Join(dir, "strip.svg"), `: the extension ".svg" names no picture format (use .png)`},
		{dir, "-out " + dir + ": it is a folder, not a file"},
		{filepath.Join(dir, "no", "strip.png"), "there is no folder " + filepath.Join(dir, "no") + " to write it in"},
	} {
		_, err := runWithHistory(t, twoPoints(), "-out", tc.out)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-out %s: %v, want a usage mistake saying %q", tc.out, err, tc.want)
		}
		if st, err := os.Stat(tc.out); err == nil && !st.IsDir() {
			t.Errorf("%s was written", tc.out)
		}
	}
}

func TestUsageMistakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-probe", "nope"}, `no probe "nope"; the history has "mission"`},
		{[]string{"-points", "0,0.5"}, "no point at epoch 0.5 (step 5); the history has 0, 1"},
		{[]string{"-points", "x"}, `"x" is not a number of epochs`},
		{[]string{"-points", "NaN"}, `"NaN" is not a number of epochs`},
		{[]string{"-points", "1,-Inf"}, `"-Inf" is not a number of epochs`},
		{[]string{"-points", "1e300"}, "no point at epoch 1e300; the history has 0, 1"},
		{[]string{"-points", "-1"}, "no point at epoch -1; the history has 0, 1"},
		// The table always lists every point: -points alone would do nothing.
		{[]string{"-points", "0,1"}, "-points picks the picture's points; give -out FILE.png too"},
	} {
		_, err := runWithHistory(t, twoPoints(), tc.args...)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want a usage mistake saying %q", tc.args, err, tc.want)
		}
	}
	empty := twoPoints()
	empty.Points = nil
	if _, err := runWithHistory(t, empty); err == nil || !strings.Contains(err.Error(), "records no point of training") {
		t.Errorf("a history without points: %v, want an error saying so", err)
	}
	var out bytes.Buffer
	if err := run([]string{"-run", t.TempDir()}, &out); err == nil || !strings.Contains(err.Error(), history.FileName) {
		t.Errorf("a run without history.json: %v, want an error naming it", err)
	}
}
