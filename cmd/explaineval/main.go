// Command explaineval measures the model's explanations on the test split
// and the challenge sets of the corpus each model was trained on: accuracy
// with each attention head knocked out, how often each head's (and the
// rollout's) strongest attention from "it" falls on the antecedent, and how
// often the word that integrated gradients or gradient × input ranks first
// is a deciding word. Several models are printed side by side.
//
//	go run ./cmd/explaineval                                  # the embedded default model
//	go run ./cmd/explaineval -run default -run runs/unsupervised
//	go run ./cmd/explaineval -run runs/x -sets test,negation -limit 200 -json
//
// docs/explanations.md is its output for the default model and a model
// trained without attention supervision. It needs no training code.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/config"
	"itformer/data"
	"itformer/inference"
)

func main() {
	cli.Exit("explaineval", run(os.Args[1:], cli.Stdout, os.Stderr))
}

// runList is the repeatable -run flag.
type runList []string

func (r *runList) String() string     { return strings.Join(*r, ",") }
func (r *runList) Set(v string) error { *r = append(*r, v); return nil }
func (r *runList) Repeatable()        {} // -run a -run b compares two models

// defaultRun names the embedded default model in -run.
const defaultRun = "default"

type options struct {
	runs   runList
	sets   string
	limit  int
	asJSON bool
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("explaineval", "explaineval [-run DIR|default]... [-sets test,negation,...] [-limit N] [-json]")
	var o options
	fs.Var(&o.runs, "run", "a run folder or checkpoint.json, or \"default\" for the embedded model; repeat to compare models side by side (default: default)")
	fs.StringVar(&o.sets, "sets", "all", "comma-separated sets: test and the challenge sets' names, or all")
	fs.IntVar(&o.limit, "limit", 0, "attribute only the first `N` sentences of each set (0: all; attribution costs one 65-sentence batch per sentence)")
	fs.BoolVar(&o.asJSON, "json", false, "print every figure as JSON")
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil {
		return err
	}
	if o.limit < 0 {
		return fs.Mistake("-limit %d: give 0 (all) or a positive number", o.limit)
	}
	if len(o.runs) == 0 {
		o.runs = runList{defaultRun}
	}
	models, err := evaluateAll(o, stderr)
	if errors.Is(err, cli.ErrNoSet) {
		return fs.Mistake("-sets: %v", err)
	}
	if err != nil {
		return err
	}
	if o.asJSON {
		return writeJSON(stdout, models)
	}
	writeMarkdown(stdout, models)
	return nil
}

// loadAll loads every -run before any is evaluated, which takes minutes: a
// second -run that cannot be loaded had been found only after the first was
// measured.
func loadAll(runs runList) ([]*inference.Predictor, error) {
	var models []*inference.Predictor
	for _, r := range runs {
		path := r
		if r == defaultRun {
			path = ""
		}
		p, err := cli.LoadModel(path)
		if err != nil && path == "" { // a run's errors name its path ("-run runs/nope: no such file or folder"); the embedded model's do not
			return nil, fmt.Errorf("-run %s: %w", r, err)
		}
		if err != nil {
			return nil, err
		}
		models = append(models, p)
	}
	return models, nil
}

// modelFigures are one model's figures on every chosen set.
type modelFigures struct {
	Run                  string                      `json:"run"`
	AttentionSupervision float64                     `json:"attention_supervision"`
	Layers               int                         `json:"layers"`
	Heads                int                         `json:"heads"`
	Sets                 []inference.SetExplanations `json:"sets"`
}

func evaluateAll(o options, progress io.Writer) ([]modelFigures, error) {
	models, err := loadAll(o.runs)
	if err != nil {
		return nil, err
	}
	corpora := map[config.Data]*data.Corpus{} // by data seed and size: models compared may share one
	var out []modelFigures
	for i, r := range o.runs {
		p := models[i]
		meta := p.Checkpoint().Meta
		seed := meta.Config.Data
		if corpora[seed] == nil {
			var err error
			if corpora[seed], err = data.GenerateSized(meta.Config.Data.Seed, meta.Config.Data.TrainSize); err != nil {
				return nil, fmt.Errorf("generating the corpus of data seed %d: %w", seed.Seed, err)
			}
		}
		sets, err := cli.ChooseSets(corpora[seed], o.sets)
		if err != nil {
			return nil, err
		}
		m := modelFigures{Run: r, AttentionSupervision: meta.Config.Train.AttentionSupervision, Layers: meta.Model.Layers, Heads: meta.Model.Heads}
		for _, s := range sets {
			fmt.Fprintf(progress, "%s: %s (%d sentences)\n", r, s.Name, len(s.Examples))
			e, err := p.ExplainSet(s.Name, s.Examples, o.limit)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", r, s.Name, err)
			}
			m.Sets = append(m.Sets, e)
		}
		out = append(out, m)
	}
	return out, nil
}
