// Command reliability draws a run's reliability diagram from its
// metrics.json: for each confidence bin of the test split and of every
// challenge set, how often the model was right, beside the diagonal a
// perfectly calibrated model follows.
//
//	go run ./cmd/reliability -run cmd/internal/defaultmodel/model -out docs/reliability.png
package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/experiment"
	"itformer/train"
)

func main() {
	cli.Exit("reliability", run(os.Args[1:]))
}

func run(args []string) error {
	fs := cli.NewFlagSet("reliability", "reliability -run DIR [-sets test,negation,...] [-out FILE.png]")
	runDir := fs.String("run", "", "run folder (or its checkpoint.json) whose metrics.json to draw")
	out := fs.String("out", "reliability.png", "the PNG to write")
	sets := fs.String("sets", "test", "comma-separated sets to draw: test and challenge set names, or all")
	if err := fs.Parse(args, os.Stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil {
		return err
	}
	if *runDir == "" {
		return fs.Mistake("give the run folder with -run")
	}
	if err := fs.OutputFile("out", *out, experiment.CheckPicture); err != nil {
		return err
	}
	path, err := cli.RunFile(*runDir, "metrics.json")
	if err != nil {
		return err
	}
	m, err := readMetrics(path)
	if err != nil {
		return err
	}
	drawn, err := pick(m, *sets)
	if err != nil {
		return fs.Mistake("%v", err)
	}
	if err := experiment.PlotReliability(*out, "reliability of "+*runDir, drawn...); err != nil {
		return fmt.Errorf("drawing %s: %w", *out, err)
	}
	fmt.Printf("wrote %s\n", *out)
	return nil
}

// pick returns the named sets' bins, in the order named.
func pick(m *train.Metrics, names string) ([]experiment.Reliability, error) {
	all := []experiment.Reliability{{Name: "test", ECE: m.Test.ECE, Bins: m.Test.Reliability}}
	for _, c := range m.Challenges {
		all = append(all, experiment.Reliability{Name: c.Name, ECE: c.Evaluation.ECE, Bins: c.Evaluation.Reliability})
	}
	if names == "all" {
		return all, nil
	}
	var out []experiment.Reliability
	for _, n := range strings.Split(names, ",") {
		i := slices.IndexFunc(all, func(r experiment.Reliability) bool { return r.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("-sets: no set %q in this run (test, or a challenge set's name)", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

func readMetrics(path string) (*train.Metrics, error) {
	m, err := train.ReadMetrics(path)
	if err != nil {
		return nil, err
	}
	if len(m.Test.Reliability) == 0 {
		return nil, fmt.Errorf("%s has no reliability bins: it was written before calibration was measured; train again", path)
	}
	if err := checkBins(*m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// checkBins refuses bins that are not what training writes (shares between 0
// and 1, counts of sentences): a damaged file would otherwise be drawn as a
// plausible picture of numbers no run measured.
func checkBins(m train.Metrics) error {
	sets := map[string][]train.Bin{"test": m.Test.Reliability}
	names := []string{"test"}
	for _, c := range m.Challenges {
		sets[c.Name] = c.Evaluation.Reliability
		names = append(names, c.Name)
	}
	for _, name := range names {
		for i, b := range sets[name] {
			if err := checkBin(b); err != nil {
				return fmt.Errorf("%s: reliability bin %d: %w", name, i+1, err)
			}
		}
	}
	return nil
}

func checkBin(b train.Bin) error {
	share := func(x float64) bool { return x >= 0 && x <= 1 } // false for NaN too
	switch {
	case b.N < 0:
		return fmt.Errorf("n %d is negative", b.N)
	case !share(b.Lower) || !share(b.Upper) || b.Lower > b.Upper:
		return fmt.Errorf("its range %g to %g is not within 0 to 1, lower first", b.Lower, b.Upper)
	case !share(b.Confidence):
		return fmt.Errorf("confidence %g is not between 0 and 1", b.Confidence)
	case !share(b.Accuracy):
		return fmt.Errorf("accuracy %g is not between 0 and 1", b.Accuracy)
	}
	return nil
}
