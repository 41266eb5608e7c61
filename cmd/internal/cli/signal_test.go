package cli

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
)

// signalChild is set in the environment of this test binary run again as
// the child of TestSignalRemovesTheFolderAndExits130.
const signalChild = "ITFORMER_CLI_SIGNAL_CHILD"

// The child: it makes a temporary folder, says so, waits for a signal, then
// removes the folder and ends as an interrupted command does.
func TestSignalChild(t *testing.T) {
	if os.Getenv(signalChild) == "" {
		t.Skip("run by TestSignalRemovesTheFolderAndExits130")
	}
	ctx, stop := SignalContext()
	defer stop()
	dir, err := os.MkdirTemp("", "itformer-signal-")
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("ready\n")
	<-ctx.Done()
	os.RemoveAll(dir)
	Exit("tool", Interrupted(fmt.Errorf("interrupted; removed %s", filepath.Base(dir))))
}

// Ctrl-C or SIGTERM no longer ends a command at once: it removes its
// temporary folder and exits with status 130 and a message on stderr, as
// train does.
func TestSignalRemovesTheFolderAndExits130(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		tmp := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestSignalChild$")
		cmd.Env = append(os.Environ(), signalChild+"=1", "TMPDIR="+tmp)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
			cmd.Process.Kill()
			t.Fatalf("the child said %q, want ready\n%s", line, stderr.String())
		}
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: the child still runs after 20 s", sig)
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != InterruptedStatus {
			t.Errorf("%v: %v, want exit status %d", sig, err, InterruptedStatus)
		}
		if !strings.Contains(stderr.String(), "tool: interrupted; removed itformer-signal-") {
			t.Errorf("%v: stderr %q, want the interrupted message", sig, stderr.String())
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%v: left %s in TMPDIR", sig, left[0].Name())
		}
	}
}
