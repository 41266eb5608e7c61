package cli

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every command ends a usage mistake the same way: exit status 2 and the
// message printed once, on stderr, followed by the usage line.
func TestCommandsAgreeOnUsageMistakes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every command")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "itformer/cmd/...")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range []string{"train", "infer", "explain", "serve", "experiment", "bench"} {
		cmd := exec.Command(filepath.Join(bin, name), "-no-such-flag")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%s -no-such-flag: %v, want exit status 2", name, err)
		}
		msg := stderr.String()
		if strings.Count(msg, "flag provided but not defined: -no-such-flag") != 1 ||
			strings.Count(msg, "usage: "+name) != 1 || !strings.HasPrefix(msg, name+": ") {
			t.Errorf("%s -no-such-flag printed\n%s\nwant the message once, then the usage line", name, msg)
		}
	}
}
