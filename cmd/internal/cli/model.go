package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"itformer/checkpoint"
	"itformer/cmd/internal/defaultmodel"
	"itformer/config"
	"itformer/configs"
	"itformer/history"
	"itformer/inference"
)

// LoadModel loads the checkpoint at path (a run folder or its
// checkpoint.json), or the embedded default model when path is empty, with
// the other members of its ensemble if it has some (train.members).
func LoadModel(path string) (*inference.Predictor, error) {
	ck, members, err := loadCheckpoints(path)
	if err != nil {
		return nil, err
	}
	p := inference.New(ck)
	return p, p.SetMembers(members)
}

// LoadMember loads the model at path as LoadModel does and returns its
// member k alone (1 is the first), for figures of one member of an ensemble;
// k 0 returns the whole model. A k the model has no member for is a usage
// mistake of -member (MemberFlag), known only once the model is loaded.
func (f *FlagSet) LoadMember(path string, k int) (*inference.Predictor, error) {
	if k == 1 && path != "" { // member 1 is the run's own checkpoint: it needs no other member, finished or not
		ck, err := loadCheckpoint(path)
		if err != nil {
			return nil, err
		}
		return inference.New(ck), nil
	}
	p, err := LoadModel(path)
	if err != nil || k == 0 {
		return p, err
	}
	if k < 0 || k > p.Members() {
		return nil, f.Mistake("-member %d: the model has %d member(s), 1 to %d (0 asks them all)", k, p.Members(), p.Members())
	}
	return p.Each()[k-1], nil
}

// loadCheckpoints loads member 1 from path and the other members beside it.
func loadCheckpoints(path string) (*checkpoint.Checkpoint, []*checkpoint.Checkpoint, error) {
	if path == "" {
		ck, err := defaultmodel.Load()
		if err != nil {
			return nil, nil, err
		}
		members, err := defaultmodel.Members(ck)
		return ck, members, err
	}
	ck, err := loadCheckpoint(path)
	if err != nil || ck.Meta.Config.Train.MemberCount() == 1 {
		return ck, nil, err
	}
	dir := RunFolder(path)
	members, err := checkpoint.LoadMembers(os.DirFS(dir), ".", ck)
	if errors.Is(err, fs.ErrNotExist) { // a run stopped before its last member finished
		return nil, nil, fmt.Errorf("%s: %w\nthe run has not trained all its members: continue it with go run ./cmd/train -resume %s, or ask member 1 alone (-member 1)", dir, err, dir)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	return ck, members, nil
}

// loadCheckpoint loads the checkpoint at -run path (checkpoint.Load). A path
// that is not there, or a folder without a checkpoint, is named whole: the
// load named the last part alone, "checkpoint runs/nope: open nope: no such
// file or directory".
func loadCheckpoint(path string) (*checkpoint.Checkpoint, error) {
	st, err := statRun(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(path, checkpoint.FileName)); errors.Is(err, fs.ErrNotExist) {
			return nil, missing("-run %s: the folder has no %s (it is not a run folder, or its run stopped before the first epoch ended)", path, checkpoint.FileName)
		}
	}
	return checkpoint.Load(path)
}

// statRun stats a -run path, naming it whole when it is not there (the
// open that follows would name only its last part, or the file inside it).
func statRun(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, missing("-run %s: no such file or folder", path)
	case err != nil: // its message names the whole path: "stat a/file/x: not a directory"
		return nil, fmt.Errorf("-run %s: %w", path, err)
	}
	return st, nil
}

// missingError says what is missing in words; it is fs.ErrNotExist.
type missingError struct{ msg string }

func (e *missingError) Error() string { return e.msg }
func (e *missingError) Unwrap() error { return fs.ErrNotExist }

func missing(format string, args ...any) error {
	return &missingError{fmt.Sprintf(format, args...)}
}

// RunFolder is the run folder path names: path itself, or the folder of
// the checkpoint.json (or zipped checkpoint) it names, as -run accepts both.
func RunFolder(path string) string {
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return filepath.Dir(path)
	}
	return path
}

// RunFile is the path of the run's file name (metrics.json, history.json)
// for a -run of path: a run folder, its checkpoint.json, or that file
// itself. Another file is refused by name, not read as its folder: -run
// /dev/zero had said "open /dev/metrics.json: no such file or directory".
func RunFile(path, name string) (string, error) {
	st, err := statRun(path)
	switch {
	case err != nil:
		return "", err
	case st.IsDir():
		return filepath.Join(path, name), nil
	case filepath.Base(path) == name:
		return path, nil
	case filepath.Base(path) == checkpoint.FileName:
		return filepath.Join(filepath.Dir(path), name), nil
	}
	return "", fmt.Errorf("-run %s: not a run folder, its %s or its %s", path, checkpoint.FileName, name)
}

// LoadConfig reads the run config at path with overrides, or, when path is
// empty, the shipped configs/default.json built into the binary, so that a
// command needs no checkout to find its default.
func LoadConfig(path string, overrides ...string) (config.Run, error) {
	if path == "" {
		return configs.Load(configs.Default, overrides...)
	}
	return config.Load(path, overrides...)
}

// ConfigName is how messages name the config LoadConfig(path) reads.
func ConfigName(path string) string {
	if path == "" {
		return "configs/" + configs.Default + " (built in)"
	}
	return path
}

// LoadHistory reads the history.json (package history) of the run at path (a
// run folder or its checkpoint.json), or the embedded default model's when
// path is empty. An error wrapping fs.ErrNotExist means the run has none.
func LoadHistory(path string) (*history.History, error) {
	if path == "" {
		return defaultmodel.History()
	}
	file, err := RunFile(path, history.FileName)
	if err != nil {
		return nil, err
	}
	return history.Load(file)
}

// ModelName is how messages name the model LoadModel(path) loads.
func ModelName(path string) string {
	if path == "" {
		return "the embedded default model"
	}
	return path
}
