// Package site is the static site that trains and questions itformer in a
// browser tab: its page and scripts (static/), how they are written into one
// folder beside the WebAssembly module (cmd/wasm, built by cmd/site), and a
// handler that serves such a folder with the module gzip-compressed.
//
// The folder holds:
//
//	index.html, app.js, site.css   the page (app.js answers on the main thread)
//	worker.js, memfs.js            the training worker and its in-memory file system
//	wasm_exec.js                   Go's loader, copied from the toolchain that built the module
//	itformer.wasm                  the module
//	itformer.wasm.gz               the same, gzip-compressed, for servers that send it as is
//	words.zip                      the word lists the module does not embed (data.ServedFiles),
//	                               which the page fetches and hands to it before the first answer
//
// Nothing is fetched from anywhere else, so any static file server can host it.
package site

import (
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed static
var static embed.FS

// Names of the files the builder adds to the static ones.
const (
	WasmName     = "itformer.wasm"
	WasmExecName = "wasm_exec.js"
	GzipExt      = ".gz"
	// WordsName is the word data served beside the module: the lexicon's
	// served files (data.ServedFiles) zipped under their paths inside the
	// lexicon, so that the module reads the archive as an fs.FS with
	// archive/zip, which it links already for checkpoints.
	WordsName = "words.zip"
)

// Write fills dir (created if missing) with the site: the static files, the
// module wasm and its gzip-compressed copy wasmGzip (Gzip's, or a smaller
// one from a stronger gzip encoder), Go's wasm_exec.js and the word data
// words. It overwrites those names only.
func Write(dir string, wasm, wasmGzip, wasmExec, words []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files, err := fs.Sub(static, "static")
	if err != nil {
		return err
	}
	err = fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), raw, 0o644)
	})
	if err != nil {
		return err
	}
	for name, raw := range builtFiles(wasm, wasmGzip, wasmExec, words) {
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}

// CheckFolder refuses, before a build of minutes, a dir that Write could not
// fill or that is another program's: a file, or a folder holding a file the
// site does not have (its index.html, say, would be replaced). A missing or
// empty folder, or a site built before, passes.
func CheckFolder(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("-out %s: %w", dir, err)
	}
	own := ownNames()
	for _, e := range entries {
		if !own[e.Name()] {
			return fmt.Errorf("-out %s holds %s, which is not a file of the site: choose a new or empty folder, or one a site was built into", dir, e.Name())
		}
	}
	return nil
}

// builtFiles names the builder's files, the ones Write writes beside the
// static ones.
func builtFiles(wasm, wasmGzip, wasmExec, words []byte) map[string][]byte {
	return map[string][]byte{WasmName: wasm, WasmName + GzipExt: wasmGzip, WasmExecName: wasmExec, WordsName: words}
}

// ownNames are the names of the files Write writes: the static ones and the
// builder's (builtFiles).
func ownNames() map[string]bool {
	own := map[string]bool{}
	for name := range builtFiles(nil, nil, nil, nil) {
		own[name] = true
	}
	names, _ := fs.Glob(static, "static/*") // the pattern is valid
	for _, n := range names {
		own[filepath.Base(n)] = true
	}
	return own
}

// Gzip compresses raw at the best level: it is done once per build.
func Gzip(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
