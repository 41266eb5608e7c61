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

	"itformer/train"
)

// Options say where results go and how many runs share the CPU.
type Options struct {
	OutDir    string                // results.md, results.csv, runs.csv and the plots
	RunsDir   string                // the runs' folders; "" for a temporary folder removed at the end
	Workers   int                   // runs at a time; 0 for one per core
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
	runsDir, cleanup, err := runsFolder(opt.RunsDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	var jobs []job
	for _, v := range e.Variants {
		for _, s := range e.Seeds {
			jobs = append(jobs, job{variant: v, seed: s, index: len(jobs)})
		}
	}
	res := &Result{Experiment: e, Runs: make([]RunResult, len(jobs))}
	if err := runJobs(e, jobs, res.Runs, runsDir, opt); err != nil {
		return nil, err
	}
	res.summarise()
	return res, res.write(opt.OutDir)
}

func runsFolder(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	tmp, err := os.MkdirTemp("", "itformer-experiment-")
	return tmp, func() { os.RemoveAll(tmp) }, err
}

// runJobs trains the jobs on opt.Workers goroutines; each writes its own slot.
// Once opt.Context is done no job starts, and those under way stop.
func runJobs(e *Experiment, jobs []job, out []RunResult, runsDir string, opt Options) error {
	ctx := opt.Context
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
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
	dir := filepath.Join(runsDir, fmt.Sprintf("%s-seed%d", j.variant.Name, j.seed))
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
