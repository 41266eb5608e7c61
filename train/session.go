package train

import (
	"context"
	"fmt"
	"strconv"

	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// Session is what a run trains, prepared from its config exactly as Run
// prepares it: the generated corpus, the training split's vocabulary, the
// initial weights, the training graph and the optimiser. Run adds evaluation
// and checkpoints around it; a benchmark can take steps on it directly:
//
//	out, g, err := s.Run(b)                  // forward and backward
//	err = s.Optimiser.Step(g.ValueGrads())  // Adam
type Session struct {
	Config    config.Run
	Corpus    *data.Corpus
	Vocab     *data.Vocab
	Params    *model.Params
	Graph     *model.Graph // the training graph: Config.Train.BatchSize sentences of Config.Model.MaxLen tokens
	Optimiser *Adam

	shorter map[int]*model.Graph // training graphs for shorter padded lengths, built when first needed
}

// Run runs a training batch forward and backward on a graph padded only to
// the batch's longest sentence, rounded up to a multiple of
// config.PadMultiple (so that there are few graphs), and returns that graph,
// whose ValueGrads hold the gradients. Padding is masked, so the loss and
// gradients are those of the max_len graph, with less work
// (docs/performance.md). All graphs bind the same Params, and their
// ValueGrads come in the same order.
func (s *Session) Run(b data.Batch) (*model.Output, *model.Graph, error) {
	b = b.Repadded(PaddedLength(b, s.Config.Model.MaxLen))
	g := s.Graph
	if b.SeqLen != s.Config.Model.MaxLen {
		var err error
		if g, err = s.graphFor(b.SeqLen); err != nil {
			return nil, nil, err
		}
	}
	out, err := g.Run(ModelBatch(b))
	return out, g, err
}

// PaddedLength is the length Session.Run pads b to: its longest sentence
// rounded up to a multiple of config.PadMultiple, at most maxLen.
func PaddedLength(b data.Batch, maxLen int) int {
	m := config.PadMultiple
	return min(maxLen, (b.Longest()+m-1)/m*m)
}

func (s *Session) graphFor(seqLen int) (*model.Graph, error) {
	if g, ok := s.shorter[seqLen]; ok {
		return g, nil
	}
	g, err := model.NewGraph(s.Params, s.graphOptions(seqLen))
	if err != nil {
		return nil, fmt.Errorf("building the training graph for %d tokens: %w", seqLen, err)
	}
	if s.shorter == nil {
		s.shorter = map[int]*model.Graph{}
	}
	s.shorter[seqLen] = g
	return g, nil
}

func (s *Session) graphOptions(seqLen int) model.GraphOptions {
	c := s.Config
	return model.GraphOptions{Batch: c.Train.BatchSize, SeqLen: seqLen, Train: true, AttentionSupervision: c.Train.AttentionSupervision}
}

// NewSession generates the corpus and builds the model for cfg.
func NewSession(cfg config.Run) (*Session, error) { return newSession(context.Background(), cfg) }

// newSession is NewSession stopping with ErrSetupInterrupted once ctx is
// cancelled: between its parts, and during the graph build (see cancellable).
func newSession(ctx context.Context, cfg config.Run) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if stopped(ctx) {
		return nil, ErrSetupInterrupted
	}
	s := &Session{Config: cfg, Optimiser: NewAdam(cfg.Train)}
	var err error
	if s.Corpus, err = data.Generate(cfg.Data.Seed); err != nil {
		return nil, fmt.Errorf("generating the corpus: %w", err)
	}
	if err := checkBatchSizes(cfg.Train, s.Corpus); err != nil {
		return nil, err
	}
	s.Vocab = data.BuildVocab(s.Corpus.Train)
	if s.Params, err = model.NewParams(cfg.ModelFor(s.Vocab.Size()), cfg.Seed); err != nil {
		return nil, err
	}
	s.Optimiser.Decay = decayRates(s.Params, cfg.Train)
	s.Graph, err = cancellable(ctx, func() (*model.Graph, error) {
		return model.NewGraph(s.Params, s.graphOptions(cfg.Model.MaxLen))
	}, closeGraph)
	return s, err
}

// decayRates gives Adam.Decay, in the order of the graph's ValueGrads (the
// parameters' order): train.embedding_decay for the token embedding, 0 for
// the rest.
func decayRates(p *model.Params, t config.Train) []float64 {
	rates := make([]float64, len(p.Specs()))
	for i, spec := range p.Specs() {
		if p.Tensor(spec.Name) == p.Weights().Embedding {
			rates[i] = t.EmbeddingDecay
		}
	}
	return rates
}

// Close releases the training graphs.
func (s *Session) Close() {
	if s.Graph != nil {
		s.Graph.Close()
	}
	for _, g := range s.shorter {
		g.Close()
	}
	s.shorter = nil
}

// checkBatchSizes refuses batches larger than their split. Training batches
// must be full (data.Batches drops the last, partial one), so a batch_size
// above the training set takes no step at all and saves an untrained model;
// evaluation keeps a partial batch, so an eval_batch_size above the largest
// evaluation split only pads one huge batch.
func checkBatchSizes(t config.Train, c *data.Corpus) error {
	if n := len(c.Train); t.BatchSize > n {
		return fmt.Errorf("train.batch_size is %d but the training set has %s sentences: batches must be full, so no step would be taken; use at most %d",
			t.BatchSize, thousands(n), n)
	}
	split, n := "test", len(c.Test)
	if len(c.Validation) > n {
		split, n = "validation", len(c.Validation)
	}
	if t.EvalBatchSize > n {
		return fmt.Errorf("train.eval_batch_size is %d but the largest evaluation split (%s) has %s sentences: the rest of its one batch would be padding; use at most %d",
			t.EvalBatchSize, split, thousands(n), n)
	}
	return nil
}

// thousands writes n with commas, as the README quotes sizes: 6,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
