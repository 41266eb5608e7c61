//go:build unix

package browsertest

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// CheckWithoutChromium checks that, without chromium, a plain run skips the
// calling test binary's TestBrowser with one line that says so and how to
// install it, and that under CI it fails. Each case reruns the binary's
// TestBrowser with a PATH that has no chromium, in a session of its own, so
// that the line cannot reach the terminal of whoever runs the tests and is
// read here from stderr.
func CheckWithoutChromium(t *testing.T) {
	t.Helper()
	for _, ci := range []bool{false, true} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestBrowser$", "-test.count", "1")
		cmd.Env = []string{"PATH=" + t.TempDir(), "HOME=" + os.Getenv("HOME")}
		if ci {
			cmd.Env = append(cmd.Env, "CI=true")
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		out, err := cmd.CombinedOutput()
		switch {
		case ci && err == nil:
			t.Errorf("CI=true without chromium: the browser test passed\n%s", out)
		case !ci && err != nil:
			t.Errorf("without chromium: %v\n%s", err, out)
		case !ci && strings.Count(string(out), "apt-get install chromium") != 1:
			t.Errorf("without chromium, want one line saying how to install it, got\n%s", out)
		}
	}
}
