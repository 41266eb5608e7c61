package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/cmd/internal/cli"
	"itformer/inference"
	"itformer/inference/inferencetest"
	"itformer/model"
)

const fixture = "testdata/items.tsv"

// scoreFixture runs the command with -json on the fixture (testdata/README.txt).
func scoreFixture(t *testing.T) document {
	t.Helper()
	var out bytes.Buffer
	if err := run([]string{"-json", fixture}, &out); err != nil {
		t.Fatal(err)
	}
	var doc document
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("-json output is not JSON: %v\n%s", err, out.String())
	}
	return doc
}

// Every item is scored as infer answers it: the answers, the guesses, the
// unknown words and the refusals, and the counts agree with them.
func TestScoresEveryItem(t *testing.T) {
	doc := scoreFixture(t)
	if len(doc.Items) != 6 || doc.Model != "the embedded default model" || doc.File != fixture {
		t.Fatalf("scored %d items of %s with %s", len(doc.Items), doc.File, doc.Model)
	}
	byID := map[string]Result{}
	for _, r := range doc.Items {
		byID[r.ID] = r
	}
	for _, id := range []string{"001", "002", "003.it2"} {
		r := byID[id]
		if !r.Right || r.Guess || r.Refused != "" || len(r.Unknown) != 0 || r.TwoChoiceRight == nil || !*r.TwoChoiceRight {
			t.Errorf("%s: %+v; want right, sure, every word known", id, r)
		}
	}
	if r := byID["003.it2"]; r.Pronoun != 1 || r.Answer != "box" {
		t.Errorf(`003.it2 asks about the second "it": pronoun %d, answer %q`, r.Pronoun, r.Answer)
	}
	if r := byID["004"]; !r.Guess || strings.Join(r.Unknown, " ") != "zorblax glorpy" {
		t.Errorf("004, with words no model knows: guess %v, unknown %q", r.Guess, r.Unknown)
	}
	if r := byID["005"]; !strings.Contains(r.Refused, "this model reads at most") || r.Answer != "" {
		t.Errorf("005, longer than the model reads: refused %q, answer %q", r.Refused, r.Answer)
	}
	if r := byID["006.it3"]; r.Refused != `the id asks about an "it" the sentence does not have: "it" number 3 of 1` {
		t.Errorf("006.it3: refused %q", r.Refused)
	}
	s := doc.Summary
	want := Summary{Items: 6, WordsKnown: 4, Refused: 2, Answered: 4, Right: s.Right, Sure: 3, SureRight: 3, TwoChoice: 4, TwoChoiceRight: s.TwoChoiceRight}
	if s.Items != want.Items || s.WordsKnown != want.WordsKnown || s.Refused != want.Refused || s.Answered != want.Answered ||
		s.Sure != want.Sure || s.SureRight != want.SureRight || s.TwoChoice != want.TwoChoice || s.Right < 3 {
		t.Errorf("summary %+v", s)
	}
	if s.GuessRate != float64(s.Answered-s.Sure)/float64(s.Answered) || s.AccuracyAll != float64(s.Right)/6 {
		t.Errorf("rates disagree with the counts: %+v", s)
	}
	if len(s.Why) != 2 || s.Why[errFewPronouns.Error()] != 1 {
		t.Errorf("refusals by why: %v", s.Why)
	}
	// 005 says "then" ten times: one item. As common, in alphabetical order.
	if want := []WordCount{{"glorpy", 1}, {"then", 1}, {"zorblax", 1}}; !reflect.DeepEqual(s.Unknown, want) {
		t.Errorf("unknown words %v, want %v", s.Unknown, want)
	}
}

// The words the model does not know are counted by the items that hold
// them (a word twice in one item counts once), the most common first.
func TestCountUnknown(t *testing.T) {
	results := []Result{{Unknown: []string{"i", "of", "i"}}, {Unknown: []string{"of"}}, {}, {Unknown: []string{"then", "of", "i"}}}
	want := []WordCount{{"of", 3}, {"i", 2}, {"then", 1}}
	if got := countUnknown(results); !reflect.DeepEqual(got, want) {
		t.Errorf("countUnknown = %v, want %v", got, want)
	}
	if got := commonWords(want, 2); got != "of (3), i (2)" {
		t.Errorf("commonWords = %q", got)
	}
}

// The text output prints each count, then each refused item and why.
func TestTextOutput(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{fixture}, &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		fixture + ": 6 items, scored with the embedded default model",
		"words known:   4 of 6 items have every word known to the model",
		"unknown words: 3, the most common: glorpy (1), then (1), zorblax (1)",
		"refused:       2 (1 longer than the model's ",
		"answered:      4",
		"not guesses:   3 answers not flagged as guesses, 3 right (100.0%)",
		"guess rate:    1 of 4 answers flagged as guesses (25.0%)",
		"two-choice:    ",
		"refused items:\n  fixture 005: the sentence has 90 tokens; this model reads at most ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
}

// Mistakes in how it is called, and files that are not benchmark files,
// are refused with what is wrong and where.
func TestRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := "fixture\t001\tA dog ate the food because it was hungry.\tdog\tfood\n"
	for _, c := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{nil, "give one benchmark file", true},
		{[]string{"a.tsv", "b.tsv"}, "give one benchmark file", true},
		{[]string{filepath.Join(dir, "missing.tsv")}, "no file " + filepath.Join(dir, "missing.tsv") + ": give the path of a benchmark file", false},
		{[]string{write("short.tsv", good+"fixture\t002\tA dog ate it.\tdog\n")}, "short.tsv:2: 4 tab-separated fields, want 5", false},
		{[]string{write("id.tsv", "fixture\t001.itx\tA dog ate the food because it was hungry.\tdog\tfood\n")}, `id.tsv:1: id "001.itx": after .it comes which "it"`, false},
		{[]string{write("absent.tsv", "fixture\t001\tA dog ate it.\tdog\tfood\n")}, `absent.tsv:1: head word "food" is not a word of the sentence`, false},
		{[]string{write("same.tsv", "fixture\t001\tA dog saw a dog and it ran.\tdog\tdog\n")}, `same.tsv:1: the correct and the other head word are both "dog"`, false},
		{[]string{write("case.tsv", "fixture\t001\tA dog ate it.\tDog\tfood\n")}, `case.tsv:1: head word "Dog" is not one lower-case word`, false},
		{[]string{write("empty.tsv", "\n")}, "empty.tsv holds no item", false},
		{[]string{""}, "the benchmark file's path is empty", true},
		{[]string{write("tabs.tsv", "\t\t\t\t\n")}, "tabs.tsv:1: the source (field 1) is empty", false},
		{[]string{write("noid.tsv", "fixture\t \tA dog ate it.\tdog\tfood\n")}, "noid.tsv:1: the id (field 2) is empty", false},
		{[]string{write("it.tsv", "fixture\t001\tA dog ate it.\tit\tdog\n")}, `it.tsv:1: head word "it" is the pronoun`, false},
		{[]string{write("twice.tsv", good+"\n"+good)}, `twice.tsv:3: source "fixture" and id "001" are those of line 1`, false},
		{[]string{write("long.tsv", good+strings.Repeat("x", maxLineSize+1)+"\n")}, "long.tsv:2: the line is longer than 64 kB, the limit for a line", false},
		{[]string{write("flag.tsv", good), "-json"}, `"-json" comes after the file: flags must come before the file`, true},
	} {
		err := run(c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, cli.ErrUsage) != c.usage {
			t.Errorf("%q: got %v, want %q (a usage mistake: %v)", c.args, err, c.want, c.usage)
		}
	}
}

// An item names the words written: a word read as its WordNet relative
// ("puppy" as "dog") is scored, listed and compared as written.
func TestItemsAreScoredAsTyped(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	r := scoreItem(p, p.Each(), Item{ID: "puppy", Sentence: "The puppy ate the food because it was famished", Correct: "puppy", Other: "food"})
	if r.Answer != "puppy" || !r.Right || strings.Join(r.Candidates, " ") != "puppy food" || r.TwoChoiceRight == nil || !*r.TwoChoiceRight {
		t.Errorf("%+v; want puppy, right, between puppy and food", r)
	}
}

// Two-choice compares the ensemble's probabilities: each word's mean over
// the members, each member answering alone.
func TestTwoChoiceAveragesTheMembers(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	members := p.Each()
	if len(members) != p.Members() || len(members) < 2 {
		t.Fatalf("Each gave %d predictors for %d members; the default model has several", len(members), p.Members())
	}
	it := Item{Sentence: "The horse could see over the wall because it was tall.", Correct: "horse", Other: "wall"}
	correct, other, ok := meanProbabilities(members, it)
	if !ok {
		t.Fatal("no two-choice probabilities for an item whose words are both in the sentence")
	}
	var wantC, wantO float64
	for k, m := range members {
		res, err := m.Resolve(it.Sentence)
		if err != nil {
			t.Fatal(err)
		}
		pr := res.Predictions[0]
		if pr.Confidence.Members != nil {
			t.Fatalf("member %d answered as an ensemble", k+1)
		}
		c, _ := bestProbability(pr, it.Correct)
		o, _ := bestProbability(pr, it.Other)
		wantC, wantO = wantC+c/float64(len(members)), wantO+o/float64(len(members))
	}
	if math.Abs(correct-wantC) > 1e-12 || math.Abs(other-wantO) > 1e-12 || correct <= other {
		t.Errorf("mean probabilities %v, %v; want %v, %v, the correct word ahead", correct, other, wantC, wantO)
	}
}

// Twins are neighbours about the same two words, the answer swapped, in as
// many words with at most two different.
func TestTwins(t *testing.T) {
	item := func(source, sentence, correct, other string) Item {
		return Item{Source: source, Sentence: sentence, Correct: correct, Other: other}
	}
	a := item("x", "The dog ate the food because it was hungry.", "dog", "food")
	for _, tc := range []struct {
		name string
		b    Item
		want bool
	}{
		{"one word, the answer swapped", item("x", "The dog ate the food because it was tasty.", "food", "dog"), true},
		{"two words", item("x", "The dog ate the food as it was tasty.", "food", "dog"), true},
		{"three words", item("x", "A dog ate a food because it was tasty.", "food", "dog"), false},
		{"the same answer", item("x", "The dog ate the food because it was starving.", "dog", "food"), false},
		{"another source", item("y", "The dog ate the food because it was tasty.", "food", "dog"), false},
		{"another length", item("x", "The dog ate the food because it was very tasty.", "food", "dog"), false},
		{"other words", item("x", "The cat ate the food because it was tasty.", "food", "cat"), false},
	} {
		if got := twins(a, tc.b); got != tc.want {
			t.Errorf("%s: twins %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Each source is counted apart, twins within it only; one source gets no
// breakdown.
func TestBySource(t *testing.T) {
	result := func(source, sentence, correct, other string, right, guess bool) Result {
		return Result{Item: Item{Source: source, Sentence: sentence, Correct: correct, Other: other}, Right: right, Guess: guess, Answer: correct}
	}
	results := []Result{
		result("a", "The dog ate the food because it was hungry.", "dog", "food", true, false),
		result("a", "The dog ate the food because it was tasty.", "food", "dog", true, true),
		result("b", "The dog ate the food because it was tasty.", "food", "dog", false, false),
	}
	got := bySource(results)
	if len(got) != 2 || got[0].Source != "a" || got[1].Source != "b" {
		t.Fatalf("sources %+v", got)
	}
	if a := got[0].Summary; a.Items != 2 || a.Right != 2 || a.Sure != 1 || a.Twins != 1 || a.TwinsRight != 1 {
		t.Errorf("source a: %+v", a)
	}
	if b := got[1].Summary; b.Items != 1 || b.Right != 0 || b.Twins != 0 {
		t.Errorf("source b: %+v", b)
	}
	if all := summarise(results); all.Twins != 1 || all.Items != 3 {
		t.Errorf("all: twins %d, items %d; want 1 and 3 (no twins across sources)", all.Twins, all.Items)
	}
	if one := bySource(results[:2]); one != nil {
		t.Errorf("one source: %+v, want none", one)
	}
}

// A model whose output is not finite is an error that stops the command,
// as infer's is, not a refusal of the items it broke on beside an accuracy
// over the rest; whether one word's vector overflows or every weight does.
func TestBrokenModelIsAnError(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, dir string }{
		{`"hungry" overflows (item 001 only)`, hugeWordVector(t, p.Checkpoint(), "hungry")},
		{"every weight overflows", inferencetest.HugeWeights(t, p.Checkpoint())},
	} {
		var out bytes.Buffer
		err := run([]string{"-run", c.dir, fixture}, &out)
		if !errors.Is(err, inference.ErrBrokenModel) || !strings.Contains(err.Error(), "item fixture 001: the model's output is not") {
			t.Errorf("%s: %v, want the model reported broken at item 001", c.name, err)
		}
		if out.Len() > 0 {
			t.Errorf("%s: printed scores:\n%s", c.name, out.String())
		}
	}
}

// hugeWordVector writes base, one model, with one value of word's vector
// 1e300 (finite, so it loads; a sentence with the word overflows), and
// returns its folder.
func hugeWordVector(t *testing.T, base *checkpoint.Checkpoint, word string) string {
	t.Helper()
	p, err := model.NewParams(base.Meta.Model, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range base.Params.Specs() {
		if err := p.SetValues(s.Name, base.Params.Values(s.Name)); err != nil {
			t.Fatal(err)
		}
	}
	id, ok := base.Vocab.ID(word)
	if !ok {
		t.Fatalf("the model does not know %q", word)
	}
	emb := p.Values("embedding")
	emb[id*base.Meta.Model.DModel] = 1e300
	if err := p.SetValues("embedding", emb); err != nil {
		t.Fatal(err)
	}
	meta := base.Meta
	meta.Config.Train.Members = 0 // the folder has no members/ beside it
	dir := t.TempDir()
	if err := checkpoint.Save(dir, meta, p); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The outside sets kept in docs/ are read as the command reads any file: a
// line broken by an edit is caught here, not by whoever scores them next.
func TestTheKeptSetsAreWellFormed(t *testing.T) {
	paths, err := filepath.Glob("../../docs/*.tsv")
	if err != nil || len(paths) < 3 {
		t.Fatalf("docs/*.tsv: %v (%d files)", err, len(paths))
	}
	for _, path := range paths {
		if _, err := readItems(path); err != nil {
			t.Error(err)
		}
	}
}
