//go:build unix

package main

// Tests with a stand-in go command: a shell script.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"itformer/cmd/internal/cli"
)

// Ctrl-C (a cancelled context) while the module compiles stops the go
// command and its children, removes the temporary build folder and writes
// nothing: the error is an interruption (exit status 130) that says so. The
// stand-in's build waits for a child of its own, as go build waits for
// its compilers, which outlive a go command killed alone.
func TestInterruptedBuildLeavesNothing(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root, pidFile := filepath.Join(dir, "goroot"), filepath.Join(dir, "pid")
	if err := os.MkdirAll(filepath.Join(root, "lib", "wasm"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "lib", "wasm", "wasm_exec.js"), []byte("// loader"), 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd := filepath.Join(dir, "go")
	script := "#!/bin/sh\ncase $1 in\nlist) echo itformer ;;\nenv) echo " + root + " ;;\n" +
		"build) sleep 60 & echo $! > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; wait ;;\nesac\n"
	if err := os.WriteFile(goCmd, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	pid := make(chan int, 1)
	go func() { // cancel once the build runs
		defer cancel()
		pid <- waitForPID(pidFile, time.Minute)
	}()
	out := filepath.Join(dir, "site")
	var stdout, stderr bytes.Buffer
	began := time.Now()
	err := run(ctx, []string{"-out", out, "-go", goCmd, "-zopfli", ""}, &stdout, &stderr)
	want := "interrupted; nothing was written to " + out + ", and no temporary folder is left"
	if !errors.Is(err, cli.ErrInterrupted) || err.Error() != want {
		t.Errorf("interrupted: %v, want %q\n%s%s", err, want, stdout.String(), stderr.String())
	}
	if took := time.Since(began); took > 20*time.Second {
		t.Errorf("site took %v to stop", took.Round(time.Second))
	}
	if p := <-pid; p == 0 || alive(p, 5*time.Second) {
		t.Errorf("the stand-in go build's child (process %d) was not stopped", p)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left %s in TMPDIR", left[0].Name())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an interrupted site made its -out folder (%v)", err)
	}
}

// waitForPID waits up to wait for path to hold a process id, and returns it
// (0 if it never did).
func waitForPID(path string, wait time.Duration) int {
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if raw, err := os.ReadFile(path); err == nil {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
			return pid
		}
	}
	return 0
}

// A -go command that runs but fails, from the repository, is named with its
// exit status and its stderr, not taken for a folder outside the repository
// (`site -go false` said "run it from the repository ... not from" the
// repository's root). Outside the repository the folder is still blamed.
func TestInModuleNamesAGoThatFails(t *testing.T) {
	failing := filepath.Join(t.TempDir(), "failing-go")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho 'go: a broken toolchain' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := inModule(t.Context(), failing)
	for _, want := range []string{`-go "` + failing + `" failed`, "list -m` ended with exit status 3", "go: a broken toolchain"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("inModule(%s) = %v, want it to say %q", failing, err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "run it from the repository") {
		t.Errorf("inModule(%s) blamed the folder: %v", failing, err)
	}
	t.Chdir(t.TempDir())
	if err := inModule(t.Context(), failing); err == nil || !strings.Contains(err.Error(), "run it from the repository") {
		t.Errorf("inModule(%s) outside the repository = %v, want a refusal that says where to run it", failing, err)
	}
}

// alive says whether process pid still runs after up to wait: a killed
// child of a killed process is reaped by init, which may take a moment.
func alive(pid int, wait time.Duration) bool {
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
	}
	return true
}
