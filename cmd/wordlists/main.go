// Command wordlists writes the word lists derived from WordNet 3.0 into
// data/lexicon/wordnet/, where they are committed, so that training, the
// commands and the browser site never need WordNet installed:
//
//	go run ./cmd/wordlists            # reads $WNSEARCHDIR or /usr/share/wordnet (Debian: apt-get install wordnet-base)
//	go run ./cmd/wordlists -wordnet DIR -out DIR
//
// It writes LICENSE.txt (WordNet's licence, from the database's own
// files), pos.txt and exceptions.txt (which words can be nouns, read
// through their lemmas: package data chooses candidates with them),
// nouns/<class>.txt (common nouns proposed for the lexicon's noun lists)
// and predicates.txt (adjectives proposed beside each pole word of
// properties.txt). Its output depends on the database and the lexicon only:
// the same inputs give the same bytes, and a test regenerates them and
// fails where they differ (data/lexicon/wordnet/README.txt).
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/config"
	"itformer/data"
	"itformer/wordnet"
)

func main() {
	cli.Exit("wordlists", run(os.Args[1:], cli.Stdout))
}

// DefaultOut is where the lists are committed, from the repository's root.
const DefaultOut = "data/lexicon/wordnet"

func run(args []string, stdout io.Writer) error {
	fs := cli.NewFlagSet("wordlists", "wordlists [-wordnet DIR] [-out DIR]")
	dir := fs.String("wordnet", wordnet.DefaultDir(), "WordNet 3.0's database `folder` (index.noun, data.noun, ...)")
	out := fs.String("out", DefaultOut, "write the lists into this `folder`")
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil {
		return err
	}
	if err := fs.OutputDir("out", *out); err != nil { // before WordNet is read: 10 s and 230 MB
		return err
	}
	files, summary, err := generate(*dir)
	if err != nil {
		return err
	}
	if err := writeFiles(*out, files); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d files to %s\n%s", len(files), *out, summary)
	return nil
}

// generate reads the database in dir and the embedded lexicon and returns
// every file, by its path under the output folder, and a summary of counts.
func generate(dir string) (map[string]string, string, error) {
	if _, err := os.Stat(filepath.Join(dir, "index.noun")); err != nil {
		return nil, "", fmt.Errorf("no WordNet database in %s (%v): install Debian's wordnet-base, or give -wordnet DIR", dir, err)
	}
	db, err := wordnet.OpenWith(dir, openRegular)
	if err != nil {
		return nil, "", err
	}
	return generateFrom(db)
}

// maxWordNetFile bounds each database file; the largest, WordNet 3.0's
// data.noun, is 15 MB.
const maxWordNetFile = 200_000_000

// openRegular opens a database file as the other readers open theirs
// (config.OpenFile): a FIFO or a device is refused by name instead of
// blocking the open or the read.
func openRegular(path string) (io.ReadCloser, error) {
	f, _, err := config.OpenFile(path, maxWordNetFile)
	if err != nil {
		return nil, err // not f: a nil *os.File in an io.ReadCloser is not nil
	}
	return f, nil
}

// generateFrom is generate over a database already read.
func generateFrom(db *wordnet.DB) (map[string]string, string, error) {
	lex, err := data.DefaultLexicon()
	if err != nil {
		return nil, "", err
	}
	words, err := newLexiconWords(lex)
	if err != nil {
		return nil, "", err
	}
	var summary strings.Builder
	files := map[string]string{"LICENSE.txt": license(db)}
	lemmas := tableLemmas(db)
	var n int
	files["pos.txt"], n = posTable(db, lemmas)
	fmt.Fprintf(&summary, "pos.txt: %d lemmas\n", n)
	files["exceptions.txt"], n = exceptionTable(db)
	fmt.Fprintf(&summary, "exceptions.txt: %d forms\n", n)
	for _, c := range classes {
		members, err := c.members(db, words)
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(&summary, "nouns/%s.txt: %d nouns\n", c.name, len(members))
		if len(members) > 0 { // a list with no nouns is an error to the loader, and says nothing
			files["nouns/"+c.name+".txt"] = classFile(c, members)
		}
	}
	exps := predicateExpansions(db, words, lex.Dimensions)
	files["predicates.txt"], n = predicateFile(exps, words)
	fmt.Fprintf(&summary, "predicates.txt: %d adjectives\n", n)
	files["relatives.txt"], n = relativesFile(db, words, exps)
	fmt.Fprintf(&summary, "relatives.txt: %d words\n", n)
	return files, summary.String(), nil
}

// header is the comment every list opens with: where it comes from, how it
// is made, then what it holds, wrapped at 76 columns.
func header(what string) string {
	var b strings.Builder
	paragraphs := []string{"From WordNet 3.0 (Princeton University; the licence is in LICENSE.txt), " +
		"written by `go run ./cmd/wordlists` (README.txt): do not edit by hand.", what}
	for i, p := range paragraphs {
		if i > 0 {
			b.WriteString("#\n")
		}
		line := "#"
		for _, w := range strings.Fields(p) {
			if len(line)+1+len(w) > 76 && line != "#" {
				b.WriteString(line + "\n")
				line = "#"
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// license is LICENSE.txt: the attribution WordNet asks for and its licence,
// as its own files carry it.
func license(db *wordnet.DB) string {
	return "The files in this folder are derived from WordNet 3.0, by the command\n" +
		"`go run ./cmd/wordlists`, from Debian's wordnet-base package.\n\n" +
		"George A. Miller (1995). WordNet: A Lexical Database for English.\n" +
		"Communications of the ACM Vol. 38, No. 11: 39-41.\n" +
		"Christiane Fellbaum (1998, ed.) WordNet: An Electronic Lexical Database.\n" +
		"Cambridge, MA: MIT Press.\n" +
		"Princeton University \"About WordNet.\" WordNet. Princeton University. 2010.\n\n" +
		"WordNet's licence, as the database's files state it:\n\n" + db.License
}

// writeFiles writes files under out, and removes the lists in out that
// files no longer has (a class taken out of the table), so that out holds
// what generate gives and nothing else but README.txt.
func writeFiles(out string, files map[string]string) error {
	old, _ := filepath.Glob(filepath.Join(out, "*", "*.txt"))
	top, _ := filepath.Glob(filepath.Join(out, "*.txt"))
	for _, f := range append(old, top...) {
		rel, _ := filepath.Rel(out, f)
		if _, keep := files[filepath.ToSlash(rel)]; !keep && rel != "README.txt" {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, text := range files {
		path := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// lexiconWords is what the proposals must not repeat: the words the
// lexicon writes, its noun lists, and unknown.txt's words.
type lexiconWords struct {
	words   map[string]bool            // every word a frame or list writes
	lists   map[string]map[string]bool // nouns/<name>.txt -> its nouns
	unknown map[string]bool            // unknown.txt's words
}

func newLexiconWords(lex *data.Lexicon) (lexiconWords, error) {
	l := lexiconWords{words: map[string]bool{}, lists: map[string]map[string]bool{}, unknown: map[string]bool{}}
	for _, w := range lex.Words() {
		l.words[w] = true
	}
	for _, u := range lex.UnknownWords() {
		l.unknown[u.Word] = true
		l.words[u.Word] = true
	}
	lists, err := data.NounLists()
	if err != nil {
		return l, err
	}
	for name, nouns := range lists {
		l.lists[name] = map[string]bool{}
		for _, n := range nouns {
			l.lists[name][n] = true
		}
	}
	return l, nil
}

// listed says whether a proposal for the list name must leave w out: the
// list has it, or the lexicon writes it as anything but a noun.
func (l lexiconWords) listed(name, w string) bool {
	return l.lists[name][w] || (l.words[w] && !data.IsNoun(w))
}
