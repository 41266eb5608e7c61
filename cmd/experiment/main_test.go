package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"itformer/cmd/internal/cli"
	"itformer/config"
)

// A shipped experiment is found from any directory, by its name or by its
// path in the repository, in the configs built into the binary.
func TestShippedExperimentByName(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, arg := range []string{"scaling", "scaling.json", "configs/experiments/scaling.json"} {
		e, err := loadExperiment(arg)
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if e.Name != "scaling" || e.Path != "configs/experiments/scaling.json" || len(e.Variants) != 2 {
			t.Errorf("%s: loaded %s (%s) with %d variants", arg, e.Name, e.Path, len(e.Variants))
		}
	}
	_, err := loadExperiment("nosuch")
	if err == nil || !strings.Contains(err.Error(), "nosuch") || !strings.Contains(err.Error(), "heads, layers, positions, scaling, supervision") {
		t.Errorf("an unknown experiment: %v, want its name and the shipped ones", err)
	}
}

// tinyExperiment writes a one-run experiment of one epoch on 6,000 sentences
// into the current directory.
func tinyExperiment(t *testing.T, base string) string {
	t.Helper()
	body := `{"description": "test", "base": "` + base + `", "set": ["train.epochs=1", "data.train_size=6000"], "seeds": [1],
		"variants": [{"name": "one", "set": []}]}`
	if err := os.WriteFile("tinyexp.json", []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return "tinyexp.json"
}

// By default the results go to a new folder under runs/, not over the
// tracked files in docs/; -docs writes docs/experiments/NAME/, and only
// where that folder exists (the repository root).
func TestResultsGoToRunsUnlessDocs(t *testing.T) {
	base, err := filepath.Abs("../../configs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	exp := tinyExperiment(t, base)
	if err := os.MkdirAll("docs/experiments", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := run(t.Context(), []string{"-workers", "1", exp}); err != nil {
		t.Fatal(err)
	}
	if found, _ := filepath.Glob("runs/experiment-tinyexp-*/results.md"); len(found) != 1 {
		t.Errorf("results in runs/: %q, want one runs/experiment-tinyexp-TIME/results.md", found)
	}
	if _, err := os.Stat("docs/experiments/tinyexp"); !os.IsNotExist(err) {
		t.Errorf("without -docs the experiment wrote docs/experiments/tinyexp (%v)", err)
	}
	if err := run(t.Context(), []string{"-workers", "1", "-docs", exp}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("docs/experiments/tinyexp/results.md"); err != nil {
		t.Errorf("-docs: %v", err)
	}
	os.RemoveAll("docs")
	if err := run(t.Context(), []string{"-docs", exp}); err == nil || !strings.Contains(err.Error(), "repository root") {
		t.Errorf("-docs outside the repository: %v", err)
	}
	if err := run(t.Context(), []string{"-docs", "-out", "x", exp}); !errors.Is(err, cli.ErrUsage) {
		t.Errorf("-docs with -out: %v, want a usage mistake", err)
	}
}

// Mistakes are refused before any run trains: a negative -workers, an -out
// that is a file or another program's folder (whose files of the same names
// the results would replace), a -runs that is not a folder, and more
// -workers than fit in -max-memory together; nothing is written there.
func TestRefusedBeforeTraining(t *testing.T) {
	base, err := filepath.Abs("../../configs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	exp := tinyExperiment(t, base)
	twoRuns := `{"description": "test", "base": "` + base + `", "set": ["train.epochs=1", "data.train_size=3000"], "seeds": [1, 2],
		"variants": [{"name": "one", "set": []}]}`
	old := config.MaxMemory
	t.Cleanup(func() { config.MaxMemory = old }) // -max-memory sets it
	for name, content := range map[string]string{"tworuns.json": twoRuns, "foreign/notes.txt": "mine", "foreign/results.md": "mine too", "afile": "x"} {
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"-workers", "-1", exp}, "-workers -1: give the number of runs at a time", true},
		{[]string{"-out", "foreign", exp}, "refusing to write the results into foreign: it holds notes.txt", false},
		{[]string{"-out", "afile", exp}, "results folder afile", false},
		{[]string{"-runs", "afile", exp}, "-runs afile: it is not a folder", true},
		{[]string{"-runs", "afile/runs", exp}, "-runs afile/runs: afile is not a folder", true},
		// One run of tiny.json is estimated at about 993 MB: one fits in the limit, two at once do not.
		{[]string{"-max-memory", "1500MB", "-workers", "2", "tworuns.json"}, "-workers 2 would train 2 runs at once, each estimated to need up to", false},
	} {
		err := run(t.Context(), tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, cli.ErrUsage) != tc.usage {
			t.Errorf("%q: %v, want %q (usage mistake: %v)", tc.args, err, tc.want, tc.usage)
		}
	}
	if b, _ := os.ReadFile("foreign/results.md"); string(b) != "mine too" {
		t.Errorf("foreign/results.md is now %q", b)
	}
	if _, err := os.Stat("runs"); err == nil {
		t.Error("a refused experiment made runs/")
	}
}

// Ctrl-C (a cancelled context) while a run trains stops it and starts no
// other: no results are written, the temporary runs folder is removed, and
// the error is an interruption (exit status 130) that says so.
func TestInterruptedRemovesTheRunsFolder(t *testing.T) {
	base, err := filepath.Abs("../../configs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	body := `{"description": "test", "base": "` + base + `", "set": ["train.epochs=3", "data.train_size=6000"], "seeds": [1, 2],
		"variants": [{"name": "one", "set": []}]}`
	if err := os.WriteFile("twoseeds.json", []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { // the first run's folder is made once its setup is done
		defer cancel()
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if found, _ := filepath.Glob(filepath.Join(tmp, "itformer-experiment-*", "one-seed1")); len(found) > 0 {
				return
			}
		}
	}()
	err = run(ctx, []string{"-workers", "1", "-out", "results", "twoseeds.json"})
	want := " of 2 runs finished; no results were written to results, and the runs' temporary folder was removed"
	if !errors.Is(err, cli.ErrInterrupted) || !strings.HasPrefix(err.Error(), "interrupted with ") || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("interrupted: %v, want \"interrupted with N%s\"", err, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left %s in TMPDIR", left[0].Name())
	}
	if _, err := os.Stat("results"); !os.IsNotExist(err) {
		t.Errorf("an interrupted experiment made its -out folder (%v)", err)
	}
}
