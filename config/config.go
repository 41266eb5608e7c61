// Package config reads and checks the JSON file that describes a training
// run (configs/*.json): the seeds, the model's sizes and the training
// settings. JSON because Go reads it strictly with the standard library
// (unknown keys are errors, so a typo cannot be silently ignored) and because
// checkpoints store their metadata in it too. Every error names the file and
// the dotted field (model.d_model, train.epochs).
//
// The model's section is model.Config itself, so the sizes are declared once;
// only its vocab_size is not in the file, because it comes from the training
// split (ModelFor fills it in).
//
// What a file can make a program do is bounded: files are read only if they
// are small regular files (file.go), repeated keys are refused (dupkeys.go),
// and a run whose sizes would need more memory than MaxMemory is refused
// before anything is allocated (memory.go).
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"itformer/model"
)

// Run is everything a training run depends on.
type Run struct {
	Description string       `json:"description,omitempty"`
	Seed        int64        `json:"seed"` // weight initialisation and batch order
	Data        Data         `json:"data"`
	Model       model.Config `json:"model"` // vocab_size stays 0 here: see ModelFor
	Train       Train        `json:"train"`
}

// Data chooses the generated corpus.
type Data struct {
	Seed int64 `json:"seed"` // corpus sampling and split
	// TrainSize is the number of training sentences; 0 or absent means the
	// corpus's own default (data.DefaultConfig).
	TrainSize int `json:"train_size,omitempty"`
}

// MaxTrainSize bounds data.train_size: a corpus is generated and held in
// memory before training starts.
const MaxTrainSize = 200_000

// Train holds the optimiser's and the loop's settings.
type Train struct {
	Epochs        int     `json:"epochs"`
	BatchSize     int     `json:"batch_size"`
	EvalBatchSize int     `json:"eval_batch_size"`
	LearningRate  float64 `json:"learning_rate"` // Adam's step size
	Beta1         float64 `json:"beta1"`
	Beta2         float64 `json:"beta2"`
	AdamEps       float64 `json:"adam_eps"`
	WarmupSteps   int     `json:"warmup_steps"` // learning rate rises linearly over these steps
	// LRDecay shapes the learning rate after the warm-up: "cosine" lowers it
	// along a half cosine to 0 at the run's last step, so the last epochs
	// settle into a minimum instead of circling it; "" or "constant" keeps it
	// at learning_rate (train.LearningRateAt).
	LRDecay string `json:"lr_decay,omitempty"`
	// LRDecayAfter keeps lr_decay "cosine" from starting before this many
	// epochs have ended (0: right after the warm-up). A decay over the whole
	// run lowers the rate while a seed that learns late is still finding the
	// composition (on corpus-35, seed 2 stopped at 96% on validation, two_it
	// 70%); a constant rate lets it get there first, and the fall at the end
	// settles every seed. A run that ends before it never decays: it is the
	// first epochs of a longer run.
	LRDecayAfter int `json:"lr_decay_after,omitempty"`
	// CurriculumEpochs is how many epochs the training split grows over.
	// Where a predicate's dimension describes both roles, the answer is the
	// role it favours the outcome for, turned round by each of four flips (a
	// predicate of the second pole, a failed outcome, "not", a conceding
	// connective), and the corpus is balanced so that no part alone predicts
	// the answer: a parity, whose parts carry no gradient until they are put
	// together (Abbe et al. 2023). Epoch e <= N trains only on the sentences
	// of at most 4(e-1)/N flips (rounded down; data.Example.Flips), repeated
	// to the split's size, so what a frame's dimensions say of its roles is
	// learned before what turns it round; 0 trains on every sentence from the
	// first epoch. A run of fewer epochs is the first epochs of a longer one:
	// it ends inside the curriculum.
	CurriculumEpochs int `json:"curriculum_epochs,omitempty"`
	// AttentionSupervision is λ in loss = L_resolution + λ·L_attention, which
	// asks the last layer's first head to attend from the pronoun to its
	// antecedent (model/supervision.go); 0 leaves attention unsupervised.
	AttentionSupervision float64 `json:"attention_supervision"`
	// NounDropout is the chance that a candidate noun of a training sentence
	// is read as <unk> in an epoch, drawn anew each epoch (train/dropout.go):
	// the answer must then come from the sentence's structure and meaning,
	// not from which noun it is. 0 turns it off.
	NounDropout float64 `json:"noun_dropout,omitempty"`
	// ConnectiveDropout is the chance that the word joining an explaining
	// reason clause to the outcome ("because", "since", "so") is read as
	// <unk> in an epoch, drawn anew each epoch (train/dropout.go); conceding
	// words ("although", "but") are never hidden, so what marks a concession
	// is learned as the one marked relation and an unmarked one ("." or ", so"
	// where training never had them) is read as explaining. 0 turns it off.
	ConnectiveDropout float64 `json:"connective_dropout,omitempty"`
	// EmbeddingDecay is λ of decoupled weight decay (AdamW) on the token
	// embedding alone: it shrinks what the loss no longer needs, such as a
	// noun's habitual role learned before the sentence structure was
	// (train/adam.go). 0 turns it off.
	EmbeddingDecay float64 `json:"embedding_decay,omitempty"`
	// WeightDecay is λ of decoupled weight decay (AdamW) on every other weight
	// matrix (not on biases or layer-norm gains): it favours the small
	// weights of a rule over the large ones of memorised cases, which makes
	// a composed meaning (outcome × "not" × "although" × predicate) be found
	// sooner (Power et al. 2022; Nanda et al. 2023). 0 turns it off.
	WeightDecay float64 `json:"weight_decay,omitempty"`
	// Shards splits each training batch by rows into this many equal parts,
	// run forward and backward at once on their own goroutines (so cores),
	// their gradients summed in shard order (train.Session.Run). The
	// objective is the same; only its rounding changes. 0 (absent) means 1.
	Shards int `json:"shards,omitempty"`
	// Members is how many models of this recipe a run trains, a deep
	// ensemble (Lakshminarayanan et al. 2017): member k has seed + k - 1 and
	// is otherwise the same; where members disagree, the answer is a guess
	// (train/members.go, inference/ensemble.go). 0 (absent) means 1.
	Members int `json:"members,omitempty"`
}

// MaxMembers bounds train.members: each member is a whole training run.
const MaxMembers = 9

// MemberCount is the number of models a run trains: Members, or 1 when it is 0.
func (t Train) MemberCount() int { return max(1, t.Members) }

// ShardCount is the number of shards a training batch is split into: Shards, or 1 when it is 0.
func (t Train) ShardCount() int { return max(1, t.Shards) }

// ModelFor completes the model's sizes with the vocabulary's.
func (c Run) ModelFor(vocabSize int) model.Config {
	m := c.Model
	m.VocabSize = vocabSize
	return m
}

// Load reads a config file and applies key=value overrides (see Set).
// Every error names the file and the field.
func Load(path string, overrides ...string) (Run, error) {
	raw, err := ReadFile(path, MaxJSONSize)
	if err != nil {
		return Run{}, fmt.Errorf("reading config: %w", err)
	}
	c, err := Parse(raw, overrides...)
	if err != nil {
		return Run{}, InFile(path, err)
	}
	return c, nil
}

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// Parse decodes a JSON config strictly, applies overrides and validates. A
// leading UTF-8 byte order mark is skipped: it is no JSON, but an editor's
// habit, and encoding/json named it "invalid character 'ï'".
//
// A mistake that the overrides make, where the file alone has none, is an
// *OverrideError, so that it is not blamed on the file (InFile).
func Parse(raw []byte, overrides ...string) (Run, error) {
	c, err := parse(raw, overrides)
	var set *OverrideError
	if err != nil && len(overrides) > 0 && !errors.As(err, &set) {
		if _, fileErr := parse(raw, nil); fileErr == nil {
			return Run{}, &OverrideError{Overrides: overrides, Err: err}
		}
	}
	return c, err
}

// OverrideError is a mistake of the overrides (train -set, an experiment's
// "set"), not of the config file.
type OverrideError struct {
	Overrides []string // the overrides that together made the mistake; none if Err names the one at fault
	Err       error
}

func (e *OverrideError) Error() string {
	if len(e.Overrides) == 0 {
		return e.Err.Error()
	}
	what := "the override"
	if len(e.Overrides) > 1 {
		what = "the overrides"
	}
	return fmt.Sprintf("with %s %s: %v", what, strings.Join(e.Overrides, ", "), e.Err)
}

func (e *OverrideError) Unwrap() error { return e.Err }

// InFile names the config file a Parse error came from, unless the
// overrides made it.
func InFile(name string, err error) error {
	var set *OverrideError
	if err == nil || errors.As(err, &set) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// parse is Parse without naming whose mistake it is.
func parse(raw []byte, overrides []string) (Run, error) {
	tree, err := decodeTree(bytes.TrimPrefix(raw, utf8BOM))
	if err != nil {
		return Run{}, err
	}
	for _, o := range overrides {
		if err := setPath(tree, o); err != nil {
			return Run{}, &OverrideError{Err: err}
		}
	}
	if err := checkKeys(tree, reflect.TypeOf(Run{})); err != nil {
		return Run{}, err
	}
	if err := checkValues(tree, reflect.TypeOf(Run{})); err != nil {
		return Run{}, err
	}
	if m, ok := tree["model"].(map[string]any); ok && m["vocab_size"] != nil {
		return Run{}, errors.New("model.vocab_size comes from the training split's vocabulary; remove it from the config")
	}
	merged, _ := json.Marshal(tree)
	var c Run
	if err := DecodeStrict(merged, &c); err != nil {
		return Run{}, err
	}
	return c, c.Validate()
}

// decodeTree reads the file as a JSON object, keeping numbers exact
// (UseNumber), so a seed above 2^53 is not rounded through float64.
func decodeTree(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("line 1: the config is empty; want a JSON object")
		}
		return nil, describeJSONError(raw, err, &v)
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value; a config is one object")
	}
	// Exact comparison: a key differing in case is an unknown key (checkKeys).
	if err := duplicateKeys(raw, func(k string) string { return k }); err != nil {
		return nil, err
	}
	tree, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("a config must be a JSON object ({...}), got %s", JSONKind(v))
	}
	return tree, nil
}

// JSONKind names the kind of a decoded JSON value, for messages: "null",
// "an array", "a string", "a boolean" or "a number".
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// checkKeys refuses any key that is not a field of t, naming it by its
// dotted path; sorted, and capped at maxListed.
func checkKeys(tree map[string]any, t reflect.Type) error {
	var unknown []string
	unknownKeys(tree, t, "", &unknown)
	slices.Sort(unknown)
	errs := make([]error, len(unknown))
	for i, k := range unknown {
		errs[i] = errors.New("unknown key " + k)
	}
	return joinCapped(errs, "unknown keys")
}

// unknownKeys appends the dotted paths of tree's keys that are not fields of t.
func unknownKeys(tree map[string]any, t reflect.Type, prefix string, out *[]string) {
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fields[name] = t.Field(i).Type
	}
	for key, value := range tree {
		ft, ok := fields[key]
		switch sub, isMap := value.(map[string]any); {
		case !ok:
			*out = append(*out, prefix+key)
		case isMap && ft.Kind() == reflect.Struct:
			unknownKeys(sub, ft, prefix+key+".", out)
		}
	}
}

// DecodeStrict decodes one JSON value into v, refusing unknown fields and
// repeated keys, with errors that name the field or the line.
func DecodeStrict(raw []byte, v any) error {
	if err := CheckDuplicateKeys(raw); err != nil {
		return err
	}
	return DecodeKnownFields(raw, v)
}

// DecodeKnownFields is DecodeStrict without the walk for repeated keys, for
// a large file a run writes (history.json, 600 kB): unknown fields are
// refused, and errors name the field or the line.
func DecodeKnownFields(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describeJSONError(raw, err, v)
	}
	return nil
}

// describeJSONError turns encoding/json's errors about raw, decoded into v,
// into ones naming the field or line, and what was wanted, in the file's
// words: "format: want an int, got a JSON string", not "Go struct field
// Meta.format of type int"; "the file is empty", not "EOF".
func describeJSONError(raw []byte, err error, v any) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(raw)) == 0:
		return fmt.Errorf("the file is empty; want %s", kindWanted(reflect.TypeOf(v)))
	case errors.As(err, &syntax):
		return fmt.Errorf("line %d: %v", lineAt(raw, syntax.Offset), syntax)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Errorf("want %s, got a JSON %s", kindWanted(typ.Type), typ.Value)
	case errors.As(err, &typ):
		return fmt.Errorf("%s: want %s, got a JSON %s", typ.Field, kindWanted(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF): // as json.Unmarshal says it
		return fmt.Errorf("line %d: unexpected end of JSON input", lineAt(raw, int64(len(raw))))
	}
	return err
}

// lineAt is the 1-based line of raw's byte offset.
func lineAt(raw []byte, offset int64) int {
	return 1 + bytes.Count(raw[:min(int(offset), len(raw))], []byte("\n"))
}

// Unmarshal is json.Unmarshal with describeJSONError's messages, for the
// files a run writes (metrics.json, checkpoint.json), whose readers accept
// fields they do not know; the caller names the file.
func Unmarshal(raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return describeJSONError(raw, err, v)
	}
	return nil
}

// withArticle puts "a" or "an" before a Go type's name: "an int", "a float64".
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// setPath applies one "a.b=value" override to the decoded tree. The value is
// read as JSON when it parses (numbers, true, "quoted"), otherwise as a string.
func setPath(tree map[string]any, override string) error {
	key, value, ok := strings.Cut(override, "=")
	key = strings.TrimSpace(key) // " train.epochs=5" from a shell's quotes: the space is no part of a name, and invisible in a message
	if !ok || key == "" {
		return fmt.Errorf("override %q: want key=value, e.g. train.epochs=5", override)
	}
	parts := strings.Split(key, ".")
	node := tree
	for _, p := range parts[:len(parts)-1] {
		child, ok := node[p].(map[string]any)
		if !ok {
			return fmt.Errorf("override %q: %s is not a section of the config", override, p)
		}
		node = child
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(value))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		v = value
	}
	if err := checkOverrideNumber(override, key, v); err != nil {
		return err
	}
	if err := checkOverrideSection(override, key, v); err != nil {
		return err
	}
	node[parts[len(parts)-1]] = v
	return nil
}

// Validate reports every bad field at once, each by its dotted name; then,
// if all are valid, whether the run fits in MaxMemory (memory.go).
func (c Run) Validate() error {
	var errs []error
	errs = append(errs, CheckDescription(c.Description))
	errs = append(errs, prefixEach("model.", c.ModelFor(3).Validate())...)
	t := c.Train
	for _, f := range []struct {
		name string
		ok   bool
		val  any
	}{
		{fmt.Sprintf("data.train_size must be in [0, %d]", MaxTrainSize), c.Data.TrainSize >= 0 && c.Data.TrainSize <= MaxTrainSize, c.Data.TrainSize},
		{"train.epochs must be positive", t.Epochs > 0, t.Epochs},
		{fmt.Sprintf("train.epochs must be at most %d", MaxEpochs), t.Epochs <= MaxEpochs, t.Epochs},
		{"train.batch_size must be positive", t.BatchSize > 0, t.BatchSize},
		{"train.eval_batch_size must be positive", t.EvalBatchSize > 0, t.EvalBatchSize},
		{"train.learning_rate must be positive", t.LearningRate > 0, t.LearningRate},
		{"train.beta1 must be in [0, 1)", t.Beta1 >= 0 && t.Beta1 < 1, t.Beta1},
		{"train.beta2 must be in [0, 1)", t.Beta2 >= 0 && t.Beta2 < 1, t.Beta2},
		{"train.adam_eps must be positive", t.AdamEps > 0, t.AdamEps},
		{"train.warmup_steps must not be negative", t.WarmupSteps >= 0, t.WarmupSteps},
		{`train.lr_decay must be "constant" or "cosine"`, t.LRDecay == "" || t.LRDecay == "constant" || t.LRDecay == "cosine", t.LRDecay},
		{"train.curriculum_epochs must not be negative", t.CurriculumEpochs >= 0, t.CurriculumEpochs},
		{"train.lr_decay_after must not be negative", t.LRDecayAfter >= 0, t.LRDecayAfter},
		{"train.attention_supervision must not be negative", t.AttentionSupervision >= 0, t.AttentionSupervision},
		{"train.noun_dropout must be in [0, 0.5]", t.NounDropout >= 0 && t.NounDropout <= 0.5, t.NounDropout},
		{"train.connective_dropout must be in [0, 1]", t.ConnectiveDropout >= 0 && t.ConnectiveDropout <= 1, t.ConnectiveDropout},
		{"train.embedding_decay must be in [0, 10]", t.EmbeddingDecay >= 0 && t.EmbeddingDecay <= 10, t.EmbeddingDecay},
		{"train.weight_decay must be in [0, 10]", t.WeightDecay >= 0 && t.WeightDecay <= 10, t.WeightDecay},
		{"train.shards must not be negative", t.Shards >= 0, t.Shards},
		{fmt.Sprintf("train.members must be in [0, %d]", MaxMembers), t.Members >= 0 && t.Members <= MaxMembers, t.Members},
		{fmt.Sprintf("train.shards must divide train.batch_size (%d) into equal shards", t.BatchSize), t.BatchSize <= 0 || t.Shards <= 0 || t.BatchSize%t.Shards == 0, t.Shards},
	} {
		if !f.ok {
			errs = append(errs, fmt.Errorf("%s, got %v", f.name, f.val))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return c.CheckMemory(MaxMemory) // only sizes that are valid can be estimated
}

// prefixEach names model.Config's fields by their dotted path in a run config:
// "d_model must be positive" becomes "model.d_model must be positive".
func prefixEach(prefix string, err error) []error {
	if err == nil {
		return nil
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{fmt.Errorf("%s%w", prefix, err)}
	}
	var out []error
	for _, e := range joined.Unwrap() {
		out = append(out, fmt.Errorf("%s%w", prefix, e))
	}
	return out
}

// JSON renders the config as the indented file a run folder keeps.
func (c Run) JSON() []byte {
	b, _ := json.MarshalIndent(c, "", "  ")
	return append(b, '\n')
}

// ParseOverride checks the shape of a -set flag early, for the command line.
func ParseOverride(s string) (string, error) {
	if k, _, ok := strings.Cut(s, "="); !ok || strings.TrimSpace(k) == "" {
		return "", fmt.Errorf("-set %q: want key=value, e.g. -set train.epochs=5", s)
	}
	return s, nil
}
