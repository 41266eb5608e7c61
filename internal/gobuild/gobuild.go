// Package gobuild builds the project's commands for tests that run them as
// child processes, with the build tags of the test binary itself: a test run
// with -tags purego then compares its own results with a child's computed the
// same way (gonum's products instead of the AVX2 kernels, which round
// differently).
package gobuild

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// Command is `go build [-tags T] -o out pkgs...`, T being the tags the running
// binary was built with, if any.
func Command(out string, pkgs ...string) *exec.Cmd {
	args := []string{"build"}
	if tags := Tags(); tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, "-o", out)
	return exec.Command("go", append(args, pkgs...)...)
}

// Binary builds the command pkg into a temporary folder of tb as name and
// returns its path, or fails tb with go build's output.
func Binary(tb testing.TB, name, pkg string) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), name)
	if out, err := Command(bin, pkg).CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Tags is the -tags setting the running binary was built with ("" if none).
func Tags() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "-tags" {
			return s.Value
		}
	}
	return ""
}
