package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A run cancelled before training starts (Ctrl-C while the corpus and the
// graphs are built) stops without creating its folder, and a resumed run
// cancelled then leaves its folder as it was.
func TestCancelDuringSetup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(tinyConfig, Options{OutDir: dir, Context: ctx}); !errors.Is(err, ErrSetupInterrupted) {
		t.Errorf("Run with a cancelled context: %v, want ErrSetupInterrupted", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a run cancelled during setup created %s (stat: %v)", dir, err)
	}
	resumable := interruptedRun(t)
	ckPath := filepath.Join(resumable, "resume", "checkpoint.json")
	before, err := os.ReadFile(ckPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(resumable, Options{Context: ctx}); !errors.Is(err, ErrSetupInterrupted) {
		t.Errorf("Resume with a cancelled context: %v, want ErrSetupInterrupted", err)
	}
	if after, err := os.ReadFile(ckPath); err != nil || string(after) != string(before) {
		t.Errorf("a resume cancelled during setup changed %s (%v)", ckPath, err)
	}
}

// A graph build is one call that cannot be interrupted; cancellation returns
// at once and leaves it to finish, and release, in the background.
func TestCancellableReturnsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	released := make(chan int)
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, err := cancellable(ctx, func() (int, error) { time.Sleep(time.Second); return 7, nil }, func(v int) { released <- v })
	if !errors.Is(err, ErrSetupInterrupted) || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("cancellable returned %v after %v, want ErrSetupInterrupted at once", err, time.Since(start))
	}
	if v := <-released; v != 7 {
		t.Errorf("released %d, want the build's 7", v)
	}
	if v, err := cancellable(context.Background(), func() (int, error) { return 3, nil }, nil); v != 3 || err != nil {
		t.Errorf("uncancelled: %d, %v", v, err)
	}
}
