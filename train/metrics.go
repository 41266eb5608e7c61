package train

import (
	"encoding/json"
	"fmt"
	"strings"

	"itformer/checkpoint"
	"itformer/data"
)

// Metrics are a run's closing figures, written to metrics.json.
type Metrics struct {
	Test               Evaluation `json:"test"`
	Validation         Evaluation `json:"validation"`
	BestEpoch          int        `json:"best_epoch"`
	Baselines          Baselines  `json:"baselines"`
	BestAttention      BestHead   `json:"best_attention_head"` // by attention_strongest_on_antecedent
	TrainSeconds       float64    `json:"train_seconds"`
	SentencesPerSecond float64    `json:"train_sentences_per_second"`
	VocabSize          int        `json:"vocab_size"`
	Parameters         int        `json:"parameters"`
}

// Baselines are the test accuracies of answers that ignore meaning.
type Baselines struct {
	FirstNoun      float64 `json:"first_noun"`
	NearestNoun    float64 `json:"nearest_noun"`
	Majority       float64 `json:"majority"`
	MajorityChoice string  `json:"majority_choice"`
}

// Best is the strongest of the three.
func (b Baselines) Best() float64 { return max(b.FirstNoun, b.NearestNoun, b.Majority) }

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
	b := data.Baselines(t.Corpus.Train, t.Corpus.Test)
	m.Baselines = Baselines{FirstNoun: b.FirstNoun, NearestNoun: b.NearestNoun, Majority: b.Majority, MajorityChoice: b.MajorityChoice}
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

// Summary is the closing report: accuracy beside the baselines, then attention.
func (m *Metrics) Summary() string {
	var s strings.Builder
	fmt.Fprintf(&s, "\ntest accuracy %.1f%% on %d held-out sentences (best epoch %d, validation %.1f%%)\n",
		100*m.Test.Accuracy, m.Test.N, m.BestEpoch, 100*m.Validation.Accuracy)
	fmt.Fprintf(&s, "baselines:     first noun %.1f%%   nearest noun %.1f%%   majority (%s noun) %.1f%%\n",
		100*m.Baselines.FirstNoun, 100*m.Baselines.NearestNoun, m.Baselines.MajorityChoice, 100*m.Baselines.Majority)
	fmt.Fprintf(&s, "margin over the best baseline: %+.1f points\n\n", 100*(m.Test.Accuracy-m.Baselines.Best()))
	s.WriteString("attention of the pronoun on test sentences:\n  layer head   strongest on antecedent   antecedent over other noun\n")
	for l, row := range m.Test.Strongest {
		for h, v := range row {
			fmt.Fprintf(&s, "  %5d %4d   %22.1f%%   %25.1f%%\n", l+1, h+1, 100*v, 100*m.Test.Preference[l][h])
		}
	}
	fmt.Fprintf(&s, "best: layer %d head %d, %.1f%%\n", m.BestAttention.Layer, m.BestAttention.Head, 100*m.BestAttention.Share)
	fmt.Fprintf(&s, "trained %d parameters in %.1fs (%.0f sentences/s)\n", m.Parameters, m.TrainSeconds, m.SentencesPerSecond)
	return s.String()
}
