package train

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
)

// EpochRecord is one line of the run folder's epochs.jsonl.
type EpochRecord struct {
	Epoch              int     `json:"epoch"`
	Steps              int     `json:"steps"`
	LearningRate       float64 `json:"learning_rate"`
	TrainLoss          float64 `json:"train_loss"`
	TrainAccuracy      float64 `json:"train_accuracy"`
	ValidationLoss     float64 `json:"validation_loss"`
	ValidationAccuracy float64 `json:"validation_accuracy"`
	Seconds            float64 `json:"seconds"`
	SentencesPerSecond float64 `json:"sentences_per_second"`
	HeapMB             float64 `json:"heap_mb"`           // live heap after a GC at the epoch's end: flat if nothing leaks
	GradNorm           float64 `json:"grad_norm"`         // mean over the epoch's steps of the gradients' global L2 norm
	AttentionEntropy   float64 `json:"attention_entropy"` // validation attention rows' mean entropy / log(n): 0 one-hot, 1 uniform
	Best               bool    `json:"best"`
}

// checkpointState remembers the best epoch so far and its weights.
type checkpointState struct {
	epoch    int
	accuracy float64
	loss     float64
	weights  map[string][]float64
}

func (t *trainer) epoch(epoch int, progress epochProgress) error {
	batches, err := t.EpochBatches(t.rng, epoch)
	if err != nil {
		return err
	}
	rec, err := t.trainEpoch(epoch, batches, progress)
	if err != nil {
		return err
	}
	t.trainSeconds += rec.Seconds
	rec.SentencesPerSecond = float64(len(batches)*t.cfg.Train.BatchSize) / rec.Seconds
	val, err := evaluate(t.evalG, t.val, t.cfg.Model.Layers, t.cfg.Model.Heads)
	if err != nil {
		return fmt.Errorf("validation: %w", err)
	}
	rec.ValidationLoss, rec.ValidationAccuracy, rec.AttentionEntropy = val.Loss, val.Accuracy, val.AttentionEntropy
	rec.HeapMB = liveHeapMB()
	if rec.Best = t.isBest(val); rec.Best {
		if err := t.saveBest(epoch, val); err != nil {
			return fmt.Errorf("saving the checkpoint: %w", err)
		}
	}
	if err := t.record(rec); err != nil {
		return err
	}
	if err := t.saveResume(epoch+1, epochProgress{}, false); err != nil {
		return fmt.Errorf("saving the resumable checkpoint: %w", err)
	}
	return nil
}

// liveHeapMB collects garbage and returns what is still in use, in MiB.
func liveHeapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// trainEpoch steps through the batches from where p left off, reporting each
// step. When the context is cancelled it saves a resumable checkpoint.
func (t *trainer) trainEpoch(epoch int, batches []data.Batch, p epochProgress) (EpochRecord, error) {
	rec := EpochRecord{Epoch: epoch, Steps: len(batches)}
	start := time.Now()
	for ; p.batch < len(batches); p.batch++ {
		if t.ctx.Err() != nil {
			p.seconds += time.Since(start).Seconds()
			if err := t.saveResume(epoch, p, true); err != nil {
				return rec, fmt.Errorf("%w, and saving the resumable checkpoint failed: %v", ErrInterrupted, err)
			}
			return rec, ErrInterrupted
		}
		b := batches[p.batch]
		out, norm, err := t.trainStep(b)
		if err != nil {
			return rec, err
		}
		if err := t.recordHistory(); err != nil {
			return rec, err
		}
		p.gradNormSum += norm
		p.countCorrect(out, b)
		p.seen += len(b.Examples)
		p.lossSum += out.Loss * float64(len(b.Examples))
		t.reportStep(epoch, len(batches)*t.cfg.Train.BatchSize, p)
	}
	rec.Seconds = p.seconds + time.Since(start).Seconds()
	rec.TrainLoss = p.lossSum / float64(max(p.seen, 1))
	rec.TrainAccuracy = float64(p.correct) / float64(max(p.decided, 1))
	rec.LearningRate = t.learningRateAt(t.step - 1)
	rec.GradNorm = p.gradNormSum / float64(max(len(batches), 1))
	return rec, nil
}

func (t *trainer) reportStep(epoch, total int, p epochProgress) {
	if t.opt.OnStep == nil {
		return
	}
	t.opt.OnStep(StepReport{Epoch: epoch, Epochs: t.cfg.Train.Epochs, Seen: p.seen, Total: total,
		Loss: p.lossSum / float64(p.seen), Accuracy: float64(p.correct) / float64(max(p.decided, 1))})
}

// isBest: higher validation accuracy, or equal accuracy with lower loss.
func (t *trainer) isBest(val Evaluation) bool {
	b := t.best
	return b.epoch == 0 || val.Accuracy > b.accuracy || (val.Accuracy == b.accuracy && val.Loss < b.loss)
}

func (t *trainer) saveBest(epoch int, val Evaluation) error {
	t.best = checkpointState{epoch: epoch, accuracy: val.Accuracy, loss: val.Loss, weights: map[string][]float64{}}
	for _, s := range t.Params.Specs() {
		t.best.weights[s.Name] = t.Params.Values(s.Name)
	}
	meta := checkpoint.Meta{Vocab: t.Vocab.Words(), Epoch: epoch, ValidationAccuracy: val.Accuracy, Config: t.cfg}
	return checkpoint.Save(t.opt.OutDir, meta, t.Params)
}

// record appends the epoch to epochs.jsonl (synced, so a crash keeps it) and reports it.
func (t *trainer) record(rec EpochRecord) error {
	line, _ := json.Marshal(rec)
	if _, err := t.epochLog.Write(append(line, '\n')); err != nil {
		return err
	}
	if err := t.epochLog.Sync(); err != nil {
		return err
	}
	if t.opt.OnEpoch != nil {
		t.opt.OnEpoch(rec, t.cfg.Train.Epochs)
	}
	return nil
}

// Line is the epoch as one line of a training log, out of epochs in all.
func (rec EpochRecord) Line(epochs int) string {
	mark := ""
	if rec.Best {
		mark = "  * best, saved"
	}
	return fmt.Sprintf("epoch %2d/%d  train loss %.4f acc %5.1f%%  validation loss %.4f acc %5.1f%%  %4.1fs %5.0f sent/s  heap %.0f MB%s",
		rec.Epoch, epochs, rec.TrainLoss, 100*rec.TrainAccuracy, rec.ValidationLoss, 100*rec.ValidationAccuracy,
		rec.Seconds, rec.SentencesPerSecond, rec.HeapMB, mark)
}

// maxEpochLog bounds epochs.jsonl: a line is about 400 bytes, and
// train.epochs is at most 1,000,000.
const maxEpochLog = 1 << 30

// readEpochLog reads a run folder's epochs.jsonl; a line cut short by a crash
// ends the log rather than failing it.
func readEpochLog(path string) ([]EpochRecord, error) {
	raw, err := config.ReadFile(path, maxEpochLog)
	if err != nil {
		return nil, err
	}
	var recs []EpochRecord
	for _, line := range bytes.Split(raw, []byte("\n")) {
		var rec EpochRecord
		if len(line) == 0 || json.Unmarshal(line, &rec) != nil {
			break
		}
		recs = append(recs, rec)
	}
	return recs, nil
}
