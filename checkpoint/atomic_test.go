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

// A process killed while it wrote a file left .weights-….safetensors.tmp-N,
// .checkpoint.json.tmp-N, .config.json.tmp-N or any .NAME.tmp-N behind; the
// next Save into that folder removes every temporary of that form older than
// the saving process (it had known only its own two names), and nothing else.
func TestSaveRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	stale := []string{".weights-0123456789ab.safetensors.tmp-12345", ".checkpoint.json.tmp-678", ".checkpoint.json.tmp-2",
		".config.json.tmp-5", ".epochs.jsonl.tmp-6", "..itformer-run.tmp-7", ".notes.txt.tmp-1"}
	kept := []string{
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
		{filepath.Join(dir, "missing", "out.png"), "cannot write " + filepath.Join(dir, "missing", "out.png") + ": in folder " + filepath.Join(dir, "missing") + ": no such file or directory"},
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

// A path that is a named pipe (or a device such as /dev/null) is written into,
// not renamed over: the rename put a regular file where /dev/null was when
// `history -out /dev/null` ran as root. A symbolic link is followed and kept.
func TestWriteFileAtomicKeepsPipesAndLinks(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	// Open the reading end without blocking, so the writer's open succeeds
	// and a failing (renaming) writer leaves nothing to wait for.
	fd, err := syscall.Open(fifo, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	reader := os.NewFile(uintptr(fd), fifo)
	defer reader.Close()
	if err := WriteFileAtomic(fifo, []byte("picture")); err != nil {
		t.Fatalf("WriteFileAtomic(pipe) = %v", err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v, %v", st.Mode(), err)
	}
	buf := make([]byte, 64)
	if n, _ := reader.Read(buf); string(buf[:n]) != "picture" {
		t.Errorf("the pipe's reader got %q, want %q", buf[:n], "picture")
	}

	target, link := filepath.Join(dir, "target.png"), filepath.Join(dir, "link.png")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v, %v", st.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("the link's target holds %q, want %q", got, "new")
	}
}
