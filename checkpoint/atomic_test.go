//go:build unix

package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// A process killed while Save wrote left .weights-….safetensors.tmp-N or
// .checkpoint.json.tmp-N behind; the next Save into that folder removes them
// if they are older than the saving process, and nothing else.
func TestSaveRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	stale := []string{".weights-0123456789ab.safetensors.tmp-12345", ".checkpoint.json.tmp-678", ".checkpoint.json.tmp-2"}
	kept := []string{
		".notes.txt.tmp-1",                         // not a name Save writes
		".weights-0123456789ab.safetensors.tmp-x1", // not WriteFileAtomic's suffix
		"weights-0123456789ab.safetensors.tmp-1",   // no leading dot
		".checkpoint.json.tmp-1.bak",               //
		".checkpoint.json.tmp-",                    //
		"checkpoint.json.tmp-3",                    //
	}
	for _, name := range append(append([]string{}, stale...), kept...) {
		writeOld(t, filepath.Join(dir, name), old)
	}
	fresh := ".checkpoint.json.tmp-999" // written after this process started: maybe a live writer's
	if err := os.WriteFile(filepath.Join(dir, fresh), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, ".checkpoint.json.tmp-4") // a folder is never removed
	if err := os.Mkdir(sub, 0o755); err != nil || os.Chtimes(sub, old, old) != nil {
		t.Fatal(err)
	}
	f := newFixture(t, "float64", 16, 1)
	if err := Save(dir, f.meta, f.params); err != nil {
		t.Fatal(err)
	}
	for _, name := range stale {
		if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("stale %s is still there (%v)", name, err)
		}
	}
	for _, name := range append(kept, fresh, filepath.Base(sub)) {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}

func writeOld(t *testing.T, path string, when time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte("half a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, when, when); err != nil {
		t.Fatal(err)
	}
}

// Writing over a folder, or into a folder that does not exist, is refused with
// a message that names the path asked for (not only the temporary's name),
// and leaves no temporary behind.
func TestWriteFileAtomicNamesTheBadPath(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "out.png")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{folder, folder + ": it is a folder, not a file"},
		{filepath.Join(dir, "missing", "out.png"), "cannot write " + filepath.Join(dir, "missing", "out.png") + ": "},
	} {
		err := WriteFileAtomic(tc.path, []byte("x"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WriteFileAtomic(%s) = %v, want an error containing %q", tc.path, err, tc.want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporaries left behind: %v", left)
	}
}
