// Command train trains the pronoun-resolution transformer described by a config
// file and writes a run folder: the resolved config, a per-epoch log, the best
// checkpoint and the closing metrics.
//
//	go run ./cmd/train [-config FILE] [-out DIR [-overwrite]] [-seed N] [-set key=value ...]
//	go run ./cmd/train -resume DIR
//
// Without -config it trains the shipped configs/default.json, built into the
// binary, so it runs from any directory.
//
// Ctrl-C saves a resumable checkpoint (DIR/resume/) and exits with status 130;
// -resume DIR continues exactly where it stopped. A run that is killed outright
// resumes from the end of its last completed epoch. Ctrl-C during setup
// (corpus, graphs) exits 130 at once and writes nothing.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"itformer/checkpoint"
	"itformer/cmd/internal/cli"
	"itformer/config"
	"itformer/configs"
	"itformer/train"
)

type overrides []string

func (o *overrides) String() string { return strings.Join(*o, ",") }
func (o *overrides) Repeatable()    {} // -set a=1 -set b=2 sets both
func (o *overrides) Set(s string) error {
	s, err := config.ParseOverride(s)
	*o = append(*o, s)
	return err
}

func main() {
	cli.Exit("train", run(os.Args[1:]))
}

func run(args []string) error {
	fs := cli.NewFlagSet("train", "train [-config FILE] [-out DIR [-overwrite]] [-seed N] [-set key=value ...] | train -resume DIR")
	configPath := fs.String("config", "", "config file describing the run (default: the shipped configs/default.json, built in)")
	out := fs.String("out", "", "run folder to write (default runs/<config name>-<time>); one that holds a run is refused without -overwrite")
	seed := fs.String("seed", "", "override the config's seed (weights and batch order)")
	resume := fs.String("resume", "", "continue the stopped run in this folder (its config.json is used)")
	overwrite := fs.Bool("overwrite", false, "write into -out even if it holds a finished or stopped run, or files this program did not make (the run's files there are replaced; no other file is deleted)")
	fs.MaxMemoryFlag()
	var sets overrides
	fs.Var(&sets, "set", "override a config field, e.g. -set train.epochs=5 (repeatable)")
	if err := fs.Parse(args, os.Stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil {
		return err
	}
	// From here on Ctrl-C and SIGTERM stop the run cleanly, setup included.
	ctx, stop := cli.SignalContext()
	defer stop()
	if *resume != "" {
		if len(sets) > 0 || fs.Given("seed") || *out != "" || *overwrite || *configPath != "" {
			return fs.Mistake("-resume takes no other flag: a resumed run keeps its own config.json and folder")
		}
		return train1(ctx, *resume, true, func(o train.Options) (*train.Metrics, error) {
			m, err := train.Resume(*resume, o)
			return m, resumeHint(*resume, err)
		})
	}
	if *overwrite && *out == "" {
		return fs.Mistake("-overwrite needs -out: without it the run goes to a new folder, runs/NAME-TIME")
	}
	if fs.Given("seed") {
		if _, err := strconv.ParseInt(*seed, 10, 64); err != nil {
			return fs.Mistake("-seed %q: want an integer", *seed)
		}
		sets = append(sets, "seed="+*seed)
	}
	return fresh(ctx, *configPath, sets, *out, *overwrite)
}

// fresh trains a new run of the config at path ("": the built-in default)
// into dir (default runs/NAME-TIME).
func fresh(ctx context.Context, path string, sets []string, dir string, overwrite bool) error {
	cfg, err := cli.LoadConfig(path, sets...)
	if err != nil {
		return err
	}
	if dir == "" {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		if path == "" {
			name = strings.TrimSuffix(configs.Default, ".json")
		}
		dir = filepath.Join("runs", name+"-"+time.Now().Format("20060102-150405"))
	}
	if err := checkOut(dir, overwrite); err != nil {
		return err
	}
	fmt.Printf("training %s into %s\n", cli.ConfigName(path), dir)
	return train1(ctx, dir, false, func(o train.Options) (*train.Metrics, error) {
		o.Overwrite = overwrite
		return train.Run(cfg, o)
	})
}

// checkOut refuses a foreign -out folder, or one holding an earlier run
// (train.EarlierRun: finished, or stopped), before anything starts, saying
// how to write there anyway: a new run would delete the earlier one's files.
func checkOut(dir string, overwrite bool) error {
	err := train.CheckOutDir(dir, overwrite)
	if errors.Is(err, train.ErrFolderInUse) {
		return fmt.Errorf("%w\nchoose a new or empty folder, or add -overwrite to replace the run's files there (no other file is deleted)", err)
	}
	if err != nil || overwrite {
		return err
	}
	what, resumable := train.EarlierRun(dir)
	switch {
	case what == "":
		return nil
	case resumable:
		return fmt.Errorf("%s holds %s; a new run there would delete it. Continue it with\n  go run ./cmd/train -resume %s\nor add -overwrite to replace it, or give another -out folder", dir, what, dir)
	}
	return fmt.Errorf("%s holds %s; a new run there would delete it. Add -overwrite to replace it, or give another -out folder", dir, what)
}

// resumeHint adds what to do to the errors of a folder with nothing to
// resume, or whose files do not fit together.
func resumeHint(dir string, err error) error {
	switch {
	case errors.Is(err, train.ErrRunFinished):
		return fmt.Errorf("%w — train again with -out NEW", err)
	case errors.Is(err, train.ErrNoResumeCheckpoint):
		again := "go run ./cmd/train -config " + filepath.Join(dir, "config.json") + " -out " + dir
		if checkOut(dir, false) != nil { // a run folder from before the marker, or one with a best checkpoint
			again += " -overwrite"
		}
		return fmt.Errorf("%w; start it again with\n  %s", err, again)
	case errors.Is(err, train.ErrInconsistentRun): // -out alone is refused: the folder holds resume/
		return fmt.Errorf("%w:\n  go run ./cmd/train -config %s -out %s -overwrite", err, filepath.Join(dir, "config.json"), dir)
	}
	return err
}

// setupStopped says what a stop during setup left in dir: nothing written by
// a new run, nothing changed by a resumed one; but in the setup of a member
// (training, not dir), the members before it, trained, which -resume dir
// goes on from.
func setupStopped(err error, dir, training string, resumed bool) error {
	if !resumed && training == dir {
		return fmt.Errorf("%w; nothing was written to %s", err, dir)
	}
	what := "is unchanged"
	if training != dir {
		what = "holds the members trained before " + training
	}
	return fmt.Errorf("%w; %s %s: continue with\n  go run ./cmd/train -resume %s", err, dir, what, dir)
}

// train1 runs a fresh or resumed training; cancelling ctx (Ctrl-C) stops it cleanly.
func train1(ctx context.Context, dir string, resumed bool, start func(train.Options) (*train.Metrics, error)) error {
	bar := newBar()
	training := dir // the folder of the member in training: a stop saves its resume/
	opts := train.Options{OutDir: dir, Context: ctx, OnStep: bar.step,
		OnEpoch: func(rec train.EpochRecord, of int) { bar.clear(); fmt.Println(rec.Line(of)) },
		OnResume: func(st checkpoint.ResumeState) {
			fmt.Printf("resuming at epoch %d, batch %d (step %d)\n", st.Epoch, st.Batch, st.Step)
		},
		OnMember: func(k, of int) {
			bar.clear()
			training = train.MemberDir(dir, k)
			fmt.Printf("\nmember %d of %d (train.members: the same recipe with seed + %d) into %s\n", k, of, k-1, train.MemberDir(dir, k))
		}}
	m, err := start(opts)
	bar.clear()
	ckpt := filepath.Join(dir, checkpoint.FileName)
	switch {
	case errors.Is(err, train.ErrSetupInterrupted):
		fmt.Fprintln(os.Stderr, "train:", setupStopped(err, dir, training, resumed))
		os.Exit(cli.InterruptedStatus)
	case errors.Is(err, train.ErrInterrupted):
		// -resume dir, not the member's folder: it goes on to the members after it.
		fmt.Printf("\n%v: saved %s; continue with\n  go run ./cmd/train -resume %s\n", err, filepath.Join(training, checkpoint.ResumeDir), dir)
		os.Exit(cli.InterruptedStatus)
	case errors.Is(err, train.ErrNumerical):
		if _, statErr := os.Stat(ckpt); statErr == nil {
			return fmt.Errorf("%w\nthe last good checkpoint is %s (not overwritten)", err, ckpt)
		}
		return fmt.Errorf("%w\nno epoch finished, so no checkpoint was written", err)
	case err != nil:
		return err
	}
	fmt.Print(m.Summary())
	if err := writeMembers(os.Stdout, dir); err != nil { // the run is trained all the same
		fmt.Fprintf(os.Stderr, "warning: no table of the members' accuracies: %v\n", err)
	}
	fmt.Printf("\nrun folder: %s (checkpoint: %s)\n", dir, ckpt)
	return nil
}

// progress draws an epoch's progress bar on stderr, only on a terminal: a bar
// redrawn with \r makes no sense in a log file.
type progress struct {
	bar   *progressbar.ProgressBar
	epoch int
}

func newBar() *progress { return &progress{} }

func (p *progress) step(s train.StepReport) {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return
	}
	if p.bar == nil || s.Epoch != p.epoch {
		p.clear()
		p.epoch = s.Epoch
		p.bar = progressbar.NewOptions(s.Total, progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("sent"), progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(20), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	p.bar.Describe(fmt.Sprintf("epoch %d/%d  loss %.3f  acc %5.1f%%", s.Epoch, s.Epochs, s.Loss, 100*s.Accuracy))
	p.bar.Set(s.Seen)
}

// clear removes the bar before a line is printed.
func (p *progress) clear() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
