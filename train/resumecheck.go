package train

// What Resume checks before it continues a run: that the folder has a
// resumable checkpoint (and if not, why not, in words a user can act on), and
// that config.json still says what the run was started with.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
)

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
		return &noResumeError{dir, "has no resumable checkpoint: it stopped before the first one was saved", ErrNoResumeCheckpoint}
	}
	return &noResumeError{dir, "is not a run folder (it has no config.json): there is nothing to resume", ErrNotRunFolder}
}

// sameConfig names every field in which config.json (file) differs from the
// config the run was started with, which its resumable checkpoint holds.
func sameConfig(file, started config.Run) error {
	var diffs []error
	walkDiff(jsonTree(file.JSON()), jsonTree(started.JSON()), "", func(key, now, was string) {
		diffs = append(diffs, fmt.Errorf("config.json's %s is %s but the run was started with %s; resume runs what was started", key, now, was))
	})
	return errors.Join(diffs...)
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
