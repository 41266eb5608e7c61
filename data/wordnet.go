// WordNet's word lists, as cmd/wordlists committed them under
// data/lexicon/wordnet/ (README.txt there): the parts of speech that tell
// which words can be nouns, and the nouns and predicates proposed for the
// lexicon. They are embedded (in the browser module pos.txt and
// exceptions.txt are supplied at run time instead, served.go), so nothing
// here needs WordNet installed.

package data

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"

	"itformer/wordnet"
)

// WordNetDir is the lists' folder inside the lexicon.
const WordNetDir = "wordnet"

// PartsOfSpeech is pos.txt and exceptions.txt: every lemma the lists keep,
// with its parts of speech and tag counts, and the irregular forms. It is a
// wordnet.Source, so wordnet.Analyze reads a word over it as over the whole
// database.
type PartsOfSpeech struct {
	counts map[wordnet.POS]map[string]int // part of speech -> lemma -> tag count
	names  map[string]bool                // nouns that are only persons' names
	exc    map[wordnet.POS]map[string][]string
}

// Has reports whether lemma is listed as pos.
func (t *PartsOfSpeech) Has(pos wordnet.POS, lemma string) bool {
	_, ok := t.counts[pos][lemma]
	return ok
}

// Exceptions are the base forms the exception lists give word as pos.
func (t *PartsOfSpeech) Exceptions(pos wordnet.POS, word string) []string { return t.exc[pos][word] }

// TagCount is lemma's tag count as pos.
func (t *PartsOfSpeech) TagCount(pos wordnet.POS, lemma string) int { return t.counts[pos][lemma] }

// PersonName reports whether the noun lemma is only a person's name.
func (t *PartsOfSpeech) PersonName(lemma string) bool { return t.names[lemma] }

// LoadPartsOfSpeech reads wordnet/pos.txt and wordnet/exceptions.txt from a
// lexicon's files.
func LoadPartsOfSpeech(fsys fs.FS) (*PartsOfSpeech, error) {
	t := &PartsOfSpeech{counts: map[wordnet.POS]map[string]int{}, names: map[string]bool{}, exc: map[wordnet.POS]map[string][]string{}}
	for _, p := range wordnet.All {
		t.counts[p], t.exc[p] = map[string]int{}, map[string][]string{}
	}
	file := path.Join(WordNetDir, "pos.txt")
	err := eachListLine(fsys, file, func(n int, f []string) error {
		if len(f) < 2 {
			return lexErr(file, n, "%q lists no part of speech", f[0])
		}
		for _, field := range f[1:] {
			letter, count := field[:1], 0
			if field[1:] != "" {
				var err error
				if count, err = strconv.Atoi(field[1:]); err != nil || count < 0 {
					return lexErr(file, n, "%q: the tag count after %s is not a number", field, letter)
				}
			}
			if letter == "p" {
				letter, t.names[f[0]] = "n", true
			}
			pos, ok := wordnet.ParsePOS(letter)
			if !ok || letter == "s" {
				return lexErr(file, n, "%q is no part of speech (n, p, v, a, r)", field)
			}
			t.counts[pos][f[0]] = count
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	file = path.Join(WordNetDir, "exceptions.txt")
	err = eachListLine(fsys, file, func(n int, f []string) error {
		pos, ok := wordnet.ParsePOS(f[0])
		if !ok || len(f) < 3 {
			return lexErr(file, n, "want a part of speech, a form and its base forms, got %q", strings.Join(f, " "))
		}
		t.exc[pos][f[1]] = f[2:]
		return nil
	})
	return t, err
}

// eachListLine calls f with the fields of every line of file that is not a
// comment or blank, and its 1-based number.
func eachListLine(fsys fs.FS, file string, f func(n int, fields []string) error) error {
	text, err := fs.ReadFile(fsys, file)
	if err != nil {
		return lexErr(file, 0, "%v", err)
	}
	for n, line := range contentLines(string(text)) {
		if err := f(n, strings.Fields(line)); err != nil {
			return err
		}
	}
	return nil
}

// embeddedLexicon is the embedded lexicon's files; the package reads them
// through lexiconFiles, which adds the served ones in the browser module.
func embeddedLexicon() fs.FS {
	sub, err := fs.Sub(embeddedFiles, "lexicon")
	if err != nil {
		panic(err) // "lexicon" is a valid path: fs.Sub cannot fail
	}
	return sub
}

// DefaultPartsOfSpeech is the embedded table (in the browser module the
// supplied one: SupplyServed), read once.
var DefaultPartsOfSpeech = sync.OnceValues(func() (*PartsOfSpeech, error) {
	return LoadPartsOfSpeech(lexiconFiles())
})

// ReadWord reads a word (lower case, as Tokenize gives it) through its
// lemmas in WordNet's parts of speech: whether it can be a noun
// ("dogs": a common noun, through dog; "anchored": not a noun, through the
// verb anchor; "mary": a person's name). A word the table cannot tell
// (the table failing to load, which a test rules out) reads as
// wordnet.Unlisted: it may be a noun, as before the table.
func ReadWord(word string) wordnet.Analysis {
	t, err := DefaultPartsOfSpeech()
	if err != nil {
		return wordnet.Analysis{}
	}
	return wordnet.Analyze(word, t)
}

// WordNetNounLists are the nouns proposed for the lexicon's noun lists,
// wordnet/nouns/NAME.txt by NAME. No frame uses them.
func WordNetNounLists() (map[string][]string, error) {
	return nounListsIn(lexiconFiles(), path.Join(WordNetDir, "nouns"))
}

// nounListsIn reads every dir/NAME.txt of fsys as a noun list, by NAME.
func nounListsIn(fsys fs.FS, dir string) (map[string][]string, error) {
	files, err := fs.Glob(fsys, dir+"/*.txt")
	if err != nil {
		return nil, err
	}
	lists := map[string][]string{}
	for _, f := range files {
		text, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(path.Base(f), ".txt")
		if lists[name], err = parseNounList(f, string(text)); err != nil {
			return nil, err
		}
	}
	return lists, nil
}

// PredicateProposal is one pole word's proposed adjectives, a line of
// wordnet/predicates.txt ("hunger + hungry: famished, ravenous").
type PredicateProposal struct {
	Dimension string
	Sign      int    // +1 or -1: the pole
	Pole      string // the word of properties.txt
	Words     []string
}

// WordNetPredicates reads the predicates proposed beside the pole words of
// properties.txt. No frame uses them.
func WordNetPredicates() ([]PredicateProposal, error) {
	return loadPredicateProposals(lexiconFiles(), path.Join(WordNetDir, "predicates.txt"))
}

func loadPredicateProposals(fsys fs.FS, file string) ([]PredicateProposal, error) {
	var out []PredicateProposal
	err := eachListLine(fsys, file, func(n int, f []string) error {
		sign := map[string]int{"+": 1, "-": -1}
		if len(f) < 3 || sign[f[1]] == 0 || !strings.HasSuffix(f[2], ":") {
			return lexErr(file, n, `want "dimension + word: adjectives", got %q`, strings.Join(f, " "))
		}
		p := PredicateProposal{Dimension: f[0], Sign: sign[f[1]], Pole: strings.TrimSuffix(f[2], ":")}
		for _, w := range f[3:] {
			p.Words = append(p.Words, strings.TrimSuffix(w, ","))
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// String is the line as predicates.txt writes it.
func (p PredicateProposal) String() string {
	return fmt.Sprintf("%s %s %s: %s", p.Dimension, map[int]string{1: "+", -1: "-"}[p.Sign], p.Pole, strings.Join(p.Words, ", "))
}
