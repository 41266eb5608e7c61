// Package checkpoint saves and loads a trained model: its weights, its model
// config, its vocabulary and the run config it was trained with. A checkpoint
// is two files in one folder:
//
//	checkpoint.json               config, vocabulary, and the name and SHA-256 of ...
//	weights-<sha256 prefix>.safetensors   every parameter tensor, by its model.ParamSpecs name
//
// The weights are written first under a name derived from their content, then
// checkpoint.json is atomically replaced, then the previous weights file is
// removed. A crash at any moment leaves a checkpoint.json whose weights file
// exists and matches its checksum; a mismatched or damaged pair is refused.
package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/maruel/safetensors"

	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// FileName is the name of a checkpoint's JSON file inside its folder.
const FileName = "checkpoint.json"

const format = 1

// weightsName is the form SaveCheckpoint gives weights files.
var weightsName = regexp.MustCompile(`^weights-[0-9a-f]{12}\.safetensors$`)

// Meta is the content of checkpoint.json.
type Meta struct {
	Format             int          `json:"format"`
	Model              model.Config `json:"model"`
	Vocab              []string     `json:"vocab"`
	Weights            string       `json:"weights"` // file name beside checkpoint.json
	SHA256             string       `json:"sha256"`  // of the weights file
	Epoch              int          `json:"epoch"`
	ValidationAccuracy float64      `json:"validation_accuracy"`
	Config             config.Run   `json:"config"` // the run's resolved config
	// Resume is set only in a resumable checkpoint (run/resume/): where
	// training stopped. Its weights file then also holds the optimiser's
	// moments as extra tensors "adam.m.<name>" and "adam.v.<name>".
	Resume *ResumeState `json:"resume,omitempty"`
}

// Checkpoint is a loaded, verified checkpoint.
type Checkpoint struct {
	Meta   Meta
	Params *model.Params
	Vocab  *data.Vocab
	Extra  map[string][]float64 // extra tensors of a resumable checkpoint, by name
}

// Extra is a float64 tensor saved beside the parameters, such as an
// optimiser's moments; its name must start with ExtraPrefix.
type Extra struct {
	Name  string
	Shape []int
	Data  []float64
}

// ExtraPrefix marks tensors that are not model parameters.
const ExtraPrefix = "adam."

// Save writes p, meta and any extra tensors into dir as described above. It
// first removes the temporaries an earlier, killed write left (RemoveStaleTemps).
func Save(dir string, meta Meta, p *model.Params, extra ...Extra) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	weights, err := encodeWeights(p, extra)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(weights)
	meta.Format, meta.Model, meta.SHA256 = format, p.Config(), hex.EncodeToString(sum[:])
	meta.Weights = "weights-" + meta.SHA256[:12] + ".safetensors"
	RemoveStaleTemps(dir) // Save will report a real problem with dir itself
	old := previousWeights(dir)
	if err := WriteFileAtomic(filepath.Join(dir, meta.Weights), weights); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(meta, "", "  ")
	if err := WriteFileAtomic(filepath.Join(dir, FileName), append(js, '\n')); err != nil {
		return err
	}
	if old != "" && old != meta.Weights {
		os.Remove(filepath.Join(dir, old))
	}
	return nil
}

func previousWeights(dir string) string {
	raw, err := config.ReadFile(filepath.Join(dir, FileName), config.MaxJSONSize)
	if err != nil {
		return ""
	}
	var m Meta
	// Only ever delete a file this code could have written.
	if json.Unmarshal(raw, &m) != nil || !weightsName.MatchString(m.Weights) {
		return ""
	}
	return m.Weights
}

// encodeWeights serialises every parameter, little-endian, in its own dtype.
func encodeWeights(p *model.Params, extra []Extra) ([]byte, error) {
	f32 := p.Config().DType == "float32"
	file := safetensors.File{Metadata: map[string]string{"format": "itformer"}}
	for _, s := range p.Specs() {
		t := safetensors.Tensor{Name: s.Name, DType: safetensors.F64, Shape: toUint64(s.Shape)}
		for _, v := range p.Values(s.Name) {
			if f32 {
				t.Data = binary.LittleEndian.AppendUint32(t.Data, math.Float32bits(float32(v)))
			} else {
				t.Data = binary.LittleEndian.AppendUint64(t.Data, math.Float64bits(v))
			}
		}
		if f32 {
			t.DType = safetensors.F32
		}
		file.Tensors = append(file.Tensors, t)
	}
	for _, e := range extra {
		t := safetensors.Tensor{Name: e.Name, DType: safetensors.F64, Shape: toUint64(e.Shape)}
		for _, v := range e.Data {
			t.Data = binary.LittleEndian.AppendUint64(t.Data, math.Float64bits(v))
		}
		file.Tensors = append(file.Tensors, t)
	}
	var buf bytes.Buffer
	if err := file.Serialize(&buf); err != nil {
		return nil, fmt.Errorf("encoding weights: %w", err)
	}
	return buf.Bytes(), nil
}

func toUint64(shape []int) []uint64 {
	out := make([]uint64, len(shape))
	for i, s := range shape {
		out[i] = uint64(s)
	}
	return out
}

// Load reads a checkpoint from a run folder, a checkpoint.json path, or a
// zipped checkpoint (a path ending in .zip, see WriteZip).
func Load(where string, opts ...Option) (*Checkpoint, error) {
	if isZipPath(where) {
		return loadZipFile(where, opts...)
	}
	if st, err := os.Stat(where); err == nil && st.IsDir() {
		where = filepath.Join(where, FileName)
	}
	ck, err := LoadFS(config.DirFS(filepath.Dir(where)), filepath.Base(where), opts...)
	var notCheckpoint *notCheckpointError
	if errors.As(err, &notCheckpoint) {
		return nil, fmt.Errorf("%s is %w; give a run folder or its checkpoint.json", where, err)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", where, err)
	}
	return ck, nil
}

// LoadFS reads and verifies a checkpoint from fsys (the embedded
// default model uses this): the JSON, the weights' checksum, every tensor's
// name, dtype and shape against the config, and the vocabulary's size.
// Both files must be regular files: checkpoint.json of at most
// config.MaxJSONSize bytes, the weights no larger than the model's sizes
// allow (weightsLimit). A model whose sizes would need more memory than the
// limit (config.MaxMemory, or the MaxMemory option) is refused before its
// weights are read: checkpoint.json's sizes are not covered by the checksum.
func LoadFS(fsys fs.FS, name string, opts ...Option) (*Checkpoint, error) {
	o := resolve(opts)
	meta, err := readMeta(fsys, name, o)
	if err != nil {
		return nil, err
	}
	vocab, err := data.NewVocab(meta.Vocab)
	if err != nil {
		return nil, fmt.Errorf("vocab: %w", err)
	}
	if vocab.Size() != meta.Model.VocabSize {
		return nil, fmt.Errorf("vocabulary has %d words but model.vocab_size is %d", vocab.Size(), meta.Model.VocabSize)
	}
	raw, err := config.ReadFileFS(fsys, path.Join(path.Dir(name), meta.Weights), weightsLimit(meta))
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != meta.SHA256 {
		return nil, fmt.Errorf("weights file %s does not match the checksum in %s (damaged or from another checkpoint)", meta.Weights, name)
	}
	params, extra, err := decodeWeights(raw, meta.Model, meta.Resume != nil)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %w", meta.Weights, err)
	}
	return &Checkpoint{Meta: meta, Params: params, Vocab: vocab, Extra: extra}, nil
}

// weightsLimit is the largest weights file meta's model can have: every
// parameter in its dtype, Adam's two float64 moments in a resumable
// checkpoint, and the header, at most 512 bytes a tensor (about 100 are
// used: name, dtype, shape, offsets), with 64 kB to spare.
func weightsLimit(meta Meta) int64 {
	params, tensors := config.ParamCount(meta.Model), 12*float64(meta.Model.Layers)+3
	size := params * 8
	if meta.Model.DType == "float32" {
		size = params * 4
	}
	if meta.Resume != nil {
		size, tensors = size+16*params, 3*tensors
	}
	size += 512*tensors + 64_000
	if size >= 1<<62 { // float64 → int64 is undefined past MaxInt64
		return 1 << 62
	}
	return int64(size)
}

func readMeta(fsys fs.FS, name string, o options) (Meta, error) {
	var meta Meta
	raw, err := config.ReadFileFS(fsys, name, config.MaxJSONSize)
	if err != nil {
		return meta, err
	}
	if err := checkIsCheckpoint(raw); err != nil {
		return meta, err
	}
	if err := config.CheckDuplicateKeys(raw); err != nil {
		return meta, err
	}
	if err := config.Unmarshal(raw, &meta); err != nil {
		return meta, fmt.Errorf("not a valid checkpoint JSON: %w", err)
	}
	if meta.Format != format {
		return meta, fmt.Errorf("format %d, this program reads format %d", meta.Format, format)
	}
	if meta.Weights == "" || meta.Weights != path.Base(meta.Weights) {
		return meta, fmt.Errorf("weights must name a file beside the checkpoint, got %q", meta.Weights)
	}
	if err := meta.Model.Validate(); err != nil {
		return meta, fmt.Errorf("model: %w", err)
	}
	if err := config.CheckModelMemory(meta.Model, meta.Resume != nil, o.maxMemory); err != nil {
		return meta, err
	}
	return meta, sameModel(meta)
}

// sameModel refuses a checkpoint whose model section says another model than
// the run's config beside it in the file: the weights are read by the model
// section, and a file edited in one place (heads 24 against the config's 4)
// had loaded and answered as another model, without a word. A checkpoint
// with no config (not written by a run) has nothing to disagree with.
func sameModel(meta Meta) error {
	if meta.Config.Model == (model.Config{}) {
		return nil
	}
	got, want := reflect.ValueOf(meta.Model), reflect.ValueOf(meta.Config.ModelFor(meta.Model.VocabSize))
	for i := range got.NumField() {
		if g, w := got.Field(i).Interface(), want.Field(i).Interface(); g != w {
			name, _, _ := strings.Cut(got.Type().Field(i).Tag.Get("json"), ",")
			return fmt.Errorf("model.%s is %v but config.model.%s is %v: the file was edited, and its weights are another model's than its config's", name, g, name, w)
		}
	}
	return nil
}

// notCheckpointError is JSON that is no checkpoint of any format: a run's
// config.json, {} or null given where a checkpoint was expected.
type notCheckpointError struct{ why string }

func (e *notCheckpointError) Error() string { return "not a checkpoint (" + e.why + ")" }

// checkIsCheckpoint refuses valid JSON that is not an object with a "format"
// field, before its missing format is mistaken for format 0.
func checkIsCheckpoint(raw []byte) error {
	if !json.Valid(raw) {
		var v any
		return fmt.Errorf("not a valid checkpoint JSON: %w", config.Unmarshal(raw, &v))
	}
	var obj map[string]json.RawMessage // nil for null
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		var v any
		json.Unmarshal(raw, &v) // valid, and at most config.MaxJSONSize
		return &notCheckpointError{"it holds " + config.JSONKind(v) + ", not a JSON object"}
	}
	for k := range obj {
		if strings.EqualFold(k, "format") { // as encoding/json matches Meta.Format
			return nil
		}
	}
	return &notCheckpointError{`no "format" field`}
}

// decodeWeights checks the file's tensors against the config's ParamSpecs;
// a resumable checkpoint may also hold optimiser tensors (ExtraPrefix).
func decodeWeights(raw []byte, c model.Config, resumable bool) (*model.Params, map[string][]float64, error) {
	file, err := safetensors.Parse(raw)
	if err != nil {
		return nil, nil, err
	}
	p, err := model.NewParams(c, 0)
	if err != nil {
		return nil, nil, err
	}
	want := map[string]model.ParamSpec{}
	for _, s := range p.Specs() {
		want[s.Name] = s
	}
	extra := map[string][]float64{}
	for _, t := range file.Tensors {
		if resumable && strings.HasPrefix(t.Name, ExtraPrefix) {
			if extra[t.Name], err = decodeFloats(t, "float64"); err != nil {
				return nil, nil, fmt.Errorf("tensor %q: %w", t.Name, err)
			}
			continue
		}
		if err := loadTensor(p, want, t, c.DType); err != nil {
			return nil, nil, err
		}
		delete(want, t.Name)
	}
	for name := range want {
		return nil, nil, fmt.Errorf("tensor %q is missing", name)
	}
	return p, extra, nil
}

func loadTensor(p *model.Params, want map[string]model.ParamSpec, t safetensors.Tensor, dtype string) error {
	s, ok := want[t.Name]
	if !ok {
		return fmt.Errorf("unexpected tensor %q (not in the model, or listed twice)", t.Name)
	}
	if fmt.Sprint(t.Shape) != fmt.Sprint(toUint64(s.Shape)) {
		return fmt.Errorf("tensor %q has shape %v, the config wants %v", t.Name, t.Shape, s.Shape)
	}
	values, err := decodeFloats(t, dtype)
	if err != nil {
		return fmt.Errorf("tensor %q: %w", t.Name, err)
	}
	return p.SetValues(t.Name, values)
}

func decodeFloats(t safetensors.Tensor, dtype string) ([]float64, error) {
	out := []float64{}
	switch {
	case t.DType == safetensors.F64 && dtype == "float64":
		for i := 0; i+8 <= len(t.Data); i += 8 {
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(t.Data[i:])))
		}
	case t.DType == safetensors.F32 && dtype == "float32":
		for i := 0; i+4 <= len(t.Data); i += 4 {
			out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(t.Data[i:]))))
		}
	default:
		return nil, fmt.Errorf("stored as %s but the config's dtype is %s", t.DType, dtype)
	}
	for i, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("entry %d is %v", i, v)
		}
	}
	return out, nil
}

// Option changes how Load and LoadFS check a checkpoint.
type Option func(*options)

type options struct{ maxMemory config.ByteSize }

// resolve applies opts to the defaults.
func resolve(opts []Option) options {
	o := options{maxMemory: config.MaxMemory}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// MaxMemory sets the memory a checkpoint's model may need to be loaded
// (config.CheckModelMemory); the default is config.MaxMemory.
func MaxMemory(limit config.ByteSize) Option { return func(o *options) { o.maxMemory = limit } }
