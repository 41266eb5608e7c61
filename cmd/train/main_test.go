package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tiny = "../../configs/tiny.json"

// -out into a folder of someone else's files is refused, and the message
// says how to write there anyway.
func TestOutRefusesForeignFolder(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "checkpoint.json")
	if err := os.WriteFile(notes, []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run([]string{"-config", tiny, "-set", "train.epochs=1", "-out", dir})
	if err == nil || !strings.Contains(err.Error(), "-overwrite") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("train -out FOREIGN: %v, want a refusal that names the folder and -overwrite", err)
	}
	if raw, _ := os.ReadFile(notes); string(raw) != "theirs" {
		t.Errorf("their checkpoint.json now holds %q", raw)
	}
}
