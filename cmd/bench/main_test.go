package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// Flag mistakes are refused before any measuring, each naming its flag.
func TestFlagMistakesNameTheFlag(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	noPython := filepath.Join(t.TempDir(), "python")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-rounds", "0"}, "-rounds"},
		{[]string{"-only", "bogus"}, `"bogus"`},
		{[]string{"-torch-threads", "0"}, "-torch-threads"},
		{[]string{"-plot", t.TempDir()}, "add scaling to -only"},
		{[]string{"-only", "scaling", "-plot", filepath.Join(t.TempDir(), "missing")}, "-plot"},
		{[]string{"-only", "scaling", "-plot", notDir}, "-plot " + notDir},
		{[]string{"stray"}, `"stray"`},
		{[]string{"-only", "infer", "-dtype", "float16"}, "float16"},
		{[]string{"-only", "infer", "-config", filepath.Join(t.TempDir(), "nope.json")}, "nope.json"},
		// Asked for by name, the PyTorch side is not skipped with status 0
		// for want of the Python to run it (the default -only still is).
		{[]string{"-only", "pytorch", "-python", noPython}, "-python " + noPython + ": stat " + noPython + ": no such file"},
		{[]string{"-only", "pytorch", "-python", notDir}, "-python " + notDir + ": permission denied"},
		{[]string{"-only", "step,pytorch", "-python", "no-such-python-here"}, "-python no-such-python-here: executable file not found"},
	} {
		err := run(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %s", c.args, err, c.want)
		}
	}
}

// Every size of the scaling table builds a Go stepper, including T = 16,
// below the corpus's longest sentence: the step runs on the sentences that
// fit (a training run refuses such a max_len; the step section does not).
func TestScalingSizesBuild(t *testing.T) {
	for _, T := range []int{16, 24} {
		o := options{sets: []string{"train.eval_batch_size=32", "model.max_len=" + strconv.Itoa(T)}}
		s, err := newGoStepper(o)
		if err != nil {
			t.Fatalf("T = %d: %v", T, err)
		}
		s.padded = true
		if _, err := s.check(); err != nil {
			t.Errorf("T = %d: a padded step failed: %v", T, err)
		}
		s.Close()
	}
}
