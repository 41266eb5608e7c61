//go:build unix

package checkpoint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// within fails the test if f has not returned after a few seconds: a FIFO
// used to block a reader forever.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still running after 5 s", what)
		return nil
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
}

// checkpoint.json and the weights are read only as regular files, the weights
// up to the size their model config implies; a FIFO at RUN/checkpoint.json
// made infer hang forever.
func TestLoadReadsOnlyRegularFilesOfBoundedSize(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"FIFO as checkpoint.json", func(t *testing.T, dir string) {
			mkfifo(t, filepath.Join(dir, FileName))
		}, "checkpoint.json: a named pipe, not a regular file"},
		{"folder as checkpoint.json", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, FileName))
			os.Mkdir(filepath.Join(dir, FileName), 0o755)
		}, "checkpoint.json: a directory, not a regular file"},
		{"FIFO as weights", func(t *testing.T, dir string) {
			mkfifo(t, weightsPath(t, dir))
		}, "weights-"},
		{"huge checkpoint.json", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["padding"] = strings.Repeat(" ", 1_000_000) })
		}, "checkpoint.json: larger than 1 MB, the limit for this file"},
		{"weights larger than the model", func(t *testing.T, dir string) {
			raw, err := os.ReadFile(weightsPath(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			installWeights(t, dir, append(raw, make([]byte, 200_000)...))
		}, "larger than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := newFixture(t, "float64", 16, 5).save(t)
			tc.damage(t, dir)
			err := within(t, "Load", func() error { _, err := Load(dir); return err })
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// Save reads the old checkpoint.json to find the weights it replaces; a FIFO
// there must not block it.
func TestSaveOverAFIFO(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, FileName))
	f := newFixture(t, "float64", 16, 5)
	if err := within(t, "Save", func() error { return Save(dir, f.meta, f.params) }); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
}

// LoadFS applies the same checks to an fs.FS that reports a file's type.
func TestLoadFSRefusesSpecialFiles(t *testing.T) {
	fsys := fstest.MapFS{"m/" + FileName: &fstest.MapFile{Data: []byte(`{"format": 1}`), Mode: fs.ModeNamedPipe}}
	_, err := LoadFS(fsys, "m/"+FileName)
	if err == nil || !strings.Contains(err.Error(), "m/checkpoint.json: a named pipe, not a regular file") {
		t.Errorf("LoadFS = %v, want a refusal of the named pipe", err)
	}
}

// A zipped checkpoint is opened only as a regular file within the size
// limit, which the memory limit lowers, and is never read whole: a FIFO
// named fifo.zip hung every command, a link to /dev/zero grew without
// bound, and a 1.5 GB sparse file was read whole before it was refused.
func TestLoadZipOpensOnlyRegularFilesOfBoundedSize(t *testing.T) {
	dir := t.TempDir()
	fifo, zero, sparse := filepath.Join(dir, "fifo.zip"), filepath.Join(dir, "zero.zip"), filepath.Join(dir, "sparse.zip")
	mkfifo(t, fifo)
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1_500_000_000); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	for _, tc := range []struct {
		path string
		opts []Option
		want string
	}{
		{fifo, nil, "fifo.zip: a named pipe, not a regular file"},
		{zero, nil, "zero.zip: a character device, not a regular file"},
		{sparse, []Option{MaxMemory(200_000_000)}, "sparse.zip: larger than 200 MB, the limit for this file"},
		{sparse, nil, "sparse.zip: not a zipped checkpoint"},
	} {
		start := time.Now()
		err := within(t, "Load "+tc.path, func() error { _, err := Load(tc.path, tc.opts...); return err })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s) = %v, want an error containing %q", filepath.Base(tc.path), err, tc.want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("Load(%s) took %v to refuse it: read whole?", filepath.Base(tc.path), d)
		}
	}
}
