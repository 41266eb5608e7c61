package train

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
)

// A learning rate of 1e30 blows the weights up within an epoch: training must
// stop with ErrNumerical naming the step, and write no checkpoint.
func TestNumericalFaultStopsTraining(t *testing.T) {
	cfg, err := config.Load("../configs/tiny.json", "train.learning_rate=1e30", "train.warmup_steps=0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, err = Run(cfg, Options{OutDir: dir})
	if !errors.Is(err, ErrNumerical) || !strings.Contains(err.Error(), "at step ") {
		t.Fatalf("Run: %v, want a numerical fault naming the step", err)
	}
	if _, statErr := os.Stat(filepath.Join(dir, checkpoint.FileName)); !os.IsNotExist(statErr) {
		t.Errorf("a checkpoint was written despite the fault (%v)", statErr)
	}
}

// checkFinite names the parameter whose gradient went bad.
func TestCheckFiniteNamesTheTensor(t *testing.T) {
	tr := &trainer{cfg: tinyConfig, opt: Options{OutDir: t.TempDir()}}
	if err := tr.prepare(true); err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	batches, err := data.Batches(tr.Corpus.Train[:tinyConfig.Train.BatchSize], tr.Vocab, tinyConfig.Train.BatchSize, tinyConfig.Model.MaxLen, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tr.Graph.Run(ModelBatch(batches[0]))
	if err != nil {
		t.Fatal(err)
	}
	norm, err := tr.checkFinite(out, tr.Graph)
	if err != nil || !(norm > 0) {
		t.Fatalf("a healthy step: norm %v, %v", norm, err)
	}
	for i, s := range tr.Params.Specs() {
		if s.Name != "encoder.1.ffn.b2" {
			continue
		}
		g, _ := tr.Graph.ValueGrads()[i].Grad()
		g.Data().([]float64)[3] = math.Inf(-1)
	}
	_, err = tr.checkFinite(out, tr.Graph)
	if !errors.Is(err, ErrNumerical) || !strings.Contains(err.Error(), "gradient of encoder.1.ffn.b2 has -Inf at entry 3") {
		t.Fatalf("checkFinite: %v", err)
	}
}
