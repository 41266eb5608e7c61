// Package experiment runs experiments, which are configs too: an experiment file (configs/experiments/*.json)
// names a base config, overrides shared by every run, the seeds, and the
// variants to compare, each a list of overrides. RunExperiment trains every
// variant with every seed, as many runs at a time as there are cores and the
// memory limit (config.MaxMemory) allows, and writes a results table
// (Markdown and CSV) and plots of the per-epoch curves. It is the only
// package that links the plotting library.
package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"itformer/config"
)

// Experiment is the content of an experiment file.
type Experiment struct {
	Description string    `json:"description"`
	Base        string    `json:"base"`            // config file, relative to the experiment file
	Set         []string  `json:"set,omitempty"`   // overrides for every run
	Seeds       []int64   `json:"seeds"`           // each variant runs once per seed
	Variants    []Variant `json:"variants"`        //
	Plots       []string  `json:"plots,omitempty"` // extra per-epoch series to plot: grad_norm, attention_entropy
	Name        string    `json:"-"`               // the file's base name
	Path        string    `json:"-"`               // as results and errors name it
	fsys        fs.FS     // with fsName: where a built-in experiment and its base are read
	fsName      string
}

// Variant is one arm of an experiment.
type Variant struct {
	Name string   `json:"name"`
	Set  []string `json:"set"`
}

// plottable are the per-epoch series an experiment may ask to plot, with their axis labels.
var plottable = map[string]string{
	"grad_norm":         "gradient norm (mean over the epoch's steps)",
	"attention_entropy": "attention entropy / log n (validation)",
}

// Load reads an experiment file strictly and resolves every run's config, so
// that a typo fails before any training starts. Its base is relative to it.
func Load(path string) (*Experiment, error) {
	raw, err := config.ReadFile(path, config.MaxJSONSize)
	if err != nil {
		return nil, fmt.Errorf("reading experiment: %w", err)
	}
	return parse(raw, &Experiment{Path: path})
}

// LoadFS is Load for the experiment name inside fsys (the shipped ones,
// configs.FS), whose base is read from fsys too; shown is the path results
// and errors name it by, such as configs/experiments/scaling.json.
func LoadFS(fsys fs.FS, name, shown string) (*Experiment, error) {
	raw, err := config.ReadFileFS(fsys, name, config.MaxJSONSize)
	if err != nil {
		return nil, fmt.Errorf("reading experiment: %w", err)
	}
	return parse(raw, &Experiment{Path: shown, fsys: fsys, fsName: name})
}

// parse decodes raw into e, whose Path and source are set (decoding leaves
// them alone), and checks it.
func parse(raw []byte, e *Experiment) (*Experiment, error) {
	if err := config.DecodeStrict(raw, e); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Path, err)
	}
	e.Name = trimExt(filepath.Base(e.Path))
	if err := e.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Path, err)
	}
	return e, nil
}

func trimExt(name string) string { return name[:len(name)-len(filepath.Ext(name))] }

func (e *Experiment) validate() error {
	errs := []error{config.CheckDescription(e.Description)}
	if len(e.Seeds) == 0 {
		errs = append(errs, errors.New("seeds: list at least one seed"))
	}
	for i, s := range e.Seeds {
		if slices.Index(e.Seeds, s) < i { // the same run again, counted twice in the mean and spread
			errs = append(errs, fmt.Errorf("seeds[%d]: seed %d is repeated", i, s))
		}
	}
	errs = append(errs, noSeedSet(e.Set))
	if e.Base == "" && e.fsys == nil {
		// Resolved against the file's folder, an empty base reads "a directory, not a regular file".
		return errors.Join(append(errs, errors.New("base: name the config file the variants start from, e.g. \"../tiny.json\""))...)
	}
	if len(e.Variants) == 0 {
		errs = append(errs, errors.New("variants: list at least one variant"))
	}
	seen := map[string]bool{}
	for i, v := range e.Variants {
		errs = append(errs, e.checkName(i, v.Name, seen))
		seen[v.Name] = true
		if err := noSeedSet(v.Set); err != nil {
			errs = append(errs, fmt.Errorf("variants[%d] (%s): %w", i, v.Name, err))
		}
		if _, err := e.Config(v, 1); err != nil {
			errs = append(errs, fmt.Errorf("variants[%d] (%s): %w", i, v.Name, err))
		}
	}
	for _, p := range e.Plots {
		if _, ok := plottable[p]; !ok {
			errs = append(errs, fmt.Errorf("plots: unknown series %q (grad_norm, attention_entropy)", p))
		}
	}
	return errors.Join(errs...)
}

// checkName refuses variants[i]'s name if it is empty, repeated (seen), not
// a plain name, or too long for its runs' folders.
func (e *Experiment) checkName(i int, name string, seen map[string]bool) error {
	if name == "" || seen[name] {
		return fmt.Errorf("variants[%d]: name %q is empty or repeated", i, name)
	}
	if err := plainName(name); err != nil {
		return fmt.Errorf("variants[%d]: name %q %w", i, name, err)
	}
	if err := fitsFileName(name, e.Seeds); err != nil {
		return fmt.Errorf("variants[%d]: name %w", i, err) // not quoted: it is too long to read
	}
	return nil
}

// noSeedSet refuses an override of the run's seed in set: Config sets each
// run's seed from "seeds" after the overrides, so it would be replaced in
// silence. data.seed, the corpus's, is another field and may be set.
func noSeedSet(set []string) error {
	var errs []error
	for i, o := range set {
		key, _, _ := strings.Cut(o, "=")
		if strings.TrimSpace(key) == "seed" { // the key as config's overrides read it
			errs = append(errs, fmt.Errorf("set[%d] %q: each run's seed comes from \"seeds\"; list the seeds there (data.seed, the corpus's, may be set)", i, o))
		}
	}
	return errors.Join(errs...)
}

// maxNameBytes is the longest file name the common file systems take (ext4,
// XFS, btrfs, APFS, tmpfs): a longer run folder name failed only when its
// run started, after the runs before it had trained.
const maxNameBytes = 255

// runDirName is the folder of a variant's run with seed, under the runs folder.
func runDirName(variant string, seed int64) string {
	return fmt.Sprintf("%s-seed%d", variant, seed)
}

// fitsFileName refuses a variant name whose runs' folders (runDirName) would
// be longer than maxNameBytes with one of the seeds.
func fitsFileName(name string, seeds []int64) error {
	for _, s := range seeds {
		if dir := runDirName(name, s); len(dir) > maxNameBytes {
			return fmt.Errorf("is %d bytes long: it names the runs' folders (NAME-seedN), and with seed %d that name would be %d bytes, over the %d a file name may have; shorten it",
				len(name), s, len(dir), maxNameBytes)
		}
	}
	return nil
}

// plainName refuses a variant name that is not a plain name. Each run's
// folder is named after its variant (NAME-seedN, under -runs), so a "/" or
// "\\" would put it elsewhere ("../../etc/x" into /etc); a control character
// would be an invisible part of a file name and of the results table.
func plainName(name string) error {
	bad := strings.IndexFunc(name, func(r rune) bool { return r == '/' || r == '\\' || !unicode.IsPrint(r) })
	if bad < 0 {
		return nil
	}
	r, _ := utf8.DecodeRuneInString(name[bad:])
	return fmt.Errorf("is not a plain name: it names the runs' folders (NAME-seedN), so it may hold letters, digits, spaces and punctuation, but not %q", r)
}

// Config is the resolved config of one run: base, shared overrides, the
// variant's overrides, then the seed, which no override may set (noSeedSet).
func (e *Experiment) Config(v Variant, seed int64) (config.Run, error) {
	sets := append(append(append([]string{}, e.Set...), v.Set...), "seed="+strconv.FormatInt(seed, 10))
	if e.fsys != nil {
		return e.builtInBase(sets)
	}
	base := e.Base
	if !filepath.IsAbs(base) {
		base = filepath.Join(filepath.Dir(e.Path), base)
	}
	return config.Load(base, sets...)
}

// builtInBase reads a built-in experiment's base beside it in its fsys.
func (e *Experiment) builtInBase(sets []string) (config.Run, error) {
	shown := path.Join(path.Dir(e.Path), e.Base)
	raw, err := config.ReadFileFS(e.fsys, path.Join(path.Dir(e.fsName), e.Base), config.MaxJSONSize)
	if err != nil {
		return config.Run{}, fmt.Errorf("reading config %s: %w", shown, err)
	}
	c, err := config.Parse(raw, sets...)
	if err != nil {
		return config.Run{}, config.InFile(shown, err)
	}
	return c, nil
}
