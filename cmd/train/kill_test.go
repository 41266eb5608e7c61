//go:build unix

package main

// Random kills: a training process is SIGKILLed again and again, at random
// moments or the moment a temporary file appears (while the marker, the
// config, the log or a checkpoint is being written), and each time the next
// command must be able to carry on in that folder. The suite kills a few
// times; the full figure is
//
//	go test ./cmd/train -run TestRandomKills -v -kills 100

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"itformer/checkpoint"
	"itformer/internal/gobuild"
	"itformer/train"
)

var killCount = flag.Int("kills", 4, "SIGKILLs TestRandomKills deals")

// killTally is what a series of kills found.
type killTally struct {
	kills, finished, hangs, unrecoverable, stale int
}

// The goal: after any number of kills, no command hangs, every folder can be
// carried on by -resume or -out again, and a finished run holds no temporary.
func TestRandomKills(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, runs and kills training processes")
	}
	bin := gobuild.Binary(t, "train", "itformer/cmd/train")
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 28))
	dir := filepath.Join(t.TempDir(), "run")
	var tally killTally
	for tally.kills < *killCount {
		killOnce(t, bin, dir, rng, &tally)
	}
	finishRun(t, bin, dir, &tally)
	t.Logf("seed %d: %d kills, %d runs finished between them; %d hangs, %d folders no command could carry on, %d stale temporaries",
		seed, tally.kills, tally.finished, tally.hangs, tally.unrecoverable, tally.stale)
	if tally.hangs+tally.unrecoverable+tally.stale > 0 {
		t.Errorf("want 0 hangs, 0 unrecoverable folders and 0 stale temporaries")
	}
}

// nextArgs carries on in dir: -resume if it holds a resumable checkpoint,
// else a new two-epoch run of tiny.json's model on 6,000 sentences (a
// quarter of its corpus: kills need no learning) into it, with -overwrite
// where it holds a finished run or a best checkpoint (train.EarlierRun).
func nextArgs(dir string) []string {
	if _, err := os.Stat(filepath.Join(dir, checkpoint.ResumeDir, checkpoint.FileName)); err == nil {
		return []string{"-resume", dir}
	}
	args := []string{"-config", tiny, "-set", "train.epochs=2", "-set", "data.train_size=6000", "-out", dir}
	if what, _ := train.EarlierRun(dir); what != "" {
		args = append(args, "-overwrite")
	}
	return args
}

// killOnce starts the next command and kills it after a random delay of up
// to 2 s (a whole run takes about 1.5 s of CPU), or, one time in two, at the
// first temporary file seen after that delay. A command that ends by itself
// must have finished the run; one that is refused leaves the folder
// unrecoverable, and the series goes on in a new one.
func killOnce(t *testing.T, bin, dir string, rng *rand.Rand, tally *killTally) {
	t.Helper()
	cmd, stderr, exited := startNext(t, bin, dir)
	delay := time.Duration(rng.Int64N(int64(2 * time.Second)))
	atTemp := rng.IntN(2) == 0
	select {
	case err := <-exited:
		endedAlone(t, dir, err, stderr.String(), tally)
	case <-killMoment(dir, delay, atTemp, exited):
		cmd.Process.Kill()
		<-exited
		tally.kills++
	}
}

// startNext starts the next command in dir (nextArgs); exited gets its end.
func startNext(t *testing.T, bin, dir string) (cmd *exec.Cmd, stderr *bytes.Buffer, exited <-chan error) {
	t.Helper()
	stderr = &bytes.Buffer{}
	cmd = exec.Command(bin, nextArgs(dir)...)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return cmd, stderr, done
}

// killMoment is closed after delay, or with atTemp at the first temporary
// seen in dir or its resume/ after delay, or when the process exits.
func killMoment(dir string, delay time.Duration, atTemp bool, exited <-chan error) <-chan struct{} {
	now := make(chan struct{})
	go func() {
		defer close(now)
		time.Sleep(delay)
		for atTemp && len(exited) == 0 && len(temps(dir)) == 0 {
			time.Sleep(200 * time.Microsecond)
		}
	}()
	return now
}

// endedAlone judges a command that ended before its kill.
func endedAlone(t *testing.T, dir string, err error, stderr string, tally *killTally) {
	t.Helper()
	if err != nil {
		tally.unrecoverable++
		t.Errorf("after %d kills, train %v was refused: %v\n%s", tally.kills, nextArgs(dir), err, stderr)
		os.RemoveAll(dir)
		return
	}
	tally.finished++
	if left := temps(dir); len(left) > 0 {
		tally.stale += len(left)
		t.Errorf("a finished run left temporaries: %v", left)
	}
}

// finishRun carries the folder on to the end, within 3 minutes.
func finishRun(t *testing.T, bin, dir string, tally *killTally) {
	t.Helper()
	cmd, stderr, exited := startNext(t, bin, dir)
	select {
	case err := <-exited:
		endedAlone(t, dir, err, stderr.String(), tally)
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		tally.hangs++
		t.Errorf("train %v still runs after 3 minutes", nextArgs(dir))
	}
	if _, err := checkpoint.Load(dir); err != nil {
		t.Errorf("the finished run's checkpoint: %v", err)
	}
}

// temps lists the temporaries (checkpoint.IsTemp) in dir and its resume/.
func temps(dir string) []string {
	var found []string
	for _, d := range []string{dir, filepath.Join(dir, checkpoint.ResumeDir)} {
		entries, err := os.ReadDir(d)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			found = append(found, d+": "+err.Error())
		}
		for _, e := range entries {
			if checkpoint.IsTemp(e.Name()) {
				found = append(found, filepath.Join(d, e.Name()))
			}
		}
	}
	return found
}
