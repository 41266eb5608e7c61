package train

import (
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
	for _, tc := range []struct {
		dir       string
		sentinel  error
		wantWords string
	}{
		{referenceRun(t).dir, ErrRunFinished, "finished (metrics.json is written); there is nothing to resume"},
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
