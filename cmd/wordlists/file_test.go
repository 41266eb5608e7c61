//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A database file that is a FIFO is refused by name, at once, as the other
// readers refuse one: os.Open would wait for a writer forever.
func TestFIFOInTheDatabaseIsRefused(t *testing.T) {
	files := []string{"cntlist.rev"}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		files = append(files, "index."+pos, "data."+pos, pos+".exc")
	}
	for _, fifo := range []string{"index.noun", "data.verb", "cntlist.rev"} {
		dir := t.TempDir()
		for _, f := range files {
			if f == fifo {
				if err := syscall.Mkfifo(filepath.Join(dir, f), 0o644); err != nil {
					t.Skipf("cannot make a FIFO: %v", err)
				}
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, f), []byte("  1 licence\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() { done <- run([]string{"-wordnet", dir, "-out", filepath.Join(dir, "out")}, &bytes.Buffer{}) }()
		select {
		case err := <-done:
			if want := filepath.Join(dir, fifo) + ": a named pipe, not a regular file"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s a FIFO: got %v, want %q", fifo, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s a FIFO: still reading after 10 s", fifo)
		}
	}
}
