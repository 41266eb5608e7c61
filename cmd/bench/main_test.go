package main

import (
	"os"
	"path/filepath"
	"testing"
)

// bench's default -config and -script are built in, so that it runs from any
// directory. A stand-in for Python copies the script it was given and fails;
// bench then still runs the Go step (and says how to install PyTorch).
func TestDefaultsFromAnyDirectory(t *testing.T) {
	want, err := os.ReadFile("pytorch_step.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	got, python := filepath.Join(dir, "script-seen.py"), filepath.Join(dir, "python")
	if err := os.WriteFile(python, []byte("#!/bin/sh\ncat \"$1\" > "+got+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := run([]string{"-only", "pytorch", "-rounds", "1", "-steps", "1", "-torch-threads", "1", "-python", python}); err != nil {
		t.Fatalf("bench without PyTorch failed instead of running the Go side: %v", err)
	}
	if seen, err := os.ReadFile(got); err != nil || string(seen) != string(want) {
		t.Errorf("Python was not given cmd/bench/pytorch_step.py (%v, %d bytes)", err, len(seen))
	}
}
