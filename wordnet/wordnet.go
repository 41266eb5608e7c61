// Package wordnet reads the WordNet 3.0 database in its documented "wndb"
// format (the index.pos and data.pos files, the pos.exc exception lists and
// cntlist.rev's tag counts; see wndb(5WN), morphy(7WN) and cntlist(5WN)),
// and finds a word's lemmas by WordNet's morphy rules. It has one job:
// reading the files that Debian's wordnet-base installs under
// /usr/share/wordnet. Only cmd/wordlists reads the database; package data
// uses Lemmas alone, over the lists that command writes.
package wordnet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// POS is a part of speech, written as WordNet writes it in index files.
type POS byte

// The parts of speech. Adjective satellites (ss_type "s" in data.adj) are
// read as Adj.
const (
	Noun POS = 'n'
	Verb POS = 'v'
	Adj  POS = 'a'
	Adv  POS = 'r'
)

// All is every part of speech, in WordNet's order.
var All = []POS{Noun, Verb, Adj, Adv}

// String is the name WordNet's files use: "noun", "verb", "adj", "adv".
func (p POS) String() string {
	switch p {
	case Noun:
		return "noun"
	case Verb:
		return "verb"
	case Adj:
		return "adj"
	case Adv:
		return "adv"
	}
	return fmt.Sprintf("POS(%q)", byte(p))
}

// ParsePOS reads a part of speech as index and data files write it ("n",
// "v", "a", "s", "r"; "s", an adjective satellite, is Adj).
func ParsePOS(s string) (POS, bool) {
	switch s {
	case "n", "v", "a", "r":
		return POS(s[0]), true
	case "s":
		return Adj, true
	}
	return 0, false
}

// DefaultDir is where WordNet's database is: $WNSEARCHDIR, as WordNet's own
// programs read it, or Debian's /usr/share/wordnet.
func DefaultDir() string {
	if d := os.Getenv("WNSEARCHDIR"); d != "" {
		return d
	}
	return "/usr/share/wordnet"
}

// ParseError is a line of a database file that does not follow the format.
type ParseError struct {
	File string // path of the file
	Line int    // 1-based line number
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// DB is the whole database, read into memory (about 100 MB for WordNet 3.0,
// read in about a second).
type DB struct {
	Dir string
	// License is the licence WordNet's files carry in their first lines
	// (index.noun's), without the line numbers.
	License string
	index   map[POS]map[string]*IndexEntry
	synsets map[POS]map[int]*Synset
	exc     map[POS]map[string][]string
	counts  map[senseID]int
}

// IndexEntry is one line of index.pos: a lemma and its senses.
type IndexEntry struct {
	Lemma string // lower case, words joined by "_"
	POS   POS
	// Offsets are the lemma's synsets, most frequent sense first.
	Offsets []int
	// Tagged is how many of the senses (the first ones) have tag counts.
	Tagged int
}

// Synset is one line of data.pos: a set of synonyms and its pointers.
type Synset struct {
	Offset    int
	POS       POS  // Adj for satellites too
	Satellite bool // an adjective satellite (ss_type "s")
	LexFile   int  // lex_filenum: 18 is noun.person (lexnames(5WN))
	Words     []Word
	Pointers  []Pointer
	Gloss     string
}

// Word is one word of a synset.
type Word struct {
	Lemma string // as written: "Canis_familiaris", "dog", an adjective's marker ("(a)") removed
	LexID int
}

// Pointer is one relation from a synset, or from one of its words, to
// another synset or word.
type Pointer struct {
	Symbol string // "@" hypernym, "&" similar to, "!" antonym, "+" derivation, ...
	Offset int
	POS    POS
	// Source and Target are 1-based word numbers for a lexical pointer (one
	// between words, such as an antonym), 0 for a semantic one (between
	// synsets).
	Source, Target int
}

// Pointer symbols this project follows (wninput(5WN) lists them all).
const (
	Antonym          = "!"
	Hypernym         = "@"
	InstanceHypernym = "@i"
	SimilarTo        = "&"
	Derivation       = "+"
	AlsoSee          = "^"
)

// senseID names one sense as cntlist.rev's sense keys do: lemma, part of
// speech, lexicographer file, lex_id and, for an adjective satellite, its
// head's first word and lex_id ("big:00"); satellites of one lemma differ
// only there.
type senseID struct {
	lemma   string
	pos     POS
	lexFile int
	lexID   int
	head    string
}

// Open reads the database in dir: index.{noun,verb,adj,adv},
// data.{noun,verb,adj,adv}, {noun,verb,adj,adv}.exc and cntlist.rev.
func Open(dir string) (*DB, error) { return OpenWith(dir, osOpen) }

// OpenWith is Open reading each file through open. A command passes one
// that refuses a FIFO or a device by name (config.OpenFile), which os.Open
// would block on, or read without end; this package, below config, cannot
// call it itself.
func OpenWith(dir string, open Opener) (*DB, error) {
	db := &DB{Dir: dir, index: map[POS]map[string]*IndexEntry{}, synsets: map[POS]map[int]*Synset{},
		exc: map[POS]map[string][]string{}, counts: map[senseID]int{}}
	for _, p := range All {
		var err error
		if db.index[p], err = readIndex(open, filepath.Join(dir, "index."+p.String()), p); err != nil {
			return nil, err
		}
		if db.synsets[p], err = readData(open, filepath.Join(dir, "data."+p.String()), p); err != nil {
			return nil, err
		}
		if db.exc[p], err = readExceptions(open, filepath.Join(dir, p.String()+".exc")); err != nil {
			return nil, err
		}
	}
	var err error
	if db.counts, err = readCounts(open, filepath.Join(dir, "cntlist.rev")); err != nil {
		return nil, err
	}
	if db.License, err = readLicense(open, filepath.Join(dir, "index.noun")); err != nil {
		return nil, err
	}
	return db, nil
}

// Index is the index entry of lemma (lower case, "_" between words) as pos,
// or nil.
func (db *DB) Index(pos POS, lemma string) *IndexEntry { return db.index[pos][lemma] }

// Has reports whether lemma is in pos's index (Lookup).
func (db *DB) Has(pos POS, lemma string) bool { return db.index[pos][lemma] != nil }

// Exceptions are the base forms pos.exc gives for an inflected word (Lookup).
func (db *DB) Exceptions(pos POS, word string) []string { return db.exc[pos][word] }

// ExceptionList is every entry of pos.exc: inflected form -> base forms.
func (db *DB) ExceptionList(pos POS) map[string][]string { return db.exc[pos] }

// IndexLemmas is every lemma of pos's index, in no order.
func (db *DB) IndexLemmas(pos POS) []string {
	out := make([]string, 0, len(db.index[pos]))
	for l := range db.index[pos] {
		out = append(out, l)
	}
	return out
}

// Synset is the synset at offset in data.pos, or nil.
func (db *DB) Synset(pos POS, offset int) *Synset { return db.synsets[pos][offset] }

// Senses are lemma's synsets as pos, most frequent first.
func (db *DB) Senses(pos POS, lemma string) []*Synset {
	e := db.Index(pos, lemma)
	if e == nil {
		return nil
	}
	out := make([]*Synset, 0, len(e.Offsets))
	for _, o := range e.Offsets {
		if s := db.Synset(pos, o); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// Count is the tag count of lemma's sense in s: how often the semantic
// concordances tagged that word with that meaning (0 when never).
func (db *DB) Count(lemma string, s *Synset) int {
	for _, w := range s.Words {
		if strings.EqualFold(w.Lemma, lemma) {
			return db.counts[senseID{strings.ToLower(w.Lemma), s.POS, s.LexFile, w.LexID, db.head(s)}]
		}
	}
	return 0
}

// head is how a sense key names a satellite's head: the first word of the
// head synset its similar-to pointer leads to, and that word's lex_id
// ("big:00"); "" for any other synset.
func (db *DB) head(s *Synset) string {
	if !s.Satellite {
		return ""
	}
	for _, h := range db.Targets(s, SimilarTo, "") {
		if !h.Satellite {
			return fmt.Sprintf("%s:%02d", strings.ToLower(h.Words[0].Lemma), h.Words[0].LexID)
		}
	}
	return ""
}

// TagCount is lemma's tag count as pos, summed over its senses.
func (db *DB) TagCount(pos POS, lemma string) int {
	n := 0
	for _, s := range db.Senses(pos, lemma) {
		n += db.Count(lemma, s)
	}
	return n
}

// Targets follows the pointers of s whose symbol is symbol. A lexical
// pointer counts only from the word lemma (give "" to follow every one).
func (db *DB) Targets(s *Synset, symbol, lemma string) []*Synset {
	var out []*Synset
	for _, p := range s.Pointers {
		if p.Symbol != symbol {
			continue
		}
		if p.Source > 0 && lemma != "" && (p.Source > len(s.Words) || !strings.EqualFold(s.Words[p.Source-1].Lemma, lemma)) {
			continue
		}
		if t := db.Synset(p.POS, p.Offset); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// Antonyms are the words lexical antonym pointers lead to from lemma in s.
func (db *DB) Antonyms(s *Synset, lemma string) []string {
	var out []string
	for _, p := range s.Pointers {
		if p.Symbol != Antonym || p.Source == 0 || p.Source > len(s.Words) || !strings.EqualFold(s.Words[p.Source-1].Lemma, lemma) {
			continue
		}
		if t := db.Synset(p.POS, p.Offset); t != nil && p.Target <= len(t.Words) {
			out = append(out, t.Words[p.Target-1].Lemma)
		}
	}
	return out
}

// Hypernyms are the synsets above s: its hypernyms and, for an instance
// ("Paris"), what it is an instance of.
func (db *DB) Hypernyms(s *Synset) []*Synset {
	return append(db.Targets(s, Hypernym, ""), db.Targets(s, InstanceHypernym, "")...)
}

// Under reports whether s is root or lies below it through hypernyms.
func (db *DB) Under(s, root *Synset) bool {
	seen := map[*Synset]bool{}
	var walk func(*Synset) bool
	walk = func(x *Synset) bool {
		if x == root {
			return true
		}
		if seen[x] {
			return false
		}
		seen[x] = true
		for _, h := range db.Hypernyms(x) {
			if walk(h) {
				return true
			}
		}
		return false
	}
	return walk(s)
}

// nounPerson is the lexicographer file of persons' nouns (lexnames(5WN)).
const nounPerson = 18

// PersonName reports whether every noun sense of lemma is a person's name:
// written with a capital in its synset ("Mary"), in the noun.person file.
func (db *DB) PersonName(lemma string) bool {
	senses := db.Senses(Noun, lemma)
	for _, s := range senses {
		if s.LexFile != nounPerson || !capitalised(s, lemma) {
			return false
		}
	}
	return len(senses) > 0
}

// capitalised reports whether s writes lemma with a capital.
func capitalised(s *Synset, lemma string) bool {
	for _, w := range s.Words {
		if strings.EqualFold(w.Lemma, lemma) {
			return w.Lemma != lemma
		}
	}
	return false
}
