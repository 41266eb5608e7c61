package train

// What Resume checks before it continues a run: that the folder has a
// resumable checkpoint (and if not, why not, in words a user can act on),
// that config.json still says what the run was started with, and that the
// files the resumed run goes on from (the best checkpoint, the epoch log, the
// history) are this run's: files copied in from another run had been trained
// on, and had ended in a foreign checkpoint or a log of two runs.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"itformer/checkpoint"
	"itformer/config"
)

// The kinds of folder Resume cannot continue, for errors.Is; the error itself
// names the folder and says what happened. A missing folder is os.ErrNotExist.
var (
	ErrRunFinished        = errors.New("the run finished")
	ErrNoResumeCheckpoint = errors.New("the run has no resumable checkpoint")
	ErrNotRunFolder       = errors.New("not a run folder")
	// ErrInconsistentRun: a file the resumed run goes on from is missing or
	// is another run's. The error names the file.
	ErrInconsistentRun = errors.New("the run's files do not fit together")
)

// inconsistentError is err, of kind ErrInconsistentRun.
type inconsistentError struct{ err error }

func (e *inconsistentError) Error() string   { return e.err.Error() }
func (e *inconsistentError) Unwrap() []error { return []error{e.err, ErrInconsistentRun} }

// inconsistent marks err as ErrInconsistentRun.
func inconsistent(err error) error { return &inconsistentError{err} }

// noResumeError is why dir cannot be resumed.
type noResumeError struct {
	dir, why string
	kind     error
}

func (e *noResumeError) Error() string { return e.dir + " " + e.why }
func (e *noResumeError) Unwrap() error { return e.kind }

// loadResumable loads dir's resumable checkpoint, or says why there is none.
func loadResumable(dir string) (*checkpoint.Checkpoint, error) {
	resume := filepath.Join(dir, checkpoint.ResumeDir)
	if _, err := os.Stat(filepath.Join(resume, checkpoint.FileName)); err != nil {
		return nil, whyNoResume(dir, err)
	}
	ck, err := checkpoint.Load(resume)
	if err != nil {
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	if ck.Meta.Resume == nil {
		return nil, fmt.Errorf("cannot resume %s: %s/%s is not a resumable checkpoint", dir, checkpoint.ResumeDir, checkpoint.FileName)
	}
	return ck, nil
}

// whyNoResume tells a finished run, a run stopped before its first resumable
// checkpoint, and a folder that is no run apart. A finished run removes
// resume/ after writing metrics.json, so a folder with both is resumed.
func whyNoResume(dir string, statErr error) error {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	switch st, err := os.Stat(dir); {
	case errors.Is(err, os.ErrNotExist):
		return &noResumeError{dir, "does not exist", os.ErrNotExist}
	case err == nil && !st.IsDir():
		return &noResumeError{dir, "is not a run folder but a file: there is nothing to resume", ErrNotRunFolder}
	case !errors.Is(statErr, os.ErrNotExist):
		return fmt.Errorf("cannot resume %s: %w", dir, statErr)
	case has("metrics.json"):
		return &noResumeError{dir, "finished (metrics.json is written); there is nothing to resume", ErrRunFinished}
	case has("config.json") || isRunFolder(dir):
		return whyStopped(dir)
	}
	return &noResumeError{dir, "is not a run folder (it has no config.json): there is nothing to resume", ErrNotRunFolder}
}

// whyStopped tells a run stopped before its first resumable checkpoint from
// a finished run whose metrics.json is gone: one whose epochs.jsonl logs its
// last epoch. (A run removes resume/ only after writing metrics.json, so
// without either it cannot have stopped after that epoch's line.)
func whyStopped(dir string) error {
	cfg, errCfg := config.Load(filepath.Join(dir, "config.json"))
	recs, errLog := readEpochLog(filepath.Join(dir, "epochs.jsonl"))
	if errCfg != nil || errLog != nil || len(recs) == 0 || recs[len(recs)-1].Epoch != cfg.Train.Epochs {
		return &noResumeError{dir, "has no resumable checkpoint: it stopped before the first one was saved", ErrNoResumeCheckpoint}
	}
	n := cfg.Train.Epochs
	return &noResumeError{dir, fmt.Sprintf("finished (epochs.jsonl logs epoch %d of %d, and checkpoint.json holds the best model) but its metrics.json, the closing figures, is missing: there is nothing to resume; its config.json, trained again, writes the same figures (timings aside)", n, n), ErrRunFinished}
}

// sameConfig names every field in which config.json (file) differs from the
// config the run was started with, which its resumable checkpoint holds.
func sameConfig(file, started config.Run) error {
	return configDiffs(file, started, func(key, now, was string) error {
		return fmt.Errorf("config.json's %s is %s but the run was started with %s; resume runs what was started", key, now, was)
	})
}

// configDiffs joins, for every dotted key whose values in a and b differ,
// the error say makes of it.
func configDiffs(a, b config.Run, say func(key, a, b string) error) error {
	var diffs []error
	walkDiff(jsonTree(a.JSON()), jsonTree(b.JSON()), "", func(key, x, y string) { diffs = append(diffs, say(key, x, y)) })
	return errors.Join(diffs...)
}

// bestBelongs refuses a best checkpoint (at path) that is not the one the
// resume state st of the run of cfg and vocab points to: another config or
// vocabulary, or an epoch or accuracy other than the best so far. Its
// weights need no check of their own: checkpoint.Load matched them to its
// model section by checksum and shape, and that section to its config.
func bestBelongs(path string, best *checkpoint.Checkpoint, cfg config.Run, vocab []string, st checkpoint.ResumeState) error {
	bm, resume := best.Meta, filepath.Join(filepath.Dir(path), checkpoint.ResumeDir, checkpoint.FileName)
	err := configDiffs(bm.Config, cfg, func(key, was, now string) error {
		return fmt.Errorf("%s's config has %s %s but config.json has %s", path, key, was, now)
	})
	switch {
	case err != nil:
	case !slices.Equal(bm.Vocab, vocab):
		err = fmt.Errorf("%s's vocabulary (%d words) is not the one config.json's corpus makes (%d words)", path, len(bm.Vocab), len(vocab))
	case bm.Epoch < st.BestEpoch || bm.Epoch > st.Epoch:
		err = fmt.Errorf("%s holds epoch %d, but %s says the best so far is epoch %d", path, bm.Epoch, resume, st.BestEpoch)
	case bm.Epoch == st.BestEpoch && bm.ValidationAccuracy != st.BestAccuracy:
		err = fmt.Errorf("%s's epoch %d has validation accuracy %v, but %s says the best so far has %v", path, bm.Epoch, bm.ValidationAccuracy, resume, st.BestAccuracy)
	}
	if err != nil {
		return inconsistent(fmt.Errorf("cannot resume: %w: the best checkpoint is another run's; put back this run's own %s and weights file, or start the run again", err, checkpoint.FileName))
	}
	return nil
}

// jsonTree decodes a config's JSON keeping numbers as written.
func jsonTree(raw []byte) map[string]any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree map[string]any
	dec.Decode(&tree) // config.Run.JSON always decodes
	return tree
}

// walkDiff calls differ for every dotted key whose values differ, in key order.
func walkDiff(a, b map[string]any, prefix string, differ func(key, a, b string)) {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var sorted []string
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		subA, okA := a[k].(map[string]any)
		subB, okB := b[k].(map[string]any)
		if okA && okB {
			walkDiff(subA, subB, prefix+k+".", differ)
		} else if x, y := leaf(a, k), leaf(b, k); x != y {
			differ(prefix+k, x, y)
		}
	}
}

// leaf is a value as JSON, or "absent".
func leaf(m map[string]any, k string) string {
	v, ok := m[k]
	if !ok {
		return "absent"
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}
