package wordnet

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// installed opens the database Debian's wordnet-base installs. Without it
// the test is skipped, or fails under CI, whose .ci/run installs it.
func installed(t *testing.T) *DB {
	t.Helper()
	if _, err := os.Stat(filepath.Join(DefaultDir(), "index.noun")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no WordNet in %s; .ci/run should have installed it (apt-get install -y wordnet-base)", DefaultDir())
		}
		t.Skipf("no WordNet in %s (apt-get install wordnet-base)", DefaultDir())
	}
	db, err := openOnce()
	if err != nil {
		t.Fatal(err)
	}
	return db
}

var openOnce = sync.OnceValues(func() (*DB, error) { return Open(DefaultDir()) })

// Real entries, as WordNet 3.0 has them.
func TestReadsRealEntries(t *testing.T) {
	db := installed(t)
	dog := db.Index(Noun, "dog")
	if dog == nil || len(dog.Offsets) != 7 || dog.Offsets[0] != 2084071 || dog.Tagged != 1 {
		t.Fatalf("index.noun's dog: %+v, want 7 senses, the first 02084071, 1 tagged", dog)
	}
	s := db.Synset(Noun, dog.Offsets[0])
	var words []string
	for _, w := range s.Words {
		words = append(words, w.Lemma)
	}
	if !slices.Equal(words, []string{"dog", "domestic_dog", "Canis_familiaris"}) || s.LexFile != 5 || !strings.HasPrefix(s.Gloss, "a member of the genus Canis") {
		t.Errorf("synset 02084071: words %q, lex file %d, gloss %q", words, s.LexFile, s.Gloss)
	}
	if hyper := db.Hypernyms(s); len(hyper) == 0 || hyper[0].Words[0].Lemma != "canine" {
		t.Errorf("dog's first hypernym is not canine: %v", hyper)
	}
	animal := db.Synset(Noun, 15388)
	if !db.Under(s, animal) || db.Under(animal, s) {
		t.Error("dog should be under animal, and not animal under dog")
	}
	if n := db.Count("dog", s); n != 42 {
		t.Errorf("dog's first sense has tag count %d, want 42 (cntlist.rev)", n)
	}
	if n := db.TagCount(Verb, "eat"); n != 78 {
		t.Errorf("eat as a verb has tag count %d, want 78", n)
	}
	if !strings.Contains(db.License, "WordNet 3.0 Copyright 2006 by Princeton University") {
		t.Errorf("licence not read: %q", db.License)
	}
}

// Adjective satellites: similar-to leads to their head, antonyms are
// between words, and a satellite's tag count is its own (cntlist.rev names
// satellites of one lemma by their heads only).
func TestAdjectiveClusters(t *testing.T) {
	db := installed(t)
	hungry := db.Senses(Adj, "hungry")[0]
	var satellites []string
	for _, s := range db.Targets(hungry, SimilarTo, "") {
		satellites = append(satellites, s.Words[0].Lemma)
	}
	if !slices.Contains(satellites, "famished") || hungry.Satellite {
		t.Errorf("hungry's cluster: head %v, satellites %v; want famished among them", !hungry.Satellite, satellites)
	}
	big := db.Senses(Adj, "big")[0]
	if ant := db.Antonyms(big, "big"); !slices.Equal(ant, []string{"little"}) {
		t.Errorf("big's antonyms %v, want [little] (an antonym is a word's: large's is small)", ant)
	}
	if n, m := db.TagCount(Adj, "large"), db.TagCount(Adj, "bad"); n != 141 || m != 58 {
		t.Errorf("tag counts large %d, bad %d; want 141 and 58", n, m)
	}
	if !db.PersonName("mary") || db.PersonName("dog") || db.PersonName("paris") {
		t.Error(`"mary" is only a person's name; "dog" and "paris" are not`)
	}
}

// morphy on the real database: inflections are read through their lemma.
func TestLemmasOfRealWords(t *testing.T) {
	checkLemmas(t, installed(t), []lemmaCase{
		{"dogs", Noun, []string{"dog"}},
		{"ate", Verb, []string{"eat"}},
		{"larger", Adj, []string{"larger", "large"}},
		{"anchored", Verb, []string{"anchor"}},
		{"anchored", Noun, nil},
		{"wolves", Noun, []string{"wolf"}},
		{"axes", Noun, []string{"ax", "axis"}},
		{"glasses", Noun, []string{"glasses", "glass"}},
		{"glass", Noun, []string{"glass"}},
	})
}

type lemmaCase struct {
	word string
	pos  POS
	want []string
}

func checkLemmas(t *testing.T, db Lookup, cases []lemmaCase) {
	t.Helper()
	for _, c := range cases {
		if got := Lemmas(c.word, c.pos, db); !slices.Equal(got, c.want) {
			t.Errorf("Lemmas(%q, %s) = %q, want %q", c.word, c.pos, got, c.want)
		}
	}
}

// fake is a database of a few words, to test the rules without WordNet.
type fake struct {
	lemmas map[POS]map[string]int // tag counts
	exc    map[POS]map[string][]string
	names  map[string]bool
}

func (f fake) Has(p POS, l string) bool { _, ok := f.lemmas[p][l]; return ok }

func (f fake) Exceptions(p POS, w string) []string { return f.exc[p][w] }

func (f fake) TagCount(p POS, l string) int { return f.lemmas[p][l] }

func (f fake) PersonName(l string) bool { return f.names[l] }

var small = fake{
	lemmas: map[POS]map[string]int{
		Noun: {"dog": 42, "box": 37, "glass": 39, "bear": 1, "bad": 2, "mary": 2, "ate": 0, "bike": 0, "man": 50},
		Verb: {"dog": 2, "box": 1, "bear": 83, "eat": 78, "anchor": 6, "bike": 0},
		Adj:  {"bad": 58, "large": 141, "away": 1},
		Adv:  {"away": 112},
	},
	exc:   map[POS]map[string][]string{Verb: {"ate": {"eat"}}},
	names: map[string]bool{"mary": true, "ate": true},
}

// The rules of detachment and the exception lists (morphy(7WN)).
func TestLemmasFollowMorphy(t *testing.T) {
	checkLemmas(t, small, []lemmaCase{
		{"dogs", Noun, []string{"dog"}},
		{"boxes", Noun, []string{"box"}},
		{"men", Noun, []string{"man"}},
		{"glass", Noun, []string{"glass"}}, // "ss": not "glas"
		{"ate", Verb, []string{"eat"}},     // the exception list
		{"eats", Verb, []string{"eat"}},
		{"eating", Verb, []string{"eat"}},
		{"anchored", Verb, []string{"anchor"}},
		{"larger", Adj, []string{"large"}},
		{"largest", Adj, []string{"large"}},
		{"aways", Adv, nil}, // no rule for adverbs
	})
}

// Whether a word can be a noun, and why.
func TestAnalyze(t *testing.T) {
	for word, want := range map[string]NounReading{
		"dogs":     CommonNoun, // 42 of 44 uses
		"bike":     CommonNoun, // no tagged use at all: its noun counts
		"bear":     RareNoun,   // 1 of 84
		"bad":      RareNoun,
		"ate":      NotNoun, // Ate, a goddess, is a person's name; eat is a verb
		"anchored": NotNoun,
		"away":     NotNoun,
		"larger":   NotNoun,
		"mary":     PersonName,
		"zorblax":  Unlisted,
	} {
		if got := Analyze(word, small); got.Reading != want {
			t.Errorf("%q reads as %v (%+v), want %v", word, got.Reading, got, want)
		}
	}
}

// A line that breaks the format is refused with its file and line.
func TestParseErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	licence := "  1 This software and database is being provided to you\n"
	for _, c := range []struct {
		file, text, want string
		read             func(string) error
	}{
		{"index.noun", licence + "dog n 1 0 1 0 02084071\ncat n x 0 1 0 02121620\n", ":3: synset_cnt is \"x\", not a number",
			func(f string) error { _, err := readIndex(osOpen, f, Noun); return err }},
		{"index.verb", "dog n 1 0 1 0 02084071\n", ":1: \"dog\" is listed as noun in the index of verb",
			func(f string) error { _, err := readIndex(osOpen, f, Verb); return err }},
		{"index.adj", "big a 2 0 2 0 01382086\n", ":1: the line ends where a synset offset should be",
			func(f string) error { _, err := readIndex(osOpen, f, Adj); return err }},
		{"data.noun", licence + "02084071 05 n 01 dog 0 001 @ 02083346 n 0000 | a dog\n02083346 05 n 01 canine 0 001 @ 0208 x 0000 | x\n",
			":3: a pointer's part of speech is \"x\", not n, v, a, s or r",
			func(f string) error { _, err := readData(osOpen, f, Noun); return err }},
		{"noun.exc", "geese goose\noxen\n", ":2: \"oxen\" gives no base form",
			func(f string) error { _, err := readExceptions(osOpen, f); return err }},
		{"cntlist.rev", "dog%1:05:00:: 1 42\ndog 1 2\n", ":2: sense key \"dog\" is not lemma%ss_type:lex_filenum:lex_id:head_word:head_id",
			func(f string) error { _, err := readCounts(osOpen, f); return err }},
	} {
		file := filepath.Join(dir, c.file)
		if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		err := c.read(file)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != file || err.Error() != file+c.want {
			t.Errorf("%s: got %v, want %s%s", c.file, err, file, c.want)
		}
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Open of a folder with broken files: %v", err)
	}
}

// A real data line, with a satellite, an adjective marker, lexical
// pointers and a verb's frames, reads field by field.
func TestReadsADataLine(t *testing.T) {
	dir := t.TempDir()
	adj := filepath.Join(dir, "data.adj")
	line := "01847865 00 s 01 away(p) 0 002 & 01847673 a 0000 + 13961273 n 0101 | not present; having left\n"
	if err := os.WriteFile(adj, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := readData(osOpen, adj, Adj)
	if err != nil {
		t.Fatal(err)
	}
	s := m[1847865]
	want := []Pointer{{SimilarTo, 1847673, Adj, 0, 0}, {Derivation, 13961273, Noun, 1, 1}}
	if s == nil || !s.Satellite || s.POS != Adj || s.Words[0].Lemma != "away" || !slices.Equal(s.Pointers, want) || s.Gloss != "not present; having left" {
		t.Errorf("read %+v", s)
	}
	verb := filepath.Join(dir, "data.verb")
	line = "01168468 34 v 01 eat 0 001 @ 01157517 v 0000 02 + 08 00 + 11 00 | take in solid food\n"
	if err := os.WriteFile(verb, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := readData(osOpen, verb, Verb); err != nil || m[1168468].Words[0].Lemma != "eat" {
		t.Errorf("a verb's frames: %v, %+v", err, m)
	}
}

// OpenWith reads every file through the Opener it is given, and passes its
// refusal on as it is: a command's opener refuses a FIFO by name, which
// os.Open would block on.
func TestOpenWithReadsThroughTheOpener(t *testing.T) {
	licence := "  1 This software and database is being provided to you\n"
	for _, c := range []struct {
		refuse string // the file the opener refuses, "" for none
		want   string // the error, "" for none
	}{
		{"", ""},
		{"data.adj", "data.adj: a named pipe, not a regular file"},
		{"cntlist.rev", "cntlist.rev: a named pipe, not a regular file"},
	} {
		var opened []string
		open := func(path string) (io.ReadCloser, error) {
			name := filepath.Base(path)
			opened = append(opened, name)
			if name == c.refuse {
				return nil, errors.New(path + ": a named pipe, not a regular file")
			}
			if name == "index.noun" {
				return io.NopCloser(strings.NewReader(licence)), nil
			}
			return io.NopCloser(strings.NewReader("")), nil
		}
		db, err := OpenWith("db", open)
		switch {
		case c.want == "" && (err != nil || db.License == ""):
			t.Errorf("an empty database: %v, licence %q", err, db.License)
		case c.want == "" && len(opened) != 14:
			t.Errorf("opened %d files through the opener (%v), want all 14", len(opened), opened)
		case c.want != "" && (err == nil || err.Error() != filepath.Join("db", c.want)):
			t.Errorf("refusing %s: got %v, want %s", c.refuse, err, filepath.Join("db", c.want))
		}
	}
}
