package data

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"itformer/wordnet"
)

// embedded lists the files of an embedded lexicon, as go list names them
// ("lexicon/wordnet/pos.txt").
func embedded(t *testing.T) []string {
	t.Helper()
	var files []string
	err := fs.WalkDir(embeddedFiles, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// The native build embeds every served file: the list names real files.
func TestServedFilesAreEmbeddedNatively(t *testing.T) {
	files := embedded(t)
	for _, name := range ServedFiles() {
		if !slices.Contains(files, path.Join("lexicon", name)) {
			t.Errorf("served file %s is not in the native lexicon", name)
		}
	}
}

// The browser build's go:embed lines (embed_js.go) embed exactly the native
// build's files but the served ones: a file added to the lexicon and missing
// from those lines, or a served file embedded after all, fails here. The go
// command says what the js build embeds.
func TestBrowserEmbedLeavesOutExactlyTheServedFiles(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the browser build's embedded files")
	}
	cmd := exec.Command(goCmd, "list", "-f", `{{join .EmbedFiles "\n"}}`, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list: %v", err)
	}
	got := strings.Fields(string(out))
	slices.Sort(got)
	var want []string
	for _, f := range embedded(t) {
		if !slices.Contains(ServedFiles(), strings.TrimPrefix(f, "lexicon/")) {
			want = append(want, f)
		}
	}
	for _, f := range got {
		if !slices.Contains(want, f) {
			t.Errorf("the browser build embeds %s, which is served beside it (data.ServedFiles) or not in the native build", f)
		}
	}
	for _, f := range want {
		if !slices.Contains(got, f) {
			t.Errorf("the browser build does not embed %s: add it to embed_js.go's go:embed lines", f)
		}
	}
}

// The browser module's lexicon, tried natively: before a supply the table
// fails naming the file; a supply that lacks a file is refused naming it;
// supplied, the table reads as the embedded one; and a supply after a served
// file was asked for is refused, since the table read then is kept.
func TestServedOverlay(t *testing.T) {
	src := &servedSource{}
	lex := servedOverlay{embeddedLexicon(), src}
	if _, err := LoadPartsOfSpeech(lex); err == nil || !strings.Contains(err.Error(), "wordnet/pos.txt") || !strings.Contains(err.Error(), "not supplied") {
		t.Errorf("nothing supplied: %v, want an error naming wordnet/pos.txt", err)
	}
	if err := src.supply(servedMap(t)); err == nil || !strings.Contains(err.Error(), "before they were supplied") {
		t.Errorf("supplied after a read: %v, want a refusal", err)
	}

	src = &servedSource{}
	lex = servedOverlay{embeddedLexicon(), src}
	partial := servedMap(t)
	delete(partial, "wordnet/exceptions.txt")
	if err := src.supply(partial); err == nil || !strings.Contains(err.Error(), "lacks wordnet/exceptions.txt") {
		t.Errorf("supplied without exceptions.txt: %v, want a refusal naming it", err)
	}
	if err := src.supply(servedMap(t)); err != nil {
		t.Fatal(err)
	}
	pos, err := LoadPartsOfSpeech(lex)
	if err != nil {
		t.Fatal(err)
	}
	if !pos.Has(wordnet.Noun, "dog") || !slices.Equal(pos.Exceptions(wordnet.Verb, "ate"), []string{"eat"}) {
		t.Error("the supplied table lacks dog as a noun or ate as a form of eat")
	}
	if _, err := LoadLexicon(lex); err != nil {
		t.Errorf("the lexicon over the overlay: %v", err)
	}
}

// servedMap holds the served files as the native build embeds them.
func servedMap(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range ServedFiles() {
		raw, err := ReadServed(name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: raw}
	}
	return m
}

// ReadServed reads the served files alone; a native build, which embeds
// them, refuses a supply.
func TestReadServedAndSupplyNatively(t *testing.T) {
	for _, name := range ServedFiles() {
		raw, err := ReadServed(name)
		want, _ := fs.ReadFile(embeddedFiles, path.Join("lexicon", name))
		if err != nil || len(raw) == 0 || !bytes.Equal(raw, want) {
			t.Errorf("ReadServed(%s): %d bytes, %v", name, len(raw), err)
		}
	}
	if _, err := ReadServed("wordnet/relatives.txt"); err == nil || !strings.Contains(err.Error(), "not a served file") {
		t.Errorf("ReadServed of an embedded file: %v, want a refusal", err)
	}
	if err := SupplyServed(servedMap(t)); err == nil || !strings.Contains(err.Error(), "embeds the served") {
		t.Errorf("SupplyServed natively: %v, want a refusal", err)
	}
}
