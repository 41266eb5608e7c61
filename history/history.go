// Package history is the format of a run folder's history.json: attention as
// it is learned. For a small fixed set of probe sentences (the mission
// sentence, its twin, and a twin pair from every challenge set), training
// records at a few points (before the first step, after 1/8, 1/4 and 1/2 of
// the first epoch, then after every epoch) every layer's and head's attention
// row of the pronoun and the candidates' probabilities. Package train writes
// it; the page plays it back and cmd/history draws it as a picture strip.
//
// The file is one JSON object (positions count from 0, into "tokens"):
//
//	format             "itformer-history/1"
//	positions          says that positions are 0-based indices into tokens
//	layers, heads      the model's sizes: every attention below is [layers][heads][words]
//	supervised_layer,  the head trained to point from the pronoun to its antecedent,
//	supervised_head      0-based; -1 when the run had no attention supervision
//	steps_per_epoch    optimiser steps in one epoch
//	probes[]           name, set (test or a challenge set), text, tokens, pronoun,
//	                     antecedent, candidates (both nouns, in sentence order)
//	points[]           step (optimiser steps taken), epoch (step / steps_per_epoch),
//	                     readings[] in probes' order:
//	                       attention                 [layer][head][word]: the pronoun's row
//	                       candidate_probabilities   P(candidate) from the resolution head,
//	                                                   in the order of the probe's candidates
//
// Weights and probabilities are rounded to 3 decimals (0.1%) to keep the file
// small: the embedded default model ships it.
package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"

	"itformer/config"
)

// FileName is the history's name in a run folder.
const FileName = "history.json"

// Format names this version of the file.
const Format = "itformer-history/1"

// PositionsNote is the file's "positions" field.
const PositionsNote = "0-based indices into tokens"

// MaxSize bounds the file read: a real one is some 100 kB.
const MaxSize = 32 << 20

// History is the whole file.
type History struct {
	Format          string  `json:"format"`
	Positions       string  `json:"positions"`
	Layers          int     `json:"layers"`
	Heads           int     `json:"heads"`
	SupervisedLayer int     `json:"supervised_layer"`
	SupervisedHead  int     `json:"supervised_head"`
	StepsPerEpoch   int     `json:"steps_per_epoch"`
	Probes          []Probe `json:"probes"`
	Points          []Point `json:"points"`
}

// Probe is one probe sentence.
type Probe struct {
	Name       string   `json:"name"` // e.g. "mission", "mission twin", "negation", "negation twin"
	Set        string   `json:"set"`  // "test" or the challenge set it comes from
	Text       string   `json:"text"`
	Tokens     []string `json:"tokens"`
	Pronoun    int      `json:"pronoun"`
	Antecedent int      `json:"antecedent"`
	Candidates [2]int   `json:"candidates"`
}

// Point is the probes' readings after Step optimiser steps.
type Point struct {
	Step     int       `json:"step"`
	Epoch    float64   `json:"epoch"`
	Readings []Reading `json:"readings"`
}

// Reading is one probe at one point.
type Reading struct {
	Attention              [][][]float64 `json:"attention"`               // [layer][head][word]
	CandidateProbabilities [2]float64    `json:"candidate_probabilities"` // in Probe.Candidates order
}

// New starts a history of the probes for a model of the given sizes;
// supervised is the supervised head (layer, head), or (-1, -1).
func New(layers, heads int, supervised [2]int, stepsPerEpoch int, probes []Probe) *History {
	return &History{Format: Format, Positions: PositionsNote, Layers: layers, Heads: heads,
		SupervisedLayer: supervised[0], SupervisedHead: supervised[1], StepsPerEpoch: stepsPerEpoch, Probes: probes}
}

// AnswerProbability is the probability the reading gives the probe's antecedent.
func (p Probe) AnswerProbability(r Reading) float64 {
	if p.Antecedent == p.Candidates[1] {
		return r.CandidateProbabilities[1]
	}
	return r.CandidateProbabilities[0]
}

// Probe returns the probe with the given name and its index.
func (h *History) Probe(name string) (Probe, int, bool) {
	i := slices.IndexFunc(h.Probes, func(p Probe) bool { return p.Name == name })
	if i < 0 {
		return Probe{}, -1, false
	}
	return h.Probes[i], i, true
}

// Has says whether a point was recorded after step steps.
func (h *History) Has(step int) bool {
	return slices.ContainsFunc(h.Points, func(p Point) bool { return p.Step == step })
}

// Add appends a point, rounding its numbers; points stay in step order.
func (h *History) Add(p Point) {
	for i := range p.Readings {
		r := &p.Readings[i]
		for _, heads := range r.Attention {
			for _, row := range heads {
				roundAll(row)
			}
		}
		roundAll(r.CandidateProbabilities[:])
	}
	h.Points = append(h.Points, p)
	slices.SortStableFunc(h.Points, func(a, b Point) int { return a.Step - b.Step })
}

// Truncate drops the points after step steps: a resumed run records them again.
func (h *History) Truncate(step int) {
	h.Points = slices.DeleteFunc(h.Points, func(p Point) bool { return p.Step > step })
}

// roundAll rounds to 3 decimals: 0.1%, what the page and the strip show.
func roundAll(xs []float64) {
	for i, x := range xs {
		xs[i] = math.Round(x*1e3) / 1e3
	}
}

// JSON is the file's content, compact. It fails only on a weight that is not
// finite, which JSON cannot hold.
func (h *History) JSON() ([]byte, error) {
	js, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return append(js, '\n'), nil
}

// Load reads and checks the history.json of a run folder (or of the folder
// holding the checkpoint.json at where).
func Load(where string) (*History, error) {
	dir := where
	if filepath.Ext(where) == ".json" {
		dir = filepath.Dir(where)
	}
	path := filepath.Join(dir, FileName)
	raw, err := config.ReadFile(path, MaxSize)
	if err != nil {
		return nil, err
	}
	return Parse(raw, path)
}

// LoadFS is Load for a file of fsys, such as the embedded model's.
func LoadFS(fsys fs.FS, name string) (*History, error) {
	raw, err := config.ReadFileFS(fsys, name, MaxSize)
	if err != nil {
		return nil, err
	}
	return Parse(raw, name)
}

// Parse reads a history strictly (unknown fields are refused) and checks it;
// errors name the file.
func Parse(raw []byte, name string) (*History, error) {
	var h History
	if err := config.DecodeKnownFields(raw, &h); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := h.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &h, nil
}

// ErrFormat is wrapped by every error of Check.
var ErrFormat = errors.New("not a valid history")

// Check verifies that every position and every attention row fits its probe
// and the model's sizes, so a reader can index without checking.
func (h *History) Check() error {
	if h.Format != Format {
		return fmt.Errorf("%w: format %q, want %q", ErrFormat, h.Format, Format)
	}
	if h.Layers < 1 || h.Heads < 1 || h.StepsPerEpoch < 1 {
		return fmt.Errorf("%w: layers %d, heads %d, steps_per_epoch %d must be positive", ErrFormat, h.Layers, h.Heads, h.StepsPerEpoch)
	}
	if sl, sh := h.SupervisedLayer, h.SupervisedHead; !(sl == -1 && sh == -1) && (sl < 0 || sl >= h.Layers || sh < 0 || sh >= h.Heads) {
		return fmt.Errorf("%w: supervised head (%d, %d) is not a head of %d layers x %d heads", ErrFormat, sl, sh, h.Layers, h.Heads)
	}
	for i, p := range h.Probes {
		if err := p.check(); err != nil {
			return fmt.Errorf("%w: probe %d (%q): %v", ErrFormat, i, p.Name, err)
		}
	}
	for i, pt := range h.Points {
		if err := h.checkPoint(pt); err != nil {
			return fmt.Errorf("%w: point %d (step %d): %v", ErrFormat, i, pt.Step, err)
		}
		if i > 0 && pt.Step <= h.Points[i-1].Step {
			return fmt.Errorf("%w: point %d (step %d) does not come after step %d", ErrFormat, i, pt.Step, h.Points[i-1].Step)
		}
	}
	return nil
}

func (p Probe) check() error {
	n := len(p.Tokens)
	for _, pos := range []int{p.Pronoun, p.Antecedent, p.Candidates[0], p.Candidates[1]} {
		if pos < 0 || pos >= n {
			return fmt.Errorf("position %d is outside its %d tokens", pos, n)
		}
	}
	if p.Antecedent != p.Candidates[0] && p.Antecedent != p.Candidates[1] {
		return fmt.Errorf("antecedent %d is not one of the candidates %v", p.Antecedent, p.Candidates)
	}
	return nil
}

func (h *History) checkPoint(pt Point) error {
	if pt.Step < 0 || len(pt.Readings) != len(h.Probes) {
		return fmt.Errorf("%d readings for %d probes, step %d", len(pt.Readings), len(h.Probes), pt.Step)
	}
	for i, r := range pt.Readings {
		if len(r.Attention) != h.Layers {
			return fmt.Errorf("probe %d: %d layers of attention, want %d", i, len(r.Attention), h.Layers)
		}
		for l, heads := range r.Attention {
			if len(heads) != h.Heads {
				return fmt.Errorf("probe %d layer %d: %d heads, want %d", i, l+1, len(heads), h.Heads)
			}
			for hd, row := range heads {
				if len(row) != len(h.Probes[i].Tokens) {
					return fmt.Errorf("probe %d layer %d head %d: %d weights for %d tokens", i, l+1, hd+1, len(row), len(h.Probes[i].Tokens))
				}
			}
		}
	}
	return nil
}
