package data

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestDefaultLexicon(t *testing.T) {
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	if len(lex.Frames) < 18 {
		t.Errorf("%d frames, want at least 18", len(lex.Frames))
	}
	for _, f := range lex.Frames {
		for _, n := range [][]string{f.Agents, f.Objects} {
			if len(n) < 6 || len(n) > 40 {
				t.Errorf("%s: %d nouns in a role, want 6-40", f.File, len(n))
			}
		}
		for _, p := range [][]string{f.AgentPredicates, f.ObjectPredicates} {
			if len(p) < 2 || len(p) > 6 {
				t.Errorf("%s: %d predicates in a role, want 2-6", f.File, len(p))
			}
		}
	}
	if !lex.IsMass("food") || lex.IsMass("dog") {
		t.Error("mass nouns wrong")
	}
	t.Logf("%d frames, %d combinations", len(lex.Frames), len(uniqueKeys(lex.tuples())))
}

const goodFrame = `# test frame
active: ate
passive: was eaten by
adverbs: very
agents: dog, cat
objects: food, cake
agent predicates: hungry, greedy
object predicates: tasty, too sweet
`

func lexiconFS(frame, mass string) fstest.MapFS {
	return fstest.MapFS{
		"frames/eat.txt": {Data: []byte(frame)},
		"mass.txt":       {Data: []byte(mass)},
	}
}

func TestLoadLexiconGood(t *testing.T) {
	lex, err := LoadLexicon(lexiconFS(goodFrame, "food\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := lex.Frames[0]
	if f.Name != "eat" || f.Passive != "was eaten by" || f.ObjectPredicates[1] != "too sweet" {
		t.Errorf("parsed frame %+v", f)
	}
}

func TestLoadLexiconErrors(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(goodFrame, old, new, 1) }
	tests := []struct {
		name, frame, mass string
		file              string
		line              int
		want              string
	}{
		{"unknown key", replace("adverbs:", "adverb:"), "", "frames/eat.txt", 4, `unknown key "adverb"`},
		{"no colon", replace("adverbs: very", "adverbs very"), "", "frames/eat.txt", 4, "expected"},
		{"duplicate key", goodFrame + "agents: fox\n", "", "frames/eat.txt", 9, `"agents" given twice`},
		{"missing key", replace("objects: food, cake\n", ""), "", "frames/eat.txt", 0, `missing required key "objects"`},
		{"empty item", replace("dog, cat", "dog, , cat"), "", "frames/eat.txt", 5, "empty item"},
		{"upper case", replace("dog, cat", "Dog, cat"), "", "frames/eat.txt", 5, `"Dog"`},
		{"reserved it", replace("tasty", "it"), "", "frames/eat.txt", 8, `"it" is reserved`},
		{"duplicate word", replace("dog, cat", "dog, dog"), "", "frames/eat.txt", 5, `"dog" listed twice`},
		{"two-word noun", replace("dog, cat", "dog, big cat"), "", "frames/eat.txt", 5, `"big cat" must be a single word`},
		{"template word noun", replace("dog, cat", "dog, the"), "", "frames/eat.txt", 5, `"the" is a word the sentence shapes use`},
		{"passive without by", replace("was eaten by", "was eaten"), "", "frames/eat.txt", 3, `must end with "by"`},
		{"two verbs", replace("active: ate", "active: ate, ran"), "", "frames/eat.txt", 2, "one verb phrase"},
		{"shared predicate", replace("tasty", "hungry"), "", "frames/eat.txt", 8, `"hungry" is both`},
		{"predicate is noun", replace("tasty", "cake"), "", "frames/eat.txt", 8, `"cake" is a noun`},
		{"unknown mass noun", goodFrame, "food\nwater\n", "mass.txt", 2, `"water" is not a noun`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadLexicon(lexiconFS(tt.frame, tt.mass))
			var le *LexiconError
			if !errors.As(err, &le) {
				t.Fatalf("error = %v, want a *LexiconError", err)
			}
			if le.File != tt.file || le.Line != tt.line || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q (file %s line %d), want %s:%d and %s", err, le.File, le.Line, tt.file, tt.line, tt.want)
			}
		})
	}
}

func TestLoadLexiconMissingFiles(t *testing.T) {
	if _, err := LoadLexicon(fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "frames/*.txt") {
		t.Errorf("no frames: error %v", err)
	}
	fsys := lexiconFS(goodFrame, "")
	delete(fsys, "mass.txt")
	if _, err := LoadLexicon(fsys); err == nil || !strings.Contains(err.Error(), "mass.txt") {
		t.Errorf("no mass.txt: error %v", err)
	}
}

func TestGenerateFromLexiconWithoutMission(t *testing.T) {
	lex, err := LoadLexicon(lexiconFS(strings.Replace(goodFrame, "dog, cat", "fox, cat", 1), ""))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateFrom(lex, DefaultConfig(), 1); err == nil || !strings.Contains(err.Error(), MissionHungry) {
		t.Errorf("error = %v, want it to name the mission sentence", err)
	}
}

func TestGenerateFromTooSmallLexicon(t *testing.T) {
	lex, err := LoadLexicon(lexiconFS(goodFrame, "food\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = GenerateFrom(lex, DefaultConfig(), 1)
	if err == nil || !strings.Contains(err.Error(), "too few combinations") {
		t.Errorf("error = %v, want too few combinations", err)
	}
}

// v2Frame uses every new key; v2Files are the lists it refers to.
const v2Frame = `# test frame
active: caught
passive: was caught by
present: catches
present passive: is caught by
adverbs: very, really very
agents: @animals
objects: @animals, hare
agent predicates: fast, quick
object predicates: slow, weak, tired
agent predicates when negated: tired
object predicates when negated: fast
agent places: @farm
scene places: @farm
`

func v2Files(frame string) fstest.MapFS {
	return fstest.MapFS{
		"frames/caught.txt": {Data: []byte(frame)},
		"nouns/animals.txt": {Data: []byte("# animals that chase each other\ndog, cat,\nfox\n")},
		"places/farm.txt":   {Data: []byte("# places on a farm, never fast or slow\nin: barn, yard\nnear: gate\n")},
		"opposites.txt":     {Data: []byte("# opposite reasons for the same thing\nfast: slow\n")},
		"unknown.txt":       {Data: []byte("# synonyms kept out of training\nzippy: fast\n")},
		"mass.txt":          {Data: []byte("")},
	}
}

func TestLoadLexiconV2(t *testing.T) {
	lex, err := LoadLexicon(v2Files(v2Frame))
	if err != nil {
		t.Fatal(err)
	}
	f := lex.Frames[0]
	want := Frame{
		Present: "catches", PresentPassive: "is caught by", Adverbs: []string{"very", "really very"},
		Agents: []string{"dog", "cat", "fox"}, Objects: []string{"dog", "cat", "fox", "hare"},
		AgentNegated: []string{"tired"}, ObjectNegated: []string{"fast"},
		AgentPlaces: []Place{{"in", "barn"}, {"in", "yard"}, {"near", "gate"}},
	}
	if f.Present != want.Present || f.PresentPassive != want.PresentPassive || !slices.Equal(f.Adverbs, want.Adverbs) ||
		!slices.Equal(f.Agents, want.Agents) || !slices.Equal(f.Objects, want.Objects) ||
		!slices.Equal(f.AgentNegated, want.AgentNegated) || !slices.Equal(f.ObjectNegated, want.ObjectNegated) ||
		!slices.Equal(f.AgentPlaces, want.AgentPlaces) || !slices.Equal(f.ScenePlaces, want.AgentPlaces) || len(f.ObjectPlaces) != 0 {
		t.Errorf("parsed frame %+v", f)
	}
	if !lex.IsNoun("barn") || lex.IsCandidate("barn") || !lex.IsCandidate("hare") {
		t.Error("place nouns must be nouns but not candidates")
	}
	if got := lex.Opposites("slow"); !slices.Equal(got, []string{"fast"}) {
		t.Errorf("Opposites(slow) = %v, want the symmetric [fast]", got)
	}
	if u := lex.UnknownWords(); len(u) != 1 || u[0].Word != "zippy" || u[0].Means != "fast" {
		t.Errorf("UnknownWords = %+v", u)
	}
}

func TestLoadLexiconV2Errors(t *testing.T) {
	replace := func(old, new string) fstest.MapFS { return v2Files(strings.Replace(v2Frame, old, new, 1)) }
	edit := func(file, text string) fstest.MapFS {
		fsys := v2Files(v2Frame)
		fsys[file] = &fstest.MapFile{Data: []byte(text)}
		return fsys
	}
	strongWeak := replace("when negated: tired", "when negated: strong")
	strongWeak["opposites.txt"] = &fstest.MapFile{Data: []byte("# opposite reasons for one thing\nfast: slow\nstrong: weak\n")}
	tests := []struct {
		name string
		fsys fstest.MapFS
		file string
		line int
		want string
	}{
		{"missing list", replace("@animals, hare", "@beasts"), "frames/caught.txt", 8, "no file nouns/beasts.txt"},
		{"bad list name", replace("@animals, hare", "@Beasts"), "frames/caught.txt", 8, "list names are lower-case"},
		{"list where none allowed", replace("fast, quick", "@animals"), "frames/caught.txt", 9, `key "agent predicates" takes no @list`},
		{"word in places", replace("agent places: @farm", "agent places: barn"), "frames/caught.txt", 13, "takes only @lists"},
		{"noun twice via list", replace("@animals, hare", "@animals, dog"), "frames/caught.txt", 8, `"dog" listed twice (@animals and by name)`},
		{"place is candidate", replace("@animals, hare", "@animals, barn"), "frames/caught.txt", 13, `place noun "barn" is an agent or object`},
		{"present passive alone", replace("present: catches\n", ""), "frames/caught.txt", 4, `"present passive" needs "present"`},
		{"negated same role", replace("when negated: tired", "when negated: quick"), "frames/caught.txt", 11, `"not quick" cannot describe the agent: "quick" already does`},
		{"negated against opposite", strongWeak, "frames/caught.txt", 11, `its opposite "weak" describes the object`},
		{"negation without meaning", replace("when negated: tired", "when negated: hungry"), "frames/caught.txt", 11, `"not hungry" has no meaning in the lexicon`},
		{"predicate in both roles", replace("slow, weak", "slow, weak, fast"), "frames/caught.txt", 10, `"fast" is both in "agent predicates"`},
		{"opposites in one role", edit("opposites.txt", "# opposite reasons for one thing\nfast: quick\n"), "frames/caught.txt", 9, `"fast" and its opposite "quick" both describe the agent`},
		{"opposite not a predicate", edit("opposites.txt", "# opposite reasons for one thing\nfast: slow\nhappy: sad\n"), "opposites.txt", 0, `"happy" is not a predicate`},
		{"unknown word used", edit("unknown.txt", "# synonyms kept out of training\nslow: fast\n"), "unknown.txt", 2, `"slow" is used in the lexicon`},
		{"unknown means nothing", edit("unknown.txt", "# synonyms kept out of training\nzippy: speedy\n"), "unknown.txt", 2, `"speedy", which is not a predicate`},
		{"unknown two meanings", edit("unknown.txt", "# synonyms kept out of training\nzippy: fast, quick\n"), "unknown.txt", 2, "exactly one known predicate"},
		{"list without comment", edit("nouns/animals.txt", "dog, cat\n"), "nouns/animals.txt", 0, "must open with a # comment"},
		{"places without comment", edit("places/farm.txt", "in: barn\n"), "places/farm.txt", 0, "must open with a # comment"},
		{"place line without preposition", edit("places/farm.txt", "# places on a farm here\nbarn, yard\n"), "places/farm.txt", 2, "expected \"preposition: nouns\""},
		{"empty noun list", edit("nouns/animals.txt", "# animals that chase each other\n"), "nouns/animals.txt", 0, "lists no nouns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadLexicon(tt.fsys)
			var le *LexiconError
			if !errors.As(err, &le) {
				t.Fatalf("error = %v, want a *LexiconError", err)
			}
			if le.File != tt.file || le.Line != tt.line || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q (file %s line %d), want %s:%d and %s", err, le.File, le.Line, tt.file, tt.line, tt.want)
			}
		})
	}
}

// Every word list of the shipped lexicon opens with a comment saying why
// its words fit (the loader insists on it), and every list is used.
func TestShippedListsAreUsed(t *testing.T) {
	sub, _ := fs.Sub(embeddedFiles, "lexicon")
	frames, _ := fs.Glob(sub, "frames/*.txt")
	var all strings.Builder
	for _, f := range frames {
		b, _ := fs.ReadFile(sub, f)
		all.Write(b)
	}
	for _, dir := range []string{"nouns", "places"} {
		lists, _ := fs.Glob(sub, dir+"/*.txt")
		for _, l := range lists {
			if !strings.Contains(all.String(), "@"+frameName(l)) {
				t.Errorf("%s is not referred to by any frame", l)
			}
			b, _ := fs.ReadFile(sub, l)
			if err := requireComment(l, string(b)); err != nil {
				t.Error(err)
			}
		}
	}
}
