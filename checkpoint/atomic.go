package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// WriteFileAtomic writes data to a temporary file beside path, syncs it and
// renames it over path, so a reader (or a crash) sees the old file or the new
// one, never half of one. The temporary is named .<name>.tmp-<digits>.
//
// A device at path (-out /dev/null to discard a picture) is written in place,
// not replaced: the rename put a regular file where /dev/null was, for every
// program on the machine, when run as root. So is a named pipe that a reader
// holds open; one that nobody reads is replaced, as before, so that writing
// never waits for a reader that does not come. A symbolic link is followed,
// so the file it points to is replaced and the link kept.
func WriteFileAtomic(path string, data []byte) error {
	if st, err := os.Stat(path); err == nil {
		switch {
		case st.IsDir():
			// A folder at path would only fail the rename at the end, with an error
			// that names the temporary ("rename /.tmp.tmp-1 /tmp: file exists").
			return fmt.Errorf("cannot write %s: it is a folder, not a file", path)
		case st.Mode()&os.ModeNamedPipe != 0:
			if done, err := writeToReader(path, data); done {
				return err
			}
		case !st.Mode().IsRegular():
			return writeInPlace(path, os.O_WRONLY, data)
		default:
			if target, err := filepath.EvalSymlinks(path); err == nil {
				path = target
			}
		}
	}
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, "."+filepath.Base(path)+".tmp-")
	if err != nil {
		// The temporary's name ("open /x/.out.png.tmp-4711") means nothing to
		// the user; the folder it was to go in does.
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = fmt.Errorf("in folder %s: %w", dir, pe.Err)
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// writeInPlace writes data into the existing device or pipe at path.
func writeInPlace(path string, flag int, data []byte) error {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// createTemp is os.CreateTemp with mode 0644 instead of 0600: run folders and
// checkpoints are meant to be read by others (a shared model), and the umask
// still applies, so a user who wants private files keeps them private.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file %s* in %s: every name tried exists", prefix, dir)
}

// processStart is when this process began (near enough: package init).
var processStart = time.Now()

// tempName is the form of every temporary WriteFileAtomic makes:
// .<name>.tmp-<digits>, whatever file it is for.
var tempName = regexp.MustCompile(`^\..+\.tmp-[0-9]+$`)

// IsTemp says whether name is of the form WriteFileAtomic gives its
// temporaries, which a process killed mid-write leaves behind.
func IsTemp(name string) bool { return tempName.MatchString(name) }

// RemoveStaleTemps deletes the temporaries WriteFileAtomic left in dir: the
// regular files whose name IsTemp, last written before this process started.
// One rule for every file a command writes (a checkpoint, its weights, a
// config, a log, a run's marker), not a list of names that a new file would
// be missing from.
//
// Why not every match: two processes can be pointed at one folder by
// mistake, and deleting the temporary another live process is about to
// rename would fail its write. A temporary older than this process cannot be
// one this process is writing, and a live writer writes its temporary in one
// go and renames it within seconds, so an older one is an orphan. Anything
// else (other names, folders, links) is left alone.
func RemoveStaleTemps(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTemp(e.Name()) {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(processStart) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// syncDir makes a rename durable across a power cut.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
