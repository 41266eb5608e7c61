package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/train"
)

func writeMetrics(t *testing.T, m train.Metrics) string {
	t.Helper()
	dir := t.TempDir()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDrawsTheChosenSets(t *testing.T) {
	bins := []train.Bin{{Lower: 0.95, Upper: 1, N: 50, Confidence: 0.99, Accuracy: 0.98}}
	m := train.Metrics{Test: train.Evaluation{ECE: 0.01, Reliability: bins},
		Challenges: []train.Challenge{{Name: "negation", Evaluation: train.Evaluation{Reliability: bins}}}}
	dir := writeMetrics(t, m)
	out := filepath.Join(t.TempDir(), "r.png")
	if err := run([]string{"-run", dir, "-out", out, "-sets", "test,negation"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no picture: %v", err)
	}
	err := run([]string{"-run", dir, "-out", out, "-sets", "nope"})
	if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), `no set "nope"`) {
		t.Errorf("unknown set: %v", err)
	}
}

func TestRefusesMetricsWithoutBins(t *testing.T) {
	dir := writeMetrics(t, train.Metrics{})
	err := run([]string{"-run", dir, "-out", filepath.Join(t.TempDir(), "r.png")})
	if err == nil || !strings.Contains(err.Error(), "no reliability bins") {
		t.Errorf("metrics without bins: %v", err)
	}
}

// A metrics.json whose bins are not shares (a damaged or hand-edited file) is
// refused with the set, the bin and the field at fault, instead of a picture
// with a point at accuracy 500% that the command said it wrote.
func TestRefusesBinsOutsideTheirRange(t *testing.T) {
	good := train.Bin{Lower: 0.95, Upper: 1, N: 50, Confidence: 0.99, Accuracy: 0.98}
	for _, tc := range []struct {
		name string
		bad  func(b *train.Bin)
		want string
	}{
		{"accuracy", func(b *train.Bin) { b.Accuracy = 5 }, "negation: reliability bin 2: accuracy 5 is not between 0 and 1"},
		{"confidence", func(b *train.Bin) { b.Confidence = -0.5 }, "negation: reliability bin 2: confidence -0.5 is not between 0 and 1"},
		{"count", func(b *train.Bin) { b.N = -3 }, "negation: reliability bin 2: n -3 is negative"},
		{"range", func(b *train.Bin) { b.Lower, b.Upper = 0.9, 0.2 }, "negation: reliability bin 2: its range 0.9 to 0.2 is not within 0 to 1, lower first"},
	} {
		bad := good
		tc.bad(&bad)
		m := train.Metrics{Test: train.Evaluation{Reliability: []train.Bin{good}},
			Challenges: []train.Challenge{{Name: "negation", Evaluation: train.Evaluation{Reliability: []train.Bin{good, bad}}}}}
		err := run([]string{"-run", writeMetrics(t, m), "-out", filepath.Join(t.TempDir(), "r.png"), "-sets", "test"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: run = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// -run takes the run folder or its checkpoint.json, as the other commands'
// -run does.
func TestRunFolderOrCheckpoint(t *testing.T) {
	bins := []train.Bin{{Lower: 0.95, Upper: 1, N: 50, Confidence: 0.99, Accuracy: 0.98}}
	dir := writeMetrics(t, train.Metrics{Test: train.Evaluation{ECE: 0.01, Reliability: bins}})
	ckpt := filepath.Join(dir, "checkpoint.json")
	if err := os.WriteFile(ckpt, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, runPath := range []string{dir, ckpt} {
		out := filepath.Join(t.TempDir(), "r.png")
		if err := run([]string{"-run", runPath, "-out", out}); err != nil {
			t.Errorf("-run %s: %v", runPath, err)
		}
	}
}

// A -run that is a file other than checkpoint.json or metrics.json is refused
// by name: it had been read as its folder, "open /dev/metrics.json: no such
// file or directory". metrics.json itself is read.
func TestRunIsAFolderOrItsCheckpoint(t *testing.T) {
	bins := []train.Bin{{Lower: 0.95, Upper: 1, N: 50, Confidence: 0.99, Accuracy: 0.98}}
	dir := writeMetrics(t, train.Metrics{Test: train.Evaluation{ECE: 0.01, Reliability: bins}})
	other := filepath.Join(dir, "config.json") // a file beside metrics.json, so only the check refuses it
	if err := os.WriteFile(other, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, runPath := range []string{other, "/dev/null"} {
		err := run([]string{"-run", runPath, "-out", filepath.Join(t.TempDir(), "r.png")})
		want := "-run " + runPath + ": not a run folder, its checkpoint.json or its metrics.json"
		if err == nil || err.Error() != want {
			t.Errorf("-run %s: %v, want %q", runPath, err, want)
		}
	}
	if err := run([]string{"-run", filepath.Join(dir, "metrics.json"), "-out", filepath.Join(t.TempDir(), "r.png")}); err != nil {
		t.Errorf("-run of metrics.json itself: %v", err)
	}
}

// -out is checked before metrics.json is read, with the flag named.
func TestOutIsChecked(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ out, want string }{
		{filepath.Join(dir, "r.txt"), `: the extension ".txt" names no picture format (use .png, .svg or .pdf)`},
		{dir, "-out " + dir + ": it is a folder, not a file"},
		{filepath.Join(dir, "no", "r.png"), "there is no folder " + filepath.Join(dir, "no") + " to write it in"},
	} {
		err := run([]string{"-run", filepath.Join(dir, "no-run"), "-out", tc.out})
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "-out "+tc.out) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-out %s: %v, want a usage mistake naming it and saying %q", tc.out, err, tc.want)
		}
	}
}

// A flag's mistake names the flag: -out "" had said
// `drawing : : the extension "" names no picture format`.
func TestFlagMistakes(t *testing.T) {
	dir := writeMetrics(t, train.Metrics{})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-run", dir, "-out", ""}, `-out "": the value is empty`},
		{[]string{"-run", ""}, `-run "": the value is empty`},
		{nil, "give the run folder with -run"},
		{[]string{"-run", dir, "extra"}, `unexpected argument "extra"`},
	} {
		err := run(c.args)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}
