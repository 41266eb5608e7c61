//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if f has not returned after a few seconds: the bugs
// these tests pin are hangs (a FIFO blocks open and read forever).
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("still reading after 5 s")
		return nil
	}
}

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	return path
}

// -config /dev/zero, /dev/urandom or a FIFO used to hang or eat memory; a
// config that is too big is refused before it is read.
func TestLoadReadsOnlySmallRegularFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(edit(t, `"test"`, `"`+strings.Repeat("x", MaxJSONSize)+`"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: a character device, not a regular file"},
		{"/dev/urandom", "/dev/urandom: a character device, not a regular file"},
		{mkfifo(t, filepath.Join(dir, "fifo.json")), "fifo.json: a named pipe, not a regular file"},
		{dir, dir + ": a directory, not a regular file"},
		{big, "big.json: larger than 1 MB, the limit for this file"},
	} {
		if _, err := os.Stat(tc.path); err != nil {
			t.Logf("skipping %s: %v", tc.path, err)
			continue
		}
		err := within(t, func() error { _, err := Load(tc.path); return err })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", tc.path, err, tc.want)
		}
	}
}
