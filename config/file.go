package config

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxJSONSize bounds a config, experiment or checkpoint.json file. The
// largest real one, a checkpoint.json with its vocabulary and run config, is
// under 10 kB; the bound only stops a wrong path (a log, a dataset, a device)
// from being read whole into memory.
const MaxJSONSize = 1_000_000

// ReadFile reads the file at path if it is a regular file of at most limit
// bytes. Anything else is refused by name: /dev/zero never ends, and a FIFO
// blocks its reader forever. The check is made on the opened file (fstat),
// so the path cannot be swapped between the check and the read; the open
// itself does not block on a FIFO (openFlags).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRegular(f, path, limit)
}

// ReadFileFS is ReadFile for a file of fsys (such as the embedded model).
// Whether opening a FIFO blocks depends on fsys; os.DirFS's does.
func ReadFileFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRegular(f, name, limit)
}

// DirFS is os.DirFS(dir) whose Open does not block on a FIFO, for ReadFileFS.
func DirFS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.OpenFile(filepath.Join(string(d), filepath.FromSlash(name)), os.O_RDONLY|openFlags, 0)
	if pe, ok := err.(*fs.PathError); ok {
		pe.Path = name // as os.DirFS does: the name asked for, not the joined path
	}
	if err != nil {
		return nil, err // not f: a nil *os.File in an fs.File is not nil
	}
	return f, nil
}

// OpenFile opens the file at path for reading by parts (a zip archive is
// read through its directory, never whole) if it is a regular file of at
// most limit bytes, and returns it with its size. Anything else is refused
// by name, as ReadFile refuses it, and the open does not block on a FIFO.
func OpenFile(path string, limit int64) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	size, err := checkRegular(f, path, limit)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, size, nil
}

// checkRegular returns the size of f if it is a regular file of at most
// limit bytes, asking the opened file (fstat), not the path.
func checkRegular(f fs.File, name string, limit int64) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s: %s, not a regular file", name, fileKind(st.Mode()))
	}
	if st.Size() > limit {
		return 0, tooLarge(name, limit)
	}
	return st.Size(), nil
}

func readRegular(f fs.File, name string, limit int64) ([]byte, error) {
	if _, err := checkRegular(f, name, limit); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(f, limit+1)) // +1: a file that grew since Stat
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(raw)) > limit {
		return nil, tooLarge(name, limit)
	}
	return raw, nil
}

func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%s: larger than %s, the limit for this file", name, FormatBytes(float64(limit)))
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}
