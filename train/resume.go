package train

// Resumable runs. At the end of every epoch, and when interrupted, the trainer
// saves run/resume/: a checkpoint of the current (not best) weights whose
// weights file also holds Adam's moments, and whose JSON says where training
// stood. Resuming restores the weights, the moments and the counters, replays
// the batch shuffles of the epochs already done (so the random order is the
// same), and continues; the result is bit-identical to an uninterrupted run
// (TestResumeMatchesUninterruptedRun).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
	"itformer/model"
)

// ErrInterrupted is returned when the Options' context is cancelled (Ctrl-C);
// the run folder then holds a resumable checkpoint.
var ErrInterrupted = errors.New("training interrupted")

// epochProgress is an epoch's running sums.
type epochProgress struct {
	batch, correct, decided, seen int
	lossSum, seconds, gradNormSum float64
}

// countCorrect adds a batch's rows to the epoch's accuracy. A row whose
// deciding word was hidden has no right answer, so only decided rows count.
func (p *epochProgress) countCorrect(out *model.Output, b data.Batch) {
	for r, ex := range b.Examples {
		if ex.Uncertain {
			continue
		}
		p.decided++
		if model.ArgMax(out.Probs.Row(r)[:b.Lengths[r]]) == b.Antecedent[r] {
			p.correct++
		}
	}
}

// saveResume writes run/resume/ for the state after `done` batches of `epoch`.
func (t *trainer) saveResume(epoch int, p epochProgress, interrupted bool) error {
	st := &checkpoint.ResumeState{Epoch: epoch, Batch: p.batch, Step: t.step, TrainSeconds: t.trainSeconds,
		LossSum: p.lossSum, Correct: p.correct, Decided: p.decided, Seen: p.seen, EpochSeconds: p.seconds, GradNormSum: p.gradNormSum,
		BestEpoch: t.best.epoch, BestAccuracy: t.best.accuracy, BestLoss: t.best.loss, Interrupted: interrupted}
	meta := checkpoint.Meta{Vocab: t.Vocab.Words(), Epoch: epoch, Config: t.cfg, Resume: st}
	return checkpoint.Save(t.path(checkpoint.ResumeDir), meta, t.Params, t.optimiserTensors()...)
}

func (t *trainer) optimiserTensors() []checkpoint.Extra {
	var out []checkpoint.Extra
	m, v := t.Optimiser.Moments()
	for i, s := range t.Params.Specs() {
		if m == nil || m[i] == nil {
			continue
		}
		out = append(out, checkpoint.Extra{Name: checkpoint.ExtraPrefix + "m." + s.Name, Shape: s.Shape, Data: m[i]},
			checkpoint.Extra{Name: checkpoint.ExtraPrefix + "v." + s.Name, Shape: s.Shape, Data: v[i]})
	}
	return out
}

// Resume continues the run in dir from its resumable checkpoint. It refuses
// a folder without one, saying why (ErrRunFinished, ErrNoResumeCheckpoint,
// ErrNotRunFolder), a config.json edited since the run started, and a folder
// another run is writing (ErrFolderLocked). It holds the folder's lock
// until it returns, and first removes the temporaries killed writes left.
// A run of several members (members.go) whose first member finished goes on
// with the members still to train.
func Resume(dir string, opt Options) (*Metrics, error) {
	m, err := resumeOne(dir, opt)
	if errors.Is(err, ErrRunFinished) {
		m, err = finishedMembersLeft(dir, err)
	}
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	opt.OutDir = dir
	return m, trainMembers(cfg, opt)
}

// finishedMembersLeft returns the metrics of the finished run in dir when it
// has members still to train, and finished (ErrRunFinished) when not.
func finishedMembersLeft(dir string, finished error) (*Metrics, error) {
	if !membersLeft(dir) {
		return nil, finished
	}
	m, err := ReadMetrics(filepath.Join(dir, "metrics.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, finished // says that member 1's metrics.json is missing
	}
	return m, err
}

// membersLeft reports whether the run in dir has members still to train:
// its config.json counts more than one and the last has no metrics.json. A
// config this train cannot read has no members it knows of.
func membersLeft(dir string) bool {
	cfg, err := config.Load(filepath.Join(dir, "config.json"))
	if err != nil {
		return false
	}
	k := cfg.Train.MemberCount()
	_, err = os.Stat(filepath.Join(MemberDir(dir, k), "metrics.json"))
	return k > 1 && err != nil
}

// resumeOne resumes the single run in dir.
func resumeOne(dir string, opt Options) (*Metrics, error) {
	lock, err := lockFolder(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) { // a missing folder: loadResumable says what it lacks
		return nil, err
	}
	defer closeLock(lock)
	ck, err := loadResumable(dir)
	if err != nil {
		return nil, err
	}
	if err := removeTemps(dir); err != nil {
		return nil, err
	}
	cfg, err := config.Load(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	if err := sameConfig(cfg, ck.Meta.Config); err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	opt.OutDir = dir
	return runFrom(cfg, opt, ck)
}

// restore puts the trainer where the resumable checkpoint left it.
func (t *trainer) restore(ck *checkpoint.Checkpoint) (epochProgress, error) {
	st := ck.Meta.Resume
	if err := t.restoreWeights(ck); err != nil {
		return epochProgress{}, err
	}
	t.step, t.trainSeconds = st.Step, st.TrainSeconds
	t.best = checkpointState{epoch: st.BestEpoch, accuracy: st.BestAccuracy, loss: st.BestLoss}
	if err := t.restoreBest(*st); err != nil {
		return epochProgress{}, err
	}
	for e := 1; e < st.Epoch; e++ { // replay the shuffles, so the RNG is where it was
		if _, err := t.EpochBatches(t.rng, e); err != nil {
			return epochProgress{}, err
		}
	}
	if err := trimEpochLog(t.path("epochs.jsonl"), *st); err != nil {
		return epochProgress{}, err
	}
	return epochProgress{batch: st.Batch, correct: st.Correct, decided: st.Decided, seen: st.Seen, lossSum: st.LossSum, seconds: st.EpochSeconds, gradNormSum: st.GradNormSum}, nil
}

func (t *trainer) restoreWeights(ck *checkpoint.Checkpoint) error {
	if fmt.Sprint(ck.Meta.Model) != fmt.Sprint(t.Params.Config()) {
		return fmt.Errorf("the resumable checkpoint's model %+v differs from config.json's %+v", ck.Meta.Model, t.Params.Config())
	}
	specs := t.Params.Specs()
	m, v := make([][]float64, len(specs)), make([][]float64, len(specs))
	for i, s := range specs {
		if err := t.Params.SetValues(s.Name, ck.Params.Values(s.Name)); err != nil {
			return err
		}
		var okM, okV bool
		m[i], okM = ck.Extra[checkpoint.ExtraPrefix+"m."+s.Name]
		v[i], okV = ck.Extra[checkpoint.ExtraPrefix+"v."+s.Name]
		if okM != okV || (ck.Meta.Resume.Step > 0 && !okM) {
			return fmt.Errorf("the resumable checkpoint lacks Adam's moments for %s", s.Name)
		}
	}
	t.Optimiser.SetState(ck.Meta.Resume.Step, m, v)
	return nil
}

// restoreBest reloads the best weights so far, which finish() restores at
// the end, once it has checked that they are the ones st points to: another
// run's had been trained on to the last epoch and only then refused.
func (t *trainer) restoreBest(st checkpoint.ResumeState) error {
	if t.best.epoch == 0 {
		return nil
	}
	ck, err := checkpoint.Load(t.opt.OutDir)
	if err != nil {
		return fmt.Errorf("the best checkpoint: %w", err)
	}
	if err := bestBelongs(t.path(checkpoint.FileName), ck, t.cfg, t.Vocab.Words(), st); err != nil {
		return err
	}
	t.best.weights = map[string][]float64{}
	for _, s := range ck.Params.Specs() {
		t.best.weights[s.Name] = ck.Params.Values(s.Name)
	}
	return nil
}

// trimEpochLog keeps the lines of epochs before st.Epoch: a run killed after
// logging an epoch but before saving its resume state redoes that epoch.
// Each epoch's line is synced before its resume state is saved, so the log
// must hold every epoch before st.Epoch, none after it, and mark the best
// so far as st does; one that does not (edited or cut by hand, or another
// run's) is refused, file unchanged, rather than resumed with a gap or
// with two runs' epochs.
func trimEpochLog(path string, st checkpoint.ResumeState) error {
	epoch := st.Epoch
	recs, err := readEpochLog(path)
	if errors.Is(err, os.ErrNotExist) && epoch == 1 {
		return nil
	}
	if err != nil {
		return err
	}
	if err := logBelongs(path, recs, st); err != nil {
		return err
	}
	var kept bytes.Buffer
	n := 0
	for _, rec := range recs {
		if rec.Epoch >= epoch {
			continue
		}
		if n++; rec.Epoch != n {
			n = -1 // a gap, a repeat or a line out of order
			break
		}
		line, _ := json.Marshal(rec)
		kept.Write(append(line, '\n'))
	}
	if n != epoch-1 {
		return fmt.Errorf("cannot resume: %s does not hold one whole line for each of epochs 1-%d, in order, before epoch %d, where the run resumes (was it edited or cut?)", path, epoch-1, epoch)
	}
	return checkpoint.WriteFileAtomic(path, kept.Bytes())
}

// logBelongs refuses an epoch log that goes past the epoch the resume state
// st resumes at, or whose line for st's best epoch says other than st: the
// log and resume/ are then of two runs.
func logBelongs(path string, recs []EpochRecord, st checkpoint.ResumeState) error {
	resume := filepath.Join(filepath.Dir(path), checkpoint.ResumeDir, checkpoint.FileName)
	for _, rec := range recs {
		switch {
		case rec.Epoch > st.Epoch:
			return inconsistent(fmt.Errorf("cannot resume: %s logs epoch %d, but %s resumes at epoch %d: one of them is another run's (copied in?); put back this run's own, or start the run again", path, rec.Epoch, resume, st.Epoch))
		case rec.Epoch == st.BestEpoch && (!rec.Best || rec.ValidationAccuracy != st.BestAccuracy || rec.ValidationLoss != st.BestLoss):
			return inconsistent(fmt.Errorf("cannot resume: %s's epoch %d (validation accuracy %v, loss %v) is not the best epoch %s records (accuracy %v, loss %v): one of them is another run's (copied in?); put back this run's own, or start the run again",
				path, rec.Epoch, rec.ValidationAccuracy, rec.ValidationLoss, resume, st.BestAccuracy, st.BestLoss))
		}
	}
	return nil
}
