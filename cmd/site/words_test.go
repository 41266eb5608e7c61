package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"itformer/cmd/internal/site"
	"itformer/data"
)

// The word data holds the served files, as the native build embeds them,
// under the paths the module reads them by, and nothing else.
func TestWordDataHoldsTheServedFiles(t *testing.T) {
	words, err := wordData(wordsBudget)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", site.WordsName, len(words))
	zr, err := zip.NewReader(bytes.NewReader(words), int64(len(words)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, data.ServedFiles()) {
		t.Errorf("%s holds %q, want %q", site.WordsName, names, data.ServedFiles())
	}
	for _, name := range data.ServedFiles() {
		got, err := fs.ReadFile(zr, name)
		want, _ := data.ReadServed(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s's %s: %d bytes, %v; want the embedded %d", site.WordsName, name, len(got), err, len(want))
		}
	}
	again, _ := wordData(wordsBudget)
	if !bytes.Equal(again, words) {
		t.Error("two builds of the word data differ")
	}
}

// Word data over its budget is refused, naming the file and both sizes.
func TestWordDataOverBudgetRefused(t *testing.T) {
	words, _ := wordData(wordsBudget)
	limit := len(words) - 1
	_, err := wordData(limit)
	want := fmt.Sprintf("%s is %d bytes compressed, over its budget of %d bytes", site.WordsName, len(words), limit)
	if err == nil || err.Error() != want {
		t.Errorf("wordData(%d) = %v, want %q", limit, err, want)
	}
}
