package data

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestDefaultLexicon(t *testing.T) {
	lex := testLexicon(t)
	if len(lex.Frames) < 18 {
		t.Errorf("%d frames, want at least 18", len(lex.Frames))
	}
	dims := map[string]bool{}
	for _, d := range slices.Concat(lex.Dimensions, lex.Acts, lex.Deeds) {
		dims[d.Name] = true
	}
	for _, f := range lex.Frames {
		for _, n := range [][]string{f.Agents, f.Objects} {
			if len(n) < 6 || len(n) > 200 { // 200: the lists grew with WordNet's words
				t.Errorf("%s: %d nouns in a role, want 6-200", f.File, len(n))
			}
		}
		for _, o := range []Outcome{Succeeded, Failed} {
			if len(f.Verbs[o].Active) == 0 {
				t.Errorf("%s: no active verb for %s", f.File, o)
			}
		}
		if n := len(f.Explains); n < 1 || n > 10 {
			t.Errorf("%s: explains its outcome by %d properties, acts and deeds, want 1-10", f.File, n)
		}
		for _, e := range f.Explains {
			if !dims[e.Dim] || (e.Sign != 1 && e.Sign != -1) {
				t.Errorf("%s: explanation %s has no dimension in properties.txt, acts.txt or deeds.txt, or a bad sign", f.File, e)
			}
		}
		if n := len(f.Predicates()); n < 2 || n > 80 {
			t.Errorf("%s: %d predicates, want 2-80", f.File, n)
		}
	}
	eat, ok := lex.Frame("eat")
	if !ok {
		t.Fatal("no frame eat: the mission sentences need it")
	}
	for p, want := range map[string][2]bool{"hungry": {true, false}, "tasty": {false, true}} {
		if got := eat.describes(p); got != want {
			t.Errorf("eat: %q describes (agent, object) %v, want %v", p, got, want)
		}
	}
	if !lex.IsMass("food") || lex.IsMass("dog") {
		t.Error("mass nouns wrong")
	}
	t.Logf("%d frames, %d dimensions, %d cells (frame, outcome, connective, negation, predicate)",
		len(lex.Frames), len(lex.Dimensions), len(lex.cells()))
}

// testdataLexicon reads the small test lexicon under testdata/lexicon (three
// frames: eat, catch, tempt) into a file system the caller may edit.
func testdataLexicon(t testing.TB) fstest.MapFS {
	t.Helper()
	root := os.DirFS("testdata/lexicon")
	fsys := fstest.MapFS{}
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(root, p)
		fsys[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatalf("reading testdata/lexicon: %v", err)
	}
	return fsys
}

// edit changes one file of a test lexicon.
type edit func(t testing.TB, fsys fstest.MapFS)

// replace replaces the one occurrence of old in file.
func replace(file, old, new string) edit {
	return func(t testing.TB, fsys fstest.MapFS) {
		t.Helper()
		f, ok := fsys[file]
		if !ok || strings.Count(string(f.Data), old) != 1 {
			t.Fatalf("test lexicon file %s does not hold %q exactly once", file, old)
		}
		f.Data = []byte(strings.Replace(string(f.Data), old, new, 1))
	}
}

// remove deletes file.
func remove(file string) edit {
	return func(t testing.TB, fsys fstest.MapFS) {
		t.Helper()
		if _, ok := fsys[file]; !ok {
			t.Fatalf("test lexicon has no file %s", file)
		}
		delete(fsys, file)
	}
}

// write sets file's whole text.
func write(file, text string) edit {
	return func(_ testing.TB, fsys fstest.MapFS) { fsys[file] = &fstest.MapFile{Data: []byte(text)} }
}

// editedLexicon is the test lexicon with edits applied.
func editedLexicon(t testing.TB, edits ...edit) fstest.MapFS {
	t.Helper()
	fsys := testdataLexicon(t)
	for _, e := range edits {
		e(t, fsys)
	}
	return fsys
}

func TestLoadLexiconGood(t *testing.T) {
	lex, err := LoadLexicon(testdataLexicon(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := lex.frameNames(); !slices.Equal(got, []string{"catch", "eat", "tempt"}) {
		t.Fatalf("frames %v, want catch, eat, tempt", got)
	}
	eat, _ := lex.Frame("eat")
	catch, _ := lex.Frame("catch")
	tempt, _ := lex.Frame("tempt")
	farm := []Place{{"in", "barn"}, {"in", "yard"}, {"near", "gate"}}
	tests := []struct {
		what      string
		got, want any
	}{
		{"eat succeeded", eat.Verbs[Succeeded], VerbForms{[]string{"ate"}, []string{"was eaten by"}, []string{"eats"}, []string{"is eaten by"}}},
		{"eat failed", eat.Verbs[Failed], VerbForms{Active: []string{"did not eat"}, Passive: []string{"was not eaten by"}}},
		{"catch succeeded active", catch.Verbs[Succeeded].Active, []string{"caught", "could catch"}},
		{"eat failed verb", eat.Verb(Failed), "did not eat"},
		{"eat agents", eat.Agents, []string{"dog", "cat", "fox"}},
		{"eat objects", eat.Objects, []string{"food", "cake", "pie"}},
		{"catch objects", catch.Objects, []string{"dog", "cat", "fox", "hare"}},
		{"eat explains", eat.Explains, []Explanation{{Agent, "hunger", 1}, {Object, "taste", 1}}},
		{"catch explains", catch.Explains, []Explanation{{Agent, "speed", 1}, {Object, "speed", -1}}},
		{"eat predicates", eat.Predicates(), []string{"hungry", "starving", "full", "tasty", "fresh", "stale"}},
		{"catch predicates", catch.Predicates(), []string{"fast", "quick", "slow"}},
		{"eat agent dimensions", eat.Dimensions(Agent), []string{"hunger"}},
		{"eat agent places", eat.AgentPlaces, farm},
		{"eat object places", eat.ObjectPlaces, []Place{{"on", "plate"}}},
		{"eat scene places", eat.ScenePlaces, farm},
		{"catch object places", catch.ObjectPlaces, []Place(nil)},
		{"tempt voices (passive, active)", [2]bool{tempt.hasVoice(true), tempt.hasVoice(false)}, [2]bool{false, true}},
		{"eat voices (passive, active)", [2]bool{eat.hasVoice(true), eat.hasVoice(false)}, [2]bool{true, true}},
		{"hunger poles", lex.Dimensions[0].Poles, [2][]string{{"hungry", "starving"}, {"full"}}},
		{"attributes", lex.Attributes, []string{"brown", "old"}},
		{"unknown words", lex.UnknownWords(), []UnknownWord{{"famished", "hungry", 2}, {"zippy", "fast", 3}}},
		{"nouns (barn, hare, hungry)", [3]bool{lex.IsNoun("barn"), lex.IsNoun("hare"), lex.IsNoun("hungry")}, [3]bool{true, true, false}},
		{"candidates (barn, hare)", [2]bool{lex.IsCandidate("barn"), lex.IsCandidate("hare")}, [2]bool{false, true}},
		{"mass (food, cake)", [2]bool{lex.IsMass("food"), lex.IsMass("cake")}, [2]bool{true, false}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.what, tt.got, tt.want)
		}
	}
	if d, ok := eat.DimensionOf("full"); d != "hunger" || !ok {
		t.Errorf("eat: DimensionOf(full) = %q, %v", d, ok)
	}
	if _, ok := eat.DimensionOf("fast"); ok {
		t.Error("eat: DimensionOf(fast) found a dimension eat does not use")
	}
}

// Noun lists overlap ("desk" is a load and a support): a frame that names
// both lists has the noun once, where naming a noun twice is an error.
func TestOverlappingListsGiveANounOnce(t *testing.T) {
	lex := testLexicon(t)
	catch, _ := lex.Frame("catch")
	if n := len(slices.DeleteFunc(slices.Clone(catch.NotObjects), func(w string) bool { return w != "desk" })); n != 1 {
		t.Errorf("catch's not objects (@loads, @supports, ...) hold \"desk\" %d times, want once", n)
	}
}

// The optional word files may be missing: no unknown words, no attributes.
func TestLoadLexiconOptionalFiles(t *testing.T) {
	lex, err := LoadLexicon(editedLexicon(t, remove("unknown.txt"), remove("attributes.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(lex.UnknownWords()) != 0 || len(lex.Attributes) != 0 {
		t.Errorf("unknown words %v, attributes %v; want none", lex.UnknownWords(), lex.Attributes)
	}
}

func TestLoadLexiconErrors(t *testing.T) {
	const (
		eat   = "frames/eat.txt"
		catch = "frames/catch.txt"
		props = "properties.txt"
	)
	tests := []struct {
		name  string
		edits []edit
		file  string
		line  int
		want  string
	}{
		// One frame file.
		{"unknown key", []edit{replace(eat, "succeeded present:", "succeeded presnt:")}, eat, 4, `unknown key "succeeded presnt"`},
		{"no colon", []edit{replace(eat, "agents: @animals", "agents @animals")}, eat, 8, "expected \"key: values\""},
		{"duplicate key", []edit{replace(eat, "scene places: @farm\n", "scene places: @farm\nagents: @animals\n")}, eat, 15, `"agents" given twice`},
		{"missing succeeded", []edit{replace(eat, "succeeded: ate\n", "")}, eat, 0, `missing required key "succeeded"`},
		{"missing objects", []edit{replace(eat, "objects: @foods, pie\n", "")}, eat, 0, `missing required key "objects"`},
		{"empty item", []edit{replace(eat, "@foods, pie", "@foods, , pie")}, eat, 9, "empty item"},
		{"upper case", []edit{replace(eat, "@foods, pie", "@foods, Pie")}, eat, 9, `"Pie" must be lower-case`},
		{"reserved it", []edit{replace(eat, "@foods, pie", "@foods, it")}, eat, 9, `"it" is reserved`},
		{"duplicate word", []edit{replace(eat, "@foods, pie", "@foods, pie, pie")}, eat, 9, `"pie" listed twice (by name and by name)`},
		{"noun twice via list", []edit{replace(eat, "@foods, pie", "@foods, cake")}, eat, 9, `"cake" listed twice (@foods and by name)`},
		{"two-word noun", []edit{replace(eat, "@foods, pie", "@foods, apple pie")}, eat, 9, `noun "apple pie" must be a single word`},
		{"template word noun", []edit{replace(eat, "@foods, pie", "@foods, the")}, eat, 9, `noun "the" is a word the sentence shapes use`},
		{"passive without by", []edit{replace(eat, "was eaten by", "was eaten")}, eat, 3, `succeeded passive "was eaten" must end with "by"`},
		{"failed passive without by", []edit{replace(catch, "could not be caught by", "could not be caught")}, catch, 6, `failed passive "could not be caught" must end with "by"`},
		{"present passive alone", []edit{replace(eat, "succeeded present: eats\n", "")}, eat, 4, `"succeeded present passive" needs the present and the passive too`},
		{"list where none allowed", []edit{replace(eat, "succeeded: ate", "succeeded: @animals")}, eat, 2, `"@animals": key "succeeded" takes no @list`},
		{"word in places", []edit{replace(eat, "agent places: @farm", "agent places: barn")}, eat, 12, "takes only @lists"},
		{"missing list", []edit{replace(catch, "@animals, hare", "@beasts")}, catch, 8, "no file nouns/beasts.txt"},
		{"bad list name", []edit{replace(catch, "@animals, hare", "@Beasts")}, catch, 8, "list names are lower-case"},
		{"place is candidate", []edit{replace(catch, "@animals, hare", "@animals, barn")}, catch, 11, `place noun "barn" is an agent or object of this frame`},
		{"goal without to", []edit{replace(catch, "agent places: @farm", "goal places: @farm")}, catch, 11, `goal place "in the barn" must take the preposition "to"`},
		{"unknown dimension", []edit{replace(eat, "agent: hunger +", "agent: hungriness +")}, eat, 10, `no dimension "hungriness" in properties.txt`},
		{"explanation without sign", []edit{replace(eat, "agent: hunger +", "agent: hunger")}, eat, 10, `"hunger": want a dimension and + or -`},
		{"explanation with a bad sign", []edit{replace(eat, "object: taste +", "object: taste up")}, eat, 11, `"taste up": want a dimension and + or -`},
		{"nothing explains", []edit{replace(eat, "agent: hunger +\nobject: taste +\n", "")}, eat, 0, `needs an "agent" or "object" line`},
		{"two dimensions share a word", []edit{replace(catch, "agent: speed +", "agent: speed +, strength +"), replace(catch, "object: speed -", "object: speed -, sturdiness +")},
			catch, 10, `"strong" is a word of both "strength" and "sturdiness"`},
		{"verb word is a noun", []edit{replace(eat, "failed: did not eat", "failed: did not dog")}, eat, 6, `"dog" is a noun elsewhere in the lexicon`},
		// Across files.
		{"same sign for both roles", []edit{replace(catch, "object: speed -", "object: speed +")}, catch, 0,
			`"fast" never decides: "speed" favours the same outcome for agent and object`},
		{"predicate describes one role only", []edit{remove("frames/tempt.txt")}, props, 0,
			`"hungry" describes only the agent (in eat): the word alone would tell the answer; give it a frame where it describes the object`},
		{"predicate is a noun", []edit{replace(props, "tasty, fresh", "tasty, fresh, cake")}, props, 0, `"cake" (a property of eat) is a noun elsewhere`},
		{"attribute is a predicate", []edit{replace("attributes.txt", "brown, old", "brown, fast")}, "attributes.txt", 0, `"fast" is a predicate or a noun`},
		{"unknown word used in a frame", []edit{replace("unknown.txt", "zippy: fast", "slow: fast")}, "unknown.txt", 3, `"slow" is used in the lexicon`},
		{"unknown means nothing", []edit{replace("unknown.txt", "zippy: fast", "zippy: speedy")}, "unknown.txt", 3, `"zippy" means "speedy", which is not a predicate`},
		{"unknown two meanings", []edit{replace("unknown.txt", "zippy: fast", "zippy: fast, quick")}, "unknown.txt", 3, "exactly one known predicate"},
		{"unknown mass noun", []edit{replace("mass.txt", "food\n", "food\nwater\n")}, "mass.txt", 3, `"water" is not a noun of any frame`},
		// Word lists.
		{"list without comment", []edit{write("nouns/animals.txt", "dog, cat\n")}, "nouns/animals.txt", 0, "must open with a # comment"},
		{"places without comment", []edit{write("places/farm.txt", "in: barn\n")}, "places/farm.txt", 0, "must open with a # comment"},
		{"place line without preposition", []edit{write("places/farm.txt", "# places on a farm here\nbarn, yard\n")}, "places/farm.txt", 2, "expected \"preposition: nouns\""},
		{"empty noun list", []edit{write("nouns/animals.txt", "# animals that chase each other\n")}, "nouns/animals.txt", 0, "lists no nouns"},
		{"properties without comment", []edit{write(props, "speed: fast | slow\n")}, props, 0, "must open with a # comment"},
		{"dimension without poles", []edit{replace(props, "speed: fast, quick | slow", "speed: fast, quick, slow")}, props, 5, "expected \"dimension: + words | - words\""},
		{"dimension twice", []edit{replace(props, "strength: strong | weak", "speed: strong | weak")}, props, 6, `dimension "speed" defined twice`},
		{"dimension without words", []edit{replace(props, "strength: strong | weak", "strength: |")}, props, 6, `dimension "strength" has no words`},
		{"properties missing", []edit{remove(props)}, props, 0, "missing"},
		// Acts and nouns a verb cannot take.
		{"act named as a property", []edit{write("acts.txt", "# deeds done to it\nspeed: helped |\n")}, "acts.txt", 2, `dimension "speed" defined twice`},
		{"not objects without lead", []edit{replace(eat, "objects: @foods, pie", "objects: @foods, pie\nnot objects: fox")}, eat, 10, `"not objects" needs "lead"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadLexicon(editedLexicon(t, tt.edits...))
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
	if _, err := LoadLexicon(editedLexicon(t, remove("mass.txt"))); err == nil || !strings.Contains(err.Error(), "mass.txt") {
		t.Errorf("no mass.txt: error %v", err)
	}
}

func TestGenerateFromLexiconWithoutMission(t *testing.T) {
	lex, err := LoadLexicon(editedLexicon(t, replace("nouns/animals.txt", "dog, cat,", "wolf, cat,")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateFrom(lex, DefaultConfig(), 1); err == nil || !strings.Contains(err.Error(), MissionHungry) {
		t.Errorf("error = %v, want it to name the mission sentence", err)
	}
}

// A lexicon that cannot make enough distinct sentences is an error that
// says so, not a loop: draw gives up when its source repeats itself.
func TestDrawGivesUpOnTooFewSentences(t *testing.T) {
	g := &generator{}
	same := Example{Text: "The dog ate the food because it was hungry.", Tokens: strings.Fields("the dog ate the food because it was hungry .")}
	_, err := g.draw("train", 2, map[string]bool{}, func() (Example, bool) { return same, true })
	if err == nil || !strings.Contains(err.Error(), "too few combinations") {
		t.Errorf("error = %v, want too few combinations", err)
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
