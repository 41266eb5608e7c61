package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/data"
	"itformer/wordnet"
)

// committed is the folder the lists are committed in, from this package.
var committed = filepath.Join("..", "..", filepath.FromSlash(DefaultOut))

// needWordNet skips the test without WordNet, or fails it under CI, whose
// .ci/run installs it.
func needWordNet(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(wordnet.DefaultDir(), "index.noun")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no WordNet in %s; .ci/run should have installed it (apt-get install -y wordnet-base)", wordnet.DefaultDir())
		}
		t.Skipf("no WordNet in %s (apt-get install wordnet-base): the committed lists are not checked", wordnet.DefaultDir())
	}
}

var installed = sync.OnceValues(func() (*wordnet.DB, error) { return wordnet.Open(wordnet.DefaultDir()) })

// The committed lists are what the command writes from WordNet and the
// lexicon as they are: a change to either, or to the command, must be
// followed by `go run ./cmd/wordlists` and a commit of what it wrote.
func TestCommittedListsAreRegenerated(t *testing.T) {
	needWordNet(t)
	db, err := installed()
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := generateFrom(db)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	err = filepath.WalkDir(committed, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(committed, path)
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(files) {
		got, err := os.ReadFile(filepath.Join(committed, filepath.FromSlash(name)))
		switch {
		case err != nil:
			t.Errorf("%s/%s: %v; run go run ./cmd/wordlists and commit what it writes", DefaultOut, name, err)
		case !bytes.Equal(got, []byte(files[name])):
			t.Errorf("%s/%s differs from what go run ./cmd/wordlists writes now (%s); run it and commit what it writes",
				DefaultOut, name, firstDifference(string(got), files[name]))
		}
	}
	for _, name := range onDisk {
		if _, ok := files[name]; !ok && name != "README.txt" {
			t.Errorf("%s/%s is not written by go run ./cmd/wordlists: remove it", DefaultOut, name)
		}
	}
}

// firstDifference names the first line where two texts differ.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: committed %q, now %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("committed %d lines, now %d", len(la), len(lb))
}

// The committed table reads every word as the whole database does, for
// choosing candidates: every lemma WordNet lists, every irregular form, and
// their regular inflections. It leaves out the nouns no tagged text uses
// and nothing else spells, which read as unlisted instead of common nouns:
// both may be nouns anywhere.
func TestCommittedTableReadsWordsAsWordNetDoes(t *testing.T) {
	needWordNet(t)
	db, err := installed()
	if err != nil {
		t.Fatal(err)
	}
	table, err := data.DefaultPartsOfSpeech()
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]bool{}
	for _, p := range wordnet.All {
		for _, l := range db.IndexLemmas(p) {
			if plainWord.MatchString(l) {
				for _, suffix := range []string{"", "s", "es", "ed", "ing", "er", "est"} {
					words[l+suffix] = true
				}
			}
		}
		for form := range db.ExceptionList(p) {
			words[form] = plainWord.MatchString(form)
		}
	}
	wrong := 0
	for w, ok := range words {
		if !ok {
			continue
		}
		got, want := wordnet.Analyze(w, table).Reading, wordnet.Analyze(w, db).Reading
		if got == wordnet.Unlisted {
			got = wordnet.CommonNoun
		}
		if got != want && !(want == wordnet.Unlisted && got == wordnet.CommonNoun) {
			if wrong++; wrong <= 10 {
				t.Errorf("%q reads as %v over the committed table, as %v over WordNet", w, got, want)
			}
		}
	}
	if wrong > 10 {
		t.Errorf("and %d more", wrong-10)
	}
	t.Logf("%d words read alike", len(words))
}

// Without a database the command says where it looked and what to install.
func TestNoWordNetIsExplained(t *testing.T) {
	dir := t.TempDir()
	err := run([]string{"-wordnet", dir, "-out", filepath.Join(dir, "out")}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "no WordNet database in "+dir) || !strings.Contains(err.Error(), "wordnet-base") {
		t.Errorf("got %v", err)
	}
}

// -out is checked before WordNet is read (10 s, 230 MB): a file there had
// been refused only then, "mkdir ...: not a directory", naming no flag. The
// -wordnet without a database would fail first if it were not.
func TestOutIsAFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "zeros.json")
	if err := os.WriteFile(file, []byte("0"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{file, "-out " + file + ": it is not a folder"},
		{filepath.Join(file, "lists"), "-out " + filepath.Join(file, "lists") + ": " + file + " is not a folder"},
		{"/dev/full", "-out /dev/full: it is not a folder"},
		{"", `-out "": the value is empty`},
	} {
		err := run([]string{"-wordnet", dir, "-out", tc.out}, &bytes.Buffer{})
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-out %q: %v, want a usage mistake saying %q", tc.out, err, tc.want)
		}
	}
}

// writeFiles leaves the folder holding what it was given and README.txt.
func TestWriteFilesRemovesStaleLists(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"README.txt", "nouns/old.txt", "old.txt"} {
		path := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeFiles(dir, map[string]string{"pos.txt": "a n\n", "nouns/animals.txt": "# x\ndog\n"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if want := []string{"README.txt", "nouns/animals.txt", "pos.txt"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
}
