// Lexicon parsing: turns one "key: value, value" frame file into a Frame and
// checks that every word can be generated and tokenized unambiguously.

package data

import (
	"iter"
	"slices"
	"strings"
)

// frameKeys are the keys a frame file may use, in a fixed order so that the
// first problem reported is always the same one.
var frameKeys = []frameKey{
	{"active", true}, {"passive", false}, {"adverbs", false},
	{"agents", true}, {"objects", true},
	{"agent predicates", true}, {"object predicates", true},
}

type frameKey struct {
	name     string
	required bool
}

func isFrameKey(key string) bool {
	return slices.ContainsFunc(frameKeys, func(k frameKey) bool { return k.name == key })
}

// templateWords are written by the sentence shapes themselves; a noun among
// them would make IsNoun see a third candidate.
var templateWords = []string{"a", "an", "the", "it", "was", "by", "because", "since", "as"}

// field is one parsed "key: values" line.
type field struct {
	values []string
	line   int
}

// contentLines yields (line number, trimmed text) for lines that are not
// blank and not # comments.
func contentLines(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !yield(i+1, line) {
				return
			}
		}
	}
}

func parseFrame(file, text string) (Frame, error) {
	fields, err := readFields(file, text)
	if err != nil {
		return Frame{}, err
	}
	for _, k := range frameKeys {
		if _, ok := fields[k.name]; k.required && !ok {
			return Frame{}, lexErr(file, 0, "missing required key %q", k.name)
		}
	}
	f := Frame{Name: frameName(file), File: file, lines: map[string]int{}}
	for key, fl := range fields {
		f.lines[key] = fl.line
	}
	if err := f.fill(fields); err != nil {
		return Frame{}, err
	}
	return f, f.check()
}

// readFields splits the file into keys and comma-separated phrase lists.
func readFields(file, text string) (map[string]field, error) {
	fields := map[string]field{}
	for n, line := range contentLines(text) {
		key, value, ok := strings.Cut(line, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok {
			return nil, lexErr(file, n, "expected \"key: values\", got %q", line)
		}
		if !isFrameKey(key) {
			return nil, lexErr(file, n, "unknown key %q", key)
		}
		if _, dup := fields[key]; dup {
			return nil, lexErr(file, n, "key %q given twice", key)
		}
		values, err := parseList(file, n, value)
		if err != nil {
			return nil, err
		}
		fields[key] = field{values: values, line: n}
	}
	return fields, nil
}

// parseList reads "a, b c, d" into normalised phrases, rejecting empty items,
// duplicates, non-letters and the reserved pronoun.
func parseList(file string, n int, value string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, item := range strings.Split(value, ",") {
		words := strings.Fields(item)
		if len(words) == 0 {
			return nil, lexErr(file, n, "empty item in list %q", strings.TrimSpace(value))
		}
		for _, w := range words {
			if err := checkWord(w); err != "" {
				return nil, lexErr(file, n, "word %q %s", w, err)
			}
		}
		phrase := strings.Join(words, " ")
		if seen[phrase] {
			return nil, lexErr(file, n, "%q listed twice", phrase)
		}
		seen[phrase] = true
		out = append(out, phrase)
	}
	return out, nil
}

// checkWord returns why w cannot be used, or "".
func checkWord(w string) string {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return "must be lower-case letters a-z only"
		}
	}
	if w == "it" {
		return "is reserved: every sentence has exactly one pronoun"
	}
	return ""
}

// fill copies the parsed fields into the frame.
func (f *Frame) fill(fields map[string]field) error {
	for _, key := range []string{"active", "passive"} {
		if fl, ok := fields[key]; ok && len(fl.values) != 1 {
			return lexErr(f.File, fl.line, "%q takes one verb phrase, got %d", key, len(fl.values))
		}
	}
	f.Active = fields["active"].values[0]
	if fl, ok := fields["passive"]; ok {
		f.Passive = fl.values[0]
	}
	f.Adverbs = fields["adverbs"].values
	f.Agents = fields["agents"].values
	f.Objects = fields["objects"].values
	f.AgentPredicates = fields["agent predicates"].values
	f.ObjectPredicates = fields["object predicates"].values
	return nil
}

// check validates what a single frame can know about itself.
func (f *Frame) check() error {
	if f.Passive != "" && !strings.HasSuffix(f.Passive, " by") {
		return lexErr(f.File, f.lines["passive"], "passive %q must end with \"by\"", f.Passive)
	}
	for _, key := range []string{"agents", "objects"} {
		if err := f.checkSingleWords(key); err != nil {
			return err
		}
	}
	for _, p := range f.ObjectPredicates {
		if slices.Contains(f.AgentPredicates, p) {
			return lexErr(f.File, f.lines["object predicates"], "predicate %q is both agent and object predicate", p)
		}
	}
	if len(f.Agents) == 1 && len(f.Objects) == 1 && f.Agents[0] == f.Objects[0] {
		return lexErr(f.File, f.lines["objects"], "needs an agent and an object that differ")
	}
	return nil
}

func (f *Frame) checkSingleWords(key string) error {
	list := f.Agents
	if key == "objects" {
		list = f.Objects
	}
	for _, noun := range list {
		if strings.Contains(noun, " ") {
			return lexErr(f.File, f.lines[key], "noun %q must be a single word", noun)
		}
		if slices.Contains(templateWords, noun) {
			return lexErr(f.File, f.lines[key], "noun %q is a word the sentence shapes use", noun)
		}
	}
	return nil
}

// checkWordClasses rejects a verb, adverb or predicate word that is also a
// noun somewhere: IsNoun would then report it as a candidate.
func (l *Lexicon) checkWordClasses() error {
	for _, f := range l.Frames {
		for _, key := range []string{"active", "passive", "adverbs", "agent predicates", "object predicates"} {
			for _, w := range strings.Fields(strings.Join(f.phrases(key), " ")) {
				if l.nouns[w] {
					return lexErr(f.File, f.lines[key], "%q is a noun elsewhere in the lexicon", w)
				}
			}
		}
	}
	return nil
}

// phrases returns the non-noun phrases stored under a key.
func (f *Frame) phrases(key string) []string {
	switch key {
	case "active":
		return []string{f.Active}
	case "passive":
		return []string{f.Passive}
	case "adverbs":
		return f.Adverbs
	case "agent predicates":
		return f.AgentPredicates
	}
	return f.ObjectPredicates
}
