package train

import (
	"encoding/json"
	"fmt"
	"strings"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
)

// Metrics are a run's closing figures, written to metrics.json.
type Metrics struct {
	Test       Evaluation          `json:"test"`
	Validation Evaluation          `json:"validation"`
	BestEpoch  int                 `json:"best_epoch"`
	Baselines  data.BaselineScores `json:"baselines"` // on test
	// TrainBaselines are the same shortcuts scored on the training data
	// itself: what the model could have learned to lean on.
	TrainBaselines     data.BaselineScores `json:"train_baselines"`
	Challenges         []Challenge         `json:"challenges"`
	BestAttention      BestHead            `json:"best_attention_head"` // by attention_strongest_on_antecedent
	TrainSeconds       float64             `json:"train_seconds"`
	SentencesPerSecond float64             `json:"train_sentences_per_second"`
	VocabSize          int                 `json:"vocab_size"`
	Parameters         int                 `json:"parameters"`
}

// Challenge is one challenge set's figures (data.ChallengeSet) beside the
// accuracies of the shortcuts it was built to defeat.
type Challenge struct {
	Name        string              `json:"name"`
	Description string              `json:"description"`
	Evaluation  Evaluation          `json:"evaluation"`
	Baselines   data.BaselineScores `json:"baselines"`
}

// ReadMetrics reads a run's metrics.json, at most config.MaxJSONSize bytes.
func ReadMetrics(path string) (*Metrics, error) {
	raw, err := config.ReadFile(path, config.MaxJSONSize)
	if err != nil {
		return nil, err
	}
	var m Metrics
	if err := config.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// finish restores the best weights, scores validation and test, and writes metrics.json.
func (t *trainer) finish() (*Metrics, error) {
	for name, w := range t.best.weights {
		if err := t.Params.SetValues(name, w); err != nil {
			return nil, err
		}
	}
	m := &Metrics{BestEpoch: t.best.epoch, TrainSeconds: t.trainSeconds, VocabSize: t.Vocab.Size()}
	var err error
	if m.Validation, err = evaluate(t.evalG, t.val, t.cfg.Model.Layers, t.cfg.Model.Heads); err != nil {
		return nil, err
	}
	if m.Test, err = evaluate(t.evalG, t.test, t.cfg.Model.Layers, t.cfg.Model.Heads); err != nil {
		return nil, err
	}
	m.Baselines = data.Baselines(t.Corpus.Train, t.Corpus.Test)
	m.TrainBaselines = data.Baselines(t.Corpus.Train, t.Corpus.Train)
	if m.Challenges, err = t.evaluateChallenges(); err != nil {
		return nil, err
	}
	m.BestAttention = bestHead(m.Test.Strongest)
	m.SentencesPerSecond = float64(t.step*t.cfg.Train.BatchSize) / t.trainSeconds
	for _, s := range t.Params.Specs() {
		m.Parameters += len(t.Params.Values(s.Name))
	}
	js, _ := json.MarshalIndent(m, "", "  ")
	if err := checkpoint.WriteFileAtomic(t.path("metrics.json"), append(js, '\n')); err != nil {
		return nil, err
	}
	// Finished: nothing is left to resume. (Killed before this line, a resume
	// just re-runs this final evaluation.) Only the files the run wrote go:
	// resume/ may hold others' files in a folder written with Overwrite.
	if err := removeResumeCheckpoint(t.opt.OutDir, true); err != nil {
		return nil, err
	}
	return m, nil
}

// evaluateChallenges scores every challenge set and its baselines.
func (t *trainer) evaluateChallenges() ([]Challenge, error) {
	var out []Challenge
	for i, c := range t.Corpus.Challenges {
		e, err := evaluate(t.evalG, t.challenges[i], t.cfg.Model.Layers, t.cfg.Model.Heads)
		if err != nil {
			return nil, fmt.Errorf("challenge set %s: %w", c.Name, err)
		}
		out = append(out, Challenge{Name: c.Name, Description: c.Description, Evaluation: e,
			Baselines: data.Baselines(t.Corpus.Train, c.Examples)})
	}
	return out, nil
}

// Summary is the closing report: accuracy beside the baselines on test and
// on every challenge set, calibration, then where the pronoun looks.
func (m *Metrics) Summary() string {
	var s strings.Builder
	fmt.Fprintf(&s, "\ntest accuracy %.1f%% on %d held-out sentences (best epoch %d, validation %.1f%%), calibration error (ECE) %.3f\n\n",
		100*m.Test.Accuracy, m.Test.N, m.BestEpoch, 100*m.Validation.Accuracy, m.Test.ECE)
	m.writeAccuracyTable(&s)
	s.WriteString("\nattention of the pronoun on test sentences:\n  layer head   strongest on antecedent   antecedent over other noun\n")
	for l, row := range m.Test.Strongest {
		for h, v := range row {
			fmt.Fprintf(&s, "  %5d %4d   %22.1f%%   %25.1f%%\n", l+1, h+1, 100*v, 100*m.Test.Preference[l][h])
		}
	}
	fmt.Fprintf(&s, "best: layer %d head %d, %.1f%%\n", m.BestAttention.Layer, m.BestAttention.Head, 100*m.BestAttention.Share)
	fmt.Fprintf(&s, "trained %d parameters in %.1fs (%.0f sentences/s)\n", m.Parameters, m.TrainSeconds, m.SentencesPerSecond)
	return s.String()
}

// writeAccuracyTable prints one row per evaluated set: the model, the
// shortcuts (each one feature: the first noun, the nearest noun, the
// majority position, the noun, the predicate, the verb, "not", the
// connective; the best of them last), the mean confidence and the best
// test head's alignment there. The first row is the shortcuts on the
// training data, where no model is scored.
func (m *Metrics) writeAccuracyTable(s *strings.Builder) {
	fmt.Fprintf(s, "%-22s %6s   %5s %5s %5s %5s %5s %5s %5s %5s %5s   %9s %10s\n", "", "model", "first", "near.", "major",
		"noun", "pred.", "verb", "not", "conn.", "best", "mean conf", "head->ante")
	baselines := func(b data.BaselineScores) string {
		var out strings.Builder
		for _, v := range []float64{b.FirstNoun, b.NearestNoun, b.Majority, b.NounIdentity, b.PredicateIdentity,
			b.VerbIdentity, b.Polarity, b.Connective, b.Shortcut()} {
			fmt.Fprintf(&out, " %4.1f%%", 100*v)
		}
		return out.String()
	}
	row := func(name string, e Evaluation, b data.BaselineScores) {
		l, h := m.BestAttention.Layer-1, m.BestAttention.Head-1
		fmt.Fprintf(s, "%-22s %5.1f%%  %s   %9.3f %9.1f%%\n", name, 100*e.Accuracy, baselines(b),
			e.MeanTopProbability, 100*e.Strongest[l][h])
	}
	fmt.Fprintf(s, "%-22s %6s  %s\n", "train (shortcuts only)", "", baselines(m.TrainBaselines))
	row("test", m.Test, m.Baselines)
	for _, c := range m.Challenges {
		row(c.Name, c.Evaluation, c.Baselines)
	}
}
