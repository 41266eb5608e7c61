package train

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// foreignFolder is someone else's folder whose files happen to have a run's
// names: a checkpoint.json that names their own weights file, and a resume/.
func foreignFolder(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"checkpoint.json":                           `{"format": 1, "weights": "weights-aaaaaaaaaaaa.safetensors"}`,
		"weights-aaaaaaaaaaaa.safetensors":          "their weights",
		"config.json":                               "their config",
		"epochs.jsonl":                              "their log",
		"metrics.json":                              "their metrics",
		"notes.txt":                                 "their notes",
		"resume/checkpoint.json":                    `{"format": 1, "weights": "weights-bbbbbbbbbbbb.safetensors"}`,
		"resume/weights-bbbbbbbbbbbb.safetensors":   "their resume weights",
		"resume/.checkpoint.json.tmp-not-ours-ever": "their odd file",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, files
}

// unchanged fails for every listed file that is gone or altered.
func unchanged(t *testing.T, dir string, files map[string]string, names ...string) {
	t.Helper()
	for _, name := range names {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(raw) != files[name] {
			t.Errorf("%s was changed or deleted: %q, %v", name, raw, err)
		}
	}
}

// -out into someone else's folder is refused before anything is written.
func TestRunRefusesForeignFolder(t *testing.T) {
	dir, files := foreignFolder(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // today's code would stop at the first step, after writing
	_, err := Run(tinyConfig, Options{OutDir: dir, Context: ctx})
	if !errors.Is(err, ErrFolderInUse) {
		t.Fatalf("Run into a foreign folder: %v, want ErrFolderInUse", err)
	}
	for _, want := range []string{dir, "checkpoint.json", "notes.txt", MarkerName} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	unchanged(t, dir, files, names...)
	if _, err := os.Stat(filepath.Join(dir, MarkerName)); !os.IsNotExist(err) {
		t.Errorf("the refused folder got a marker (%v)", err)
	}
}

// With Overwrite the run's own files are replaced, and no other file is
// deleted: not the weights their checkpoint.json named, not their resume/ files.
func TestRunOverwriteDeletesNothingElse(t *testing.T) {
	t.Parallel() // a long test (see smallCorpus)
	dir, files := foreignFolder(t)
	if _, err := trainConfigWith(t, Options{OutDir: dir, Overwrite: true}, "train.epochs=1", smallCorpus); err != nil {
		t.Fatal(err)
	}
	unchanged(t, dir, files, "weights-aaaaaaaaaaaa.safetensors", "notes.txt",
		"resume/weights-bbbbbbbbbbbb.safetensors", "resume/.checkpoint.json.tmp-not-ours-ever")
	if err := CheckOutDir(dir, false); err != nil {
		t.Errorf("after an overwriting run the folder is not a run folder: %v", err)
	}
}

// A run folder this program made is written into again without Overwrite;
// the previous run's closing files go, so they cannot describe the new run.
func TestRunReusesItsOwnFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background(), n: 3}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("first run: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(tinyConfig, Options{OutDir: dir, Context: &stopAfter{Context: context.Background()}}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("second run into its own folder: %v, want it to start (and be interrupted)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "metrics.json")); !os.IsNotExist(err) {
		t.Errorf("the previous run's metrics.json survived a new run (%v)", err)
	}
}

func TestCheckOutDir(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(tmp, "missing"), tmp + "/empty"} {
		os.Mkdir(filepath.Join(tmp, "empty"), 0o755)
		if err := CheckOutDir(dir, false); err != nil {
			t.Errorf("CheckOutDir(%s): %v", dir, err)
		}
	}
	if err := CheckOutDir(file, true); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("CheckOutDir(a file) = %v", err)
	}
}

// A symbolic link to nothing is named as one, with or without -overwrite:
// it read as a missing folder, and making it failed with "file exists". A
// link to a folder is that folder.
func TestCheckOutDirDanglingLink(t *testing.T) {
	tmp := t.TempDir()
	dangling, linked := filepath.Join(tmp, "dangling"), filepath.Join(tmp, "linked")
	if err := os.Symlink(filepath.Join(tmp, "gone"), dangling); err != nil {
		t.Skipf("cannot make a symbolic link: %v", err)
	}
	if err := os.Symlink(t.TempDir(), linked); err != nil {
		t.Fatal(err)
	}
	for _, overwrite := range []bool{false, true} {
		want := "run folder " + dangling + " is a dangling symbolic link (to " + filepath.Join(tmp, "gone") + ", which does not exist)"
		if err := CheckOutDir(dangling, overwrite); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckOutDir(a dangling link, overwrite %v) = %v, want %q", overwrite, err, want)
		}
		if err := CheckOutDir(linked, overwrite); err != nil {
			t.Errorf("CheckOutDir(a link to an empty folder, overwrite %v) = %v", overwrite, err)
		}
	}
}
