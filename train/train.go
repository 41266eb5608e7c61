package train

// The training run: generate the corpus, build the graphs once, then for every
// epoch shuffle, step Adam over the training batches, validate, and keep the
// best checkpoint; finally score the held-out test split against the baselines.

import (
	"fmt"
	"io"
	"math/rand"
	"os"

	"itformer/data"
	"itformer/model"
)

// Options are a run's destination and displays.
type Options struct {
	OutDir   string    // the run folder; created if missing
	Progress io.Writer // progress bar (usually stderr); nil for none
	Log      io.Writer // epoch lines and the closing summary; nil for none
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
	lastLR       float64 // the learning rate of the latest step
	val, test    []data.Batch
	best         checkpointState
	epochLog     *os.File
	trainSeconds float64
}

// Run trains a model as cfg describes and writes the run folder.
func Run(cfg Config, opt Options) (*Metrics, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	t := &trainer{cfg: cfg, opt: opt, rng: rand.New(rand.NewSource(cfg.Seed))}
	if err := t.prepare(); err != nil {
		return nil, err
	}
	defer t.close()
	for epoch := 1; epoch <= cfg.Train.Epochs; epoch++ {
		if err := t.epoch(epoch); err != nil {
			return nil, fmt.Errorf("epoch %d: %w", epoch, err)
		}
	}
	return t.finish()
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
	if err := t.prepareModel(); err != nil {
		return err
	}
	var err error
	t.epochLog, err = os.Create(t.path("epochs.jsonl"))
	return err
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
	t.epochLog.Close()
}

func (t *trainer) path(name string) string { return t.opt.OutDir + string(os.PathSeparator) + name }

// learningRate rises linearly over the warm-up steps, then stays constant:
// post-norm encoders take large early updates badly.
func (t *trainer) learningRate() float64 {
	lr, w := t.cfg.Train.LearningRate, t.cfg.Train.WarmupSteps
	if t.step < w {
		return lr * float64(t.step+1) / float64(w)
	}
	return lr
}

// trainStep runs one batch forward and backward and takes an Adam step.
func (t *trainer) trainStep(b data.Batch) (*model.Output, error) {
	out, err := t.trainG.Run(modelBatch(b))
	if err != nil {
		return nil, err
	}
	t.lastLR = t.learningRate()
	t.optimiser.lr = t.lastLR
	if err := t.optimiser.step(t.trainG.ValueGrads()); err != nil {
		return nil, fmt.Errorf("optimiser step %d: %w", t.step, err)
	}
	t.step++
	return out, nil
}
