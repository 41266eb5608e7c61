package train

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/checkpoint"
)

// A run of two members writes member 1 in the run folder and member 2, the
// same recipe with seed + 1, in members/2: a whole run folder of its own,
// the run `train -seed` would make. A run stopped between members goes on
// with the member still to train when resumed, and makes the same weights.
func TestRunTrainsMembers(t *testing.T) {
	dir := t.TempDir()
	sets := []string{"data.train_size=4000", "train.epochs=1", "train.members=2"}
	var started []int
	r, err := trainConfigWith(t, Options{OutDir: dir, NoHistory: true, OnMember: func(k, of int) {
		if of != 2 {
			t.Errorf("OnMember(%d, %d): want of 2", k, of)
		}
		started = append(started, k)
	}}, sets...)
	if err != nil {
		t.Fatal(err)
	}
	if len(started) != 1 || started[0] != 2 {
		t.Errorf("OnMember was called for members %v, want [2]", started)
	}
	one, err := checkpoint.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	members, err := checkpoint.LoadMembers(os.DirFS(dir), ".", one)
	if err != nil {
		t.Fatal(err)
	}
	if len(members) != 1 {
		t.Fatalf("LoadMembers: %d members, want 1", len(members))
	}
	two := members[0]
	if two.Meta.Config.Seed != r.cfg.Seed+1 || two.Meta.Config.Train.Members != 0 {
		t.Errorf("member 2 has seed %d and members %d, want %d and 0", two.Meta.Config.Seed, two.Meta.Config.Train.Members, r.cfg.Seed+1)
	}
	if bytes.Equal(weightsOf(t, dir), weightsOf(t, MemberDir(dir, 2))) {
		t.Error("members 1 and 2 have the same weights: the seed did not reach member 2")
	}
	if _, err := Resume(dir, Options{}); !errors.Is(err, ErrRunFinished) {
		t.Fatalf("Resume of a finished run of members: %v, want ErrRunFinished", err)
	}

	ms, err := ReadMembers(dir)
	if err != nil || len(ms) != 2 || ms[0].Test.Accuracy != r.metrics.Test.Accuracy {
		t.Fatalf("ReadMembers: %d metrics (%v), want 2, member 1's first", len(ms), err)
	}
	if two, _ := ReadMetrics(filepath.Join(MemberDir(dir, 2), "metrics.json")); two == nil || ms[1].Test.Accuracy != two.Test.Accuracy || ms[1].BestEpoch != two.BestEpoch {
		t.Errorf("ReadMembers' member 2 is not members/2/metrics.json")
	}

	// Stopped between members: member 2's folder lost its metrics.json.
	want := weightsOf(t, MemberDir(dir, 2))
	if err := os.Remove(filepath.Join(MemberDir(dir, 2), "metrics.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMembers(dir); err == nil || !strings.Contains(err.Error(), "member 2 of 2") {
		t.Errorf("ReadMembers with member 2 unfinished: %v, want an error naming it", err)
	}
	if _, err := Resume(dir, Options{NoHistory: true}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(weightsOf(t, MemberDir(dir, 2)), want) {
		t.Error("member 2 retrained on resume differs from the first time")
	}
}

// A run whose member is missing is refused by LoadMembers, naming it.
func TestLoadMembersNamesTheMissingMember(t *testing.T) {
	dir := t.TempDir()
	if _, err := trainConfigWith(t, Options{OutDir: dir, NoHistory: true}, "data.train_size=4000", "train.epochs=1", "train.members=2"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, checkpoint.MembersDir)); err != nil {
		t.Fatal(err)
	}
	one, err := checkpoint.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = checkpoint.LoadMembers(os.DirFS(dir), ".", one)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("member 2 of the run's 2")) {
		t.Fatalf("LoadMembers without members/: %v, want an error naming member 2", err)
	}
}

// weightsOf reads the weights file of the run in dir.
func weightsOf(t *testing.T, dir string) []byte {
	t.Helper()
	ck, err := checkpoint.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, ck.Meta.Weights))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// A new run into the folder of an earlier one trains every member anew: a
// finished member left there by the earlier run (another config, or another
// corpus) is not kept, as it is when a stopped run is resumed.
func TestNewRunDoesNotKeepEarlierMembers(t *testing.T) {
	dir := t.TempDir()
	if _, err := trainConfigWith(t, Options{OutDir: dir, NoHistory: true}, "data.train_size=4000", "train.epochs=1", "train.members=2"); err != nil {
		t.Fatal(err)
	}
	before := weightsOf(t, MemberDir(dir, 2))
	if _, err := trainConfigWith(t, Options{OutDir: dir, NoHistory: true, Overwrite: true}, "data.train_size=4000", "train.epochs=2", "train.members=2"); err != nil {
		t.Fatal(err)
	}
	two, err := ReadMetrics(filepath.Join(MemberDir(dir, 2), "metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := checkpoint.Load(MemberDir(dir, 2))
	if err != nil {
		t.Fatal(err)
	}
	if ck.Meta.Config.Train.Epochs != 2 || bytes.Equal(weightsOf(t, MemberDir(dir, 2)), before) || two.BestEpoch < 1 {
		t.Errorf("member 2 after a new 2-epoch run: config epochs %d, weights changed %v: the earlier run's member was kept",
			ck.Meta.Config.Train.Epochs, !bytes.Equal(weightsOf(t, MemberDir(dir, 2)), before))
	}
}
