package data

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestDefaultLexicon(t *testing.T) {
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	if len(lex.Frames) < 8 {
		t.Errorf("%d frames, want at least 8", len(lex.Frames))
	}
	for _, f := range lex.Frames {
		for _, n := range [][]string{f.Agents, f.Objects} {
			if len(n) < 6 || len(n) > 15 {
				t.Errorf("%s: %d nouns in a role, want 6-15", f.File, len(n))
			}
		}
		for _, p := range [][]string{f.AgentPredicates, f.ObjectPredicates} {
			if len(p) < 2 || len(p) > 5 {
				t.Errorf("%s: %d predicates in a role, want 2-5", f.File, len(p))
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
