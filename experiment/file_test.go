//go:build unix

package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"itformer/config"
)

// An experiment file is read like a config: a regular file of at most
// config.MaxJSONSize bytes, never a device or a FIFO that would hang.
func TestLoadReadsOnlySmallRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"description": "`+strings.Repeat("x", config.MaxJSONSize)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: a character device, not a regular file"},
		{fifo, "fifo.json: a named pipe, not a regular file"},
		{big, "big.json: larger than 1 MB, the limit for this file"},
	} {
		done := make(chan error, 1)
		go func() { _, err := Load(tc.path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load(%s) = %v, want an error containing %q", tc.path, err, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Load(%s) still reading after 5 s", tc.path)
		}
	}
}
