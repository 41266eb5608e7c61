package main

// Training in the tab's Web Worker: train.Run, unchanged, into a run folder
// (in the browser an in-memory file system the worker provides, see the
// site's memfs.js), with its callbacks turned into events for the page.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/configs"
	"itformer/history"
	"itformer/train"
)

// TrainRequest is the page's choice: a shipped config and a few knobs, each
// zero (or nil) to keep the config's value.
type TrainRequest struct {
	Config      string `json:"config"` // "tiny" or "default"
	Layers      int    `json:"layers"`
	Heads       int    `json:"heads"`
	DModel      int    `json:"d_model"`
	Epochs      int    `json:"epochs"`
	Supervision *bool  `json:"attention_supervision"`
}

// Event is one message to the page. Type is "config", "step", "epoch",
// "done" or "error"; the other fields belong to some types only.
type Event struct {
	Type    string             `json:"type"`
	Config  *config.Run        `json:"config,omitempty"`  // config: the resolved run config
	Step    *StepReport        `json:"step,omitempty"`    // step: the epoch's running figures
	Epoch   *train.EpochRecord `json:"epoch,omitempty"`   // epoch: the epochs.jsonl line
	Elapsed float64            `json:"elapsed,omitempty"` // seconds since the request, for every event after config
	History *history.History   `json:"history,omitempty"` // epoch, done: the probes' attention so far
	Metrics *train.Metrics     `json:"metrics,omitempty"` // done, when the run finished
	Stopped bool               `json:"stopped,omitempty"` // done: stopped before its last epoch
	Zip     []byte             `json:"-"`                 // done: the zipped best checkpoint (sent apart)
	Error   string             `json:"error,omitempty"`   // error
}

// StepReport is train.StepReport with the JSON names the page reads.
type StepReport struct {
	Epoch    int     `json:"epoch"`    // 1-based
	Epochs   int     `json:"epochs"`   // of the run
	Seen     int     `json:"seen"`     // sentences of this epoch trained on
	Total    int     `json:"total"`    // of how many
	Loss     float64 `json:"loss"`     // the epoch's running mean loss
	Accuracy float64 `json:"accuracy"` // and accuracy
}

// stepEvery is the least time between two step events: the page redraws no
// faster, and fewer messages leave the worker more time to train.
const stepEvery = 100 * time.Millisecond

// RunConfig resolves the request into a run config; errors name the knob.
func (r TrainRequest) RunConfig() (config.Run, error) {
	name := r.Config
	if name == "" {
		name = "tiny"
	}
	if name != "tiny" && name != "default" {
		return config.Run{}, fmt.Errorf("config %q: choose tiny or default", name)
	}
	var set []string
	for _, o := range []struct {
		key string
		v   int
	}{{"model.layers", r.Layers}, {"model.heads", r.Heads}, {"model.d_model", r.DModel}, {"train.epochs", r.Epochs}} {
		if o.v != 0 {
			set = append(set, fmt.Sprintf("%s=%d", o.key, o.v))
		}
	}
	if r.Supervision != nil && !*r.Supervision {
		set = append(set, "train.attention_supervision=0")
	}
	// The tab trains one model: the default's other members would triple a
	// run that already takes minutes, and the zip it downloads holds one.
	set = append(set, "train.members=1")
	return configs.Load(name+".json", set...)
}

// trainer runs one request; pause, if set, is called between steps at most
// every stepEvery, to let the browser deliver a stop.
type trainer struct {
	dir   string
	emit  func(Event)
	pause func()
	start time.Time
	last  time.Time
}

// run trains into t.dir (which must not exist) until done or ctx is
// cancelled, then emits "done" with the best checkpoint, or "error".
func (t *trainer) run(ctx context.Context, r TrainRequest) {
	if err := t.train(ctx, r); err != nil {
		t.emit(Event{Type: "error", Error: err.Error(), Elapsed: t.elapsed()})
	}
}

func (t *trainer) train(ctx context.Context, r TrainRequest) error {
	cfg, err := r.RunConfig()
	if err != nil {
		return err
	}
	t.start = time.Now()
	t.emit(Event{Type: "config", Config: &cfg})
	m, err := train.Run(cfg, train.Options{OutDir: t.dir, Context: ctx, OnStep: t.onStep, OnEpoch: t.onEpoch})
	stopped := errors.Is(err, train.ErrInterrupted) || errors.Is(err, train.ErrSetupInterrupted)
	if err != nil && !stopped {
		return err
	}
	zip, err := t.zip()
	if errors.Is(err, os.ErrNotExist) && stopped {
		return errors.New("stopped before the first epoch ended: there is no model to question yet")
	}
	if err != nil {
		return err
	}
	h, _ := history.Load(filepath.Join(t.dir, history.FileName)) // the playback is left out if it cannot be read
	t.emit(Event{Type: "done", Metrics: m, Stopped: stopped, History: h, Zip: zip, Elapsed: t.elapsed()})
	return nil
}

func (t *trainer) onStep(s train.StepReport) {
	if now := time.Now(); now.Sub(t.last) >= stepEvery || s.Seen == s.Total {
		t.last = now
		t.emit(Event{Type: "step", Step: &StepReport{s.Epoch, s.Epochs, s.Seen, s.Total, s.Loss, s.Accuracy}, Elapsed: t.elapsed()})
		if t.pause != nil {
			t.pause()
		}
	}
}

func (t *trainer) onEpoch(rec train.EpochRecord, _ int) {
	h, _ := history.Load(filepath.Join(t.dir, history.FileName)) // an epoch without attention is still worth drawing
	t.emit(Event{Type: "epoch", Epoch: &rec, History: h, Elapsed: t.elapsed()})
}

// zip is the run folder's best checkpoint as one file (checkpoint.WriteZip).
func (t *trainer) zip() ([]byte, error) {
	var buf bytes.Buffer
	if err := checkpoint.WriteZip(&buf, os.DirFS(t.dir)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (t *trainer) elapsed() float64 { return time.Since(t.start).Seconds() }
