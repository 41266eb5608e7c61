package train

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"itformer/internal/gobuild"

	"itformer/checkpoint"
	"itformer/history"
	"itformer/model"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// stopAfter is a context whose Err turns to Canceled after n calls: the
// trainer asks once per batch, so the run stops after exactly n more steps.
type stopAfter struct {
	context.Context
	mu sync.Mutex
	n  int
}

func (c *stopAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

var reference struct {
	once sync.Once
	dir  string
	run  *trainedRun
	err  error
}

// referenceRun is an uninterrupted two-epoch run of tiny.json's model on the
// small corpus, shared by the resume tests and TestRun.
func referenceRun(t *testing.T) *trainedRun {
	t.Helper()
	reference.once.Do(func() {
		reference.dir, reference.err = os.MkdirTemp("", "itformer-reference-")
		if reference.err != nil {
			return
		}
		reference.run, reference.err = trainConfig(t, reference.dir, "train.epochs=2", smallCorpus)
	})
	if reference.err != nil {
		t.Fatal(reference.err)
	}
	return reference.run
}

// assertSameRun: same logged figures (bit patterns, timings aside), same weights, same metrics.
func assertSameRun(t *testing.T, dir string, want *trainedRun, got *Metrics) {
	t.Helper()
	epochs := readEpochs(t, filepath.Join(dir, "epochs.jsonl"))
	if len(epochs) != len(want.epochs) {
		t.Fatalf("resumed run logged %d epochs, the uninterrupted one %d", len(epochs), len(want.epochs))
	}
	for i := range epochs {
		if comparable(epochs[i]) != comparable(want.epochs[i]) {
			t.Errorf("epoch %d differs from the uninterrupted run:\n%+v\n%+v", i+1, epochs[i], want.epochs[i])
		}
	}
	a, errA := checkpoint.Load(dir)
	b, errB := checkpoint.Load(want.dir)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a.Meta.SHA256 != b.Meta.SHA256 {
		t.Errorf("resumed run's weights %s differ from the uninterrupted run's %s", a.Meta.SHA256[:12], b.Meta.SHA256[:12])
	}
	m, w := *got, *want.metrics
	m.TrainSeconds, m.SentencesPerSecond, w.TrainSeconds, w.SentencesPerSecond = 0, 0, 0, 0
	if !reflect.DeepEqual(m, w) {
		t.Errorf("metrics differ:\n%+v\n%+v", m, w)
	}
	// The history too: a resumed run keeps the points recorded before the
	// stop and records the rest, at the same steps, with the same numbers.
	if a, b := readFile(t, filepath.Join(dir, history.FileName)), readFile(t, filepath.Join(want.dir, history.FileName)); !bytes.Equal(a, b) {
		t.Errorf("resumed run's %s (%d bytes) differs from the uninterrupted run's (%d bytes)", history.FileName, len(a), len(b))
	}
	if _, err := os.Stat(filepath.Join(dir, checkpoint.ResumeDir)); !os.IsNotExist(err) {
		t.Errorf("a finished run still holds %s/ (%v)", checkpoint.ResumeDir, err)
	}
}

// Stopped twice (mid-epoch 1, then mid-epoch 2) and resumed each time, a run
// ends exactly where the uninterrupted one does.
func TestResumeMatchesUninterruptedRun(t *testing.T) {
	t.Parallel() // a long test (see smallCorpus)
	want := referenceRun(t)
	dir := t.TempDir()
	cfg := want.cfg
	_, err := Run(cfg, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 50}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("first stop: %v, want ErrInterrupted", err)
	}
	ck, err := checkpoint.Load(filepath.Join(dir, checkpoint.ResumeDir))
	if err != nil || ck.Meta.Resume == nil || ck.Meta.Resume.Epoch != 1 || ck.Meta.Resume.Batch != 50 || !ck.Meta.Resume.Interrupted {
		t.Fatalf("resumable checkpoint after 50 steps: %+v, %v", ck, err)
	}
	if _, err := Resume(dir, Options{Context: &stopAfter{Context: context.Background(), n: 150}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("second stop: %v, want ErrInterrupted", err)
	}
	ck, err = checkpoint.Load(filepath.Join(dir, checkpoint.ResumeDir))
	if err != nil || ck.Meta.Resume == nil || ck.Meta.Resume.Epoch != 2 {
		t.Fatalf("resumable checkpoint after 200 steps: %+v, %v; want one in epoch 2", ck, err)
	}
	m, err := Resume(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertSameRun(t, dir, want, m)
}

// A training process killed with SIGKILL part-way leaves a loadable best
// checkpoint and a resumable one, and resuming reaches the uninterrupted result.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a training process")
	}
	t.Parallel() // a long test (see smallCorpus)
	want := referenceRun(t)
	bin := gobuild.Binary(t, "train", "itformer/cmd/train")
	dir := killedInEpoch2(t, bin)
	if _, err := checkpoint.Load(dir); err != nil {
		t.Fatalf("after SIGKILL the best checkpoint does not load: %v", err)
	}
	m, err := Resume(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertSameRun(t, dir, want, m)
}

// killedInEpoch2 starts the reference run (referenceRun) as a process,
// SIGKILLs it at a random moment after epoch 1's resumable checkpoint, and
// returns its folder. An epoch takes well under a second on a fast machine,
// so a run that finished before the kill is started again with half the delay.
// (It was one fixed random delay of up to 1.5 s, which outlasted the whole
// second epoch once the step got faster.)
func killedInEpoch2(t *testing.T, bin string) string {
	t.Helper()
	delay := time.Duration(rand.Intn(1500)) * time.Millisecond
	for attempt := 0; attempt < 8; attempt, delay = attempt+1, delay/2 {
		dir := filepath.Join(t.TempDir(), "run")
		cmd := exec.Command(bin, "-config", "../configs/tiny.json", "-set", "train.epochs=2", "-set", smallCorpus, "-out", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		waitFor(t, filepath.Join(dir, checkpoint.ResumeDir, checkpoint.FileName), 60*time.Second)
		select {
		case <-time.After(delay): // somewhere in epoch 2
			cmd.Process.Kill()
			<-exited
			if _, err := os.Stat(filepath.Join(dir, "metrics.json")); err != nil {
				return dir // killed before it finished
			}
		case <-exited: // finished first
		}
	}
	t.Fatal("every run finished before it could be killed, even 0 ms after its first epoch")
	return ""
}

func waitFor(t *testing.T, path string, limit time.Duration) {
	t.Helper()
	for start := time.Now(); time.Since(start) < limit; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s did not appear within %v", path, limit)
}

func TestResumeRefusals(t *testing.T) {
	dir := t.TempDir()
	if _, err := Resume(dir, Options{}); err == nil {
		t.Error("resumed a folder with no run in it")
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), tinyConfig.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	params, err := model.NewParams(tinyConfig.ModelFor(12), 1)
	if err != nil {
		t.Fatal(err)
	}
	meta := checkpoint.Meta{Vocab: []string{"<pad>", "<unk>", "a", "ate", "because", "dog", "food", "hungry", "it", "tasty", "the", "was"}, Config: tinyConfig}
	if err := checkpoint.Save(filepath.Join(dir, checkpoint.ResumeDir), meta, params); err != nil {
		t.Fatal(err)
	}
	if _, err := Resume(dir, Options{}); err == nil {
		t.Error("resumed from a checkpoint with no resume state")
	}
}
