// Command experiment trains every variant of an experiment with every seed and
// writes a results table (Markdown and CSV) and plots of the training curves.
//
//	go run ./cmd/experiment configs/experiments/scaling.json   # or just: scaling
//	go run ./cmd/experiment -out /tmp/scaling -runs /tmp/scaling/runs configs/experiments/scaling.json
//
// By default the results go to docs/experiments/<name>/, where the shipped
// experiments' results live, and the runs' folders are discarded.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"itformer/cmd/internal/cli"
	"itformer/configs"
	"itformer/experiment"
)

func main() {
	cli.Exit("experiment", run(os.Args[1:]))
}

func run(args []string) error {
	fs := cli.NewFlagSet("experiment", "experiment [-out DIR] [-runs DIR] [-workers N] configs/experiments/NAME.json | NAME")
	out := fs.String("out", "", "folder for the results and plots (default docs/experiments/<name>)")
	runs := fs.String("runs", "", "keep every run's folder here (default: discard them)")
	workers := fs.Int("workers", 0, "runs at a time (default: one per core)")
	if err := fs.Parse(args, os.Stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fs.Mistake("give one experiment file, e.g. configs/experiments/scaling.json, or a shipped one's name: %s", strings.Join(configs.Experiments(), ", "))
	}
	e, err := loadExperiment(fs.Arg(0))
	if err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Join("docs", "experiments", e.Name)
	}
	opt := experiment.Options{OutDir: *out, RunsDir: *runs, Workers: *workers}
	if term.IsTerminal(int(os.Stderr.Fd())) { // a bar redrawn with \r makes no sense in a log file
		bar := progressbar.NewOptions(len(e.Variants)*len(e.Seeds), progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("experiment "+e.Name), progressbar.OptionShowCount(), progressbar.OptionSetWidth(20))
		opt.OnRunDone = func(done, _ int) { bar.Set(done) }
		defer bar.Finish()
	}
	fmt.Printf("%s: %d variants x %d seeds\n", e.Name, len(e.Variants), len(e.Seeds))
	res, err := experiment.Run(e, opt)
	if err != nil {
		return err
	}
	os.Stdout.Write(res.Table())
	fmt.Printf("\nresults and plots in %s\n", *out)
	return nil
}

// loadExperiment reads the experiment file at arg or, when there is none, the
// shipped experiment arg names (scaling, scaling.json or
// configs/experiments/scaling.json) from the configs built into the binary,
// so that the shipped ones run from any directory.
func loadExperiment(arg string) (*experiment.Experiment, error) {
	if _, err := os.Stat(arg); err == nil {
		return experiment.Load(arg)
	}
	name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(arg), "configs/experiments/"), ".json")
	if slices.Contains(configs.Experiments(), name) {
		return experiment.LoadFS(configs.FS, "experiments/"+name+".json", "configs/experiments/"+name+".json")
	}
	_, err := experiment.Load(arg)
	return nil, fmt.Errorf("%w\n(the shipped experiments, by name: %s)", err, strings.Join(configs.Experiments(), ", "))
}
