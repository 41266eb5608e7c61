package train

// Which folders a run may write into, and what it clears there. A run writes fixed names (config.json,
// epochs.jsonl, history.json, checkpoint.json, metrics.json, resume/) and checkpoint.Save
// deletes the weights file the folder's old checkpoint.json names, so a run
// let loose in someone else's folder would overwrite and delete their files.
// A run therefore writes only into a missing or empty folder, or one that
// holds the marker a run leaves, unless told to overwrite; and even then it
// deletes no file but ones it wrote.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/history"
)

// MarkerName is the file that marks a folder as a run folder this program made.
const MarkerName = ".itformer-run"

// markerMadeBy identifies the marker's maker; the content is fixed, so that
// a committed run folder (the embedded default model) does not change when
// it is regenerated.
const markerMadeBy = "itformer train"

var markerContent = []byte(`{"made_by": "` + markerMadeBy + `", "note": "a training run folder: train -out writes into it again, but over a run it holds only with -overwrite"}` + "\n")

// ErrFolderInUse is returned for a run folder that holds files this program
// did not make.
var ErrFolderInUse = errors.New("refusing to write into a folder this program did not make")

// CheckOutDir says whether a new run may write into dir: yes if it is missing,
// empty or a run folder (it holds the marker); otherwise only with overwrite.
func CheckOutDir(dir string, overwrite bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return checkDangling(dir)
	case err != nil:
		if st, statErr := os.Stat(dir); statErr == nil && !st.IsDir() {
			return fmt.Errorf("run folder %s is a file, not a folder", dir)
		}
		return err
	}
	entries = withoutTemps(entries)
	if len(entries) == 0 || overwrite || isRunFolder(dir) {
		return nil
	}
	return fmt.Errorf("%w: %s holds %s, and no %s marker says a run made it", ErrFolderInUse, dir, listNames(entries), MarkerName)
}

// ResumableCheckpoint names the resumable checkpoint of the stopped run in
// dir, its own or a member's (train.members), or is "" if there is none. A
// finished run has none: it removes resume/ once metrics.json is written.
func ResumableCheckpoint(dir string) string {
	folders := []string{dir}
	members, _ := os.ReadDir(filepath.Join(dir, checkpoint.MembersDir)) // not filepath.Glob: dir may hold a '['
	for _, m := range members {
		folders = append(folders, filepath.Join(dir, checkpoint.MembersDir, m.Name()))
	}
	for _, f := range folders {
		path := filepath.Join(f, checkpoint.ResumeDir, checkpoint.FileName)
		if _, err := os.Stat(path); err == nil {
			return path
		}
	}
	return ""
}

// EarlierRun says, in words for a message, what run dir holds that a new
// run there would delete: a stopped run that can be resumed (resumable: with
// -resume, the epoch it goes on from when its checkpoint says), one with
// members still to train (resumable too), a finished run, or the best
// checkpoint of a run that can be neither; "" for a missing or empty folder
// and for a run stopped before it saved a checkpoint, which hold nothing to lose.
func EarlierRun(dir string) (what string, resumable bool) {
	if path := ResumableCheckpoint(dir); path != "" {
		return "a stopped run that can be resumed" + resumesAt(path) + " (" + path + ")", true
	}
	has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	switch {
	case has("metrics.json") && membersLeft(dir):
		return "a stopped run with members still to train (train.members)", true
	case has("metrics.json"):
		return "a finished run (metrics.json, checkpoint.json and its weights)", false
	case has(checkpoint.FileName):
		return "a run's best checkpoint (checkpoint.json and its weights) but nothing to resume from", false
	}
	return "", false
}

// resumesAt is " at epoch E of N" for the resumable checkpoint at path, or ""
// if it does not say.
func resumesAt(path string) string {
	m, ok := peekMeta(path)
	if !ok || m.Resume == nil || m.Resume.Epoch < 1 {
		return ""
	}
	if n := m.Config.Train.Epochs; m.Resume.Epoch > n { // killed while scoring the best epoch on the test set
		return fmt.Sprintf(" after its last epoch (%d of %d), before its metrics.json", n, n)
	}
	return fmt.Sprintf(" at epoch %d of %d", m.Resume.Epoch, m.Config.Train.Epochs)
}

// checkDangling refuses dir if it is a symbolic link to nothing: it reads
// as missing, but making it fails with "mkdir DIR: file exists".
func checkDangling(dir string) error {
	st, err := os.Lstat(dir)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	target, _ := os.Readlink(dir)
	return fmt.Errorf("run folder %s is a dangling symbolic link (to %s, which does not exist): create that folder, remove the link, or give another folder", dir, target)
}

// withoutTemps drops the temporaries a killed write left (checkpoint.IsTemp):
// a folder holding nothing else is as empty as a run killed while it wrote
// its marker left it, and the run that claims it removes them.
func withoutTemps(entries []os.DirEntry) []os.DirEntry {
	var kept []os.DirEntry
	for _, e := range entries {
		if !e.Type().IsRegular() || !checkpoint.IsTemp(e.Name()) {
			kept = append(kept, e)
		}
	}
	return kept
}

// isRunFolder reports whether dir holds a run's marker.
func isRunFolder(dir string) bool {
	raw, err := config.ReadFile(filepath.Join(dir, MarkerName), config.MaxJSONSize) // a FIFO must not hang us
	if err != nil {
		return false
	}
	var m struct {
		MadeBy string `json:"made_by"`
	}
	return json.Unmarshal(raw, &m) == nil && m.MadeBy == markerMadeBy
}

// listNames names the first few entries, enough to recognise the folder.
func listNames(entries []os.DirEntry) string {
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

// claimFolder makes dir a run folder for a new run: it creates it, locks it
// (lockFolder: the lock is returned, held until it is closed), writes the
// marker, and removes what an earlier run left that would describe another
// model (see clearPreviousRun) and every temporary a killed write left.
func claimFolder(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockFolder(dir)
	if err != nil {
		return nil, err
	}
	if err := claimLocked(dir); err != nil {
		closeLock(lock)
		return nil, err
	}
	return lock, nil
}

// claimLocked is claimFolder's work once the folder is locked.
func claimLocked(dir string) error {
	ours := isRunFolder(dir)
	if err := clearPreviousRun(dir, ours); err != nil {
		return err
	}
	if err := removeTemps(dir); err != nil {
		return err
	}
	if ours {
		return nil
	}
	return checkpoint.WriteFileAtomic(filepath.Join(dir, MarkerName), markerContent)
}

// removeTemps removes the temporaries that writes killed midway left in the
// run folder and in its resume/ (checkpoint.RemoveStaleTemps: one rule for
// every file a run writes).
func removeTemps(dir string) error {
	if err := checkpoint.RemoveStaleTemps(dir); err != nil {
		return err
	}
	err := checkpoint.RemoveStaleTemps(filepath.Join(dir, checkpoint.ResumeDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// closeLock releases a lock from lockFolder (nil where there is none).
func closeLock(lock *os.File) {
	if lock != nil {
		lock.Close()
	}
}

// clearPreviousRun removes an earlier run's metrics.json (a finished run's
// mark), its history.json and its resumable checkpoint, so that neither is taken for the new
// run's. In a folder it did not make, it also removes checkpoint.json, which
// the new run replaces anyway, because checkpoint.Save would delete the
// weights file that one names; the weights files themselves stay.
func clearPreviousRun(dir string, ours bool) error {
	for _, name := range []string{"metrics.json", history.FileName} {
		if err := removeIfExists(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	if err := removeResumeCheckpoint(dir, ours); err != nil {
		return err
	}
	if ours {
		return nil
	}
	return removeIfExists(filepath.Join(dir, checkpoint.FileName))
}

// ownWeights matches the names checkpoint.Save gives weights files.
var ownWeights = regexp.MustCompile(`^weights-[0-9a-f]{12}\.safetensors$`)

// removeResumeCheckpoint removes RUN/resume/checkpoint.json and, if the run
// wrote them (ours), the weights file it names and any temporary files; then
// the folder, if that left it empty.
func removeResumeCheckpoint(dir string, ours bool) error {
	resume := filepath.Join(dir, checkpoint.ResumeDir)
	weights := resumeWeights(resume)
	if err := removeIfExists(filepath.Join(resume, checkpoint.FileName)); err != nil {
		return err
	}
	if !ours {
		return nil
	}
	entries, _ := os.ReadDir(resume)
	for _, e := range entries {
		if e.Name() == weights || (e.Type().IsRegular() && checkpoint.IsTemp(e.Name())) {
			if err := os.Remove(filepath.Join(resume, e.Name())); err != nil {
				return err
			}
		}
	}
	os.Remove(resume) // fails, harmlessly, if other files are left in it
	return nil
}

// resumeWeights is the weights file resume/checkpoint.json names, if any.
func resumeWeights(resume string) string {
	m, ok := peekMeta(filepath.Join(resume, checkpoint.FileName))
	if !ok || !ownWeights.MatchString(m.Weights) {
		return ""
	}
	return m.Weights
}

// peekMeta reads the checkpoint.json at path for what it says of itself,
// without its weights or any check, for messages and clean-up; ok is false
// when it cannot be read or parsed.
func peekMeta(path string) (m checkpoint.Meta, ok bool) {
	raw, err := config.ReadFile(path, config.MaxJSONSize)
	return m, err == nil && json.Unmarshal(raw, &m) == nil
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
