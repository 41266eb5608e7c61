package train

// The training run: generate the corpus, build the graphs once, then for every
// epoch shuffle, step Adam over the training batches, validate, and keep the
// best checkpoint; finally score the held-out test split against the baselines.

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"

	"itformer/data"
	"itformer/model"
)

// Options are a run's destination and displays.
type Options struct {
	OutDir   string          // the run folder; created if missing
	Progress io.Writer       // progress bar (usually stderr); nil for none
	Log      io.Writer       // epoch lines and the closing summary; nil for none
	Context  context.Context // cancelling it (Ctrl-C) saves a resumable checkpoint and stops; nil: never
}

type trainer struct {
	cfg          Config
	opt          Options
	corpus       *data.Corpus
	vocab        *data.Vocab
	params       *model.Params
	trainG       *model.Graph
	evalG        *model.Graph
	optimiser    *adam
	rng          *rand.Rand
	step         int
	val, test    []data.Batch
	best         checkpointState
	epochLog     *os.File
	trainSeconds float64
	ctx          context.Context
}

// Run trains a model as cfg describes and writes the run folder.
func Run(cfg Config, opt Options) (*Metrics, error) { return runFrom(cfg, opt, nil) }

// runFrom trains from scratch (resume == nil) or from a resumable checkpoint.
func runFrom(cfg Config, opt Options, resume *Checkpoint) (*Metrics, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	t := &trainer{cfg: cfg, opt: opt, ctx: opt.Context, rng: rand.New(rand.NewSource(cfg.Seed))}
	if err := t.prepare(); err != nil {
		return nil, err
	}
	defer t.close()
	first, progress, err := t.start(resume)
	if err != nil {
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

// start restores a resumed run and opens the epoch log: truncated for a new
// run, appended to (after trimming) for a resumed one.
func (t *trainer) start(resume *Checkpoint) (int, epochProgress, error) {
	flags, first, progress := os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 1, epochProgress{}
	if resume != nil {
		var err error
		if progress, err = t.restore(resume); err != nil {
			return 0, progress, err
		}
		flags, first = os.O_CREATE|os.O_WRONLY|os.O_APPEND, resume.Meta.Resume.Epoch
		fmt.Fprintf(t.opt.Log, "resuming at epoch %d, batch %d (step %d)\n", first, progress.batch, t.step)
	}
	var err error
	t.epochLog, err = os.OpenFile(t.path("epochs.jsonl"), flags, 0o644)
	return first, progress, err
}

// prepare writes the resolved config, builds the data and the graphs.
func (t *trainer) prepare() error {
	if err := os.MkdirAll(t.opt.OutDir, 0o755); err != nil {
		return err
	}
	if err := writeFileAtomic(t.path("config.json"), t.cfg.JSON()); err != nil {
		return err
	}
	if err := t.prepareData(); err != nil {
		return err
	}
	return t.prepareModel()
}

func (t *trainer) prepareData() error {
	var err error
	if t.corpus, err = data.Generate(t.cfg.Data.Seed); err != nil {
		return fmt.Errorf("generating the corpus: %w", err)
	}
	t.vocab = data.BuildVocab(t.corpus.Train)
	T, evalSize := t.cfg.Model.MaxLen, t.cfg.Train.EvalBatchSize
	if t.val, err = data.Batches(t.corpus.Validation, t.vocab, evalSize, T, nil, false); err != nil {
		return fmt.Errorf("validation batches: %w", err)
	}
	if t.test, err = data.Batches(t.corpus.Test, t.vocab, evalSize, T, nil, false); err != nil {
		return fmt.Errorf("test batches: %w", err)
	}
	return nil
}

func (t *trainer) prepareModel() error {
	var err error
	if t.params, err = model.NewParams(t.cfg.ModelFor(t.vocab.Size()), t.cfg.Seed); err != nil {
		return err
	}
	T := t.cfg.Model.MaxLen
	if t.trainG, err = model.NewGraph(t.params, model.GraphOptions{Batch: t.cfg.Train.BatchSize, SeqLen: T, Train: true, AttentionSupervision: t.cfg.Train.AttentionSupervision}); err != nil {
		return err
	}
	if t.evalG, err = model.NewGraph(t.params, model.GraphOptions{Batch: t.cfg.Train.EvalBatchSize, SeqLen: T, Attention: true}); err != nil {
		return err
	}
	t.optimiser = newAdam(t.cfg.Train)
	return nil
}

func (t *trainer) close() {
	t.trainG.Close()
	t.evalG.Close()
	if t.epochLog != nil {
		t.epochLog.Close()
	}
}

func (t *trainer) path(name string) string { return t.opt.OutDir + string(os.PathSeparator) + name }

// learningRate rises linearly over the warm-up steps, then stays constant:
// post-norm encoders take large early updates badly.
func (t *trainer) learningRate() float64 { return t.learningRateAt(t.step) }

func (t *trainer) learningRateAt(step int) float64 {
	lr, w := t.cfg.Train.LearningRate, t.cfg.Train.WarmupSteps
	if step < w {
		return lr * float64(step+1) / float64(w)
	}
	return lr
}

// trainStep runs one batch forward and backward and takes an Adam step,
// unless the loss or a gradient is not finite.
// It returns the run's output and the gradients' global norm.
func (t *trainer) trainStep(b data.Batch) (*model.Output, float64, error) {
	out, err := t.trainG.Run(modelBatch(b))
	if err != nil {
		return nil, 0, err
	}
	norm, err := t.checkFinite(out)
	if err != nil {
		return nil, 0, err
	}
	t.optimiser.lr = t.learningRate()
	if err := t.optimiser.step(t.trainG.ValueGrads()); err != nil {
		return nil, 0, fmt.Errorf("optimiser step %d: %w", t.step, err)
	}
	t.step++
	return out, norm, nil
}
