// The benchmark's file: one item a line, tab-separated, no header:
// source, id, sentence, the correct candidate's head word, the other's. An
// id that ends in ".itN" asks about the sentence's N-th "it" (from 1);
// any other id, its first.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"itformer/config"
)

// Item is one line of the file.
type Item struct {
	Source   string `json:"source"`
	ID       string `json:"id"`
	Sentence string `json:"sentence"`
	Correct  string `json:"correct"` // head word of the correct candidate, lower case
	Other    string `json:"other"`
	// Pronoun is which "it" of the sentence the item asks about, from 0.
	Pronoun int `json:"pronoun"`
}

// Bounds on the file: WSC273 is 86 lines of under 300 bytes. They only stop
// a wrong path (a log, a dataset, a device) from being read whole.
const (
	maxFileSize = 16_000_000
	maxLineSize = 64_000
)

// readItems reads the file at path; an error names the file and the line.
func readItems(path string) ([]Item, error) {
	f, err := openItems(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var items []Item
	seen := map[[2]string]int{} // source and id: the line that had them
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), maxLineSize)
	n := 1
	for ; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" && !strings.Contains(line, "\t") { // a line of tabs is an item's fields, empty
			continue
		}
		it, err := parseItem(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		key := [2]string{it.Source, it.ID}
		if first, ok := seen[key]; ok {
			return nil, fmt.Errorf("%s:%d: source %q and id %q are those of line %d: each item needs its own id", path, n, it.Source, it.ID, first)
		}
		seen[key] = n
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(path, n, err)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%s holds no item", path)
	}
	return items, nil
}

// openItems opens the file as the other readers open theirs
// (config.OpenFile): a FIFO or a device is refused by name instead of
// blocking the open or the read.
func openItems(path string) (*os.File, error) {
	f, _, err := config.OpenFile(path, maxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no file %s: give the path of a benchmark file (source, id, sentence, correct word, other word, tab-separated; docs/commands.md#wsc)", path)
	}
	return f, err
}

// scanError names the line the scanner stopped at, and says what a line
// too long for it means instead of "bufio.Scanner: token too long".
func scanError(path string, line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%s:%d: the line is longer than %s, the limit for a line of a benchmark file (one item a line)",
			path, line, config.FormatBytes(maxLineSize))
	}
	return fmt.Errorf("%s:%d: %v", path, line, err)
}

// parseItem reads one line.
func parseItem(line string) (Item, error) {
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		return Item{}, fmt.Errorf("%d tab-separated fields, want 5: source, id, sentence, correct word, other word", len(f))
	}
	it := Item{Source: f[0], ID: f[1], Sentence: f[2], Correct: f[3], Other: f[4]}
	for i, v := range []string{it.Source, it.ID, it.Sentence} {
		if strings.TrimSpace(v) == "" {
			return Item{}, fmt.Errorf("the %s (field %d) is empty", []string{"source", "id", "sentence"}[i], i+1)
		}
	}
	for _, w := range []string{it.Correct, it.Other} {
		if w == "it" {
			return Item{}, fmt.Errorf("head word \"it\" is the pronoun: give the two nouns it may refer to")
		}
		if w == "" || strings.ContainsAny(w, " \t") || strings.ToLower(w) != w {
			return Item{}, fmt.Errorf("head word %q is not one lower-case word", w)
		}
		if !slices.Contains(sentenceWords(it.Sentence), w) {
			return Item{}, fmt.Errorf("head word %q is not a word of the sentence", w)
		}
	}
	if it.Correct == it.Other {
		return Item{}, fmt.Errorf("the correct and the other head word are both %q: an item asks between two nouns", it.Correct)
	}
	if _, n, ok := strings.Cut(it.ID, ".it"); ok {
		k, err := strconv.Atoi(n)
		if err != nil || k < 1 {
			return Item{}, fmt.Errorf("id %q: after .it comes which \"it\" of the sentence, from 1", it.ID)
		}
		it.Pronoun = k - 1
	}
	return it, nil
}

// sentenceWords are the sentence's words as a head word is written: lower
// case, letters and apostrophes ("tina's"), nothing else.
func sentenceWords(sentence string) []string {
	return strings.FieldsFunc(strings.ToLower(sentence), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
}
