// Command train trains the pronoun-resolution transformer described by a config
// file and writes a run folder: the resolved config, a per-epoch log, the best
// checkpoint and the closing metrics.
//
//	go run ./cmd/train [-config configs/default.json] [-out DIR] [-seed N] [-set key=value ...]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

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
	err := run(os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	configPath := fs.String("config", "configs/default.json", "config file describing the run")
	out := fs.String("out", "", "run folder to write (default runs/<config name>-<time>)")
	seed := fs.String("seed", "", "override the config's seed (weights and batch order)")
	var sets overrides
	fs.Var(&sets, "set", "override a config field, e.g. -set train.epochs=5 (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
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
	opts := train.Options{OutDir: dir, Log: os.Stdout}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		opts.Progress = os.Stderr // a bar redrawn with \r only makes sense on a terminal
	}
	if _, err := train.Run(cfg, opts); err != nil {
		return err
	}
	fmt.Printf("\nrun folder: %s (checkpoint: %s)\n", dir, filepath.Join(dir, train.CheckpointFile))
	return nil
}
