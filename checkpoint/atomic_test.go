//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A checkpoint is meant to be shared (a model another user runs), so its
// files are written 0644 less the umask, not os.CreateTemp's private 0600.
func TestSavedFilesAreReadableByOthers(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := newFixture(t, "float64", 16, 1).save(t)
	for _, name := range []string{FileName, readMetaFile(t, dir).Weights} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != 0o644 {
			t.Errorf("%s has mode %v, want -rw-r--r--", name, got)
		}
	}
	syscall.Umask(0o077) // a private umask is still honoured
	path := filepath.Join(dir, "private.json")
	if err := WriteFileAtomic(path, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("with umask 077: %v, %v; want -rw-------", st.Mode(), err)
	}
}
