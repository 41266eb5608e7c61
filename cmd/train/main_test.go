package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"itformer/internal/gobuild"

	"itformer/checkpoint"
	"itformer/cmd/internal/cli"
	"itformer/config"
	"itformer/configs"
	"itformer/train"
)

const tiny = "../../configs/tiny.json"

// -out into a folder of someone else's files is refused, and the message
// says how to write there anyway.
func TestOutRefusesForeignFolder(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "checkpoint.json")
	if err := os.WriteFile(notes, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run([]string{"-config", tiny, "-set", "train.epochs=1", "-out", dir})
	if err == nil || !strings.Contains(err.Error(), "-overwrite") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("train -out FOREIGN: %v, want a refusal that names the folder and -overwrite", err)
	}
	if raw, _ := os.ReadFile(notes); string(raw) != "theirs" {
		t.Errorf("their checkpoint.json now holds %q", raw)
	}
}

// -overwrite without -out would be silently ignored: the run would go to a
// new folder anyway. It is a usage mistake that names both flags.
func TestOverwriteNeedsOut(t *testing.T) {
	err := run([]string{"-config", tiny, "-overwrite"})
	if err == nil || !strings.Contains(err.Error(), "-overwrite needs -out") {
		t.Fatalf("train -overwrite without -out: %v, want a usage mistake naming both flags", err)
	}
}

// -resume on a folder with nothing to resume says what happened and what to do.
func TestResumeMessages(t *testing.T) {
	folder := func(files ...string) string {
		dir := t.TempDir()
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(`{"made_by": "itformer train"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	finished := folder(train.MarkerName, "config.json", "metrics.json")
	early := folder(train.MarkerName, "config.json")
	old := folder("config.json", "epochs.jsonl") // a run folder from before the marker
	empty := folder()
	for dir, want := range map[string]string{
		finished: finished + " finished (metrics.json is written); there is nothing to resume — train again with -out NEW",
		early: early + " has no resumable checkpoint: it stopped before the first one was saved; start it again with\n" +
			"  go run ./cmd/train -config " + filepath.Join(early, "config.json") + " -out " + early + "\n",
		old:   "go run ./cmd/train -config " + filepath.Join(old, "config.json") + " -out " + old + " -overwrite\n",
		empty: empty + " is not a run folder (it has no config.json): there is nothing to resume",
	} {
		err := run([]string{"-resume", dir})
		if err == nil || !strings.Contains(err.Error()+"\n", want) {
			t.Errorf("train -resume %s: %v\nwant %q", dir, err, want)
		}
	}
}

// Ctrl-C or SIGTERM while a deep model's graphs are being built (a minute
// for 100 layers) stops the process at once, with status 130, a message, and
// no run folder.
func TestSignalDuringSetup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals a training process")
	}
	bin := gobuild.Binary(t, "train", ".")
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		dir := filepath.Join(t.TempDir(), "run")
		cmd := exec.Command(bin, "-config", tiny, "-max-memory", "16GB", "-set", "model.layers=100", "-set", "model.d_model=16", "-set", "model.heads=4", "-set", "model.d_ff=32",
			"-set", "model.max_len=24", "-set", "data.train_size=24000", "-out", dir) // within 16 GB by the estimate (14 GB; tiny's 8 heads: 21.1 GB)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		bufio.NewReader(stdout).ReadString('\n') // "training ... into ...": setup has begun
		time.Sleep(300 * time.Millisecond)
		sent := time.Now()
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		took := time.Since(sent)
		var exit *exec.ExitError
		// "At once" is far under the minute the setup takes; under load 10 on
		// 2 shared cores the exit took 5-8 s, so 20 s leaves room for a busy
		// machine and still catches a process that finishes its setup first.
		if !errors.As(err, &exit) || exit.ExitCode() != 130 || took > 20*time.Second {
			t.Errorf("%v during setup: %v after %v, want exit status 130 at once", sig, err, took.Round(time.Millisecond))
		}
		if want := "interrupted during setup, before training started; nothing was written to " + dir; !strings.Contains(stderr.String(), want) {
			t.Errorf("%v during setup printed %q, want %q", sig, stderr.String(), want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v during setup left %s (stat: %v)", sig, dir, err)
		}
	}
}

// Without -config, train uses the default config built into the binary, so it
// runs from any directory. (The batch size makes it stop before training;
// -max-memory lets it past the memory estimate to the check that names it.)
func TestDefaultConfigFromAnyDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	limit := config.MaxMemory
	t.Cleanup(func() { config.MaxMemory = limit })
	def, err := configs.Load(configs.Default)
	if err != nil {
		t.Fatal(err)
	}
	// A batch larger than the default's training set (and even, for its two
	// shards) is refused before the first step; its error counts that set,
	// which only the default config has.
	n := def.Data.TrainSize
	err = run([]string{"-max-memory", "20TB", "-set", fmt.Sprintf("train.batch_size=%d", n+2)})
	if want := fmt.Sprintf("train.batch_size is %d but the training set has %d,%03d sentences", n+2, n/1000, n%1000); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("train from another directory: %v\nwant the default config loaded and %q", err, want)
	}
}

// -seed "" is a mistake named as typed, not the config's own seed in silence.
func TestEmptySeedIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	err := run([]string{"-config", tiny, "-seed", "", "-out", dir})
	if err == nil || !strings.Contains(err.Error(), `-seed "": the value is empty`) {
		t.Errorf(`train -seed "": %v, want a refusal naming it`, err)
	}
	if _, statErr := os.Stat(dir); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("the refused run made its folder (%v)", statErr)
	}
}

// A flag given an empty value is refused by name: -config "" and -resume ""
// had read as no flag at all and started the default training. (-max-memory
// 1MB stops that training at once, should the refusal ever be missing.)
func TestEmptyFlagValuesAreRefused(t *testing.T) {
	limit := config.MaxMemory
	t.Cleanup(func() { config.MaxMemory = limit })
	dir := filepath.Join(t.TempDir(), "run")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"-config", ""}, "-config"},
		{[]string{"-resume", ""}, "-resume"},
		{[]string{"-config", tiny, "-out", ""}, "-out"},
		{[]string{"-config=", "-out", dir}, "-config"},
	} {
		err := run(append([]string{"-max-memory", "1MB"}, c.args...))
		if want := c.flag + ` "": the value is empty`; !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), want) {
			t.Errorf("train %q: %v, want a usage error saying %q", c.args, err, want)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused run made its folder (%v)", err)
	}
}

// -out on a stopped run that can be resumed, its own or a member's, is
// refused, its resumable checkpoint kept, with how to resume or overwrite;
// -overwrite starts over there. So is -out on a finished run: it had deleted
// the run's metrics.json as the new run started, and its weights with the
// new run's first checkpoint.
func TestOutOnAResumableRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two tiny runs")
	}
	quick := []string{"-config", tiny, "-set", "train.epochs=1", "-set", "data.train_size=6000"}
	for _, resume := range []string{"resume", "members/2/resume"} {
		dir := stoppedRun(t, resume)
		err := run(append(quick, "-out", dir))
		for _, want := range []string{dir + " holds a stopped run that can be resumed", "go run ./cmd/train -resume " + dir, "-overwrite"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("-out on a stopped run (%s): %v, want %q", resume, err, want)
			}
		}
		if _, statErr := os.Stat(filepath.Join(dir, resume, "checkpoint.json")); statErr != nil {
			t.Errorf("the refused run removed %s/checkpoint.json (%v)", resume, statErr)
		}
	}
	dir := stoppedRun(t, "resume")
	if err := run(append(quick, "-out", dir, "-overwrite")); err != nil {
		t.Errorf("-out -overwrite on a stopped run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "metrics.json")); err != nil {
		t.Fatalf("the run did not finish: %v", err)
	}
	metrics, _ := os.ReadFile(filepath.Join(dir, "metrics.json"))
	err := run(append(quick, "-out", dir)) // now a finished run's folder
	if want := dir + " holds a finished run"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("-out on a finished run: %v, want %q", err, want)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "metrics.json")); string(now) != string(metrics) {
		t.Errorf("the refused run changed the finished run's metrics.json")
	}
	if _, err := checkpoint.Load(dir); err != nil {
		t.Errorf("the refused run broke the finished run's checkpoint: %v", err)
	}
	if err := run(append(quick, "-out", dir, "-overwrite")); err != nil {
		t.Errorf("-out -overwrite on a finished run: %v", err)
	}
}

// -out on a folder that holds a run is refused, naming the folder, what it
// holds and what to do, with the status of train's other refusals of -out
// (1, not a usage mistake's 2); a run stopped before its first checkpoint
// holds nothing to lose and is started again, and -overwrite replaces any.
func TestOutOnAnEarlierRun(t *testing.T) {
	resumable := `{"format": 1, "config": {"train": {"epochs": 8}}, "resume": {"epoch": 3, "batch": 40}}`
	three, err := config.Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	three.Train.Members = 3
	for _, tc := range []struct {
		name  string
		files map[string]string // beside the marker and config.json
		want  []string          // "" for none: the run starts
	}{
		{"stopped before its first checkpoint", map[string]string{"epochs.jsonl": ""}, nil},
		{"finished", map[string]string{"metrics.json": "{}", "checkpoint.json": "{}"},
			[]string{"DIR holds a finished run (metrics.json, checkpoint.json and its weights); a new run there would delete it. Add -overwrite to replace it, or give another -out folder"}},
		{"stopped in epoch 3", map[string]string{"checkpoint.json": "{}", "resume/checkpoint.json": resumable},
			[]string{"DIR holds a stopped run that can be resumed at epoch 3 of 8 (DIR/resume/checkpoint.json); a new run there would delete it. Continue it with\n  go run ./cmd/train -resume DIR\nor add -overwrite to replace it, or give another -out folder"}},
		{"a member stopped", map[string]string{"metrics.json": "{}", "members/2/resume/checkpoint.json": resumable},
			[]string{"DIR holds a stopped run that can be resumed at epoch 3 of 8 (DIR/members/2/resume/checkpoint.json)", "-resume DIR\n"}},
		{"killed while scoring its best epoch", map[string]string{"checkpoint.json": "{}", "resume/checkpoint.json": `{"config": {"train": {"epochs": 8}}, "resume": {"epoch": 9}}`},
			[]string{"DIR holds a stopped run that can be resumed after its last epoch (8 of 8), before its metrics.json (DIR/resume/checkpoint.json)"}},
		{"members still to train", map[string]string{"config.json": string(three.JSON()), "metrics.json": "{}", "members/2/metrics.json": "{}"},
			[]string{"DIR holds a stopped run with members still to train (train.members); a new run there would delete it. Continue it with\n  go run ./cmd/train -resume DIR\n"}},
		{"killed before its first resumable checkpoint", map[string]string{"checkpoint.json": "{}"},
			[]string{"DIR holds a run's best checkpoint (checkpoint.json and its weights) but nothing to resume from; a new run there would delete it. Add -overwrite"}},
	} {
		dir := t.TempDir()
		files := map[string]string{train.MarkerName: `{"made_by": "itformer train"}`, "config.json": "{}"}
		for name, body := range tc.files {
			files[name] = body
		}
		writeFiles(t, dir, files)
		err := checkOut(dir, false)
		if tc.want == nil && err != nil {
			t.Errorf("%s: %v, want the run to start", tc.name, err)
		}
		for _, want := range tc.want {
			if want = strings.ReplaceAll(want, "DIR", dir); err == nil || errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v\nwant a refusal (not a usage mistake) saying %q", tc.name, err, want)
			}
		}
		if err := checkOut(dir, true); err != nil {
			t.Errorf("%s, with -overwrite: %v", tc.name, err)
		}
	}
}

// stoppedRun is a run folder as a stopped run leaves it: the marker, its
// config, and a resumable checkpoint in resume (a path under the folder).
func stoppedRun(t *testing.T, resume string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{train.MarkerName: `{"made_by": "itformer train"}`, "config.json": "{}",
		filepath.Join(resume, "checkpoint.json"): `{"format": 1}`}
	writeFiles(t, dir, files)
	return dir
}

// writeFiles writes each file of files (a path under dir: its body) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// What a stop or a refusal tells the user to do next names the folder the
// run really left: a stop in a member's setup had said "nothing was written"
// of a folder holding the members before it.
func TestWhatToDoNext(t *testing.T) {
	dir, member := "M", filepath.Join("M", "members", "2")
	for _, tc := range []struct {
		name string
		got  error
		want string
	}{
		{"new run's setup", setupStopped(train.ErrSetupInterrupted, dir, dir, false), "nothing was written to M"},
		{"resumed run's setup", setupStopped(train.ErrSetupInterrupted, dir, dir, true), "M is unchanged: continue with\n  go run ./cmd/train -resume M"},
		{"member's setup", setupStopped(train.ErrSetupInterrupted, dir, member, false), "M holds the members trained before " + member + ": continue with\n  go run ./cmd/train -resume M"},
		{"files of another run", resumeHint(dir, fmt.Errorf("cannot resume: M/checkpoint.json is another run's: %w", train.ErrInconsistentRun)),
			"\n  go run ./cmd/train -config " + filepath.Join(dir, "config.json") + " -out M -overwrite"},
	} {
		if tc.got == nil || !strings.HasSuffix(tc.got.Error(), tc.want) {
			t.Errorf("%s: %v\nwant it to end %q", tc.name, tc.got, tc.want)
		}
	}
}

// Ctrl-C while member 2 trains saves members/2/resume, and says so; the
// command it suggests trains member 2 to its end.
func TestCtrlCInAMember(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals a training process")
	}
	bin := gobuild.Binary(t, "train", ".")
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(bin, "-config", tiny, "-set", "data.train_size=4000", "-set", "train.epochs=5", "-set", "train.members=2", "-out", dir)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	member := train.MemberDir(dir, 2)
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) { // epochs.jsonl: member 2's setup is done
		if _, err := os.Stat(filepath.Join(member, "epochs.jsonl")); err == nil {
			break
		}
		if time.Since(start) > 2*time.Minute {
			cmd.Process.Kill()
			t.Fatalf("member 2 did not start within 2 minutes:\n%s", stdout.String())
		}
	}
	cmd.Process.Signal(os.Interrupt)
	var exit *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("Ctrl-C in member 2: %v, want exit status 130", err)
	}
	want := "saved " + filepath.Join(member, "resume") + "; continue with\n  go run ./cmd/train -resume " + dir + "\n"
	if !strings.Contains(stdout.String(), want) {
		t.Fatalf("Ctrl-C in member 2 printed\n%s\nwant %q", stdout.String(), want)
	}
	if err := run([]string{"-resume", dir}); err != nil {
		t.Fatalf("the suggested -resume %s: %v", dir, err)
	}
	if _, err := os.Stat(filepath.Join(member, "metrics.json")); err != nil {
		t.Errorf("-resume %s did not finish member 2: %v", dir, err)
	}
}
