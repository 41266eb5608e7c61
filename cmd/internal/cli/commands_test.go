package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"itformer/internal/gobuild"

	"itformer/config"
)

// commandNames are the commands a person runs from a terminal: every one
// but site, which builds the site, and wasm, which runs in a browser.
var commandNames = []string{"train", "infer", "explain", "serve", "experiment", "bench", "reliability", "explaineval", "history", "wordlists", "wsc", "selective"}

// commands is every command of commandNames, built once for the tests of
// this file (each link takes a second or more, and three tests need them).
var commands struct {
	once sync.Once
	bin  string
	err  error
}

// TestMain removes the built commands after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if commands.bin != "" {
		os.RemoveAll(commands.bin)
	}
	os.Exit(code)
}

// builtCommands is the folder holding the commands, built on first use.
func builtCommands(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds every command")
	}
	commands.once.Do(func() {
		if commands.bin, commands.err = os.MkdirTemp("", "itformer-commands-"); commands.err != nil {
			return
		}
		var pkgs []string
		for _, name := range commandNames {
			pkgs = append(pkgs, "itformer/cmd/"+name)
		}
		if out, err := gobuild.Command(commands.bin, pkgs...).CombinedOutput(); err != nil {
			commands.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if commands.err != nil {
		t.Fatal(commands.err)
	}
	return commands.bin
}

// Every command ends a usage mistake the same way: exit status 2 and the
// message printed once, on stderr, followed by the usage line.
func TestCommandsAgreeOnUsageMistakes(t *testing.T) {
	bin := builtCommands(t)
	for _, name := range commandNames {
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

// train's -max-memory reaches the config's memory check: a limit below what
// the tiny config needs refuses it by name (exit 1), before any run folder is
// made, and a malformed size is a usage mistake (exit 2).
func TestTrainMaxMemory(t *testing.T) {
	bin := filepath.Join(builtCommands(t), "train")
	// The estimate for 100000 layers of the tiny config, as config computes
	// it: the message must carry it, whatever the tiny config's other sizes.
	const tiny = "../../../configs/tiny.json"
	huge, err := config.Load(tiny)
	if err != nil {
		t.Fatal(err)
	}
	huge.Model.Layers = 100000
	need := huge.MemoryEstimate()
	if need < 100*float64(config.DefaultMaxMemory) {
		t.Fatalf("100000 layers of %s are estimated at %s, not far over the default limit %s", tiny, config.FormatBytes(need), config.DefaultMaxMemory)
	}
	out := filepath.Join(t.TempDir(), "run")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-max-memory", "1MB"}, 1, "(limit 1 MB; raise it with -max-memory)"},
		{[]string{"-max-memory", "8XB"}, 2, `invalid value "8XB" for flag -max-memory: want a size such as 500MB, 8GB or 16GiB`},
		{[]string{"-set", "model.layers=100000"}, 1, fmt.Sprintf("with the override model.layers=100000: model.layers = 100000: the run would need about %s (limit %s; raise it with -max-memory)",
			config.FormatBytes(need), config.DefaultMaxMemory)},
	} {
		cmd := exec.Command(bin, append([]string{"-config", tiny, "-out", out}, tc.args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("train %q: %v\n%s\nwant exit status %d and %q", tc.args, err, stderr.String(), tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("train %q made the run folder", tc.args)
		}
	}
}

// A command whose result cannot be written (stdout on a full disk) says so
// and exits 1, instead of exiting 0 with nothing written.
func TestCommandsReportLostOutput(t *testing.T) {
	bin := builtCommands(t)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	const sentence = "A dog ate the food because it was hungry"
	for _, args := range [][]string{{"infer", sentence}, {"infer", "-json", sentence}, {"explain", sentence}, {"history"}} {
		cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
		var stderr strings.Builder
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%q > /dev/full: %v, stderr %q; want exit status 1 and the write error", args, err, stderr.String())
		}
	}
}
