// Command selective measures how far the model's "this is a guess" can be
// trusted, on the test split and the challenge sets of the corpus the model
// was trained on: for each set, how often the shown answer is right, the
// share of answers not flagged as guesses (coverage), how often those are
// right (selective accuracy), and the share on which every member of an
// ensemble answers alike. -plot draws the risk-coverage curves
// (Geifman & El-Yaniv 2017).
//
//	go run ./cmd/selective                                   # the embedded default model
//	go run ./cmd/selective -run runs/x -sets test,held_out_cell -json
//	go run ./cmd/selective -plot docs/risk-coverage.png
//	go run ./cmd/selective -member 1                         # member 1 of the ensemble alone
//	go run ./cmd/selective -run runs/x -sets test -by frame   # which frames it has not learned yet
//	go run ./cmd/selective -member 1 -temperature             # one model, its shares scaled to a temperature fitted on validation
//
// Sentences written outside the generator (WSC273's "it" items, or a file of
// your own in the same format) are scored by go run ./cmd/wsc.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/data"
	"itformer/experiment"
	"itformer/inference"
)

func main() {
	cli.Exit("selective", run(os.Args[1:], cli.Stdout, os.Stderr))
}

type options struct {
	run, sets, plot, by string
	misses              int
	member              *int
	asJSON              bool
	relatives           bool
	temperature         bool
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("selective", "selective [-run DIR] [-member K] [-sets test,negation,...] [-by frame,shape,flips,concession] [-misses N] [-plot FILE.png] [-json]")
	var o options
	fs.StringVar(&o.run, "run", "", "run folder or checkpoint.json (default: the embedded default model)")
	fs.StringVar(&o.sets, "sets", "all", "comma-separated sets: test and the challenge sets' names, or all")
	fs.StringVar(&o.plot, "plot", "", "also draw the risk-coverage curves as this PNG `FILE`")
	fs.StringVar(&o.by, "by", "", "also split each set by `PARTS`, one or more of "+groupingNames()+", comma-separated (flips: how many of a second-pole predicate, a failed outcome, \"not\" and \"although\" turn the answer round; concession: whether the reason explains or concedes)")
	fs.IntVar(&o.misses, "misses", 0, "also print up to `N` sentences of each set whose shown answer is wrong")
	fs.BoolVar(&o.asJSON, "json", false, "print the figures as JSON")
	fs.BoolVar(&o.temperature, "temperature", false, "scale one model's shares by a temperature fitted on the validation split (Guo et al. 2017) before the guess rule reads them; needs one model (-member K)")
	fs.BoolVar(&o.relatives, "relatives", true, "read a word the model does not know as its nearest WordNet relative it knows; -relatives=false reads it as <unk>")
	o.member = fs.MemberFlag()
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil {
		return err
	}
	key, err := groupingKey(o.by)
	if err != nil {
		return fs.Mistake("%v", err)
	}
	if o.misses < 0 {
		return fs.Mistake("-misses %d: give how many wrong sentences to print per set, 0 or more", o.misses)
	}
	if o.plot != "" { // before the sets are evaluated, which takes half a minute
		if err := fs.OutputFile("plot", o.plot, experiment.CheckPicture); err != nil {
			return err
		}
	}
	p, err := fs.LoadMember(o.run, *o.member)
	if err != nil {
		return err
	}
	if o.temperature && p.Members() > 1 {
		return fs.Mistake("-temperature scales one model's shares, and this model has %d members; give -member K", p.Members())
	}
	figures, curves, err := evaluate(p, o, key, stderr)
	if errors.Is(err, cli.ErrNoSet) {
		return fs.Mistake("-sets: %v", err)
	}
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := experiment.PlotRiskCoverage(o.plot, "risk-coverage", curves...); err != nil {
			return fmt.Errorf("drawing %s: %w", o.plot, err)
		}
		fmt.Fprintf(stderr, "wrote %s\n", o.plot)
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(figures)
	}
	writeTable(stdout, figures)
	writeMisses(stdout, figures)
	return nil
}

// evaluate scores every chosen set with p, reporting each as it starts on progress;
// key, if not nil, splits each set into parts, and each set keeps up to
// o.misses of its wrongly answered sentences.
func evaluate(p *inference.Predictor, o options, key func(data.Example) string, progress io.Writer) ([]inference.Selective, []experiment.Curve, error) {
	p.SetRelatives(o.relatives)
	d := p.Checkpoint().Meta.Config.Data
	c, err := data.GenerateSized(d.Seed, d.TrainSize)
	if err != nil {
		return nil, nil, fmt.Errorf("generating the model's corpus: %w", err)
	}
	sets, err := cli.ChooseSets(c, o.sets)
	if err != nil {
		return nil, nil, err
	}
	t, err := temperature(p, o, c, progress)
	if err != nil {
		return nil, nil, err
	}
	var figures []inference.Selective
	var curves []experiment.Curve
	for _, s := range sets {
		fmt.Fprintf(progress, "%s (%d sentences, %d models)\n", s.Name, len(s.Examples), p.Members())
		sel, scored, err := p.EvaluateSelective(s.Name, s.Examples)
		if err != nil {
			return nil, nil, err
		}
		if t > 0 {
			scored = inference.AtTemperature(scored, t)
			sel = inference.Summarize(s.Name, scored)
			sel.Temperature = t
		}
		if key != nil {
			sel.Groups = split(s.Examples, scored, key)
		}
		x, y := inference.RiskCoverage(scored)
		curves = append(curves, experiment.Curve{Name: s.Name, X: x, Y: y})
		sel.Misses = wrong(s.Examples, scored, o.misses)
		figures = append(figures, sel)
	}
	return figures, curves, nil
}

// temperature fits, with -temperature, the temperature of p's shares on the
// validation split of its corpus c; 0 without -temperature.
func temperature(p *inference.Predictor, o options, c *data.Corpus, progress io.Writer) (float64, error) {
	if !o.temperature {
		return 0, nil
	}
	fmt.Fprintf(progress, "validation (%d sentences): fitting a temperature\n", len(c.Validation))
	sel, scored, err := p.EvaluateSelective("validation", c.Validation)
	if err != nil {
		return 0, err
	}
	shares, right := make([]float64, len(scored)), make([]bool, len(scored))
	for i, s := range scored {
		shares[i], right[i] = s.Score, s.Right
	}
	t, err := inference.FitTemperature(shares, right)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(progress, "temperature %.4g (fitted on validation, %.1f%% of %d answers right)\n", t, 100*sel.Accuracy, sel.N)
	return t, nil
}

// groupings are what -by splits a set by: a sentence's part's name.
var groupings = map[string]func(data.Example) string{
	"frame":      func(e data.Example) string { return e.Frame },
	"shape":      func(e data.Example) string { return e.Shape },
	"flips":      func(e data.Example) string { return strconv.Itoa(e.Flips()) },
	"concession": func(e data.Example) string { return map[bool]string{false: "explains", true: "concedes"}[e.Concessive] },
}

// groupingNames lists -by's choices for help and errors.
func groupingNames() string { return strings.Join(slices.Sorted(maps.Keys(groupings)), ", ") }

// groupingKey is -by's key: the named parts' names joined by "/" ("so/concedes"
// for -by shape,concession), or nil for "" (no split).
func groupingKey(by string) (func(data.Example) string, error) {
	if by == "" {
		return nil, nil
	}
	var keys []func(data.Example) string
	named := map[string]bool{}
	for _, name := range strings.Split(by, ",") {
		name = strings.TrimSpace(name)
		k, ok := groupings[name]
		switch {
		case !ok:
			return nil, fmt.Errorf("-by %q: %q is no part to split by; give one or more of %s, comma-separated", by, name, groupingNames())
		case named[name]:
			return nil, fmt.Errorf("-by %q: %q is named twice; name each part once", by, name)
		}
		named[name] = true
		keys = append(keys, k)
	}
	return func(e data.Example) string {
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k(e)
		}
		return strings.Join(parts, "/")
	}, nil
}

// split sums up scored (one per example, in order) per part of the set, the
// parts sorted by name.
func split(examples []data.Example, scored []inference.Scored, key func(data.Example) string) []inference.Selective {
	parts := map[string][]inference.Scored{}
	for i, e := range examples {
		k := key(e)
		parts[k] = append(parts[k], scored[i])
	}
	var out []inference.Selective
	for _, name := range slices.Sorted(maps.Keys(parts)) {
		out = append(out, inference.Summarize(name, parts[name]))
	}
	return out
}

func writeTable(w io.Writer, figures []inference.Selective) {
	width := len("set")
	for _, f := range figures {
		width = max(width, len(f.Name))
		for _, g := range f.Groups {
			width = max(width, len(g.Name)+2)
		}
	}
	if len(figures) > 0 && figures[0].Temperature > 0 {
		fmt.Fprintf(w, "shares scaled to temperature %.4g, fitted on the validation split\n", figures[0].Temperature)
	}
	fmt.Fprintf(w, "%-*s %9s %9s %9s %10s %10s\n", width, "set", "sentences", "accuracy", "coverage", "selective", "unanimous")
	for _, f := range figures {
		writeRow(w, width, f.Name, f)
		for _, g := range f.Groups {
			writeRow(w, width, "  "+g.Name, g)
		}
	}
}

// wrong is up to n of a set's wrongly answered sentences, in the set's order.
func wrong(examples []data.Example, scored []inference.Scored, n int) []inference.Miss {
	var out []inference.Miss
	for i, s := range scored {
		if len(out) == n {
			break
		}
		if !s.Right {
			e := examples[i]
			out = append(out, inference.Miss{Text: e.Text, Right: e.Tokens[e.Antecedent], Guess: s.Guess, Share: s.Score})
		}
	}
	return out
}

// writeMisses prints each set's misses under its name.
func writeMisses(w io.Writer, figures []inference.Selective) {
	for _, f := range figures {
		if len(f.Misses) > 0 {
			fmt.Fprintf(w, "\n%s: wrong (the right answer; the share of the wrong one; stated or a guess)\n", f.Name)
		}
		for _, m := range f.Misses {
			kind := "stated"
			if m.Guess {
				kind = "a guess"
			}
			fmt.Fprintf(w, "  %s  right: %s; %.1f%%, %s\n", m.Text, m.Right, 100*m.Share, kind)
		}
	}
}

func writeRow(w io.Writer, width int, name string, f inference.Selective) {
	fmt.Fprintf(w, "%-*s %9d %8.1f%% %8.1f%% %9.1f%% %9.1f%%\n", width, name, f.N,
		100*f.Accuracy, 100*f.Coverage, 100*f.SelectiveAccuracy, 100*f.Unanimous)
}
