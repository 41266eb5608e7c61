// Command experiment trains every variant of an experiment with every seed and
// writes a results table (Markdown and CSV) and plots of the training curves.
//
//	go run ./cmd/experiment configs/experiments/scaling.json   # or just: scaling
//	go run ./cmd/experiment -out /tmp/scaling -runs /tmp/scaling/runs configs/experiments/scaling.json
//	go run ./cmd/experiment -docs scaling   # update docs/experiments/scaling/
//
// By default the results go to a new folder, runs/experiment-<name>-<time>/,
// and the runs' folders are discarded. -docs writes them over the tracked
// results in docs/experiments/<name>/ instead, from the repository root.
//
// Ctrl-C (or SIGTERM) stops the runs under way, removes the temporary runs
// folder, writes no results and exits with status 130.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"itformer/cmd/internal/cli"
	"itformer/configs"
	"itformer/experiment"
)

func main() {
	ctx, stop := cli.SignalContext()
	defer stop()
	cli.Exit("experiment", run(ctx, os.Args[1:]))
}

// run runs the experiment args name until ctx is done (Ctrl-C, SIGTERM).
func run(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("experiment", "experiment [-out DIR | -docs] [-runs DIR] [-workers N] configs/experiments/NAME.json | NAME")
	out := fs.String("out", "", "folder for the results and plots (default runs/experiment-<name>-<time>)")
	docs := fs.Bool("docs", false, "write the results to docs/experiments/<name>/, the tracked ones (run from the repository root)")
	runs := fs.String("runs", "", "keep every run's folder here (default: discard them)")
	workers := fs.Int("workers", 0, "runs at a time; refused if they would not fit in -max-memory together (default: one per core, as many as fit)")
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, os.Stdout); err != nil {
		return err
	}
	if *workers < 0 {
		return fs.Mistake("-workers %d: give the number of runs at a time, or 0 for one per core", *workers)
	}
	if *docs && *out != "" {
		return fs.Mistake("-docs and -out both choose the results folder; give one")
	}
	if *runs != "" { // a file there failed only as the first run made its folder in it
		if err := fs.OutputDir("runs", *runs); err != nil {
			return err
		}
	}
	if fs.NArg() != 1 {
		return fs.Mistake("give one experiment file, e.g. configs/experiments/scaling.json, or a shipped one's name: %s", strings.Join(configs.Experiments(), ", "))
	}
	e, err := loadExperiment(fs.Arg(0))
	if err != nil {
		return err
	}
	if *out, err = resultsDir(e.Name, *out, *docs); err != nil {
		return err
	}
	return runExperiment(e, experiment.Options{OutDir: *out, RunsDir: *runs, Workers: *workers, Context: ctx})
}

// runExperiment runs e with a progress bar on a terminal and prints the table.
func runExperiment(e *experiment.Experiment, opt experiment.Options) (err error) {
	if term.IsTerminal(int(os.Stderr.Fd())) { // a bar redrawn with \r makes no sense in a log file
		bar := progressbar.NewOptions(len(e.Variants)*len(e.Seeds), progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("experiment "+e.Name), progressbar.OptionShowCount(), progressbar.OptionSetWidth(20))
		opt.OnRunDone = func(done, _ int) { bar.Set(done) }
		defer func() { endBar(bar, err) }()
	}
	fmt.Printf("%s: %d variants x %d seeds\n", e.Name, len(e.Variants), len(e.Seeds))
	res, err := experiment.Run(e, opt)
	if errors.Is(err, experiment.ErrInterrupted) {
		return cli.Interrupted(fmt.Errorf("%w; %s", err, leftBehind(opt)))
	}
	if err != nil {
		return err
	}
	os.Stdout.Write(res.Table())
	fmt.Printf("\nresults and plots in %s\n", opt.OutDir)
	return nil
}

// endBar fills the bar when every run finished, and otherwise leaves it
// showing how many did, on a line of its own above the error.
func endBar(bar *progressbar.ProgressBar, err error) {
	if err == nil {
		bar.Finish()
		return
	}
	bar.Exit()
	fmt.Fprintln(os.Stderr)
}

// leftBehind says what an interrupted experiment wrote: no results, and the
// runs' folders only where -runs asked to keep them.
func leftBehind(opt experiment.Options) string {
	if opt.RunsDir != "" {
		return fmt.Sprintf("no results were written to %s; the runs' folders stay in %s", opt.OutDir, opt.RunsDir)
	}
	return fmt.Sprintf("no results were written to %s, and the runs' temporary folder was removed", opt.OutDir)
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

// resultsDir is -out, or with -docs the tracked docs/experiments/NAME, or by
// default a new folder under runs/: the tracked results change only when asked.
func resultsDir(name, out string, docs bool) (string, error) {
	switch {
	case out != "":
		return out, nil
	case docs:
		if st, err := os.Stat(filepath.Join("docs", "experiments")); err != nil || !st.IsDir() {
			return "", fmt.Errorf("-docs writes docs/experiments/%s/ of the repository, but there is no docs/experiments here: run it from the repository root", name)
		}
		return filepath.Join("docs", "experiments", name), nil
	}
	return filepath.Join("runs", "experiment-"+name+"-"+time.Now().Format("20060102-150405")), nil
}
