// Lexicon: the semantic frames and word lists the corpus is generated from,
// read from the readable text files under data/lexicon/ (format described in
// data/lexicon/README.txt) and embedded into the binary.

package data

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sync"
)

//go:embed lexicon
var embeddedFiles embed.FS

// Role says which participant of a frame a noun or predicate belongs to.
type Role int

const (
	// Agent is the subject of the frame's active verb ("the dog" in "the dog ate").
	Agent Role = iota
	// Object is the object of the frame's active verb ("the food").
	Object
)

func (r Role) String() string {
	if r == Agent {
		return "agent"
	}
	return "object"
}

// Frame is one verb with its participants and the predicates that can only
// describe one of them. Phrases of several words are stored as one string
// with single spaces ("could not lift", "too big").
type Frame struct {
	Name             string // file name without .txt
	File             string // path inside the lexicon, for error messages
	Active           string // active verb phrase, e.g. "ate"
	Passive          string // passive verb phrase ending in "by", or "" if none
	Adverbs          []string
	Agents, Objects  []string
	AgentPredicates  []string
	ObjectPredicates []string
	lines            map[string]int // key -> line, to name lines in later checks
}

// Predicates returns the predicates that make "it" refer to the given role.
func (f *Frame) Predicates(r Role) []string {
	if r == Agent {
		return f.AgentPredicates
	}
	return f.ObjectPredicates
}

// Lexicon is the whole set of frames plus the mass nouns ("the food", never "a food").
type Lexicon struct {
	Frames []Frame // sorted by name
	mass   map[string]bool
	nouns  map[string]bool
}

// LexiconError names the lexicon file and line (0 when the problem is the
// whole file) that made loading fail.
type LexiconError struct {
	File string
	Line int
	Msg  string
}

func (e *LexiconError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("lexicon %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("lexicon %s:%d: %s", e.File, e.Line, e.Msg)
}

func lexErr(file string, line int, format string, args ...any) error {
	return &LexiconError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// DefaultLexicon loads the lexicon embedded in the package. Each call returns
// a fresh copy that the caller may modify.
func DefaultLexicon() (*Lexicon, error) {
	sub, err := fs.Sub(embeddedFiles, "lexicon")
	if err != nil {
		return nil, fmt.Errorf("embedded lexicon: %w", err)
	}
	return LoadLexicon(sub)
}

// sharedLexicon backs IsNoun, which must not reload the files on every call.
var sharedLexicon = sync.OnceValues(DefaultLexicon)

// LoadLexicon reads frames/*.txt and mass.txt from fsys and checks them.
func LoadLexicon(fsys fs.FS) (*Lexicon, error) {
	files, err := fs.Glob(fsys, "frames/*.txt")
	if err != nil || len(files) == 0 {
		return nil, lexErr("frames/*.txt", 0, "no frame files found")
	}
	slices.Sort(files)
	lex := &Lexicon{nouns: map[string]bool{}}
	for _, file := range files {
		f, err := loadFrame(fsys, file)
		if err != nil {
			return nil, err
		}
		lex.Frames = append(lex.Frames, f)
	}
	for _, f := range lex.Frames {
		addAll(lex.nouns, f.Agents, f.Objects)
	}
	if lex.mass, err = loadMass(fsys, "mass.txt", lex.nouns); err != nil {
		return nil, err
	}
	return lex, lex.checkWordClasses()
}

func loadFrame(fsys fs.FS, file string) (Frame, error) {
	text, err := fs.ReadFile(fsys, file)
	if err != nil {
		return Frame{}, lexErr(file, 0, "%v", err)
	}
	return parseFrame(file, string(text))
}

// loadMass reads one noun per line; each must be a noun of some frame, so a
// typo cannot silently leave a mass noun with "a".
func loadMass(fsys fs.FS, file string, nouns map[string]bool) (map[string]bool, error) {
	text, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, lexErr(file, 0, "%v", err)
	}
	mass := map[string]bool{}
	for n, line := range contentLines(string(text)) {
		if !nouns[line] {
			return nil, lexErr(file, n, "%q is not a noun of any frame", line)
		}
		mass[line] = true
	}
	return mass, nil
}

// IsMass reports whether noun never takes "a"/"an".
func (l *Lexicon) IsMass(noun string) bool { return l.mass[noun] }

// IsNoun reports whether word is an agent or object of any frame.
func (l *Lexicon) IsNoun(word string) bool { return l.nouns[word] }

// Frame returns the frame with the given name.
func (l *Lexicon) Frame(name string) (*Frame, bool) {
	for i := range l.Frames {
		if l.Frames[i].Name == name {
			return &l.Frames[i], true
		}
	}
	return nil, false
}

func addAll(set map[string]bool, lists ...[]string) {
	for _, list := range lists {
		for _, w := range list {
			set[w] = true
		}
	}
}

func frameName(file string) string {
	base := path.Base(file)
	return base[:len(base)-len(path.Ext(base))]
}

// MarshalText writes a Role as "agent" or "object" in JSON.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads "agent" or "object".
func (r *Role) UnmarshalText(b []byte) error {
	switch string(b) {
	case "agent":
		*r = Agent
	case "object":
		*r = Object
	default:
		return fmt.Errorf("role %q: want \"agent\" or \"object\"", b)
	}
	return nil
}
