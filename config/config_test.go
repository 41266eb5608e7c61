package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"itformer/model"
)

// tinyJSON is configs/tiny.json's content, inlined so that error cases can be
// written as small textual edits of a known-good file.
const tinyJSON = `{
  "description": "test",
  "seed": 1,
  "data": {"seed": 1},
  "model": {"d_model": 16, "heads": 2, "d_ff": 32, "layers": 2, "max_len": 16, "dtype": "float64"},
  "train": {
    "epochs": 6,
    "batch_size": 32,
    "eval_batch_size": 128,
    "learning_rate": 0.003,
    "beta1": 0.9,
    "beta2": 0.98,
    "adam_eps": 1e-9,
    "warmup_steps": 50,
    "attention_supervision": 1.0
  }
}`

// tinyConfig is the Config that tinyJSON describes.
var tinyConfig = Run{
	Description: "test",
	Seed:        1,
	Data:        Data{Seed: 1},
	Model:       model.Config{DModel: 16, Heads: 2, DFF: 32, Layers: 2, MaxLen: 16, DType: "float64"},
	Train: Train{Epochs: 6, BatchSize: 32, EvalBatchSize: 128, LearningRate: 0.003, Beta1: 0.9, Beta2: 0.98,
		AdamEps: 1e-9, WarmupSteps: 50, AttentionSupervision: 1},
}

// edit replaces exactly one occurrence of old in tinyJSON.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if n := strings.Count(tinyJSON, old); n != 1 {
		t.Fatalf("edit: %q occurs %d times in tinyJSON, want 1", old, n)
	}
	return strings.Replace(tinyJSON, old, new, 1)
}

// writeConfig writes content to a fresh file and returns its path.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestInlineTinyMatchesStruct(t *testing.T) {
	c, err := Parse([]byte(tinyJSON))
	if err != nil {
		t.Fatalf("Parse(tinyJSON): %v", err)
	}
	if !reflect.DeepEqual(c, tinyConfig) {
		t.Fatalf("Parse(tinyJSON) = %+v\nwant %+v", c, tinyConfig)
	}
}

func TestLoadShippedConfigs(t *testing.T) {
	for _, tc := range []struct {
		file                               string
		dModel, dFF, epochs, layers, heads int
		lr                                 float64
	}{
		{"default.json", 32, 64, 34, 2, 8, 0.003},
		{"tiny.json", 32, 64, 8, 2, 8, 0.003},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := Load(filepath.Join("..", "configs", tc.file))
			if err != nil {
				t.Fatalf("LoadConfig: %v", err)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if c.Model.DModel != tc.dModel || c.Model.DFF != tc.dFF || c.Train.Epochs != tc.epochs || c.Train.LearningRate != tc.lr {
				t.Errorf("got d_model %d, d_ff %d, epochs %d, learning_rate %v; want %d, %d, %d, %v",
					c.Model.DModel, c.Model.DFF, c.Train.Epochs, c.Train.LearningRate, tc.dModel, tc.dFF, tc.epochs, tc.lr)
			}
			if c.Seed != 1 || c.Data.Seed != 1 || c.Model.DType != "float64" || c.Model.Heads != tc.heads || c.Model.Layers != tc.layers {
				t.Errorf("unexpected config %+v", c)
			}
			if c.Description == "" {
				t.Error("description is empty")
			}
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	cases := []struct {
		name    string
		content string
		want    []string // substrings of the error, besides the file's path
	}{
		{"unknown top-level key", edit(t, `"seed": 1,`, `"seed": 1, "sed": 2,`), []string{"unknown key sed"}},
		{"unknown nested key", edit(t, `"dtype": "float64"}`, `"dtype": "float64", "foo": 1}`), []string{"unknown key model.foo"}},
		{"unknown key in train", edit(t, `"epochs": 6,`, `"epochs": 6, "epoch": 6,`), []string{"unknown key train.epoch"}},
		{"wrong type string for int", edit(t, `"d_model": 16`, `"d_model": "big"`), []string{"model.d_model: want an int, got a JSON string"}},
		{"wrong type string for float", edit(t, `"learning_rate": 0.003`, `"learning_rate": "fast"`), []string{"train.learning_rate: want a float64, got a JSON string"}},
		{"wrong type for section", edit(t, `"data": {"seed": 1}`, `"data": 7`), []string{"data", "number"}},
		{"fractional int", edit(t, `"epochs": 6`, `"epochs": 2.5`), []string{"train.epochs"}},
		{"syntax error", edit(t, `"epochs": 6,`, `"epochs": 6,,`), []string{"line 7"}},
		{"syntax error on line 1", `{"seed": }`, []string{"line 1"}},
		{"trailing comma", edit(t, `"attention_supervision": 1.0`, `"attention_supervision": 1.0,`), []string{"line 16"}},
		{"empty file", ``, []string{"line 1"}},
		{"zero epochs", edit(t, `"epochs": 6`, `"epochs": 0`), []string{"train.epochs must be positive, got 0"}},
		{"negative epochs", edit(t, `"epochs": 6`, `"epochs": -2`), []string{"train.epochs must be positive, got -2"}},
		{"zero batch_size", edit(t, `"batch_size": 32`, `"batch_size": 0`), []string{"train.batch_size must be positive, got 0"}},
		{"negative eval_batch_size", edit(t, `"eval_batch_size": 128`, `"eval_batch_size": -1`), []string{"train.eval_batch_size must be positive, got -1"}},
		{"zero learning_rate", edit(t, `"learning_rate": 0.003`, `"learning_rate": 0`), []string{"train.learning_rate must be positive"}},
		{"zero adam_eps", edit(t, `"adam_eps": 1e-9`, `"adam_eps": 0`), []string{"train.adam_eps must be positive"}},
		{"negative warmup", edit(t, `"warmup_steps": 50`, `"warmup_steps": -1`), []string{"train.warmup_steps must not be negative, got -1"}},
		{"zero d_model", edit(t, `"d_model": 16`, `"d_model": 0`), []string{"model", "d_model must be positive, got 0"}},
		{"negative d_model", edit(t, `"d_model": 16`, `"d_model": -16`), []string{"model", "d_model must be positive, got -16"}},
		{"zero heads", edit(t, `"heads": 2`, `"heads": 0`), []string{"heads must be positive, got 0"}},
		{"zero d_ff", edit(t, `"d_ff": 32`, `"d_ff": 0`), []string{"d_ff must be positive, got 0"}},
		{"zero layers", edit(t, `"layers": 2`, `"layers": 0`), []string{"layers must be positive, got 0"}},
		{"zero max_len", edit(t, `"max_len": 16`, `"max_len": 0`), []string{"max_len must be positive, got 0"}},
		{"d_model not divisible by heads", edit(t, `"heads": 2`, `"heads": 3`), []string{"d_model (16) must be divisible by heads (3)"}},
		{"bad dtype", edit(t, `"dtype": "float64"`, `"dtype": "float16"`), []string{"dtype", `"float16"`}},
		{"missing dtype", edit(t, `, "dtype": "float64"`, ``), []string{"dtype", `got ""`}},
		{"negative attention_supervision", edit(t, `"attention_supervision": 1.0`, `"attention_supervision": -0.5`), []string{"train.attention_supervision must not be negative, got -0.5"}},
		{"beta1 equal to 1", edit(t, `"beta1": 0.9`, `"beta1": 1`), []string{"train.beta1 must be in [0, 1), got 1"}},
		{"beta1 above 1", edit(t, `"beta1": 0.9`, `"beta1": 1.5`), []string{"train.beta1 must be in [0, 1), got 1.5"}},
		{"negative beta1", edit(t, `"beta1": 0.9`, `"beta1": -0.1`), []string{"train.beta1 must be in [0, 1)"}},
		{"beta2 equal to 1", edit(t, `"beta2": 0.98`, `"beta2": 1`), []string{"train.beta2 must be in [0, 1), got 1"}},
		{"two bad fields reported together",
			edit(t, `"epochs": 6,
    "batch_size": 32`, `"epochs": 0,
    "batch_size": 0`),
			[]string{"train.epochs must be positive", "train.batch_size must be positive"}},
		{"vocab_size given", edit(t, `"d_model": 16`, `"vocab_size": 50, "d_model": 16`), []string{"model.vocab_size comes from the training split"}},
		{"duplicate top-level key", edit(t, `"seed": 1,`, `"seed": 1, "seed": 2,`), []string{"duplicate key seed"}},
		{"duplicate nested key", edit(t, `"epochs": 6,`, `"epochs": 6, "epochs": 7,`), []string{"duplicate key train.epochs"}},
		{"duplicate section", edit(t, `"data": {"seed": 1},`, `"data": {"seed": 1}, "data": {"seed": 2},`), []string{"duplicate key data"}},
		{"two unknown keys reported together", edit(t, `"seed": 1,`, `"seed": 1, "x": 1, "data2": {},`), []string{"unknown key x", "unknown key data2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.content)
			c, err := Load(path)
			if err == nil {
				t.Fatalf("LoadConfig accepted it: %+v", c)
			}
			msg := err.Error()
			for _, want := range append([]string{path}, tc.want...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if !reflect.DeepEqual(c, Run{}) {
				t.Errorf("on error LoadConfig returned a non-zero config %+v", c)
			}
		})
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.json")
	_, err := Load(path)
	if err == nil {
		t.Fatal("LoadConfig of a missing file succeeded")
	}
	if !os.IsNotExist(unwrapAll(err)) && !strings.Contains(err.Error(), "no such file") {
		t.Errorf("error %q is not a not-exist error", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file %s", err, path)
	}
}

func unwrapAll(err error) error {
	for {
		type unwrapper interface{ Unwrap() error }
		u, ok := err.(unwrapper)
		if !ok || u.Unwrap() == nil {
			return err
		}
		err = u.Unwrap()
	}
}

func TestOverrides(t *testing.T) {
	cases := []struct {
		name      string
		overrides []string
		check     func(Run) bool
		want      string // description of the expected change
	}{
		{"epochs", []string{"train.epochs=3"}, func(c Run) bool { return c.Train.Epochs == 3 }, "train.epochs 3"},
		{"unquoted string", []string{"model.dtype=float32"}, func(c Run) bool { return c.Model.DType == "float32" }, "dtype float32"},
		{"quoted string", []string{`model.dtype="float32"`}, func(c Run) bool { return c.Model.DType == "float32" }, "dtype float32"},
		{"top-level seed", []string{"seed=42"}, func(c Run) bool { return c.Seed == 42 && c.Data.Seed == 1 }, "seed 42, data.seed 1"},
		{"nested seed", []string{"data.seed=7"}, func(c Run) bool { return c.Data.Seed == 7 && c.Seed == 1 }, "data.seed 7, seed 1"},
		{"float", []string{"train.learning_rate=0.01"}, func(c Run) bool { return c.Train.LearningRate == 0.01 }, "learning_rate 0.01"},
		{"exponent", []string{"train.adam_eps=1e-6"}, func(c Run) bool { return c.Train.AdamEps == 1e-6 }, "adam_eps 1e-6"},
		{"value with =", []string{"description=a=b"}, func(c Run) bool { return c.Description == "a=b" }, `description "a=b"`},
		{"later wins", []string{"train.epochs=3", "train.epochs=4"}, func(c Run) bool { return c.Train.Epochs == 4 }, "train.epochs 4"},
		{"several", []string{"train.epochs=2", "model.d_model=8", "model.heads=4", "train.attention_supervision=0"},
			func(c Run) bool {
				return c.Train.Epochs == 2 && c.Model.DModel == 8 && c.Model.Heads == 4 && c.Train.AttentionSupervision == 0
			}, "epochs 2, d_model 8, heads 4, supervision 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(writeConfig(t, tinyJSON), tc.overrides...)
			if err != nil {
				t.Fatalf("Load(%q): %v", tc.overrides, err)
			}
			if !tc.check(c) {
				t.Fatalf("after %q got %+v, want %s", tc.overrides, c, tc.want)
			}
			// Nothing else changes: undo the overridden fields by re-applying them to tinyConfig.
			want, err := Parse(tinyConfig.JSON(), tc.overrides...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, want) {
				t.Errorf("got %+v\nwant %+v", c, want)
			}
		})
	}
}

func TestOverrideErrors(t *testing.T) {
	cases := []struct {
		name     string
		override string
		want     []string
	}{
		{"no equals", "noequals", []string{`"noequals"`, "key=value"}},
		{"empty key", "=5", []string{`"=5"`, "key=value"}},
		{"path through a missing section", "nosuch.section.x=1", []string{"nosuch is not a section"}},
		{"path through a scalar", "seed.x=1", []string{"seed is not a section"}},
		{"path through a nested scalar", "model.d_model.x=1", []string{"d_model is not a section"}},
		{"unknown top-level key", "epochs=3", []string{"unknown key epochs"}},
		{"unknown nested key", "train.epochz=3", []string{"unknown key train.epochz"}},
		{"unknown key in data", "data.size=3", []string{"unknown key data.size"}},
		{"wrong type", "train.epochs=many", []string{`-set train.epochs=many: want an int, got "many"`}},
		// These had said "must be positive, got 0" or "want an int, got a JSON string".
		{"leading zero", "train.epochs=01", []string{`-set train.epochs=01: want an int, got "01" (a number does not start with 0`}},
		{"null", "train.epochs=null", []string{"train.epochs: want an int, got null"}},
		{"null section", "model=null", []string{"model: want a JSON object ({...}), got null"}},
		// This had said "want a model.Config, got a JSON number".
		{"number for a section", "model=3", []string{"-set model=3: model is a section of the config: want a JSON object ({...}), or set one of its fields (model.d_model=...)"}},
		{"spaces around the key", " train.epochs =0", []string{"train.epochs must be positive, got 0"}},
		{"only spaces for a key", "  =5", []string{`"  =5"`, "key=value"}},
		{"float underflow", "train.learning_rate=1e-400", []string{"train.learning_rate: 1e-400 is too small for a float64, which rounds it to 0"}},
		{"float overflow", "train.adam_eps=-2e400", []string{"train.adam_eps: -2e400 is beyond what a float64 holds"}},
		{"invalid value", "train.epochs=0", []string{"train.epochs must be positive, got 0"}},
		{"bad dtype", "model.dtype=int8", []string{"dtype", `"int8"`}},
		{"beta1 of 1", "train.beta1=1", []string{"train.beta1 must be in [0, 1)"}},
		{"negative shards", "train.shards=-1", []string{"train.shards must not be negative, got -1"}},
		{"shards not dividing the batch", "train.shards=3", []string{"train.shards must divide train.batch_size (32) into equal shards, got 3"}},
		{"more shards than rows", "train.shards=64", []string{"train.shards must divide train.batch_size (32)", "got 64"}},
		{"fractional shards", "train.shards=1.5", []string{"train.shards"}},
		{"negative curriculum", "train.curriculum_epochs=-1", []string{"train.curriculum_epochs must not be negative, got -1"}},
		{"negative weight decay", "train.weight_decay=-0.1", []string{"train.weight_decay must be in [0, 10], got -0.1"}},
		{"negative train size", "data.train_size=-5", []string{"data.train_size must be in [0, 200000], got -5"}},
		{"train size beyond the bound", "data.train_size=200001", []string{"data.train_size must be in [0, 200000], got 200001"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tinyJSON)
			_, err := Load(path, tc.override)
			if err == nil {
				t.Fatalf("override %q accepted", tc.override)
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if strings.Contains(err.Error(), path) { // the file has no mistake: the override made it
				t.Errorf("error %q blames the file", err)
			}
		})
	}
}

func TestParseOverride(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"train.epochs=5", true},
		{"seed=1", true},
		{"description=", true},
		{"a=b=c", true},
		{"noequals", false},
		{"=5", false},
		{"", false},
	} {
		got, err := ParseOverride(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseOverride(%q) error = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && got != tc.in {
			t.Errorf("ParseOverride(%q) = %q, want it unchanged", tc.in, got)
		}
		if !tc.ok && !strings.Contains(err.Error(), "key=value") {
			t.Errorf("ParseOverride(%q) error %q does not explain key=value", tc.in, err)
		}
	}
}

func TestConfigJSONRoundTrip(t *testing.T) {
	configs := map[string]Run{"tiny": tinyConfig}
	for _, f := range []string{"default.json", "tiny.json"} {
		c, err := Load(filepath.Join("..", "configs", f))
		if err != nil {
			t.Fatal(err)
		}
		configs[f] = c
	}
	odd := tinyConfig
	odd.Description = ""
	odd.Seed, odd.Data.Seed = -3, 1<<40
	odd.Model.DType = "float32"
	odd.Train.LearningRate, odd.Train.AdamEps, odd.Train.AttentionSupervision = 1.0/3, 1e-300, 0
	configs["odd"] = odd
	for name, c := range configs {
		t.Run(name, func(t *testing.T) {
			js := c.JSON()
			if !strings.HasSuffix(string(js), "}\n") {
				t.Errorf("JSON() does not end in a newline: %q", js)
			}
			back, err := Parse(js)
			if err != nil {
				t.Fatalf("Parse(JSON()): %v\n%s", err, js)
			}
			if !reflect.DeepEqual(back, c) {
				t.Fatalf("round trip changed the config:\n got %+v\nwant %+v", back, c)
			}
			if again := back.JSON(); string(again) != string(js) {
				t.Errorf("JSON() is not stable:\n%s\n%s", js, again)
			}
		})
	}
}

func TestModelFor(t *testing.T) {
	m := tinyConfig.ModelFor(57)
	if m.VocabSize != 57 || m.DModel != 16 || m.Heads != 2 || m.DFF != 32 || m.Layers != 2 || m.MaxLen != 16 || m.DType != "float64" {
		t.Fatalf("ModelFor(57) = %+v", m)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Regression tests for the seed-precision, non-object and dotted-name bugs.
func TestParseConfigEdgeCases(t *testing.T) {
	raw, err := os.ReadFile("../configs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []string{"9007199254740993", "9223372036854775807", "-9223372036854775808"} {
		c, err := Parse(raw, "seed="+seed)
		if err != nil || strconv.FormatInt(c.Seed, 10) != seed {
			t.Errorf("seed=%s: got %d, %v", seed, c.Seed, err)
		}
	}
	for _, body := range []string{"null", "[1]", `"x"`, "3", `{} {}`} {
		if _, err := Parse([]byte(body), "seed=1"); err == nil || !strings.Contains(err.Error(), "object") {
			t.Errorf("config %s: error %v, want one saying a config is an object", body, err)
		}
	}
	_, err = Parse(raw, "model.d_model=0", "model.heads=0")
	for _, want := range []string{"model.d_model must be positive", "model.heads must be positive"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not contain %q", err, want)
		}
	}
}

// Repeated keys are found at any depth and inside arrays, and nothing else is
// taken for one: the same key in two objects, or nesting deeper than
// encoding/json accepts (its own error then stands).
func TestCheckDuplicateKeys(t *testing.T) {
	for raw, want := range map[string]string{
		`{"a": {"b": 1}, "c": {"b": 2}}`:                        "",
		`[{"a": 1}, {"a": 2}]`:                                  "",
		`{"a": [{"x": 1}, {"y": [1, {"z": 1, "Z": 2}]}]}`:       "duplicate key a[1].y[1].Z",
		`{"a": 1, "A": 2}`:                                      "duplicate key A",
		`{"a": 1, "b": `:                                        "",
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000): "",
	} {
		err := CheckDuplicateKeys([]byte(raw))
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("CheckDuplicateKeys(%.40s) = %v, want %q", raw, err, want)
		}
	}
}

// The description is copied into every run file (config.json, checkpoint.json,
// the resumable checkpoint), so a huge one is refused, from a file or -set.
func TestDescriptionIsBounded(t *testing.T) {
	long := strings.Repeat("é", MaxDescription/2+1) // bytes, not characters, are counted
	want := fmt.Sprintf("description is %d bytes long; at most %d", len(long), MaxDescription)
	path := writeConfig(t, edit(t, `"test"`, `"`+long+`"`))
	for _, err := range []error{second(Load(path)), second(Load(writeConfig(t, tinyJSON), "description="+long))} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	}
	if _, err := Parse([]byte(tinyJSON), "description="+strings.Repeat("x", MaxDescription)); err != nil {
		t.Errorf("a description of exactly %d bytes: %v", MaxDescription, err)
	}
}

func second[T any](_ T, err error) error { return err }

// Thousands of unknown keys used to print one line each (51 MB of errors for
// 2.5 million); the first 20, sorted, are listed and the rest counted.
func TestUnknownKeysAreCapped(t *testing.T) {
	var extra strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&extra, `"k%04d": 1, `, i)
	}
	_, err := Parse([]byte(edit(t, `"seed": 1,`, extra.String()+`"seed": 1,`)), "model.zz=1")
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 21 || lines[0] != "unknown key k0000" || lines[19] != "unknown key k0019" ||
		lines[20] != "and 981 more unknown keys" {
		t.Errorf("error has %d lines: %q ... %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

// A field given as null was left at 0 and refused as "must be positive, got
// 0"; it is named with the null the file holds. A file that starts with a
// UTF-8 byte order mark, as some editors write it, is read as if it had none
// (it was "invalid character 'ï'").
func TestNullFieldsAndByteOrderMark(t *testing.T) {
	withNull := strings.Replace(tinyJSON, `"d_model": 16`, `"d_model": null`, 1)
	withNull = strings.Replace(withNull, `"epochs": 6`, `"epochs": null`, 1)
	_, err := Load(writeConfig(t, withNull))
	for _, want := range []string{"model.d_model: want an int, got null", "train.epochs: want an int, got null"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("nulls: %v, want %q", err, want)
		}
	}
	got, err := Load(writeConfig(t, "\xef\xbb\xbf"+tinyJSON))
	if err != nil || !reflect.DeepEqual(got, tinyConfig) {
		t.Errorf("with a byte order mark: %+v, %v; want tinyJSON's config", got, err)
	}
}

// A value of the wrong kind is named by its field, as the file writes it,
// and what the field wants, never by a Go type's name ("Meta.format of type
// int", "Go value of type train.Metrics"); an empty file says so, not "EOF".
func TestJSONErrorsNameFieldsNotGoTypes(t *testing.T) {
	type inner struct {
		Name string `json:"name"`
	}
	type doc struct {
		Format   int              `json:"format"`
		Accuracy float64          `json:"validation_accuracy"`
		Model    inner            `json:"model"`
		Words    []string         `json:"vocab"`
		Counts   map[string]int   `json:"counts"`
		Nested   []map[string]any `json:"nested"`
	}
	for _, tc := range []struct{ raw, want string }{
		{`{"format": "1"}`, "format: want an int, got a JSON string"},
		{`{"validation_accuracy": [0.9]}`, "validation_accuracy: want a float64, got a JSON array"},
		{`{"model": 3}`, "model: want a JSON object ({...}), got a JSON number"},
		{`{"model": {"name": true}}`, "model.name: want a string, got a JSON bool"},
		{`{"vocab": "dog"}`, "vocab: want a JSON array ([...]), got a JSON string"},
		{`{"counts": [1]}`, "counts: want a JSON object ({...}), got a JSON array"},
		{`[1, 2]`, "want a JSON object ({...}), got a JSON array"},
		{`"doc"`, "want a JSON object ({...}), got a JSON string"},
		{``, "the file is empty; want a JSON object ({...})"},
		{" \n ", "the file is empty; want a JSON object ({...})"},
		{"{\n\"format\": 1,\n", "line 3: unexpected end of JSON input"},
	} {
		var v doc
		err := Unmarshal([]byte(tc.raw), &v)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Unmarshal(%q): %v, want %q", tc.raw, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "config.")) {
			t.Errorf("Unmarshal(%q): %q names a Go type or field", tc.raw, err)
		}
	}
}

// DecodeStrict says the same; an empty experiment file had said "EOF", a
// truncated one "unexpected EOF".
func TestDecodeStrictEmptyAndTruncated(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{``, "the file is empty; want a JSON object ({...})"},
		{"{\"seed\": 1,\n\"data\": {", "line 2: unexpected end of JSON input"},
		{`{"model": 3}`, "model: want a JSON object ({...}), got a JSON number"},
	} {
		var r Run
		if err := DecodeStrict([]byte(tc.raw), &r); err == nil || err.Error() != tc.want {
			t.Errorf("DecodeStrict(%q): %v, want %q", tc.raw, err, tc.want)
		}
	}
}

// A mistake is blamed on what made it: the file when the file alone has it,
// the -set overrides when the file alone has none.
func TestMistakesNameTheFileOrTheOverride(t *testing.T) {
	good := writeConfig(t, tinyJSON)
	bad := writeConfig(t, strings.Replace(tinyJSON, `"epochs": 6,`, `"epochs": 0,`, 1))
	for _, tc := range []struct {
		name      string
		path      string
		overrides []string
		want      string
	}{
		{"unknown key from -set", good, []string{"train.nosuch=1"}, "with the override train.nosuch=1: unknown key train.nosuch"},
		{"range from -set", good, []string{"train.batch_size=4", "train.epochs=-1"}, "with the overrides train.batch_size=4, train.epochs=-1: train.epochs must be positive, got -1"},
		{"the override's own shape", good, []string{"train.epochs=x"}, `-set train.epochs=x: want an int, got "x"`},
		{"the file's mistake", bad, nil, bad + ": train.epochs must be positive, got 0"},
		{"the file's mistake, an override beside it", bad, []string{"train.batch_size=4"}, bad + ": train.epochs must be positive, got 0"},
	} {
		_, err := Load(tc.path, tc.overrides...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want it to start %q", tc.name, err, tc.want)
		}
	}
	if _, err := Load(bad, "train.epochs=3"); err != nil {
		t.Errorf("an override that mends the file: %v", err)
	}
}
