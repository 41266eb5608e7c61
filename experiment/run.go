package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"itformer/config"
	"itformer/train"
)

// Options say where results go and how many runs share the CPU.
type Options struct {
	OutDir    string                // results.md, results.csv, runs.csv and the plots
	RunsDir   string                // the runs' folders; "" for a temporary folder removed at the end
	Workers   int                   // runs at a time; 0 for one per core, as many as fit in config.MaxMemory
	OnRunDone func(done, total int) // called as each run finishes; nil for none
	// Context: cancelling it (Ctrl-C) stops the runs under way, as train
	// stops a run, starts no other, and writes no results (ErrInterrupted).
	// nil: never.
	Context context.Context
}

// ErrInterrupted is returned when the Options' context is cancelled before
// every run finished: no results are written, and a temporary runs folder
// is removed.
var ErrInterrupted = errors.New("interrupted")

// RunResult is one run's closing figures.
type RunResult struct {
	Variant          string
	Seed             int64
	TestAccuracy     float64
	Alignment        float64 // the best head's share of test sentences with strongest attention on the antecedent
	FinalTrainLoss   float64
	TestLoss         float64
	AttentionEntropy float64 // last epoch's
	GradNorm         float64 // last epoch's
	TrainSeconds     float64
	Epochs           []train.EpochRecord
}

// Stat is a mean and a sample standard deviation over seeds.
type Stat struct{ Mean, SD float64 }

// VariantSummary aggregates a variant's runs.
type VariantSummary struct {
	Name                                                                                string
	Runs                                                                                int
	TestAccuracy, Alignment, FinalTrainLoss, TestLoss, AttentionEntropy, GradNorm, Time Stat
}

// Result is everything RunExperiment measured, runs in (variant, seed) order.
type Result struct {
	Experiment *Experiment
	Runs       []RunResult
	Variants   []VariantSummary
}

type job struct {
	variant Variant
	seed    int64
	index   int
}

// RunExperiment trains every variant with every seed and writes the results.
func Run(e *Experiment, opt Options) (*Result, error) {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	if err := checkOutDir(opt.OutDir); err != nil {
		return nil, err
	}
	jobs := e.jobs()
	workers, err := e.workers(opt.Workers, len(jobs))
	if err != nil {
		return nil, err
	}
	if err := checkRunFolders(opt.RunsDir, jobs); err != nil {
		return nil, err
	}
	runsDir, cleanup, err := runsFolder(opt.RunsDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	res := &Result{Experiment: e, Runs: make([]RunResult, len(jobs))}
	if err := runJobs(e, jobs, res.Runs, runsDir, workers, opt); err != nil {
		return nil, err
	}
	res.summarise()
	return res, res.write(opt.OutDir)
}

// jobs are the experiment's runs, every variant with every seed.
func (e *Experiment) jobs() []job {
	var jobs []job
	for _, v := range e.Variants {
		for _, s := range e.Seeds {
			jobs = append(jobs, job{variant: v, seed: s, index: len(jobs)})
		}
	}
	return jobs
}

// dir is the job's run folder under runsDir.
func (j job) dir(runsDir string) string {
	return filepath.Join(runsDir, runDirName(j.variant.Name, j.seed))
}

// workers is how many runs train at once: asked, or by default one per
// core, never more than there are runs. config.MaxMemory holds each run
// alone (config.Run.Validate), but runs trained at once add up (-workers
// 1000 trained 12 runs of 634 MB at once, 3.44 GB, under 700 MB): by default
// no more start together than fit in it, and an asked number that would
// not fit is refused before any run trains.
func (e *Experiment) workers(asked, runs int) (int, error) {
	each, err := e.runMemory()
	if err != nil {
		return 0, err
	}
	fit := runs
	if each > 0 { // an experiment without variants has nothing to estimate
		fit = int(min(float64(config.MaxMemory)/each, float64(runs)))
	}
	if asked <= 0 {
		return max(1, min(runtime.NumCPU(), runs, fit)), nil
	}
	n := min(asked, runs)
	if n > fit {
		return 0, fmt.Errorf("-workers %d would train %d runs at once, each estimated to need up to %s: %s in all, over the limit of %s: give -workers %d or fewer, or raise -max-memory",
			asked, n, config.FormatBytes(each), config.FormatBytes(each*float64(n)), config.MaxMemory, fit)
	}
	return n, nil
}

// runMemory is the largest of the runs' memory estimates, the one train
// holds each run to; a run's seed changes none.
func (e *Experiment) runMemory() (float64, error) {
	most := 0.0
	for _, v := range e.Variants {
		c, err := e.Config(v, 1)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", v.Name, err)
		}
		most = max(most, c.MemoryEstimate())
	}
	return most, nil
}

// checkRunFolders refuses, before any run trains, every run folder under
// runsDir ("" for a new temporary one) that its run would refuse when it
// starts (train.CheckOutDir: another program's folder, a file), rather
// than after the runs before it trained.
func checkRunFolders(runsDir string, jobs []job) error {
	if runsDir == "" {
		return nil
	}
	var errs []error
	for _, j := range jobs {
		if err := train.CheckOutDir(j.dir(runsDir), false); err != nil {
			errs = append(errs, fmt.Errorf("%s, seed %d: %w", j.variant.Name, j.seed, err))
		}
	}
	return errors.Join(errs...)
}

func runsFolder(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	tmp, err := os.MkdirTemp("", "itformer-experiment-")
	return tmp, func() { os.RemoveAll(tmp) }, err
}

// runJobs trains the jobs on workers goroutines; each writes its own slot.
// Once opt.Context is done no job starts, and those under way stop.
func runJobs(e *Experiment, jobs []job, out []RunResult, runsDir string, workers int, opt Options) error {
	ctx := opt.Context
	queue, errs := make(chan job), make([]error, len(jobs))
	var wg sync.WaitGroup
	var mu sync.Mutex // orders the OnRunDone calls
	done := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				out[j.index], errs[j.index] = runJob(ctx, e, j, runsDir)
				mu.Lock()
				done++
				if opt.OnRunDone != nil {
					opt.OnRunDone(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
	sent := send(ctx, queue, jobs)
	close(queue)
	wg.Wait()
	if err := errors.Join(errs...); err != nil || sent < len(jobs) {
		if ctx.Err() != nil { // the runs' errors say only that they were stopped
			return fmt.Errorf("%w with %d of %d runs finished", ErrInterrupted, finished(errs[:sent]), len(jobs))
		}
		return err
	}
	return nil
}

// send queues the jobs until ctx is done and returns how many it queued.
func send(ctx context.Context, queue chan<- job, jobs []job) int {
	for i, j := range jobs {
		if ctx.Err() != nil { // select would pick at random between a free worker and Done
			return i
		}
		select {
		case queue <- j:
		case <-ctx.Done():
			return i
		}
	}
	return len(jobs)
}

// finished counts the runs that ended without an error.
func finished(errs []error) int {
	n := 0
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	return n
}

func runJob(ctx context.Context, e *Experiment, j job, runsDir string) (RunResult, error) {
	cfg, err := e.Config(j.variant, j.seed)
	if err != nil {
		return RunResult{}, err
	}
	dir := j.dir(runsDir)
	var epochs []train.EpochRecord
	m, err := train.Run(cfg, train.Options{OutDir: dir, Context: ctx, OnEpoch: func(rec train.EpochRecord, _ int) { epochs = append(epochs, rec) }})
	if err != nil {
		return RunResult{}, fmt.Errorf("%s, seed %d: %w", j.variant.Name, j.seed, err)
	}
	if len(epochs) == 0 {
		return RunResult{}, fmt.Errorf("%s, seed %d logged no epoch", j.variant.Name, j.seed)
	}
	last := epochs[len(epochs)-1]
	return RunResult{Variant: j.variant.Name, Seed: j.seed, TestAccuracy: m.Test.Accuracy, Alignment: m.BestAttention.Share,
		FinalTrainLoss: last.TrainLoss, TestLoss: m.Test.Loss, AttentionEntropy: last.AttentionEntropy,
		GradNorm: last.GradNorm, TrainSeconds: m.TrainSeconds, Epochs: epochs}, nil
}

func (r *Result) summarise() {
	for _, v := range r.Experiment.Variants {
		var runs []RunResult
		for _, run := range r.Runs {
			if run.Variant == v.Name {
				runs = append(runs, run)
			}
		}
		pick := func(f func(RunResult) float64) Stat { return stat(runs, f) }
		r.Variants = append(r.Variants, VariantSummary{Name: v.Name, Runs: len(runs),
			TestAccuracy:     pick(func(x RunResult) float64 { return x.TestAccuracy }),
			Alignment:        pick(func(x RunResult) float64 { return x.Alignment }),
			FinalTrainLoss:   pick(func(x RunResult) float64 { return x.FinalTrainLoss }),
			TestLoss:         pick(func(x RunResult) float64 { return x.TestLoss }),
			AttentionEntropy: pick(func(x RunResult) float64 { return x.AttentionEntropy }),
			GradNorm:         pick(func(x RunResult) float64 { return x.GradNorm }),
			Time:             pick(func(x RunResult) float64 { return x.TrainSeconds })})
	}
}

// stat is the mean and the sample standard deviation (0 for one run).
func stat(runs []RunResult, f func(RunResult) float64) Stat {
	var s Stat
	for _, r := range runs {
		s.Mean += f(r) / float64(len(runs))
	}
	if len(runs) < 2 {
		return s
	}
	for _, r := range runs {
		s.SD += (f(r) - s.Mean) * (f(r) - s.Mean)
	}
	s.SD = math.Sqrt(s.SD / float64(len(runs)-1))
	return s
}
