package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"itformer/configs"
)

// writeExperiment puts an experiment file in a temporary folder.
func writeExperiment(t *testing.T, body string) string {
	t.Helper()
	base, err := filepath.Abs("../configs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tinyexp.json")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(body, "BASE", base)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A tiny experiment end to end, twice: the files appear, and every figure but
// the training time is the same both times. Its runs train on 6,000
// sentences, a quarter of tiny.json's: the figures need only be plausible,
// and the variants' losses differ (after one epoch both may still answer
// every test sentence alike, at 50%).
func TestExperimentEndToEndAndRepeatable(t *testing.T) {
	path := writeExperiment(t, `{"description": "test", "base": "BASE", "set": ["train.epochs=1", "data.train_size=6000"],
		"seeds": [1], "plots": ["grad_norm"],
		"variants": [{"name": "one head", "set": ["model.heads=1"]}, {"name": "two heads", "set": ["model.heads=2"]}]}`)
	e, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var tables [2][][]string
	for i := range tables {
		out := t.TempDir()
		res, err := Run(e, Options{OutDir: out})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"results.md", "results.csv", "runs.csv", "train_loss.png", "validation_accuracy.png", "grad_norm.png"} {
			raw, err := os.ReadFile(filepath.Join(out, f))
			if err != nil || len(raw) == 0 {
				t.Fatalf("%s: %v (%d bytes)", f, err, len(raw))
			}
			if strings.HasSuffix(f, ".png") && !bytes.HasPrefix(raw, []byte("\x89PNG")) {
				t.Errorf("%s is not a PNG", f)
			}
		}
		v := res.Variants
		if len(res.Runs) != 2 || v[0].TestLoss.Mean == v[1].TestLoss.Mean || !(v[1].GradNorm.Mean > 0) ||
			!(v[1].AttentionEntropy.Mean > 0 && v[1].AttentionEntropy.Mean < 1) || !(v[1].TestAccuracy.Mean > 0.3) {
			t.Fatalf("implausible results (after one epoch): %+v", v)
		}
		tables[i] = readCSV(t, filepath.Join(out, "runs.csv"))
	}
	for r := range tables[0] {
		a, b := tables[0][r], tables[1][r]
		if strings.Join(a[:len(a)-1], ",") != strings.Join(b[:len(b)-1], ",") { // the last column is the time
			t.Errorf("runs.csv row %d differs between two runs of the experiment:\n%v\n%v", r, a, b)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestExperimentFileErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": []}], "plotz": []}`, `unknown field "plotz"`},
		{`{"base": "BASE", "seeds": [], "variants": [{"name": "a", "set": []}]}`, "seeds: list at least one"},
		{`{"base": "BASE", "seeds": [1], "variants": []}`, "variants: list at least one"},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": []}, {"name": "a", "set": []}]}`, `name "a" is empty or repeated`},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": ["model.nope=1"]}]}`, "unknown key model.nope"},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": ["model.heads=5"]}]}`, "divisible by heads"},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": []}], "plots": ["loss"]}`, `unknown series "loss"`},
		{`{"base": "BASE", "seeds": [1], "seeds": [2], "variants": [{"name": "a", "set": []}]}`, "duplicate key seeds"},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": []}, {"name": "b", "set": [], "name": "c"}]}`, "duplicate key variants[1].name"},
		{`{"base": "BASE", "seeds": [1], "Seeds": [2], "variants": [{"name": "a", "set": []}]}`, "duplicate key Seeds"},
		{`{"description": "` + strings.Repeat("x", 5000) + `", "base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": []}]}`,
			"description is 5000 bytes long; at most 4096"},
		{`{"base": "/nonexistent.json", "seeds": [1], "variants": [{"name": "a", "set": []}]}`, "nonexistent.json"},
		// A repeated seed reruns the same run: the mean ± spread would count it twice.
		{`{"base": "BASE", "seeds": [1, 2, 1], "variants": [{"name": "a", "set": []}]}`, "seeds[2]: seed 1 is repeated"},
		{`{"seeds": [1], "variants": [{"name": "a", "set": []}]}`, "base: name the config file the variants start from"},
		{``, "tinyexp.json: the file is empty; want a JSON object ({...})"}, // it had said "EOF"
		{`{"base": "BASE", "seeds": "1", "variants": []}`, "tinyexp.json: seeds: want a JSON array ([...]), got a JSON string"},
		// A variant's name names its runs' folders: it must not lead out of -runs.
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "../../etc/x", "set": []}]}`,
			`variants[0]: name "../../etc/x" is not a plain name: it names the runs' folders (NAME-seedN), so it may hold letters, digits, spaces and punctuation, but not '/'`},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "a", "set": []}, {"name": "..\\x", "set": []}]}`, `variants[1]: name "..\\x" is not a plain name`},
		{`{"base": "BASE", "seeds": [1], "variants": [{"name": "tab\there", "set": []}]}`, `name "tab\there" is not a plain name`},
	}
	for _, tc := range cases {
		_, err := Load(writeExperiment(t, tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "tinyexp.json") {
			t.Errorf("%.200s:\n got %v\nwant an error naming tinyexp.json and %q", tc.body, err, tc.want)
		}
	}
}

// Every shipped experiment loads from the configs built into the binary, from
// any directory, its base resolved inside them, and resolves every run's
// config exactly as the file on disk does.
func TestShippedExperimentsFromAnyDirectory(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if len(configs.Experiments()) != 5 {
		t.Errorf("shipped experiments %v, want the 5 in configs/experiments", configs.Experiments())
	}
	for _, name := range configs.Experiments() {
		shown := "configs/experiments/" + name + ".json"
		e, err := LoadFS(configs.FS, "experiments/"+name+".json", shown)
		if err != nil {
			t.Fatal(err)
		}
		disk, err := Load(filepath.Join(repo, shown))
		if err != nil {
			t.Fatal(err)
		}
		if e.Path != shown || e.Name != name {
			t.Errorf("%s: Path %q, Name %q", name, e.Path, e.Name)
		}
		for _, v := range e.Variants {
			a, errA := e.Config(v, 2)
			b, errB := disk.Config(v, 2)
			if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s, %s: the built-in config differs from the file's: %v %v", name, v.Name, errA, errB)
			}
		}
	}
}

// The results folder may be new, empty, or hold an experiment's earlier
// results (docs/experiments/NAME is rewritten); anything else is refused.
func TestCheckOutDir(t *testing.T) {
	for _, tc := range []struct {
		files []string
		ok    bool
	}{
		{nil, true},
		{[]string{"results.md", "results.csv", "runs.csv", "train_loss.png", "validation_accuracy.png", "grad_norm.png", "attention_entropy.png"}, true},
		{[]string{"results.md", "notes.txt"}, false},
		{[]string{"photo.png"}, false},
		{[]string{"results.md.bak"}, false},
	} {
		dir := t.TempDir()
		for _, f := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := checkOutDir(dir); (err == nil) != tc.ok {
			t.Errorf("%v: %v, want ok %v", tc.files, err, tc.ok)
		}
	}
	if err := checkOutDir(filepath.Join(t.TempDir(), "new")); err != nil {
		t.Errorf("a new folder: %v", err)
	}
}

// A cancelled context (Ctrl-C) starts no run and writes no results; the
// temporary runs folder is removed and the error says how many runs finished.
func TestCancelledRunsNothing(t *testing.T) {
	e, err := Load(writeExperiment(t, `{"description": "test", "base": "BASE", "set": ["train.epochs=1", "data.train_size=6000"],
		"seeds": [1, 2], "variants": [{"name": "one", "set": []}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tmp, out := t.TempDir(), filepath.Join(t.TempDir(), "results")
	t.Setenv("TMPDIR", tmp)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = Run(e, Options{OutDir: out, Context: ctx})
	if !errors.Is(err, ErrInterrupted) || err.Error() != "interrupted with 0 of 2 runs finished" {
		t.Errorf("Run with a cancelled context: %v, want ErrInterrupted with 0 of 2 runs finished", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left %s in TMPDIR", left[0].Name())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a cancelled experiment made its results folder (%v)", err)
	}
}

// Each run's seed comes from "seeds", set after the overrides: a "seed"
// override, shared or a variant's, would be replaced in silence (both
// variants' runs came out alike), so it is refused, naming the file, the
// variant and the override. data.seed, the corpus's, is another field.
func TestSeedOverrideRefused(t *testing.T) {
	for _, tc := range []struct{ set, variantSet, want string }{
		{`"data.seed=2"`, `"data.seed=3"`, ""},
		{`"train.epochs=1"`, `"seed=77"`, `tinyexp.json: variants[0] (a): set[0] "seed=77": each run's seed comes from "seeds"`},
		{`"seed=77"`, ``, `tinyexp.json: set[0] "seed=77": each run's seed comes from "seeds"`},
		{`"train.epochs=1", " seed = 5"`, ``, `set[1] " seed = 5": each run's seed`},
	} {
		_, err := Load(writeExperiment(t, `{"base": "BASE", "set": [`+tc.set+`], "seeds": [1, 2],
			"variants": [{"name": "a", "set": [`+tc.variantSet+`]}, {"name": "b", "set": []}]}`))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("set [%s], variant a's [%s]: %v, want %q (\"\": no error)", tc.set, tc.variantSet, err, tc.want)
		}
	}
}

// A variant's name names its runs' folders (NAME-seedN): one that makes a
// folder name longer than a file system takes is refused when the file is
// read, not when its first run starts, after the runs before it trained.
func TestVariantNameFitsItsRunsFolders(t *testing.T) {
	for _, tc := range []struct{ name, seeds, want string }{
		{strings.Repeat("n", 249), "1", ""}, // n...n-seed1: 255 bytes
		{strings.Repeat("n", 249), "1, 10", "variants[0]: name is 249 bytes long: it names the runs' folders (NAME-seedN), and with seed 10 that name would be 256 bytes, over the 255"},
		{strings.Repeat("n", 300), "1", "variants[0]: name is 300 bytes long"},
		{strings.Repeat("é", 124), "1", ""}, // bytes, not letters, count: 248 + 6
		{strings.Repeat("é", 125), "1", "name is 250 bytes long"},
	} {
		_, err := Load(writeExperiment(t, `{"base": "BASE", "seeds": [`+tc.seeds+`], "variants": [{"name": "`+tc.name+`", "set": []}]}`))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("a %d-byte name, seeds [%s]: %v, want %q (\"\": no error)", len(tc.name), tc.seeds, err, tc.want)
		}
	}
}
