package main

// The word data served beside the module: the lexicon's files the browser
// build does not embed (data.ServedFiles), which the page fetches and
// hands to the module (cmd/wasm) before its first answer.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"time"

	"itformer/cmd/internal/site"
	"itformer/data"
)

// wordsBudget is the most the word data served beside the module may
// weigh, in bytes as a browser downloads it: compressed (docs/site.md).
const wordsBudget = 1_000_000

// wordsTime is the archive's time stamp for every file: a fixed one, so
// that the same lists give the same bytes (a zero one is no valid date).
var wordsTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// wordData zips the served files under their paths inside the lexicon,
// which is how the module reads them back (zip.Reader is an fs.FS), and
// refuses an archive over limit bytes. It takes a moment, so it runs before
// the module's build of minutes.
func wordData(limit int) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression) // archive/zip's own level is 5
	})
	for _, name := range data.ServedFiles() {
		raw, err := data.ReadServed(name)
		if err != nil {
			return nil, err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: wordsTime})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(raw); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("zipping %s: %w", site.WordsName, err)
	}
	return buf.Bytes(), withinBudget(site.WordsName, buf.Len(), limit)
}

// withinBudget refuses a file of the site larger than its budget, naming
// the file and both sizes.
func withinBudget(name string, size, limit int) error {
	if size > limit {
		return fmt.Errorf("%s is %d bytes compressed, over its budget of %d bytes", name, size, limit)
	}
	return nil
}
