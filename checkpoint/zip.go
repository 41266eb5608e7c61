package checkpoint

// A checkpoint as one file: a zip archive holding checkpoint.json and the
// weights file it names, side by side at the archive's root. The browser
// site downloads a model trained in the tab so, and `infer -run model.zip`
// (Load) reads it back; the checks are LoadFS's, on the archive's files.

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"itformer/config"
)

// ZipExt is how a zipped checkpoint's file name ends; Load opens such a path
// as an archive.
const ZipExt = ".zip"

// maxZipSize bounds a zipped checkpoint (with the memory limit: zipLimit);
// LoadFS bounds each file inside by the sizes its checkpoint.json gives.
const maxZipSize = 4 << 30

// WriteZip writes the checkpoint in fsys (checkpoint.json at its root and the
// weights file it names) to w as a zip archive.
func WriteZip(w io.Writer, fsys fs.FS) error {
	raw, err := config.ReadFileFS(fsys, FileName, config.MaxJSONSize)
	if err != nil {
		return err
	}
	var meta Meta
	if err := config.Unmarshal(raw, &meta); err != nil {
		return fmt.Errorf("%s: %w", FileName, err)
	}
	if !weightsName.MatchString(meta.Weights) {
		return fmt.Errorf("%s names weights %q, not a weights file", FileName, meta.Weights)
	}
	weights, err := config.ReadFileFS(fsys, meta.Weights, weightsLimit(meta))
	if err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	z := zip.NewWriter(w)
	for _, f := range []struct {
		name string
		data []byte
	}{{FileName, raw}, {meta.Weights, weights}} {
		fw, err := z.Create(f.name)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	return z.Close()
}

// LoadZip reads and verifies a zipped checkpoint held in memory.
func LoadZip(archive []byte, opts ...Option) (*Checkpoint, error) {
	z, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, fmt.Errorf("not a zipped checkpoint: %w", err)
	}
	return LoadFS(z, FileName, opts...)
}

// loadZipFile reads the zipped checkpoint at path: a regular file (not a
// FIFO, which would block, or a device such as /dev/zero, which never ends)
// no larger than maxZipSize and the memory limit, read through its zip
// directory rather than whole.
func loadZipFile(path string, opts ...Option) (*Checkpoint, error) {
	f, size, err := config.OpenFile(path, zipLimit(resolve(opts)))
	if err != nil {
		return nil, err // it names path
	}
	defer f.Close()
	z, err := zip.NewReader(f, size)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: not a zipped checkpoint: %w", path, err)
	}
	ck, err := LoadFS(z, FileName, opts...)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return ck, nil
}

// zipLimit is the largest zipped checkpoint Load opens: maxZipSize, or the
// memory limit if lower, as a model whose files are larger than the memory it
// may use cannot fit in it.
func zipLimit(o options) int64 {
	return min(maxZipSize, int64(o.maxMemory))
}

func isZipPath(path string) bool { return strings.HasSuffix(strings.ToLower(path), ZipExt) }
