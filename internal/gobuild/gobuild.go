// Package gobuild builds the project's commands for tests that run them as
// child processes, with the build tags of the test binary itself: a test run
// with -tags purego then compares its own results with a child's computed the
// same way (gonum's products instead of the AVX2 kernels, which round
// differently).
package gobuild

import (
	"os/exec"
	"runtime/debug"
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
