//go:build unix

package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A run folder another run holds is refused, to a new run and to a resume,
// with a message naming the process that holds it; two runs into one -out
// both used to write it, leaving files that disagreed.
func TestRunFolderIsHeldByOneRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 1}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("first run: %v, want it interrupted after a step", err)
	}
	held, err := lockFolder(dir) // as a run in another process holds it
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	self := "process " + strconv.Itoa(os.Getpid())
	_, errRun := Run(tinyConfig, Options{OutDir: dir})
	_, errResume := Resume(dir, Options{})
	for what, err := range map[string]error{"a new run": errRun, "a resume": errResume} {
		if !errors.Is(err, ErrFolderLocked) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), self) {
			t.Errorf("%s into a held folder: %v, want ErrFolderLocked naming %s and %s", what, err, dir, self)
		}
	}
	held.Close()
	if _, err := Resume(dir, Options{Context: &stopAfter{Context: context.Background(), n: 1}}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("resume once the folder is free: %v, want it to start (and be interrupted)", err)
	}
}

// staleTemps writes temporaries of the names WriteFileAtomic gives, dated an
// hour back, as writes killed midway leave them, and returns their paths.
func staleTemps(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	var paths []string
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("half a file"), 0o644); err != nil || os.Chtimes(path, old, old) != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// A run killed while it wrote its marker left only ..itformer-run.tmp-N:
// every later run into the folder was refused for good ("no .itformer-run
// marker says a run made it"). The folder counts as empty, and the run
// that claims it removes the temporary.
func TestKilledMarkerWriteLeavesAUsableFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	temps := staleTemps(t, dir, "."+MarkerName+".tmp-12345")
	if err := CheckOutDir(dir, false); err != nil {
		t.Fatalf("a folder holding only a marker's temporary: %v", err)
	}
	if _, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 1}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("run: %v, want it to start (and be interrupted)", err)
	}
	assertGone(t, temps...)
	if !isRunFolder(dir) {
		t.Error("the run left no marker")
	}
}

// Every temporary a killed write left in a run folder, whatever the file it
// was for, is removed by the next run there, new or resumed: the clean-up had
// known only the checkpoint's and the weights' names, and left
// .config.json.tmp-N and .epochs.jsonl.tmp-N in finished runs.
func TestNextRunRemovesEveryTemporary(t *testing.T) {
	t.Parallel() // a long test (see smallCorpus)
	names := []string{".config.json.tmp-1", ".epochs.jsonl.tmp-2", ".history.json.tmp-3", ".metrics.json.tmp-4",
		"resume/.checkpoint.json.tmp-5", "resume/.epochs.jsonl.tmp-6"}
	for _, resume := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "run")
		if _, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 1}}); !errors.Is(err, ErrInterrupted) {
			t.Fatalf("first run: %v", err)
		}
		temps := staleTemps(t, dir, names...)
		again := func() error {
			_, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 1}})
			return err
		}
		if resume {
			again = func() error {
				_, err := Resume(dir, Options{Context: &stopAfter{Context: context.Background(), n: 1}})
				return err
			}
		}
		if err := again(); !errors.Is(err, ErrInterrupted) {
			t.Fatalf("next run (resume: %v): %v", resume, err)
		}
		assertGone(t, temps...)
	}
}

func assertGone(t *testing.T, paths ...string) {
	t.Helper()
	for _, path := range paths {
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there (%v)", path, err)
		}
	}
}
