package main

// Time to accuracy in PyTorch: the same config trained from the same initial
// weights on the same batches (the Go run's shuffled epochs with their noun
// dropout, each batch padded to its longest sentence) with the same
// learning-rate schedule and embedding decay, until its validation accuracy
// first reaches the target, timed from the start of the Python process as the
// Go figure is timed from the start of its child. With train.shards > 1 Go
// splits each batch and sums the shards' gradients while PyTorch runs it
// whole: the same objective and gradients, rounded differently.

import (
	"fmt"
	"path/filepath"

	"itformer/cmd/internal/cli"
	"itformer/data"
	"itformer/train"
)

// accuracyTarget is the validation accuracy both sides train to.
const accuracyTarget = 0.95

// trainSpec is what pytorch_step.py --train reads: spec, every epoch's batches and the validation batches.
type trainSpec struct {
	spec
	Epochs     [][]map[string][]int `json:"epochs"`
	Validation []map[string][]int   `json:"validation"`
}

// epochReport is one line of pytorch_step.py --train.
type epochReport struct {
	Epoch              int     `json:"epoch"`
	Seconds            float64 `json:"seconds"`
	ValidationAccuracy float64 `json:"validation_accuracy"`
}

// torchToAccuracy trains in PyTorch with 1 thread (its fastest setting for
// this model) and prints when it first reached the target.
func torchToAccuracy(o options) error {
	cfg, err := cli.LoadConfig(o.config)
	if err != nil {
		return err
	}
	s, err := train.NewSession(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	if n := cfg.Train.ShardCount(); n > 1 {
		fmt.Printf("  (train.shards %d: Go sums the gradients of %d shards of each batch, PyTorch runs the batch whole: the same gradients, rounded differently)\n", n, n)
	}
	sp, err := newTrainSpec(s)
	if err != nil {
		return err
	}
	dir, remove, err := cleanup.tempDir("itformer-bench-")
	if err != nil {
		return err
	}
	defer remove()
	specPath := filepath.Join(dir, "train.json")
	if err := writeJSON(specPath, sp); err != nil {
		return err
	}
	if o.script, err = scriptFile(o.script, dir); err != nil {
		return err
	}
	return runTorchTraining(o, cfg.Model.DType, specPath, cfg.Train.Epochs)
}

// newTrainSpec replays train.Run's batching: its batch order, one rand.Rand
// drawn from epoch after epoch (train.BatchOrder), and each epoch's batches
// with that epoch's noun dropout (Session.EpochBatches); validation batches
// keep their order and record how many rows are real.
func newTrainSpec(s *train.Session) (trainSpec, error) {
	c := s.Config
	order := train.BatchOrder(c)
	var ts trainSpec
	for e := 1; e <= c.Train.Epochs; e++ {
		batches, err := s.EpochBatches(order, e)
		if err != nil {
			return ts, err
		}
		if e == 1 {
			if ts.spec, err = newSpec(s, batches[:1], true); err != nil {
				return ts, err
			}
		}
		var epoch []map[string][]int
		for _, b := range batches {
			epoch = append(epoch, batchJSON(b, true))
		}
		ts.Epochs = append(ts.Epochs, epoch)
	}
	val, err := data.Batches(s.Corpus.Validation, s.Vocab, c.Train.EvalBatchSize, c.Model.MaxLen, nil, false)
	if err != nil {
		return ts, err
	}
	for _, b := range val {
		j := batchJSON(b, true)
		j["real"] = []int{len(b.Examples)}
		ts.Validation = append(ts.Validation, j)
	}
	return ts, nil
}

func runTorchTraining(o options, dtype, specPath string, epochs int) error {
	p, err := startTorchWith(o, 1, "--train", fmt.Sprint(accuracyTarget), "--dtype", dtype, "--input", specPath)
	if err != nil {
		return err
	}
	defer cleanup.wait(p.cmd)
	fmt.Printf("  PyTorch (1 thread, %v), validation accuracy per epoch:", p.hello["blas"])
	var last epochReport
	for p.read(&last) == nil { // the script ends after the target or the last epoch
		fmt.Printf(" %.1f%%", 100*last.ValidationAccuracy)
		if last.ValidationAccuracy >= accuracyTarget {
			fmt.Printf("\n  PyTorch: validation accuracy first >= %.0f%%: epoch %d (%.1f%%), %.1f s after the process started\n",
				100*accuracyTarget, last.Epoch, 100*last.ValidationAccuracy, last.Seconds)
			return nil
		}
	}
	fmt.Printf("\n  PyTorch: validation accuracy never reached %.0f%% in %d epochs (last %.1f%%, %.1f s)\n",
		100*accuracyTarget, epochs, 100*last.ValidationAccuracy, last.Seconds)
	return nil
}
