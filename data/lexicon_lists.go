// Lexicon lists: the shared files frames refer to (nouns/NAME.txt and
// places/NAME.txt, as @NAME) and the word files of the whole lexicon
// (properties.txt, attributes.txt, unknown.txt). Every such file must open with a comment
// that says why its words belong together.

package data

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
)

// listCache loads each shared list once, however many frames refer to it.
type listCache struct {
	fsys       fs.FS
	nounLists  map[string][]string
	placeLists map[string][]Place
}

func newListCache(fsys fs.FS) *listCache {
	return &listCache{fsys: fsys, nounLists: map[string][]string{}, placeLists: map[string][]Place{}}
}

// nouns returns nouns/NAME.txt; errors on a bad name or missing file name
// the frame line that referred to it.
func (c *listCache) nouns(name, file string, line int) ([]string, error) {
	if l, ok := c.nounLists[name]; ok {
		return l, nil
	}
	text, err := c.read("nouns", name, file, line)
	if err != nil {
		return nil, err
	}
	l, err := parseNounList("nouns/"+name+".txt", text)
	c.nounLists[name] = l
	return l, err
}

// places returns places/NAME.txt as (preposition, noun) pairs.
func (c *listCache) places(name, file string, line int) ([]Place, error) {
	if l, ok := c.placeLists[name]; ok {
		return l, nil
	}
	text, err := c.read("places", name, file, line)
	if err != nil {
		return nil, err
	}
	l, err := parsePlaceList("places/"+name+".txt", text)
	c.placeLists[name] = l
	return l, err
}

func (c *listCache) read(dir, name, file string, line int) (string, error) {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return (r < 'a' || r > 'z') && r != '_' }) {
		return "", lexErr(file, line, "@%s: list names are lower-case letters and _", name)
	}
	text, err := fs.ReadFile(c.fsys, dir+"/"+name+".txt")
	if err != nil {
		return "", lexErr(file, line, "@%s: no file %s/%s.txt", name, dir, name)
	}
	return string(text), nil
}

// requireComment makes sure a list says why its words are there before it
// lists them: a word list without a reason cannot be checked by a reader.
func requireComment(file, text string) error {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") && len(strings.Fields(line)) > 3 {
			return nil
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			break
		}
	}
	return lexErr(file, 0, "must open with a # comment that says why its words fit")
}

// parseNounList reads single words separated by commas or line breaks.
func parseNounList(file, text string) ([]string, error) {
	if err := requireComment(file, text); err != nil {
		return nil, err
	}
	var out []string
	for n, line := range contentLines(text) {
		items, err := splitItems(file, n, strings.TrimSuffix(line, ","))
		if err != nil {
			return nil, err
		}
		for _, w := range items {
			if err := checkNoun(file, n, w, out); err != nil {
				return nil, err
			}
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return nil, lexErr(file, 0, "lists no nouns")
	}
	return out, nil
}

func checkNoun(file string, n int, w string, have []string) error {
	switch {
	case strings.Contains(w, " ") || strings.HasPrefix(w, "@"):
		return lexErr(file, n, "noun %q must be a single word", w)
	case slices.Contains(templateWords, w):
		return lexErr(file, n, "noun %q is a word the sentence shapes use", w)
	case slices.Contains(have, w):
		return lexErr(file, n, "%q listed twice", w)
	}
	return nil
}

// parsePlaceList reads "preposition: noun, noun" lines.
func parsePlaceList(file, text string) ([]Place, error) {
	if err := requireComment(file, text); err != nil {
		return nil, err
	}
	var out []Place
	for n, line := range contentLines(text) {
		prep, value, ok := strings.Cut(line, ":")
		prepWords, err := splitItems(file, n, prep)
		if !ok || err != nil || len(prepWords) != 1 || strings.HasPrefix(prepWords[0], "@") {
			return nil, lexErr(file, n, "expected \"preposition: nouns\", got %q", line)
		}
		items, err := splitItems(file, n, value)
		if err != nil {
			return nil, err
		}
		for _, w := range items {
			if err := checkNoun(file, n, w, nil); err != nil {
				return nil, err
			}
			p := Place{prepWords[0], w}
			if slices.Contains(out, p) {
				return nil, lexErr(file, n, "%q listed twice", prepWords[0]+" "+w)
			}
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, lexErr(file, 0, "lists no places")
	}
	return out, nil
}

// readOptional returns the file's text, or "" if it does not exist.
func readOptional(fsys fs.FS, file string) (string, bool, error) {
	text, err := fs.ReadFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, lexErr(file, 0, "%v", err)
	}
	return string(text), true, requireComment(file, string(text))
}

// wordLines yields (line, word, values) for "word: phrase, phrase" lines.
func wordLines(file, text string, yield func(n int, word string, values []string) error) error {
	for n, line := range contentLines(text) {
		key, value, ok := strings.Cut(line, ":")
		word := strings.TrimSpace(key)
		if !ok || checkWord(word) != "" || word == "" {
			return lexErr(file, n, "expected \"word: words\", got %q", line)
		}
		values, err := splitItems(file, n, value)
		if err != nil {
			return err
		}
		if err := yield(n, word, values); err != nil {
			return err
		}
	}
	return nil
}

// loadProperties reads "dimension: + words | - words" lines (required).
func loadProperties(fsys fs.FS, file string) ([]Dimension, error) {
	text, found, err := readOptional(fsys, file)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, lexErr(file, 0, "missing: the frames' dimensions are defined there")
	}
	return parseDimensions(file, text, nil)
}

// loadDeeds reads acts.txt or deeds.txt (optional), in properties.txt's
// format: deeds of a third noun done to "it" ("aid: helped | attacked,
// chased") or deeds of "it" itself ("evasion: hid, fled |"); mark sets
// which. A name defined already is refused.
func loadDeeds(fsys fs.FS, file string, defined []Dimension, mark func(*Dimension)) ([]Dimension, error) {
	text, found, err := readOptional(fsys, file)
	if err != nil || !found {
		return nil, err
	}
	deeds, err := parseDimensions(file, text, defined)
	for i := range deeds {
		mark(&deeds[i])
	}
	return deeds, err
}

// parseDimensions reads one dimension a line, refusing a name defined
// twice, in the file or among defined.
func parseDimensions(file, text string, defined []Dimension) ([]Dimension, error) {
	var out []Dimension
	for n, line := range contentLines(text) {
		d, err := parseDimension(file, n, line)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(slices.Concat(defined, out), func(o Dimension) bool { return o.Name == d.Name }) {
			return nil, lexErr(file, n, "dimension %q defined twice", d.Name)
		}
		out = append(out, d)
	}
	return out, nil
}

// parseDimension reads one "hunger: hungry, starving | full" line.
func parseDimension(file string, n int, line string) (Dimension, error) {
	name, value, ok := strings.Cut(line, ":")
	name = strings.TrimSpace(name)
	plus, minus, bar := strings.Cut(value, "|")
	if !ok || !bar || checkWord(name) != "" {
		return Dimension{}, lexErr(file, n, "expected \"dimension: + words | - words\", got %q", line)
	}
	d := Dimension{Name: name, line: n}
	for i, side := range []string{plus, minus} {
		if strings.TrimSpace(side) == "" {
			continue
		}
		words, err := splitItems(file, n, side)
		if err != nil {
			return Dimension{}, err
		}
		d.Poles[i] = words
	}
	if len(d.Poles[0])+len(d.Poles[1]) == 0 {
		return Dimension{}, lexErr(file, n, "dimension %q has no words", name)
	}
	return d, nil
}

// loadAttributes reads the words that may stand before a noun and decide
// nothing (optional).
func loadAttributes(fsys fs.FS, file string) ([]string, error) {
	text, _, err := readOptional(fsys, file)
	if err != nil {
		return nil, err
	}
	var out []string
	for n, line := range contentLines(text) {
		words, err := splitItems(file, n, line)
		if err != nil {
			return nil, err
		}
		out = append(out, words...)
	}
	return out, nil
}

// loadUnknown reads "word: known predicate" lines.
func loadUnknown(fsys fs.FS, file string) ([]UnknownWord, error) {
	text, _, err := readOptional(fsys, file)
	if err != nil {
		return nil, err
	}
	var out []UnknownWord
	err = wordLines(file, text, func(n int, word string, values []string) error {
		if len(values) != 1 {
			return lexErr(file, n, "%q must mean exactly one known predicate", word)
		}
		if slices.ContainsFunc(out, func(u UnknownWord) bool { return u.Word == word }) {
			return lexErr(file, n, "%q listed twice", word)
		}
		out = append(out, UnknownWord{Word: word, Means: values[0], line: n})
		return nil
	})
	return out, err
}
