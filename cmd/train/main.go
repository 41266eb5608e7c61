// Command train trains the pronoun-resolution transformer described by a config
// file and writes a run folder: the resolved config, a per-epoch log, the best
// checkpoint and the closing metrics.
//
//	go run ./cmd/train [-config configs/default.json] [-out DIR] [-seed N] [-set key=value ...]
//	go run ./cmd/train -resume DIR
//
// Ctrl-C saves a resumable checkpoint (DIR/resume/) and exits with status 130;
// -resume DIR continues exactly where it stopped. A run that is killed outright
// resumes from the end of its last completed epoch.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"itformer/cmd/internal/cli"
	"itformer/train"
)

type overrides []string

func (o *overrides) String() string { return strings.Join(*o, ",") }
func (o *overrides) Set(s string) error {
	s, err := train.ParseOverride(s)
	*o = append(*o, s)
	return err
}

func main() {
	cli.Exit("train", run(os.Args[1:]))
}

func run(args []string) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	configPath := fs.String("config", "configs/default.json", "config file describing the run")
	out := fs.String("out", "", "run folder to write (default runs/<config name>-<time>)")
	seed := fs.String("seed", "", "override the config's seed (weights and batch order)")
	resume := fs.String("resume", "", "continue the stopped run in this folder (its config.json is used)")
	var sets overrides
	fs.Var(&sets, "set", "override a config field, e.g. -set train.epochs=5 (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	if *resume != "" {
		if len(sets) > 0 || *seed != "" || *out != "" || *configPath != "configs/default.json" {
			return fmt.Errorf("-resume takes no other flag: a resumed run keeps its own config.json and folder")
		}
		return train1(*resume, func(o train.Options) (*train.Metrics, error) { return train.Resume(*resume, o) })
	}
	if *seed != "" {
		if _, err := strconv.ParseInt(*seed, 10, 64); err != nil {
			return fmt.Errorf("-seed %q: want an integer", *seed)
		}
		sets = append(sets, "seed="+*seed)
	}
	cfg, err := train.LoadConfig(*configPath, sets...)
	if err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		name := strings.TrimSuffix(filepath.Base(*configPath), filepath.Ext(*configPath))
		dir = filepath.Join("runs", name+"-"+time.Now().Format("20060102-150405"))
	}
	fmt.Printf("training %s into %s\n", *configPath, dir)
	return train1(dir, func(o train.Options) (*train.Metrics, error) { return train.Run(cfg, o) })
}

// train1 runs a fresh or resumed training with Ctrl-C wired to a clean stop.
func train1(dir string, start func(train.Options) (*train.Metrics, error)) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := train.Options{OutDir: dir, Log: os.Stdout, Context: ctx}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		opts.Progress = os.Stderr // a bar redrawn with \r only makes sense on a terminal
	}
	_, err := start(opts)
	switch {
	case errors.Is(err, train.ErrInterrupted):
		fmt.Printf("\n%v: saved %s; continue with\n  go run ./cmd/train -resume %s\n", err, filepath.Join(dir, train.ResumeDir), dir)
		os.Exit(130)
	case errors.Is(err, train.ErrNumerical):
		if _, statErr := os.Stat(filepath.Join(dir, train.CheckpointFile)); statErr == nil {
			return fmt.Errorf("%w\nthe last good checkpoint is %s (not overwritten)", err, filepath.Join(dir, train.CheckpointFile))
		}
		return fmt.Errorf("%w\nno epoch finished, so no checkpoint was written", err)
	case err != nil:
		return err
	}
	fmt.Printf("\nrun folder: %s (checkpoint: %s)\n", dir, filepath.Join(dir, train.CheckpointFile))
	return nil
}
