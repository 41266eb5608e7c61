package train

import (
	"fmt"

	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// Session is what a run trains, prepared from its config exactly as Run
// prepares it: the generated corpus, the training split's vocabulary, the
// initial weights, the training graph and the optimiser. Run adds evaluation
// and checkpoints around it; a benchmark can take steps on it directly:
//
//	out, err := s.Graph.Run(train.ModelBatch(b)) // forward and backward
//	err = s.Optimiser.Step(s.Graph.ValueGrads())  // Adam
type Session struct {
	Config    config.Run
	Corpus    *data.Corpus
	Vocab     *data.Vocab
	Params    *model.Params
	Graph     *model.Graph // the training graph: Config.Train.BatchSize sentences of Config.Model.MaxLen tokens
	Optimiser *Adam
}

// NewSession generates the corpus and builds the model for cfg.
func NewSession(cfg config.Run) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Session{Config: cfg, Optimiser: NewAdam(cfg.Train)}
	var err error
	if s.Corpus, err = data.Generate(cfg.Data.Seed); err != nil {
		return nil, fmt.Errorf("generating the corpus: %w", err)
	}
	s.Vocab = data.BuildVocab(s.Corpus.Train)
	if s.Params, err = model.NewParams(cfg.ModelFor(s.Vocab.Size()), cfg.Seed); err != nil {
		return nil, err
	}
	s.Graph, err = model.NewGraph(s.Params, model.GraphOptions{Batch: cfg.Train.BatchSize, SeqLen: cfg.Model.MaxLen,
		Train: true, AttentionSupervision: cfg.Train.AttentionSupervision})
	return s, err
}

// Close releases the training graph.
func (s *Session) Close() {
	if s.Graph != nil {
		s.Graph.Close()
	}
}
