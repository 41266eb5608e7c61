//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"itformer/internal/gobuild"
)

// A -script that is not a regular file is refused by name before Python is
// started on it: Python would block opening a FIFO, and bench with it.
func TestScriptMustBeARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "step.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	python := filepath.Join(dir, "python") // opens its script as Python does
	if err := os.WriteFile(python, []byte("#!/bin/sh\ncat \"$1\" >/dev/null\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ script, want string }{
		{fifo, "-script: " + fifo + ": a named pipe, not a regular file"},
		{"/dev/zero", "-script: /dev/zero: a character device, not a regular file"},
		{dir, "-script: " + dir + ": a directory, not a regular file"},
		{filepath.Join(dir, "missing.py"), "-script: open " + filepath.Join(dir, "missing.py")},
	} {
		done := make(chan error, 1)
		go func() {
			done <- run([]string{"-only", "pytorch", "-rounds", "1", "-steps", "1", "-torch-threads", "1",
				"-config", "../../configs/tiny.json", "-python", python, "-script", c.script})
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("-script %s: %v, want %q", c.script, err, c.want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("-script %s: still running after 30 s", c.script)
		}
	}
}

// SIGTERM or Ctrl-C stops bench's children and removes its temporary
// folders before it exits with 128 + the signal's number: neither a Python
// process nor a spec file is left behind.
func TestSignalStopsChildrenAndRemovesFolders(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and signals bench")
	}
	bin := gobuild.Binary(t, "bench", ".")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dir, tmp := t.TempDir(), t.TempDir()
		pidFile, python := filepath.Join(dir, "pid"), filepath.Join(dir, "python")
		// A Python that never says hello: bench waits on it until the signal.
		script := "#!/bin/sh\necho $$ > " + pidFile + ".tmp\nmv " + pidFile + ".tmp " + pidFile + "\nexec sleep 120\n"
		if err := os.WriteFile(python, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-only", "pytorch", "-rounds", "1", "-steps", "1", "-torch-threads", "1",
			"-config", "../../configs/tiny.json", "-python", python)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := waitForPID(t, pidFile, cmd)
		cmd.Process.Signal(sig)
		var exit *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
			t.Errorf("%v: bench ended with %v, want exit status %d", sig, err, 128+int(sig))
		}
		if alive(pid, 10*time.Second) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%v: the Python child %d still runs", sig, pid)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%v: left %d entries in TMPDIR (%s...)", sig, len(left), left[0].Name())
		}
	}
}

// waitForPID waits for the stand-in Python to write its process id.
func waitForPID(t *testing.T, path string, cmd *exec.Cmd) int {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if raw, err := os.ReadFile(path); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
	}
	cmd.Process.Kill()
	t.Fatal("the stand-in Python never started")
	return 0
}

// alive says whether process pid still runs after up to wait: a stopped
// child of the ended bench is reaped by init, which may take a moment.
func alive(pid int, wait time.Duration) bool {
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
	}
	return true
}
