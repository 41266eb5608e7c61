package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/config"
	"itformer/configs"
)

// withMaxMemory sets config.MaxMemory (-max-memory) for one test.
func withMaxMemory(t *testing.T, limit float64) {
	t.Helper()
	old := config.MaxMemory
	config.MaxMemory = config.ByteSize(limit)
	t.Cleanup(func() { config.MaxMemory = old })
}

// tinyRuns loads an experiment of one-epoch runs on 3,000 sentences.
func tinyRuns(t *testing.T, seeds string, variants ...string) *Experiment {
	t.Helper()
	var vs []string
	for _, v := range variants {
		vs = append(vs, `{"name": "`+v+`", "set": []}`)
	}
	e, err := Load(writeExperiment(t, `{"description": "test", "base": "BASE", "set": ["train.epochs=1", "data.train_size=3000"],
		"seeds": [`+seeds+`], "variants": [`+strings.Join(vs, ", ")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The runs trained at once must fit in config.MaxMemory together, not only
// each alone: by default no more start than fit, and an asked number that
// would not fit is refused, naming -workers, the estimates and the limit.
func TestWorkersFitTheMemoryLimit(t *testing.T) {
	e := tinyRuns(t, "1", "a")
	each, err := e.runMemory()
	if err != nil || each < 100e6 {
		t.Fatalf("runMemory: %v, %v", each, err)
	}
	for _, tc := range []struct {
		asked, runs int
		limit       float64 // in runs' estimates
		want        int
		wantErr     string
	}{
		{0, 3, 1.5, 1, ""}, // by default as many as fit
		{0, 1, 10, 1, ""},  // and no more than there are runs
		{2, 3, 2.5, 2, ""},
		{1000, 3, 3.5, 3, ""},
		{1000, 12, 1.1, 0, "-workers 1000 would train 12 runs at once, each estimated to need up to " + config.FormatBytes(each)},
		{2, 3, 1.9, 0, "in all, over the limit of " + config.ByteSize(1.9*each).String() + ": give -workers 1 or fewer, or raise -max-memory"},
	} {
		withMaxMemory(t, tc.limit*each)
		n, err := e.workers(tc.asked, tc.runs)
		if n != tc.want || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%d asked for %d runs, limit %.1f runs: %d, %v; want %d, %q", tc.asked, tc.runs, tc.limit, n, err, tc.want, tc.wantErr)
		}
	}
}

// The shipped experiments still run by default under the default limit.
func TestShippedExperimentsFitByDefault(t *testing.T) {
	withMaxMemory(t, float64(config.DefaultMaxMemory))
	for _, name := range configs.Experiments() {
		e, err := LoadFS(configs.FS, "experiments/"+name+".json", name)
		if err != nil {
			t.Fatal(err)
		}
		runs := len(e.Variants) * len(e.Seeds)
		if n, err := e.workers(0, runs); err != nil || n < 1 || n > runs {
			t.Errorf("%s: %d workers, %v", name, n, err)
		}
	}
}

// What would stop a later run stops the experiment before any run trains:
// too many runs at once for the memory limit, and a run folder under -runs
// that its run would refuse (another program's).
func TestRefusedBeforeAnyRunTrains(t *testing.T) {
	e := tinyRuns(t, "1", "a", "b")
	each, err := e.runMemory()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		workers int
		limit   float64 // in runs' estimates
		foreign string  // a file left in the runs folder
		want    string
	}{
		{2, 1.5, "", "-workers 2 would train 2 runs at once"},
		{1, 10, "b-seed1/notes.txt", "b, seed 1: refusing to write into a folder this program did not make"},
	} {
		withMaxMemory(t, tc.limit*each)
		runs, out := t.TempDir(), filepath.Join(t.TempDir(), "results")
		if tc.foreign != "" {
			os.MkdirAll(filepath.Dir(filepath.Join(runs, tc.foreign)), 0o755)
			if err := os.WriteFile(filepath.Join(runs, tc.foreign), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		trained := 0
		_, err := Run(e, Options{OutDir: out, RunsDir: runs, Workers: tc.workers, OnRunDone: func(int, int) { trained++ }})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc, err, tc.want)
		}
		if _, err := os.Stat(filepath.Join(runs, "a-seed1")); trained > 0 || !os.IsNotExist(err) {
			t.Errorf("%+v: %d runs trained before the refusal (a-seed1: %v)", tc, trained, err)
		}
	}
}
