// Lexicon: the semantic frames and word lists the corpus is generated from,
// read from the readable text files under data/lexicon/ (format described in
// data/lexicon/README.txt) and embedded into the binary (embed_other.go; the
// browser module leaves a few WordNet files out, served.go).

package data

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sync"
)

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

// other is the role that is not r.
func (r Role) other() Role { return 1 - r }

// Place is a prepositional phrase's preposition and noun ("in", "barn"):
// a third noun that a frame guarantees is never the answer.
type Place struct{ Prep, Noun string }

// Attachment says where a place phrase goes in a sentence.
type Attachment int

const (
	// AttachAgent puts the phrase right after the agent ("the dog in the barn").
	AttachAgent Attachment = iota
	// AttachObject puts it right after the object ("the cake on the plate").
	AttachObject
	// AttachScene opens the sentence ("In the barn, the dog ate the cake ...").
	AttachScene
	// AttachGoal ends the main clause with where the deed went ("the
	// donkey carried the sack to the barn"), in either voice.
	AttachGoal
)

// placeKeys names, for each Attachment, the frame key that lists its places.
var placeKeys = [...]string{
	AttachAgent: "agent places", AttachObject: "object places",
	AttachScene: "scene places", AttachGoal: "goal places",
}

// VerbForms are the ways a frame writes one outcome: each list holds
// alternatives ("lifted", "could lift"), and may be empty where English has
// no such form (no passive of "lost to").
type VerbForms struct {
	Active, Passive, Present, PresentPassive []string
}

// forms returns the alternatives for the voice and tense.
func (v VerbForms) forms(passive, present bool) []string {
	switch {
	case passive && present:
		return v.PresentPassive
	case passive:
		return v.Passive
	case present:
		return v.Present
	}
	return v.Active
}

// Frame is one action with its participants and the properties that explain
// its outcome (meaning.go). Phrases of several words are stored as one string
// with single spaces ("could not lift").
type Frame struct {
	Name            string       // file name without .txt
	File            string       // path inside the lexicon, for error messages
	Verbs           [2]VerbForms // indexed by Outcome
	Agents, Objects []string
	// NotObjects are nouns the verb cannot take as its object ("climbed the
	// banana"), each an agent or object of another frame: the lead-it shape
	// sets one beside the object, and the verb alone tells which is "it"
	// ("The monkey found the banana near the tree and climbed it.").
	NotObjects []string
	// Lead holds verbs of an earlier action of the agent on the object, past
	// and present ("found", "finds"), for the lead-it shape: "The dog found
	// the bone and ate it." None: the frame has no such sentence.
	Lead [2][]string
	// Explains lists which pole of which dimension of which role favours
	// success ("agent: hunger +").
	Explains []Explanation
	// Places that may follow the agent, follow the object, open the
	// sentence, or end the main clause as where the deed went.
	AgentPlaces, ObjectPlaces, ScenePlaces, GoalPlaces []Place
	properties                                         map[string]property // predicate -> its dimension and pole here
	predicates                                         []string            // keys of properties, in properties.txt order
	// ownVerbDeeds are the deeds the frame's dimensions hold that are
	// words of its own verbs, so it never says them ("The mouse escaped
	// the cat because it escaped"), each with its dimension.
	ownVerbDeeds map[string]string
	lines        map[string]int // key -> line, to name lines in later checks
}

// Nouns returns the nouns that can fill role r.
func (f *Frame) Nouns(r Role) []string {
	if r == Agent {
		return f.Agents
	}
	return f.Objects
}

// Places returns the place phrases allowed at attachment a.
func (f *Frame) Places(a Attachment) []Place {
	switch a {
	case AttachAgent:
		return f.AgentPlaces
	case AttachObject:
		return f.ObjectPlaces
	case AttachGoal:
		return f.GoalPlaces
	}
	return f.ScenePlaces
}

// verbs returns the verb phrases for the outcome, voice and tense (none if
// the frame has no such form).
func (f *Frame) verbs(o Outcome, passive, present bool) []string {
	return f.Verbs[o].forms(passive, present)
}

// hasVoice reports whether both outcomes can be written in the voice.
func (f *Frame) hasVoice(passive bool) bool {
	return len(f.verbs(Succeeded, passive, false)) > 0 && len(f.verbs(Failed, passive, false)) > 0
}

// Verb is the frame's first active verb phrase for the outcome ("ate",
// "could not lift"): how the outcome is named in reports.
func (f *Frame) Verb(o Outcome) string { return f.Verbs[o].Active[0] }

// UnknownWord is an adjective kept out of the training data and the known
// predicate it means the same as.
type UnknownWord struct {
	Word, Means string
	line        int // in unknown.txt, for error messages
}

// Lexicon is the whole set of frames plus the word lists they share.
type Lexicon struct {
	Frames     []Frame     // sorted by name
	Dimensions []Dimension // in properties.txt order
	Acts       []Dimension // acts.txt: deeds done to "it", in file order
	Deeds      []Dimension // deeds.txt: deeds "it" does, in file order
	Attributes []string    // attributes.txt: words before a noun that decide nothing
	mass       map[string]bool
	nouns      map[string]bool // agents and objects of any frame
	places     map[string]bool // nouns of place phrases
	// prepositions are, per place noun, the prepositions its phrases use
	// ("bowl": "in"), in file order.
	prepositions map[string][]string
	unknown      []UnknownWord // in file order
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
func DefaultLexicon() (*Lexicon, error) { return LoadLexicon(lexiconFiles()) }

// sharedLexicon backs IsNoun, which must not reload the files on every call.
var sharedLexicon = sync.OnceValues(DefaultLexicon)

// LoadLexicon reads properties.txt, frames/*.txt, the noun and place lists
// they refer to (nouns/*.txt, places/*.txt), mass.txt and the optional
// acts.txt, deeds.txt, attributes.txt and unknown.txt from fsys, and checks
// them.
func LoadLexicon(fsys fs.FS) (*Lexicon, error) {
	files, err := fs.Glob(fsys, "frames/*.txt")
	if err != nil || len(files) == 0 {
		return nil, lexErr("frames/*.txt", 0, "no frame files found")
	}
	slices.Sort(files)
	lists := newListCache(fsys)
	lex := &Lexicon{nouns: map[string]bool{}, places: map[string]bool{}, prepositions: map[string][]string{}}
	if lex.Dimensions, err = loadProperties(fsys, "properties.txt"); err != nil {
		return nil, err
	}
	if lex.Acts, err = loadDeeds(fsys, "acts.txt", lex.Dimensions, func(d *Dimension) { d.Act = true }); err != nil {
		return nil, err
	}
	if lex.Deeds, err = loadDeeds(fsys, "deeds.txt", slices.Concat(lex.Dimensions, lex.Acts), func(d *Dimension) { d.Deed = true }); err != nil {
		return nil, err
	}
	dims := slices.Concat(lex.Dimensions, lex.Acts, lex.Deeds)
	for _, file := range files {
		f, err := loadFrame(fsys, file, lists, dims)
		if err != nil {
			return nil, err
		}
		lex.Frames = append(lex.Frames, f)
	}
	for _, f := range lex.Frames {
		addAll(lex.nouns, f.Agents, f.Objects)
		for _, places := range [][]Place{f.AgentPlaces, f.ObjectPlaces, f.ScenePlaces} {
			for _, p := range places {
				lex.places[p.Noun] = true
				if !slices.Contains(lex.prepositions[p.Noun], p.Prep) {
					lex.prepositions[p.Noun] = append(lex.prepositions[p.Noun], p.Prep)
				}
			}
		}
	}
	if err := lex.loadWordFiles(fsys); err != nil {
		return nil, err
	}
	return lex, lex.check()
}

// loadWordFiles reads mass.txt (required) and attributes.txt and
// unknown.txt (optional: without them no noun gets an attribute that is not
// a property, and the unknown_deciding_word challenge is empty).
func (l *Lexicon) loadWordFiles(fsys fs.FS) error {
	var err error
	if l.mass, err = loadMass(fsys, "mass.txt", l.nouns); err != nil {
		return err
	}
	if l.Attributes, err = loadAttributes(fsys, "attributes.txt"); err != nil {
		return err
	}
	l.unknown, err = loadUnknown(fsys, "unknown.txt")
	return err
}

func loadFrame(fsys fs.FS, file string, lists *listCache, dims []Dimension) (Frame, error) {
	text, err := fs.ReadFile(fsys, file)
	if err != nil {
		return Frame{}, lexErr(file, 0, "%v", err)
	}
	return parseFrame(file, string(text), lists, dims)
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

// IsNoun reports whether word is an agent or object of any frame or the noun
// of a place phrase: any word a sentence could use as a noun.
func (l *Lexicon) IsNoun(word string) bool { return l.nouns[word] || l.places[word] }

// IsCandidate reports whether word is an agent or object of some frame.
func (l *Lexicon) IsCandidate(word string) bool { return l.nouns[word] }

// Words are the single words any frame or list can write, sorted: nouns,
// verbs, predicates, prepositions, attributes and the degree adverbs.
func (l *Lexicon) Words() []string {
	words := slices.Collect(maps.Keys(l.allWords()))
	slices.Sort(words)
	return words
}

// NounLists reads every noun list of the embedded lexicon (nouns/NAME.txt),
// by NAME, whether a frame uses it or not.
func NounLists() (map[string][]string, error) { return nounListsIn(lexiconFiles(), "nouns") }

// UnknownWords returns the adjectives kept out of training, with their meanings.
func (l *Lexicon) UnknownWords() []UnknownWord { return slices.Clone(l.unknown) }

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
