package cli

import (
	"errors"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/checkpoint"
)

// LoadMember gives one member of the embedded ensemble alone, or all of
// them for 0, and names the flag and the range for a member it has not.
func TestLoadMember(t *testing.T) {
	fs := NewFlagSet("tool", "tool [-member K]")
	all, err := fs.LoadMember("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if all.Members() < 2 {
		t.Fatalf("the embedded model has %d member(s); this test needs an ensemble", all.Members())
	}
	for k := 1; k <= all.Members(); k++ {
		one, err := fs.LoadMember("", k)
		if err != nil {
			t.Fatalf("member %d: %v", k, err)
		}
		if one.Members() != 1 || one.Checkpoint().Meta.SHA256 != all.Each()[k-1].Checkpoint().Meta.SHA256 {
			t.Errorf("member %d: %d members, weights %.12s; want 1, and the weights of Each()[%d]", k, one.Members(), one.Checkpoint().Meta.SHA256, k-1)
		}
	}
	for _, k := range []int{-1, all.Members() + 1} {
		if _, err := fs.LoadMember("", k); err == nil || !strings.Contains(err.Error(), "-member") {
			t.Errorf("member %d: err %v, want one naming -member", k, err)
		}
	}
}

// A -run with nothing there is named whole and said to be missing, by every
// command's loading (infer, explain, serve: LoadModel; wsc, selective:
// LoadMember): it had been "checkpoint /a/b/nope: open nope: no such file or
// directory"; so is a folder without a checkpoint. Other refusals still name
// the file and what is wrong with it.
func TestMissingRunIsNamedWhole(t *testing.T) {
	dir := t.TempDir()
	notes, config := filepath.Join(dir, "notes.txt"), filepath.Join(dir, "config.json")
	for path, body := range map[string]string{notes: "hi", config: "{}"} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs := NewFlagSet("tool", "tool [-run DIR]")
	for _, tc := range []struct {
		run, want string
		missing   bool
	}{
		{"nope", "-run nope: no such file or folder", true},
		{filepath.Join(dir, "does", "not", "exist"), "-run " + filepath.Join(dir, "does", "not", "exist") + ": no such file or folder", true},
		{filepath.Join(dir, "gone", "checkpoint.json"), "-run " + filepath.Join(dir, "gone", "checkpoint.json") + ": no such file or folder", true},
		{filepath.Join(notes, "x"), "-run " + filepath.Join(notes, "x") + ": stat " + filepath.Join(notes, "x") + ": not a directory", false},
		{notes, "checkpoint " + notes + ": not a valid checkpoint JSON", false},
		{config, config + " is not a checkpoint", false},
		{dir, "-run " + dir + ": the folder has no checkpoint.json (it is not a run folder, or its run stopped before the first epoch ended)", true},
	} {
		_, errModel := LoadModel(tc.run)
		_, errMember := fs.LoadMember(tc.run, 1)
		for _, err := range []error{errModel, errMember} {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || errors.Is(err, iofs.ErrNotExist) != tc.missing {
				t.Errorf("-run %s: %v\nwant %q (missing: %v)", tc.run, err, tc.want, tc.missing)
			}
		}
	}
}

// RunFile finds a run's file from a -run that names the folder, its
// checkpoint.json or the file itself, and refuses any other file by name
// instead of reading the folder beside it (history -run notes.json had read
// the history.json beside notes.json).
func TestRunFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"checkpoint.json", "history.json", "notes.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "gone")
	for _, tc := range []struct{ run, want string }{
		{dir, filepath.Join(dir, "history.json")},
		{filepath.Join(dir, "checkpoint.json"), filepath.Join(dir, "history.json")},
		{filepath.Join(dir, "history.json"), filepath.Join(dir, "history.json")},
		{missing, "-run " + missing + ": no such file or folder"}, // as LoadModel says it
		{filepath.Join(dir, "notes.json"), "-run " + filepath.Join(dir, "notes.json") + ": not a run folder, its checkpoint.json or its history.json"},
		{"/dev/null", "-run /dev/null: not a run folder, its checkpoint.json or its history.json"},
	} {
		got, err := RunFile(tc.run, "history.json")
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("RunFile(%s) = %s, want %s", tc.run, got, tc.want)
		}
	}
}

// A run of two members stopped before member 2 saved a checkpoint: the whole
// model says so and how to go on; member 1 alone, which is complete, loads.
func TestAnUnfinishedRunsFirstMemberLoads(t *testing.T) {
	base, err := checkpoint.Load("../defaultmodel/model")
	if err != nil {
		t.Fatal(err)
	}
	meta := base.Meta
	meta.Config.Train.Members = 2
	dir := t.TempDir()
	if err := checkpoint.Save(dir, meta, base.Params); err != nil {
		t.Fatal(err)
	}
	_, err = LoadModel(dir)
	if want := "the run has not trained all its members: continue it with go run ./cmd/train -resume " + dir; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the whole unfinished run: %v, want %q", err, want)
	}
	fs := NewFlagSet("tool", "tool [-member K]")
	if p, err := fs.LoadMember(dir, 1); err != nil || p.Members() != 1 {
		t.Errorf("-member 1 of the unfinished run: %v", err)
	}
}
