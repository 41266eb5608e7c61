package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/config"
)

// interruptedRun is a tiny run stopped after a few steps: it has a resumable checkpoint.
func interruptedRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 3}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run: %v, want ErrInterrupted", err)
	}
	return dir
}

// An edited config.json is refused by name; resume runs what was started.
func TestResumeRefusesEditedConfig(t *testing.T) {
	dir := interruptedRun(t)
	path := filepath.Join(dir, "config.json")
	for _, tc := range []struct{ set, want string }{
		{"train.epochs=20", fmt.Sprintf("config.json's train.epochs is 20 but the run was started with %d; resume runs what was started", tinyConfig.Train.Epochs)},
		{"model.dtype=float32", `config.json's model.dtype is "float32" but the run was started with "float64"`},
	} {
		edited, err := config.Load(path, tc.set)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, edited.JSON(), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Resume(dir, Options{Context: &stopAfter{Context: context.Background()}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resume after -set %s: %v\nwant %q", tc.set, err, tc.want)
		}
		if err := os.WriteFile(path, tinyConfig.JSON(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A folder with nothing to resume gets a message that says why.
func TestResumeSaysWhyNot(t *testing.T) {
	t.Parallel() // a long test (see smallCorpus)

	failed := filepath.Join(t.TempDir(), "failed") // a numerical fault in epoch 1: no resumable checkpoint
	cfg := tinyConfig
	cfg.Train.LearningRate = 1e30
	if _, err := Run(cfg, Options{OutDir: failed}); !errors.Is(err, ErrNumerical) {
		t.Fatalf("Run with learning rate 1e30: %v, want ErrNumerical", err)
	}
	noMetrics := copyRun(t, referenceRun(t).dir) // finished, then its metrics.json deleted
	if err := os.Remove(filepath.Join(noMetrics, "metrics.json")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir       string
		sentinel  error
		wantWords string
	}{
		{referenceRun(t).dir, ErrRunFinished, "finished (metrics.json is written); there is nothing to resume"},
		{noMetrics, ErrRunFinished, "finished (epochs.jsonl logs epoch 2 of 2, and checkpoint.json holds the best model) but its metrics.json, the closing figures, is missing"},
		{failed, ErrNoResumeCheckpoint, "has no resumable checkpoint: it stopped before the first one was saved"},
		{t.TempDir(), ErrNotRunFolder, "is not a run folder"},
		{filepath.Join(t.TempDir(), "missing"), os.ErrNotExist, "does not exist"},
	} {
		_, err := Resume(tc.dir, Options{})
		if !errors.Is(err, tc.sentinel) || !strings.Contains(err.Error(), tc.dir+" "+tc.wantWords) {
			t.Errorf("Resume(%s): %v\nwant %v saying %q", tc.dir, err, tc.sentinel, tc.dir+" "+tc.wantWords)
		}
	}
}

// stoppedAfter is a run of tiny.json's model on the small corpus, with
// overrides, stopped after n steps: resumable, its folder holds every file.
func stoppedAfter(t *testing.T, n int, overrides ...string) string {
	t.Helper()
	cfg, err := config.Load("../configs/tiny.json", append([]string{"train.epochs=3", smallCorpus}, overrides...)...)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(cfg, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: n}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run: %v, want ErrInterrupted", err)
	}
	return dir
}

// copyRun copies the run folder src to a new folder.
func copyRun(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// replaceFiles replaces dst's files and folders that match each pattern
// (filepath.Match) with src's.
func replaceFiles(t *testing.T, dst, src string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		old, _ := filepath.Glob(filepath.Join(dst, p))
		for _, f := range old {
			if err := os.RemoveAll(f); err != nil {
				t.Fatal(err)
			}
		}
		theirs, _ := filepath.Glob(filepath.Join(src, p))
		for _, f := range theirs {
			to := filepath.Join(dst, filepath.Base(f))
			st, err := os.Stat(f)
			if err == nil && st.IsDir() {
				err = os.CopyFS(to, os.DirFS(f))
			} else if err == nil {
				err = os.WriteFile(to, readFile(t, f), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A resume whose folder holds another run's files, or lacks its history,
// is refused before the first step, naming the file, with the folder as it
// was: the files of run B (wider) in run A had trained all of A's epochs
// into a foreign checkpoint, or into a log and history of two runs, and a
// missing history.json had been written again with a gap.
func TestResumeRefusesAnotherRunsFiles(t *testing.T) {
	t.Parallel()              // a long test (see smallCorpus)
	a := stoppedAfter(t, 250) // in epoch 2; epoch 1 is the best so far
	b := stoppedAfter(t, 250, "model.d_model=16", "model.d_ff=32")
	for _, tc := range []struct {
		name      string
		theirs    []string // A's files replaced by B's
		remove    string
		noHistory bool
		want      string // in the refusal, after A's folder; "": resumed
	}{
		{"A itself", nil, "", false, ""},
		{"B's best checkpoint", []string{"checkpoint.json", "weights-*"}, "", false, "checkpoint.json's config has model.d_ff 32 but config.json has 64"},
		{"B's resume/ and config.json", []string{"resume", "config.json"}, "", false, "checkpoint.json's config has model.d_ff 64 but config.json has 32"},
		{"B's epoch log", []string{"epochs.jsonl"}, "", false, "epochs.jsonl's epoch 1 (validation accuracy"},
		{"no history", nil, "history.json", false, "history.json is missing"},
		{"no history, resumed without one", nil, "history.json", true, ""},
	} {
		dir := copyRun(t, a)
		replaceFiles(t, dir, b, tc.theirs...)
		if tc.remove != "" {
			os.Remove(filepath.Join(dir, tc.remove))
		}
		log, resume := readFile(t, filepath.Join(dir, "epochs.jsonl")), readFile(t, filepath.Join(dir, "resume", "checkpoint.json"))
		_, err := Resume(dir, Options{NoHistory: tc.noHistory, Context: &stopAfter{Context: context.Background()}})
		if tc.want == "" {
			if !errors.Is(err, ErrInterrupted) {
				t.Errorf("%s: %v, want it resumed (and stopped at once)", tc.name, err)
			}
			continue
		}
		if want := filepath.Join(dir, tc.want); !errors.Is(err, ErrInconsistentRun) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant ErrInconsistentRun saying %q", tc.name, err, want)
		}
		if !bytes.Equal(readFile(t, filepath.Join(dir, "epochs.jsonl")), log) || !bytes.Equal(readFile(t, filepath.Join(dir, "resume", "checkpoint.json")), resume) {
			t.Errorf("%s: refused, but it changed epochs.jsonl or resume/", tc.name)
		}
	}
}
