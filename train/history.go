package train

// Attention as it is learned: the run folder's history.json (package
// history). At a few points of training the probe sentences go through the
// evaluation graph, a forward pass that reads the weights and changes
// nothing: not the weights, not Adam's moments, not the batch-order RNG. So
// recording the history leaves the trained model bit for bit the same
// (TestHistoryLeavesWeightsUnchanged).

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"itformer/checkpoint"
	"itformer/data"
	"itformer/history"
	"itformer/model"
)

// historyFractions are the points within the first epoch, as shares of its
// steps, besides the ends of epochs (HistoryEpoch): attention changes
// fastest there.
var historyFractions = []float64{0, 1.0 / 8, 1.0 / 4, 1.0 / 2}

// HistoryEpoch says whether the end of epoch e of a run of epochs is a
// point of the history: every epoch through the eighth, where attention
// changes most, then every twentieth, and the last. The browser module
// embeds the default run's history.json for the playback, and each point of
// it costs about 5 kB of the module's 6 MB budget (docs/site.md): a point
// per epoch of a 40-epoch run took the module past it, and so did every
// epoch through the twentieth once the default trained 120 epochs (34
// points), then every tenth after the tenth once serve's graph cache had
// added 25 kB of code (25 points; now 18).
func HistoryEpoch(e, epochs int) bool {
	return e <= 8 || e%20 == 0 || e == epochs
}

// ProbeExamples are the probe sentences, declared once: the mission sentence
// and its twin from test, then from every challenge set, in the corpus's
// order, its first sentence and that sentence's twin. The names go into
// history.json.
func ProbeExamples(c *data.Corpus) ([]history.Probe, []data.Example, error) {
	var probes []history.Probe
	var examples []data.Example
	add := func(name, set string, e data.Example) {
		probes = append(probes, history.Probe{Name: name, Set: set, Text: e.Text, Tokens: e.Tokens,
			Pronoun: e.Pronoun, Antecedent: e.Antecedent, Candidates: e.Candidates})
		examples = append(examples, e)
	}
	for _, m := range []struct{ name, text string }{{"mission", data.MissionHungry}, {"mission twin", data.MissionTasty}} {
		i := slices.IndexFunc(c.Test, func(e data.Example) bool { return e.Text == m.text })
		if i < 0 {
			return nil, nil, fmt.Errorf("probe sentences: %q is not in the test split", m.text)
		}
		add(m.name, "test", c.Test[i])
	}
	for _, set := range c.Challenges {
		if len(set.Examples) == 0 {
			continue
		}
		first := set.Examples[0]
		add(set.Name, set.Name, first)
		if j := twinOf(set.Examples, first); j >= 0 {
			add(set.Name+" twin", set.Name, set.Examples[j])
		}
	}
	return probes, examples, nil
}

// twinOf finds e's twin: the same frame, shape and nouns, the other answer.
func twinOf(ex []data.Example, e data.Example) int {
	nouns := func(x data.Example) [2]string { return [2]string{x.Tokens[x.Candidates[0]], x.Tokens[x.Candidates[1]]} }
	return slices.IndexFunc(ex, func(x data.Example) bool {
		return x.Frame == e.Frame && x.Shape == e.Shape && nouns(x) == nouns(e) && x.Answer() != e.Answer()
	})
}

// historyRecorder holds the probes' batches and the history so far.
type historyRecorder struct {
	h       *history.History
	batches []data.Batch
	due     map[int]bool // the steps after which to record
}

// prepareHistory selects the probes and the steps to record after. A resumed
// run keeps the points its history.json has up to the resume step.
func (t *trainer) prepareHistory(resumeStep int) error {
	if t.opt.NoHistory {
		return nil
	}
	probes, examples, err := ProbeExamples(t.Corpus)
	if err != nil {
		return err
	}
	r := &historyRecorder{due: map[int]bool{}}
	if r.batches, err = data.Batches(examples, t.Vocab, t.cfg.Train.EvalBatchSize, t.cfg.Model.MaxLen, nil, false); err != nil {
		return fmt.Errorf("probe sentences: %w", err)
	}
	perEpoch := len(t.Corpus.Train) / t.cfg.Train.BatchSize // data.Batches drops the partial batch
	for _, f := range historyFractions {
		r.due[int(f*float64(perEpoch))] = true
	}
	for e := 1; e <= t.cfg.Train.Epochs; e++ {
		if HistoryEpoch(e, t.cfg.Train.Epochs) {
			r.due[e*perEpoch] = true
		}
	}
	sup := [2]int{-1, -1}
	if t.cfg.Train.AttentionSupervision > 0 {
		sup[0], sup[1] = model.SupervisedHead(t.Params.Config())
	}
	r.h = history.New(t.cfg.Model.Layers, t.cfg.Model.Heads, sup, perEpoch, probes)
	if resumeStep > 0 {
		if err := r.keepRecorded(t.path(history.FileName), resumeStep); err != nil {
			return err
		}
	}
	t.history = r
	return nil
}

// keepRecorded takes the points up to step from the run's history.json,
// which must describe the same probes. A missing one is refused, not
// started afresh at step: a run writes history.json at step 0, before its
// first resumable checkpoint, so a run that can be resumed had one, and its
// points, the model's attention as it was, cannot be recorded again without
// training from the start. A run trained without a history (members, and
// callers that set NoHistory) resumes with NoHistory and never comes here.
func (r *historyRecorder) keepRecorded(path string, step int) error {
	old, err := history.Load(path)
	if errors.Is(err, os.ErrNotExist) {
		return inconsistent(fmt.Errorf("cannot resume: %s is missing, and a resumed run would record a history with nothing before step %d: the points it held cannot be recorded again without training from the start; put it back, or start the run again", path, step))
	}
	if err != nil {
		return fmt.Errorf("the run's history: %w", err)
	}
	if fmt.Sprint(old.Probes) != fmt.Sprint(r.h.Probes) || old.Layers != r.h.Layers || old.Heads != r.h.Heads {
		return fmt.Errorf("the run's %s records other probes or sizes than this run's", history.FileName)
	}
	old.Truncate(step)
	r.h.Points = old.Points
	return nil
}

// recordHistory records the probes if a point is due after the steps taken
// so far, and rewrites history.json (whole and atomically: a killed run
// leaves the points it recorded).
func (t *trainer) recordHistory() error {
	r := t.history
	if r == nil || !r.due[t.step] || r.h.Has(t.step) {
		return nil
	}
	pt := history.Point{Step: t.step, Epoch: float64(t.step) / float64(r.h.StepsPerEpoch)}
	for _, b := range r.batches {
		out, err := t.evalG.Run(ModelBatch(b))
		if err != nil {
			return fmt.Errorf("probe sentences at step %d: %w", t.step, err)
		}
		for row, ex := range b.Examples {
			pt.Readings = append(pt.Readings, reading(out, row, ex))
		}
	}
	r.h.Add(pt)
	js, err := r.h.JSON()
	if err != nil {
		return fmt.Errorf("probe sentences at step %d: %w", t.step, err)
	}
	return checkpoint.WriteFileAtomic(t.path(history.FileName), js)
}

// reading is one probe's row of a batch: the pronoun's attention in every
// layer and head, and the candidates' probabilities.
func reading(out *model.Output, row int, ex data.Example) history.Reading {
	n := len(ex.Tokens)
	r := history.Reading{Attention: make([][][]float64, len(out.Attention))}
	for l, att := range out.Attention {
		for h := 0; h < att.Shape[1]; h++ {
			r.Attention[l] = append(r.Attention[l], slices.Clone(att.Row(row, h, ex.Pronoun)[:n]))
		}
	}
	probs := out.Probs.Row(row)
	r.CandidateProbabilities = [2]float64{probs[ex.Candidates[0]], probs[ex.Candidates[1]]}
	return r
}
