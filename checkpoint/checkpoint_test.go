package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/maruel/safetensors"

	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// testRun is a run config like configs/tiny.json, for the fixtures' metadata.
var testRun = config.Run{
	Description: "test",
	Seed:        1,
	Data:        config.Data{Seed: 1},
	Model:       model.Config{DModel: 16, Heads: 2, DFF: 32, Layers: 2, MaxLen: 16, DType: "float64"},
	Train: config.Train{Epochs: 6, BatchSize: 32, EvalBatchSize: 128, LearningRate: 0.003, Beta1: 0.9, Beta2: 0.98,
		AdamEps: 1e-9, WarmupSteps: 50, AttentionSupervision: 1},
}

var testWords = []string{"<pad>", "<unk>", "a", "ate", "because", "dog", "food", "hungry", "it", "tasty", "the", "was"}

// ckptFixture is a small model and the meta it is saved with.
type ckptFixture struct {
	cfg    config.Run
	vocab  *data.Vocab
	params *model.Params
	meta   Meta
}

// newFixture makes a small model of the given dtype and feed-forward width.
func newFixture(t *testing.T, dtype string, dff int, seed int64) ckptFixture {
	t.Helper()
	vocab, err := data.NewVocab(testWords)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testRun
	cfg.Model = model.Config{DModel: 8, Heads: 2, DFF: dff, Layers: 2, MaxLen: 12, DType: dtype}
	cfg.Seed = seed
	params, err := model.NewParams(cfg.ModelFor(vocab.Size()), seed)
	if err != nil {
		t.Fatal(err)
	}
	// Give the zero-initialised biases and the unit gains distinct values so a
	// loader that skipped a tensor would be caught.
	for _, s := range params.Specs() {
		v := params.Values(s.Name)
		for i := range v {
			v[i] += float64(i%7)/64 - 0.046875
		}
		if err := params.SetValues(s.Name, v); err != nil {
			t.Fatal(err)
		}
	}
	meta := Meta{Vocab: vocab.Words(), Epoch: 3, ValidationAccuracy: 0.8125, Config: cfg}
	return ckptFixture{cfg: cfg, vocab: vocab, params: params, meta: meta}
}

// save writes the fixture into a new directory and returns it.
func (f ckptFixture) save(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := Save(dir, f.meta, f.params); err != nil {
		t.Fatalf("SaveCheckpoint: %v", err)
	}
	return dir
}

func readMetaFile(t *testing.T, dir string) Meta {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	var m Meta
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// editMeta rewrites checkpoint.json through a generic map.
func editMeta(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, FileName)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// installWeights writes raw as a new weights file in dir and points
// checkpoint.json at it with a correct checksum.
func installWeights(t *testing.T, dir string, raw []byte) {
	t.Helper()
	sum := sha256.Sum256(raw)
	hexSum := hex.EncodeToString(sum[:])
	name := "weights-edited-" + hexSum[:8] + ".safetensors"
	if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	editMeta(t, dir, func(m map[string]any) { m["weights"], m["sha256"] = name, hexSum })
}

// weightsPath is the weights file checkpoint.json currently names.
func weightsPath(t *testing.T, dir string) string {
	t.Helper()
	return filepath.Join(dir, readMetaFile(t, dir).Weights)
}

// editTensors parses the current weights file, lets edit change it, and installs the result.
func editTensors(t *testing.T, dir string, edit func(f *safetensors.File)) {
	t.Helper()
	raw, err := os.ReadFile(weightsPath(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	f, err := safetensors.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Tensors { // Parse's tensors share raw; copy before editing
		f.Tensors[i].Data = bytes.Clone(f.Tensors[i].Data)
		f.Tensors[i].Shape = slices.Clone(f.Tensors[i].Shape)
	}
	edit(f)
	var buf bytes.Buffer
	if err := f.Serialize(&buf); err != nil {
		t.Fatal(err)
	}
	installWeights(t, dir, buf.Bytes())
}

func tensorIndex(t *testing.T, f *safetensors.File, name string) int {
	t.Helper()
	for i, tn := range f.Tensors {
		if tn.Name == name {
			return i
		}
	}
	t.Fatalf("tensor %q not in the file", name)
	return -1
}

func assertSameParams(t *testing.T, got, want *model.Params) {
	t.Helper()
	if !reflect.DeepEqual(got.Config(), want.Config()) {
		t.Fatalf("config %+v, want %+v", got.Config(), want.Config())
	}
	if !reflect.DeepEqual(got.Specs(), want.Specs()) {
		t.Fatalf("specs differ")
	}
	for _, s := range want.Specs() {
		g, w := got.Values(s.Name), want.Values(s.Name)
		if len(g) != len(w) || len(w) == 0 {
			t.Fatalf("%s: %d values, want %d", s.Name, len(g), len(w))
		}
		for i := range w {
			if math.Float64bits(g[i]) != math.Float64bits(w[i]) {
				t.Fatalf("%s[%d] = %v, want exactly %v", s.Name, i, g[i], w[i])
			}
		}
		if g, w := got.Tensor(s.Name).Dtype(), want.Tensor(s.Name).Dtype(); g != w {
			t.Fatalf("%s: dtype %v, want %v", s.Name, g, w)
		}
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	for _, dtype := range []string{"float64", "float32"} {
		t.Run(dtype, func(t *testing.T) {
			f := newFixture(t, dtype, 16, 5)
			dir := f.save(t)
			for _, where := range []string{dir, filepath.Join(dir, FileName)} {
				ck, err := Load(where)
				if err != nil {
					t.Fatalf("Load(%s): %v", where, err)
				}
				assertSameParams(t, ck.Params, f.params)
				if !slices.Equal(ck.Vocab.Words(), testWords) {
					t.Errorf("vocab %q, want %q", ck.Vocab.Words(), testWords)
				}
				m := ck.Meta
				if !reflect.DeepEqual(m.Config, f.cfg) {
					t.Errorf("config %+v, want %+v", m.Config, f.cfg)
				}
				if m.Model != f.params.Config() || m.Model.VocabSize != len(testWords) || m.Model.DType != dtype {
					t.Errorf("model %+v, want %+v", m.Model, f.params.Config())
				}
				if m.Format != 1 || m.Epoch != 3 || m.ValidationAccuracy != 0.8125 {
					t.Errorf("format %d, epoch %d, validation accuracy %v; want 1, 3, 0.8125", m.Format, m.Epoch, m.ValidationAccuracy)
				}
				raw, err := os.ReadFile(filepath.Join(dir, m.Weights))
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(raw)
				if m.SHA256 != hex.EncodeToString(sum[:]) {
					t.Errorf("sha256 %s does not match the weights file", m.SHA256)
				}
				if want := "weights-" + m.SHA256[:12] + ".safetensors"; m.Weights != want {
					t.Errorf("weights file %q, want %q", m.Weights, want)
				}
			}
		})
	}
}

// A loaded checkpoint computes exactly what the saved model computed.
func TestCheckpointSameForwardPass(t *testing.T) {
	f := newFixture(t, "float64", 16, 11)
	ck, err := Load(f.save(t))
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := f.vocab.Encode(strings.Fields("a dog ate the food because it was hungry"))
	T := f.cfg.Model.MaxLen
	b := model.Batch{IDs: make([]int, T), Lengths: []int{len(ids)}, Pronoun: []int{6}, Antecedent: []int{1}}
	copy(b.IDs, ids)
	var probs [2][]float64
	for i, p := range []*model.Params{f.params, ck.Params} {
		g, err := model.NewGraph(p, model.GraphOptions{Batch: 1, SeqLen: T})
		if err != nil {
			t.Fatal(err)
		}
		out, err := g.Run(b)
		g.Close()
		if err != nil {
			t.Fatal(err)
		}
		probs[i] = out.Probs.Row(0)
	}
	if !slices.Equal(probs[0], probs[1]) {
		t.Fatalf("probabilities differ:\nsaved  %v\nloaded %v", probs[0], probs[1])
	}
}

func TestCheckpointFS(t *testing.T) {
	f := newFixture(t, "float64", 16, 2)
	dir := f.save(t)
	fsys := fstest.MapFS{}
	for _, name := range []string{FileName, readMetaFile(t, dir).Weights} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		fsys["models/best/"+name] = &fstest.MapFile{Data: raw}
	}
	ck, err := LoadFS(fsys, "models/best/"+FileName)
	if err != nil {
		t.Fatalf("LoadCheckpointFS: %v", err)
	}
	assertSameParams(t, ck.Params, f.params)
}

func TestCheckpointSaveTwiceKeepsOneWeightsFile(t *testing.T) {
	f := newFixture(t, "float64", 16, 5)
	dir := f.save(t)
	first := readMetaFile(t, dir).Weights

	// Same weights again: same file name, still one file.
	if err := Save(dir, f.meta, f.params); err != nil {
		t.Fatal(err)
	}
	if got := readMetaFile(t, dir).Weights; got != first {
		t.Errorf("same weights saved as %q, then %q", first, got)
	}
	assertDirFiles(t, dir, first)

	// Changed weights: a new file replaces the old.
	v := f.params.Values("head.w_k")
	v[0] += 0.25
	if err := f.params.SetValues("head.w_k", v); err != nil {
		t.Fatal(err)
	}
	meta := f.meta
	meta.Epoch = 4
	if err := Save(dir, meta, f.params); err != nil {
		t.Fatal(err)
	}
	second := readMetaFile(t, dir).Weights
	if second == first {
		t.Fatalf("changed weights kept the name %q", first)
	}
	assertDirFiles(t, dir, second)
	ck, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	assertSameParams(t, ck.Params, f.params)
	if ck.Meta.Epoch != 4 {
		t.Errorf("epoch %d, want 4", ck.Meta.Epoch)
	}
}

// assertDirFiles checks dir holds exactly checkpoint.json and the weights file.
func assertDirFiles(t *testing.T, dir, weights string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{FileName, weights}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("directory holds %q, want %q", names, want)
	}
}

func TestCheckpointRefusals(t *testing.T) {
	cases := []struct {
		name   string
		dtype  string
		damage func(t *testing.T, dir string)
		want   []string
	}{
		{"truncated weights", "float64", func(t *testing.T, dir string) {
			p := weightsPath(t, dir)
			raw, _ := os.ReadFile(p)
			os.WriteFile(p, raw[:len(raw)/2], 0o644)
		}, []string{"does not match the checksum"}},
		{"truncated weights with a matching checksum", "float64", func(t *testing.T, dir string) {
			raw, _ := os.ReadFile(weightsPath(t, dir))
			installWeights(t, dir, raw[:len(raw)-8])
		}, []string{"weights file weights-edited-", "incomplete"}},
		{"weights shorter than a header", "float64", func(t *testing.T, dir string) {
			installWeights(t, dir, []byte{1, 2, 3})
		}, []string{"weights file weights-edited-", "header"}},
		{"flipped byte", "float64", func(t *testing.T, dir string) {
			p := weightsPath(t, dir)
			raw, _ := os.ReadFile(p)
			raw[len(raw)-100] ^= 0x10
			os.WriteFile(p, raw, 0o644)
		}, []string{"does not match the checksum", "damaged"}},
		{"checkpoint.json not JSON", "float64", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, FileName), []byte("weights: x\n"), 0o644)
		}, []string{"not a valid checkpoint JSON"}},
		{"duplicate key", "float64", func(t *testing.T, dir string) {
			p := filepath.Join(dir, FileName)
			raw, _ := os.ReadFile(p)
			os.WriteFile(p, append([]byte(`{"sha256": "0000", `), raw[1:]...), 0o644) // the later, real one used to win
		}, []string{"checkpoint.json", "duplicate key sha256"}},
		{"huge layers, checksum still matching", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["model"].(map[string]any)["layers"] = 100000 })
		}, []string{"checkpoint.json: model.layers = 100000: loading the model would need about", "(limit 8 GB; raise it with -max-memory)"}},
		{"d_model of 1e18", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["model"].(map[string]any)["d_model"] = 1000000000000000000 })
		}, []string{"model.d_model = 1000000000000000000: loading the model would need about"}},
		// These had named Go's types: "Go struct field Meta.format of type int".
		{"format a string", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["format"] = "1" })
		}, []string{"not a valid checkpoint JSON: format: want an int, got a JSON string"}},
		{"validation_accuracy a list", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["validation_accuracy"] = []float64{0.9} })
		}, []string{"not a valid checkpoint JSON: validation_accuracy: want a float64, got a JSON array"}},
		{"model a number", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["model"] = 3 })
		}, []string{"not a valid checkpoint JSON: model: want a JSON object ({...}), got a JSON number"}},
		{"wrong format", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["format"] = 2 })
		}, []string{"format 2", "reads format 1"}},
		{"weights path with ..", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["weights"] = "../x" })
		}, []string{`weights must name a file beside the checkpoint, got "../x"`}},
		{"weights path in a subfolder", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["weights"] = "sub/w.safetensors" })
		}, []string{`got "sub/w.safetensors"`}},
		{"no weights", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["weights"] = "" })
		}, []string{`weights must name a file beside the checkpoint, got ""`}},
		{"missing weights file", "float64", func(t *testing.T, dir string) {
			os.Remove(weightsPath(t, dir))
		}, []string{"weights:", "weights-", "no such file"}},
		{"vocab smaller than vocab_size", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["vocab"] = testWords[:len(testWords)-1] })
		}, []string{"vocabulary has 11 words but model.vocab_size is 12"}},
		{"vocab larger than vocab_size", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["vocab"] = append(slices.Clone(testWords), "zebra") })
		}, []string{"vocabulary has 13 words but model.vocab_size is 12"}},
		{"vocab without <pad>", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["vocab"] = append([]string{"<unk>", "<pad>"}, testWords[2:]...) })
		}, []string{"vocab:", "<pad>"}},
		{"invalid model config", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["model"].(map[string]any)["heads"] = 3 })
		}, []string{"model:", "divisible by heads (3)"}},
		{"tensor shape from another model", "float64", func(t *testing.T, dir string) {
			other := newFixture(t, "float64", 24, 5).save(t) // d_ff 24 instead of 16
			raw, err := os.ReadFile(weightsPath(t, other))
			if err != nil {
				t.Fatal(err)
			}
			installWeights(t, dir, raw)
		}, []string{"has shape [8 24]", "the config wants [8 16]"}},
		{"tensor shape transposed", "float64", func(t *testing.T, dir string) {
			editTensors(t, dir, func(f *safetensors.File) {
				f.Tensors[tensorIndex(t, f, "encoder.1.ffn.w1")].Shape = []uint64{16, 8}
			})
		}, []string{`tensor "encoder.1.ffn.w1" has shape [16 8], the config wants [8 16]`}},
		{"NaN in the weights", "float64", func(t *testing.T, dir string) {
			editTensors(t, dir, func(f *safetensors.File) {
				d := f.Tensors[tensorIndex(t, f, "encoder.0.attention.w_v")].Data
				binary.LittleEndian.PutUint64(d[5*8:], math.Float64bits(math.NaN()))
			})
		}, []string{`tensor "encoder.0.attention.w_v": entry 5 is NaN`}},
		{"Inf in float32 weights", "float32", func(t *testing.T, dir string) {
			editTensors(t, dir, func(f *safetensors.File) {
				d := f.Tensors[tensorIndex(t, f, "head.w_q")].Data
				binary.LittleEndian.PutUint32(d[2*4:], math.Float32bits(float32(math.Inf(-1))))
			})
		}, []string{`tensor "head.w_q": entry 2 is -Inf`}},
		{"missing tensor", "float64", func(t *testing.T, dir string) {
			editTensors(t, dir, func(f *safetensors.File) {
				f.Tensors = slices.Delete(f.Tensors, tensorIndex(t, f, "head.w_k"), tensorIndex(t, f, "head.w_k")+1)
			})
		}, []string{`tensor "head.w_k" is missing`}},
		{"extra tensor", "float64", func(t *testing.T, dir string) {
			editTensors(t, dir, func(f *safetensors.File) {
				f.Tensors = append(f.Tensors, safetensors.Tensor{Name: "head.bias", DType: safetensors.F64, Shape: []uint64{1}, Data: make([]byte, 8)})
			})
		}, []string{`unexpected tensor "head.bias"`}},
		{"float32 weights, float64 config", "float32", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["model"].(map[string]any)["dtype"] = "float64" })
		}, []string{"model.dtype is float64 but config.model.dtype is float32: the file was edited"}},
		{"float32 weights, float64 model and config", "float32", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) {
				m["model"].(map[string]any)["dtype"] = "float64"
				m["config"].(map[string]any)["model"].(map[string]any)["dtype"] = "float64"
			})
		}, []string{"stored as F32 but the config's dtype is float64"}},
		{"model and config apart", "float64", func(t *testing.T, dir string) {
			editMeta(t, dir, func(m map[string]any) { m["model"].(map[string]any)["heads"] = 4 })
		}, []string{"model.heads is 4 but config.model.heads is 2: the file was edited"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := newFixture(t, tc.dtype, 16, 5).save(t)
			if _, err := Load(dir); err != nil {
				t.Fatalf("undamaged checkpoint refused: %v", err)
			}
			tc.damage(t, dir)
			ck, err := Load(dir)
			if err == nil {
				t.Fatal("damaged checkpoint accepted")
			}
			if ck != nil {
				t.Error("a refused checkpoint came with a non-nil *Checkpoint")
			}
			t.Log(err)
			for _, want := range append([]string{"checkpoint " + dir}, tc.want...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

// -run pointed at a run's config.json, or at {} or null, said "format 0, this
// program reads format 1"; it is not a checkpoint at all, and the message
// says what to give instead.
func TestNotACheckpoint(t *testing.T) {
	advice := "; give a run folder or its checkpoint.json"
	for _, tc := range []struct{ content, want string }{
		{string(testRun.JSON()), `config.json is not a checkpoint (no "format" field)` + advice},
		{`{}`, `config.json is not a checkpoint (no "format" field)` + advice},
		{`{"weights": "w.safetensors"}`, `config.json is not a checkpoint (no "format" field)` + advice},
		{"null", "config.json is not a checkpoint (it holds null, not a JSON object)" + advice},
		{"[1, 2]", "config.json is not a checkpoint (it holds an array, not a JSON object)" + advice},
		{`"x"`, "config.json is not a checkpoint (it holds a string, not a JSON object)" + advice},
	} {
		path := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || err.Error() != path[:len(path)-len("config.json")]+tc.want {
			t.Errorf("Load(%.30s) = %v\nwant %s", tc.content, err, tc.want)
		}
	}
	// A checkpoint of another format is still named by its format.
	dir := newFixture(t, "float64", 16, 5).save(t)
	editMeta(t, dir, func(m map[string]any) { m["format"] = nil })
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("format null: %v", err)
	}
}

// The memory limit is config.MaxMemory (cmd/train's -max-memory) unless the
// MaxMemory option says otherwise; a model that needs more is refused before
// its weights are read.
func TestLoadHonoursTheMemoryLimit(t *testing.T) {
	dir := newFixture(t, "float64", 16, 5).save(t)
	if _, err := Load(dir, MaxMemory(10_000_000)); err == nil || !strings.Contains(err.Error(), "loading the model would need about 52.2 MB (limit 10 MB; raise it with -max-memory)") {
		t.Errorf("under a 10 MB limit: %v", err)
	}
	editMeta(t, dir, func(m map[string]any) { // about 10 GB; the config says so too, past the check that they agree
		m["model"].(map[string]any)["layers"] = 10000
		m["config"].(map[string]any)["model"].(map[string]any)["layers"] = 10000
	})
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "model.layers = 10000: loading the model would need") {
		t.Errorf("10000 layers under the default limit: %v", err)
	}
	for _, load := range []func() error{
		func() error { _, err := Load(dir, MaxMemory(20_000_000_000)); return err },
		func() error {
			old := config.MaxMemory
			defer func() { config.MaxMemory = old }()
			config.MaxMemory = 20_000_000_000
			_, err := Load(dir)
			return err
		},
	} {
		// Past the memory check, the weights file does not fit the sizes.
		if err := load(); err == nil || !strings.Contains(err.Error(), "is missing") {
			t.Errorf("10000 layers under a 20 GB limit: %v", err)
		}
	}
}

func TestCheckpointMissing(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, FileName)) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load(empty dir) = %v, want a not-exist error naming %s", err, FileName)
	}
}

// The weights file is plain safetensors: a reader that knows only the format
// (8-byte little-endian header length, JSON header, raw little-endian data)
// finds every parameter with its dtype, shape and values.
func TestWeightsFileIsPlainSafetensors(t *testing.T) {
	for _, tc := range []struct {
		dtype, st string
		size      int
	}{{"float64", "F64", 8}, {"float32", "F32", 4}} {
		t.Run(tc.dtype, func(t *testing.T) {
			f := newFixture(t, tc.dtype, 16, 9)
			dir := f.save(t)
			raw, err := os.ReadFile(weightsPath(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			n := binary.LittleEndian.Uint64(raw[:8])
			if 8+n > uint64(len(raw)) {
				t.Fatalf("header length %d exceeds the file's %d bytes", n, len(raw))
			}
			var header map[string]json.RawMessage
			if err := json.Unmarshal(raw[8:8+n], &header); err != nil {
				t.Fatalf("header is not JSON: %v", err)
			}
			body := raw[8+n:]
			var meta map[string]string
			if err := json.Unmarshal(header["__metadata__"], &meta); err != nil || meta["format"] != "itformer" {
				t.Errorf("__metadata__ = %s, want format itformer", header["__metadata__"])
			}
			specs := model.ParamSpecs(f.params.Config())
			if len(header) != len(specs)+1 {
				t.Errorf("header has %d entries, want %d tensors and __metadata__", len(header), len(specs))
			}
			total := 0
			for _, s := range specs {
				var info struct {
					DType       string `json:"dtype"`
					Shape       []int  `json:"shape"`
					DataOffsets [2]int `json:"data_offsets"`
				}
				js, ok := header[s.Name]
				if !ok {
					t.Errorf("tensor %q missing from the header", s.Name)
					continue
				}
				if err := json.Unmarshal(js, &info); err != nil {
					t.Fatalf("%s: %v", s.Name, err)
				}
				if info.DType != tc.st || !slices.Equal(info.Shape, s.Shape) {
					t.Errorf("%s: dtype %s shape %v, want %s %v", s.Name, info.DType, info.Shape, tc.st, s.Shape)
				}
				start, end := info.DataOffsets[0], info.DataOffsets[1]
				count := 1
				for _, d := range s.Shape {
					count *= d
				}
				if end-start != count*tc.size || end > len(body) {
					t.Fatalf("%s: data_offsets %v for %d entries in a %d-byte body", s.Name, info.DataOffsets, count, len(body))
				}
				total += end - start
				want := f.params.Values(s.Name)
				for i := 0; i < count; i++ {
					var got float64
					if tc.size == 8 {
						got = math.Float64frombits(binary.LittleEndian.Uint64(body[start+8*i:]))
					} else {
						got = float64(math.Float32frombits(binary.LittleEndian.Uint32(body[start+4*i:])))
					}
					if got != want[i] {
						t.Fatalf("%s[%d] = %v in the file, want %v", s.Name, i, got, want[i])
					}
				}
			}
			if total != len(body) {
				t.Errorf("tensors cover %d of the body's %d bytes", total, len(body))
			}
		})
	}
}

// A checkpoint.json edited to name another file as its weights must not make
// the next save delete that file.
func TestSaveNeverDeletesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(precious, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	js := []byte(`{"format": 1, "weights": "notes.txt"}`)
	if err := os.WriteFile(filepath.Join(dir, FileName), js, 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, "float64", 6, 1)
	if err := Save(dir, f.meta, f.params); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatalf("SaveCheckpoint deleted a file it did not write: %v", err)
	}
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
}
