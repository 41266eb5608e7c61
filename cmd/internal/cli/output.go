package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// OutputFile is a usage mistake naming flag -name when path cannot be the
// file the command writes at its end: empty, in a folder that does not
// exist, or refused by check, the writer's own test of path (for a picture,
// experiment.CheckPicture: not a folder, and a format it draws). A command
// calls it before its work, which can take minutes, so that a mistyped path
// costs nothing.
func (f *FlagSet) OutputFile(name, path string, check func(path string) error) error {
	if path == "" {
		return f.Mistake("-%s \"\": the value is empty; give a file", name)
	}
	err := isFolder(filepath.Dir(path))
	if err == nil {
		err = check(path)
	}
	if err != nil {
		return f.Mistake("-%s %s: %v", name, path, err)
	}
	return nil
}

// OutputDir is a usage mistake naming flag -name when path cannot be the
// folder the command writes into: empty, a file, or under a file, where
// os.MkdirAll would fail only once the work is done.
func (f *FlagSet) OutputDir(name, path string) error {
	if path == "" { // it would write into the current folder
		return f.Mistake("-%s \"\": the value is empty; give a folder", name)
	}
	if err := canBeFolder(path); err != nil {
		return f.Mistake("-%s %s: %v", name, path, err)
	}
	return nil
}

// isFolder says why dir is not an existing folder, or nil if it is one.
func isFolder(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("there is no folder %s to write it in", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}

// canBeFolder says why os.MkdirAll(path) would fail, or nil if path is a
// folder or its nearest existing ancestor is one.
func canBeFolder(path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && !st.IsDir():
		return errors.New("it is not a folder")
	case err == nil:
		return nil
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		switch {
		case err == nil && !st.IsDir():
			return fmt.Errorf("%s is not a folder", dir)
		case err == nil, dir == filepath.Dir(dir): // made below a folder, or nothing left to look at
			return nil
		}
	}
}
