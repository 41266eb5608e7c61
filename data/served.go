// Lexicon files served beside the browser module instead of embedded in it.
//
// Why: the browser module (cmd/wasm) has 6 MB gzip-compressed for
// everything (docs/site.md), and WordNet's parts of speech, pos.txt and
// exceptions.txt (about 192 kB gzipped), are word data, whose budget is a
// file of its own beside the module. The browser build leaves them out of
// its embed (embed_js.go), the site writes them beside the module
// (cmd/site), and the page fetches them and hands them to the module,
// which supplies them here (SupplyServed) before its first answer. Native
// builds embed them with the rest of the lexicon (embed_other.go).

package data

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
)

// servedNames are the served files, as paths inside the lexicon: the one
// list that the browser embed (checked by a test) and the site builder
// follow.
var servedNames = []string{"wordnet/pos.txt", "wordnet/exceptions.txt"}

// ServedFiles are the lexicon's files, as paths inside it
// ("wordnet/pos.txt"), that the browser module does not embed: a site
// serves them beside the module, and the module is given them through
// SupplyServed.
func ServedFiles() []string { return slices.Clone(servedNames) }

// ReadServed returns the served file name from this build's lexicon:
// natively the embedded one (what a site writes beside the module), in the
// browser module what was supplied.
func ReadServed(name string) ([]byte, error) {
	if !slices.Contains(servedNames, name) {
		return nil, fmt.Errorf("%s is not a served file of the lexicon (data.ServedFiles)", name)
	}
	return fs.ReadFile(lexiconFiles(), name)
}

// SupplyServed gives the browser module the served files, as fsys holds
// them under their paths inside the lexicon (a zip.Reader of the site's
// word data, say). Call it before the first answer: the tables are read
// once, so a supply after a served file was asked for is refused. A
// native build embeds the files and refuses it too.
func SupplyServed(fsys fs.FS) error {
	if embedsServed {
		return errors.New("this build embeds the served lexicon files: there is nothing to supply")
	}
	return supplied.supply(fsys)
}

// errNotSupplied is why a served file cannot be opened in the browser
// module before SupplyServed.
var errNotSupplied = errors.New("not embedded in the browser module, and not supplied: the page must fetch the word data and hand it over (data.SupplyServed) before the first answer")

// supplied is what SupplyServed installed.
var supplied servedSource

// servedSource holds the supplied served files.
type servedSource struct {
	mu    sync.Mutex
	fsys  fs.FS // nil until supplied
	asked bool  // a served file was opened: tables read then keep what they got
}

func (s *servedSource) supply(fsys fs.FS) error {
	for _, name := range servedNames {
		if _, err := fs.Stat(fsys, name); err != nil {
			return fmt.Errorf("the word data supplied lacks %s: %w", name, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asked {
		return errors.New("the served lexicon files were asked for before they were supplied: supply them before the first answer")
	}
	s.fsys = fsys
	return nil
}

func (s *servedSource) open(name string) (fs.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = true
	if s.fsys == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotSupplied}
	}
	return s.fsys.Open(name)
}

// servedOverlay is a lexicon whose served files come from served and
// every other file from base.
type servedOverlay struct {
	base   fs.FS
	served *servedSource
}

func (o servedOverlay) Open(name string) (fs.File, error) {
	if slices.Contains(servedNames, name) {
		return o.served.open(name)
	}
	return o.base.Open(name)
}

// lexiconFiles is the lexicon the package reads: the embedded files, and in
// the browser module the served ones from SupplyServed.
func lexiconFiles() fs.FS {
	if embedsServed {
		return embeddedLexicon()
	}
	return servedOverlay{embeddedLexicon(), &supplied}
}
