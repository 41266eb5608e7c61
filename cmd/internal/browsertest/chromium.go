// Package browsertest is what the commands' browser tests share: finding
// Debian's chromium (and the one line a run without it prints), starting it
// headless through chromedp with a fresh profile, and checking that a test
// binary's TestBrowser skips, or fails under CI, without chromium on PATH.
// It imports testing, so only _test.go files import it; no command links it.
package browsertest

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// toldOnce keeps a test binary, whose every browser test looks for
// chromium, to the one line.
var toldOnce sync.Once

// FindChromium finds chromium on PATH (Debian's is /usr/bin/chromium).
// Without it the test fails in CI, where .ci/run installs it, and is skipped
// elsewhere, with a line the person running the tests sees:
// "<pkg>: TestBrowser skipped: no chromium on PATH; install it (apt-get
// install chromium) to test <what> in a browser".
func FindChromium(t *testing.T, pkg, what string) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	switch {
	case err == nil:
		return path
	case os.Getenv("CI") != "":
		t.Fatalf("no chromium on PATH; .ci/run should have installed it (apt-get install -y --no-install-recommends chromium)")
	}
	toldOnce.Do(func() {
		Tell(pkg + ": TestBrowser skipped: no chromium on PATH; install it (apt-get install chromium) to test " + what + " in a browser")
	})
	t.Skip("no chromium on PATH")
	return ""
}

// Tell writes line to the terminal. go test ./... shows nothing of a passing
// package's output, stderr included (a skip passes), unless -v; the
// terminal is the one place the line is seen. Without one, stderr (-v shows it).
func Tell(line string) {
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		fmt.Fprintln(tty, line)
		return
	}
	fmt.Fprintln(os.Stderr, line)
}
