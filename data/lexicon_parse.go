// Lexicon parsing: turns one "key: value, value" frame file into a Frame,
// expanding @name references to the shared noun and place lists, and checks
// what a single frame can know about itself.

package data

import (
	"iter"
	"slices"
	"strings"
)

// frameKeys are the keys a frame file may use, in a fixed order so that the
// first problem reported is always the same one: the verb forms of each
// outcome, the lead verbs, the nouns, the explanations, the places.
var frameKeys = append(verbKeys(),
	frameKey{"lead", false, listNone}, frameKey{"lead present", false, listNone},
	frameKey{"agents", true, listNouns}, frameKey{"objects", true, listNouns},
	frameKey{"not objects", false, listNouns},
	frameKey{"agent", false, listExplanations}, frameKey{"object", false, listExplanations},
	frameKey{placeKeys[AttachAgent], false, listPlaces}, frameKey{placeKeys[AttachObject], false, listPlaces},
	frameKey{placeKeys[AttachScene], false, listPlaces}, frameKey{placeKeys[AttachGoal], false, listPlaces})

// verbForms names the four forms of an outcome's verb, as key suffixes.
var verbForms = []struct {
	suffix           string
	passive, present bool
}{{"", false, false}, {" passive", true, false}, {" present", false, true}, {" present passive", true, true}}

// verbKeys are "succeeded", "succeeded passive", ..., "failed present
// passive"; only the active of each outcome is required.
func verbKeys() []frameKey {
	var out []frameKey
	for _, o := range outcomeNames {
		for _, f := range verbForms {
			out = append(out, frameKey{o + f.suffix, f.suffix == "", listNone})
		}
	}
	return out
}

// listKind says which shared lists an @name in a key's value refers to.
type listKind int

const (
	listNone         listKind = iota // no references allowed
	listNouns                        // nouns/NAME.txt, mixed freely with plain words
	listPlaces                       // places/NAME.txt, references only
	listExplanations                 // "dimension +" items, no references
)

type frameKey struct {
	name     string
	required bool
	refs     listKind
}

func lookupKey(key string) (frameKey, bool) {
	i := slices.IndexFunc(frameKeys, func(k frameKey) bool { return k.name == key })
	if i < 0 {
		return frameKey{}, false
	}
	return frameKeys[i], true
}

// templateWords are written by the sentence shapes themselves; a noun among
// them would make IsNoun see a third candidate.
var templateWords = append([]string{"a", "an", "the", "it", "was", "is", "not", "by", "because", "since", "as", "so",
	"although", "though", "even", "but", "and", "too"}, determiners...)

// field is one parsed "key: values" line; places is set for place keys.
type field struct {
	values []string
	places []Place
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

func parseFrame(file, text string, lists *listCache, dims []Dimension) (Frame, error) {
	fields, err := readFields(file, text, lists)
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
	if err := f.check(); err != nil {
		return Frame{}, err
	}
	return f, f.indexProperties(dims)
}

// readFields splits the file into keys and comma-separated phrase lists,
// with @name references already expanded.
func readFields(file, text string, lists *listCache) (map[string]field, error) {
	fields := map[string]field{}
	for n, line := range contentLines(text) {
		name, value, ok := strings.Cut(line, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		if !ok {
			return nil, lexErr(file, n, "expected \"key: values\", got %q", line)
		}
		key, known := lookupKey(name)
		if !known {
			return nil, lexErr(file, n, "unknown key %q", name)
		}
		if _, dup := fields[name]; dup {
			return nil, lexErr(file, n, "key %q given twice", name)
		}
		fl, err := readField(file, n, key, value, lists)
		if err != nil {
			return nil, err
		}
		fields[name] = fl
	}
	return fields, nil
}

// readField parses one value list and expands its references.
func readField(file string, n int, key frameKey, value string, lists *listCache) (field, error) {
	if key.refs == listExplanations {
		return readExplanations(file, n, key, value)
	}
	items, err := splitItems(file, n, value)
	if err != nil {
		return field{}, err
	}
	fl := field{line: n}
	seen := map[string]string{} // word -> where it came from, for duplicates
	for _, item := range items {
		if err := fl.add(file, n, key, item, seen, lists); err != nil {
			return field{}, err
		}
	}
	return fl, nil
}

// add appends one item (a phrase or an @reference) to the field.
func (fl *field) add(file string, n int, key frameKey, item string, seen map[string]string, lists *listCache) error {
	ref, isRef := strings.CutPrefix(item, "@")
	switch {
	case isRef && key.refs == listNone:
		return lexErr(file, n, "%q: key %q takes no @list", item, key.name)
	case !isRef && key.refs == listPlaces:
		return lexErr(file, n, "%q: key %q takes only @lists of places/", item, key.name)
	case key.refs == listPlaces:
		places, err := lists.places(ref, file, n)
		fl.places = append(fl.places, places...)
		return err
	}
	words := []string{item}
	if isRef {
		var err error
		if words, err = lists.nouns(ref, file, n); err != nil {
			return err
		}
	}
	for _, w := range words {
		from, dup := seen[w]
		if dup && isRef && strings.HasPrefix(from, "@") {
			continue // noun classes overlap ("desk" is a load and a support): once is enough
		}
		if dup {
			return lexErr(file, n, "%q listed twice (%s and %s)", w, from, origin(item))
		}
		seen[w] = origin(item)
		fl.values = append(fl.values, w)
	}
	return nil
}

func origin(item string) string {
	if strings.HasPrefix(item, "@") {
		return item
	}
	return "by name"
}

// splitItems reads "a, b c, @list" into normalised items, rejecting empty
// items, non-letters and the reserved pronoun (reference names are checked
// when the list is loaded).
func splitItems(file string, n int, value string) ([]string, error) {
	var out []string
	for _, item := range strings.Split(value, ",") {
		words := strings.Fields(item)
		if len(words) == 0 {
			return nil, lexErr(file, n, "empty item in list %q", strings.TrimSpace(value))
		}
		if len(words) == 1 && strings.HasPrefix(words[0], "@") {
			out = append(out, words[0])
			continue
		}
		for _, w := range words {
			if err := checkWord(w); err != "" {
				return nil, lexErr(file, n, "word %q %s", w, err)
			}
		}
		out = append(out, strings.Join(words, " "))
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

// readExplanations parses "hunger +, size -".
func readExplanations(file string, n int, key frameKey, value string) (field, error) {
	fl := field{line: n}
	for _, item := range strings.Split(value, ",") {
		words := strings.Fields(item)
		if len(words) != 2 || checkWord(words[0]) != "" {
			return field{}, lexErr(file, n, "%q: want a dimension and + or - (\"hunger +\")", strings.TrimSpace(item))
		}
		fl.values = append(fl.values, strings.Join(words, " "))
	}
	return fl, nil
}

// fill copies the parsed fields into the frame.
func (f *Frame) fill(fields map[string]field) error {
	for o := range outcomeNames {
		v := &f.Verbs[o]
		for i, dst := range []*[]string{&v.Active, &v.Passive, &v.Present, &v.PresentPassive} {
			*dst = fields[outcomeNames[o]+verbForms[i].suffix].values
		}
	}
	f.Lead = [2][]string{fields["lead"].values, fields["lead present"].values}
	f.Agents, f.Objects = fields["agents"].values, fields["objects"].values
	f.NotObjects = fields["not objects"].values
	for _, r := range []Role{Agent, Object} {
		ex, err := parseExplanations(r, fields[r.String()].values)
		if err != nil {
			return lexErr(f.File, fields[r.String()].line, "%v", err)
		}
		f.Explains = append(f.Explains, ex...)
	}
	f.AgentPlaces, f.ObjectPlaces = fields[placeKeys[AttachAgent]].places, fields[placeKeys[AttachObject]].places
	f.ScenePlaces, f.GoalPlaces = fields[placeKeys[AttachScene]].places, fields[placeKeys[AttachGoal]].places
	return nil
}

// check validates what a single frame can know about itself.
func (f *Frame) check() error {
	for o, name := range outcomeNames {
		for _, form := range verbForms[1:] {
			if err := f.checkVerbForm(Outcome(o), name+form.suffix, form.passive, form.present); err != nil {
				return err
			}
		}
	}
	if err := f.checkLead(); err != nil {
		return err
	}
	for _, key := range []string{"agents", "objects", "not objects"} {
		if err := f.checkSingleWords(key); err != nil {
			return err
		}
	}
	if err := f.checkNotObjects(); err != nil {
		return err
	}
	if len(f.Explains) == 0 {
		return lexErr(f.File, 0, "needs an \"agent\" or \"object\" line: what explains the outcome")
	}
	if len(f.Agents) == 1 && len(f.Objects) == 1 && f.Agents[0] == f.Objects[0] {
		return lexErr(f.File, f.lines["objects"], "needs an agent and an object that differ")
	}
	return f.checkPlaces()
}

// checkLead asks for lead verbs in both tenses where the frame has both:
// the lead-it shape writes its lead verb in the main verb's tense.
func (f *Frame) checkLead() error {
	past, present := len(f.Lead[0]) > 0, len(f.Lead[1]) > 0
	switch {
	case present && !past:
		return lexErr(f.File, f.lines["lead present"], "\"lead present\" needs \"lead\" too")
	case past && !present && f.hasPresent(false):
		return lexErr(f.File, f.lines["lead"], "\"lead\" needs \"lead present\" too: the frame has a present tense")
	}
	return nil
}

// checkNotObjects asks for lead verbs where a frame names nouns its verb
// cannot take (only the lead-it shape writes them), and refuses one that is
// an agent or object of the frame: it could then be the answer.
func (f *Frame) checkNotObjects() error {
	if len(f.NotObjects) > 0 && len(f.Lead[0]) == 0 {
		return lexErr(f.File, f.lines["not objects"], "\"not objects\" needs \"lead\": only a lead-it sentence writes them")
	}
	for _, noun := range f.NotObjects {
		if slices.Contains(f.Agents, noun) || slices.Contains(f.Objects, noun) {
			return lexErr(f.File, f.lines["not objects"], "%q is an agent or object of this frame, so its verb can take it", noun)
		}
	}
	return nil
}

// checkVerbForm makes a passive end in "by" and a present passive come with
// the present and the passive it combines.
func (f *Frame) checkVerbForm(o Outcome, key string, passive, present bool) error {
	forms := f.verbs(o, passive, present)
	for _, v := range forms {
		if passive && !strings.HasSuffix(v, " by") {
			return lexErr(f.File, f.lines[key], "%s %q must end with \"by\"", key, v)
		}
	}
	if passive && present && len(forms) > 0 && (len(f.verbs(o, false, true)) == 0 || len(f.verbs(o, true, false)) == 0) {
		return lexErr(f.File, f.lines[key], "%q needs the present and the passive too", key)
	}
	return nil
}

// indexProperties finds each word of the frame's dimensions and its pole,
// refusing a dimension properties.txt lacks and two dimensions that share a
// word (the word would then mean two things in one sentence).
func (f *Frame) indexProperties(dims []Dimension) error {
	f.properties, f.ownVerbDeeds = map[string]property{}, map[string]string{}
	for _, e := range f.Explains {
		i := slices.IndexFunc(dims, func(d Dimension) bool { return d.Name == e.Dim })
		if i < 0 {
			return lexErr(f.File, f.lines[e.Role.String()], "no dimension %q in properties.txt", e.Dim)
		}
		for pole, words := range dims[i].Poles {
			for _, w := range words {
				if dims[i].Deed && f.hasVerbWord(w) {
					f.ownVerbDeeds[w] = e.Dim // "The mouse escaped the cat because it escaped" explains nothing
					continue
				}
				if p, dup := f.properties[w]; dup && p.dim != e.Dim {
					return lexErr(f.File, f.lines[e.Role.String()], "%q is a word of both %q and %q", w, p.dim, e.Dim)
				}
				if _, dup := f.properties[w]; !dup {
					f.predicates = append(f.predicates, w)
				}
				f.properties[w] = property{dim: e.Dim, pole: 1 - 2*pole, act: dims[i].Act, deed: dims[i].Deed}
			}
		}
	}
	return nil
}

// hasVerbWord reports whether deed's verb (its first word) is a word of
// one of the frame's verb phrases (Frame.verbPhrases): "escaped" in
// escape's "escaped from", "got away" in "got away from"; "ran away" is not.
func (f *Frame) hasVerbWord(deed string) bool {
	verb := strings.Fields(deed)[0]
	for v := range f.verbPhrases() {
		if slices.Contains(strings.Fields(v), verb) {
			return true
		}
	}
	return false
}

// checkPlaces rejects a place noun that is also a candidate of the frame:
// it could then be the answer.
func (f *Frame) checkPlaces() error {
	for a, key := range placeKeys {
		for _, p := range f.Places(Attachment(a)) {
			if slices.Contains(f.Agents, p.Noun) || slices.Contains(f.Objects, p.Noun) {
				return lexErr(f.File, f.lines[key], "place noun %q is an agent or object of this frame", p.Noun)
			}
			if Attachment(a) == AttachGoal && p.Prep != "to" {
				return lexErr(f.File, f.lines[key], "goal place %q must take the preposition \"to\"", p.Prep+" the "+p.Noun)
			}
		}
	}
	return nil
}

func (f *Frame) checkSingleWords(key string) error {
	for _, noun := range f.phrases(key) {
		if strings.Contains(noun, " ") {
			return lexErr(f.File, f.lines[key], "noun %q must be a single word", noun)
		}
		if slices.Contains(templateWords, noun) {
			return lexErr(f.File, f.lines[key], "noun %q is a word the sentence shapes use", noun)
		}
	}
	return nil
}

// phrases returns the phrases stored under a key.
func (f *Frame) phrases(key string) []string {
	switch key {
	case "agents":
		return f.Agents
	case "objects":
		return f.Objects
	case "not objects":
		return f.NotObjects
	case "lead":
		return f.Lead[0]
	case "lead present":
		return f.Lead[1]
	}
	for o, name := range outcomeNames {
		for _, form := range verbForms {
			if key == name+form.suffix {
				return f.verbs(Outcome(o), form.passive, form.present)
			}
		}
	}
	return nil
}
