package train

// The training run: generate the corpus, build the graphs once, then for every
// epoch shuffle, step Adam over the training batches, validate, and keep the
// best checkpoint; finally score the held-out test split against the baselines.

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// Options are a run's destination and how it reports. The package prints
// nothing: a command draws progress and prints the epochs from the callbacks.
type Options struct {
	OutDir string // the run folder; created if missing
	// Overwrite lets a new run write into a folder that is neither empty nor
	// a run folder (see CheckOutDir). Its files named as a run's are replaced;
	// no other file is deleted.
	Overwrite bool
	// Context: cancelling it (Ctrl-C) saves a resumable checkpoint and stops
	// (ErrInterrupted); during setup, before the first step, it stops at once
	// and writes nothing (ErrSetupInterrupted). nil: never.
	Context context.Context
	// NoHistory skips recording history.json (history.go). Recording changes
	// no weight; this only saves its few forward passes.
	NoHistory bool
	// Callbacks, each optional, called on the training goroutine.
	OnStep   func(StepReport)              // after every optimiser step
	OnEpoch  func(rec EpochRecord, of int) // after every epoch, once it is logged; of: the run's epochs
	OnResume func(checkpoint.ResumeState)  // when a resumed run is about to continue
	OnMember func(k, of int)               // when member k >= 2 of a run's members starts (members.go)
}

// StepReport is an epoch's running figures after one more step.
type StepReport struct {
	Epoch, Epochs  int     // the epoch, 1-based, of how many
	Seen, Total    int     // sentences of this epoch trained on, of how many
	Loss, Accuracy float64 // the epoch's running mean loss and accuracy
}

type trainer struct {
	*Session
	cfg          config.Run
	opt          Options
	evalG        *model.Graph
	rng          *rand.Rand
	step         int
	val, test    []data.Batch
	challenges   [][]data.Batch // per data.Corpus.Challenges entry
	best         checkpointState
	epochLog     *os.File
	trainSeconds float64
	ctx          context.Context
	history      *historyRecorder // the probes' attention as it is learned (history.go)
	lock         *os.File         // held on a new run's folder from claimFolder to close (lock.go)
}

// Run trains a model as cfg describes and writes the run folder.
// With train.members K > 1 it then trains members 2..K (members.go) and
// returns member 1's metrics.
func Run(cfg config.Run, opt Options) (*Metrics, error) {
	m, err := runFrom(cfg, opt, nil)
	if err != nil {
		return nil, err
	}
	return m, trainMembers(cfg, opt)
}

// runFrom trains from scratch (resume == nil) or from a resumable checkpoint.
func runFrom(cfg config.Run, opt Options, resume *checkpoint.Checkpoint) (*Metrics, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if resume == nil {
		if err := CheckOutDir(opt.OutDir, opt.Overwrite); err != nil {
			return nil, err
		}
		if err := removeMembers(opt.OutDir); err != nil {
			return nil, err
		}
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	t := &trainer{cfg: cfg, opt: opt, ctx: opt.Context, rng: BatchOrder(cfg)}
	defer t.close() // also after a setup cut short, which may have built the training graph
	if err := t.prepare(resume == nil); err != nil {
		return nil, err
	}
	if err := t.prepareHistory(resumeStep(resume)); err != nil { // before start, which trims the log
		return nil, err
	}
	first, progress, err := t.start(resume)
	if err != nil {
		return nil, err
	}
	if err := t.recordHistory(); err != nil { // before the first step
		return nil, err
	}
	for epoch := first; epoch <= cfg.Train.Epochs; epoch++ {
		if err := t.epoch(epoch, progress); err != nil {
			return nil, fmt.Errorf("epoch %d: %w", epoch, err)
		}
		progress = epochProgress{}
	}
	return t.finish()
}

// resumeStep is the step a resumable checkpoint resumes at; 0 for a new run.
func resumeStep(resume *checkpoint.Checkpoint) int {
	if resume == nil {
		return 0
	}
	return resume.Meta.Resume.Step
}

// start restores a resumed run and opens the epoch log: truncated for a new
// run, appended to (after trimming) for a resumed one.
func (t *trainer) start(resume *checkpoint.Checkpoint) (int, epochProgress, error) {
	flags, first, progress := os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 1, epochProgress{}
	if resume != nil {
		var err error
		if progress, err = t.restore(resume); err != nil {
			return 0, progress, err
		}
		flags, first = os.O_CREATE|os.O_WRONLY|os.O_APPEND, resume.Meta.Resume.Epoch
		if t.opt.OnResume != nil {
			t.opt.OnResume(*resume.Meta.Resume)
		}
	}
	var err error
	t.epochLog, err = os.OpenFile(t.path("epochs.jsonl"), flags, 0o644)
	return first, progress, err
}

// prepare builds the data and the graphs, then, for a new run (fresh),
// claims the folder and writes the resolved config. The folder comes last, so
// that a config refused on the data's account, or a setup cut short, leaves
// nothing behind; a resumed run is in its folder already.
func (t *trainer) prepare(fresh bool) error {
	if err := t.prepareData(); err != nil || !fresh {
		return err
	}
	var err error
	if t.lock, err = claimFolder(t.opt.OutDir); err != nil {
		return err
	}
	return checkpoint.WriteFileAtomic(t.path("config.json"), t.cfg.JSON())
}

// checkMaxLen refuses a training run whose model.max_len is shorter than the
// corpus's longest sentence, by the field's name and with the length it
// needs (the batches would list ten sentences, each "more than seqLen"). A
// Session itself allows it: cmd/bench's scaling section times a step at
// T = 16 on the sentences that fit.
func checkMaxLen(maxLen int, c *data.Corpus) error {
	longest := c.Longest()
	if n := len(longest.Tokens); n > maxLen {
		return fmt.Errorf("model.max_len is %d but the corpus's longest sentence has %d tokens (%q); use at least %d", maxLen, n, longest.Text, n)
	}
	return nil
}

// prepareData builds the session and the evaluation batches and graph.
func (t *trainer) prepareData() error {
	var err error
	if t.Session, err = newSession(t.ctx, t.cfg); err != nil {
		return err
	}
	if err := checkMaxLen(t.cfg.Model.MaxLen, t.Corpus); err != nil {
		return err
	}
	T, evalSize := t.cfg.Model.MaxLen, t.cfg.Train.EvalBatchSize
	if t.val, err = data.Batches(t.Corpus.Validation, t.Vocab, evalSize, T, nil, false); err != nil {
		return fmt.Errorf("validation batches: %w", err)
	}
	if t.test, err = data.Batches(t.Corpus.Test, t.Vocab, evalSize, T, nil, false); err != nil {
		return fmt.Errorf("test batches: %w", err)
	}
	for _, c := range t.Corpus.Challenges {
		b, err := data.Batches(c.Examples, t.Vocab, evalSize, T, nil, false)
		if err != nil {
			return fmt.Errorf("challenge set %s: %w", c.Name, err)
		}
		t.challenges = append(t.challenges, b)
	}
	t.evalG, err = cancellable(t.ctx, func() (*model.Graph, error) {
		return model.NewGraph(t.Params, model.GraphOptions{Batch: evalSize, SeqLen: T, Attention: true})
	}, closeGraph)
	return err
}

func (t *trainer) close() {
	if t.Session != nil {
		t.Session.Close()
	}
	if t.evalG != nil {
		t.evalG.Close()
	}
	if t.epochLog != nil {
		t.epochLog.Close()
	}
	closeLock(t.lock)
}

func (t *trainer) path(name string) string { return t.opt.OutDir + string(os.PathSeparator) + name }

func (t *trainer) learningRate() float64 { return t.learningRateAt(t.step) }

func (t *trainer) learningRateAt(step int) float64 {
	return LearningRateAt(t.cfg.Train, step, t.stepsPerEpoch())
}

// stepsPerEpoch is the number of full batches in the training split.
func (t *trainer) stepsPerEpoch() int { return len(t.Corpus.Train) / t.cfg.Train.BatchSize }

// LearningRateAt is the learning rate of step (0-based) of a run of
// train.epochs epochs of stepsPerEpoch steps. It rises linearly over the
// warm-up steps, since post-norm encoders take large early updates badly;
// then it stays at learning_rate, or with lr_decay "cosine" falls as
// lr·(1+cos(π·p))/2, p going from 0 at the start of the decay (the end of
// the warm-up, or of epoch lr_decay_after if later) to 1 at the last step.
func LearningRateAt(c config.Train, step, stepsPerEpoch int) float64 {
	lr, w := c.LearningRate, c.WarmupSteps
	if step < w {
		return lr * float64(step+1) / float64(w)
	}
	start, total := max(w, c.LRDecayAfter*stepsPerEpoch), c.Epochs*stepsPerEpoch
	if c.LRDecay != "cosine" || step < start || total <= start {
		return lr
	}
	p := min(1, float64(step-start)/float64(total-start))
	return lr * (1 + math.Cos(math.Pi*p)) / 2
}

// trainStep runs one batch forward and backward and takes an Adam step,
// unless the loss or a gradient is not finite.
// It returns the run's output and the gradients' global norm.
func (t *trainer) trainStep(b data.Batch) (*model.Output, float64, error) {
	out, g, err := t.Session.Run(b)
	if err != nil {
		return nil, 0, err
	}
	norm, err := t.checkFinite(out, g)
	if err != nil {
		return nil, 0, err
	}
	t.Optimiser.LearningRate = t.learningRate()
	if err := t.Optimiser.Step(g.ValueGrads()); err != nil {
		return nil, 0, fmt.Errorf("optimiser step %d: %w", t.step, err)
	}
	t.step++
	return out, norm, nil
}
