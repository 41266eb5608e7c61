//go:build unix

package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO or a device given as the file is refused by name, at once: the
// open must not wait for a writer that never comes.
func TestRefusesFilesThatAreNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "items.tsv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, fifo + ": a named pipe, not a regular file"},
		{"/dev/zero", "/dev/zero: a character device, not a regular file"},
		{t.TempDir(), ": a directory, not a regular file"},
	} {
		done := make(chan error, 1)
		go func() { done <- run([]string{c.path}, &bytes.Buffer{}) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: got %v, want %q", c.path, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10 s", c.path)
		}
	}
}
