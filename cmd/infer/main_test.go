package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/cmd/internal/cli"
	"itformer/data"
	"itformer/inference"
	"itformer/inference/inferencetest"
	"itformer/model"
)

func TestMissionSentenceAndTwin(t *testing.T) {
	cases := []struct{ sentence, want string }{
		{"A dog ate the food because it was hungry", "dog"},
		{"A dog ate the food because it was tasty", "food"},
		{"The food was eaten by the dog because it was hungry.", "dog"},
		{"Because it was tasty, the dog ate the food.", "food"},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		if err := run([]string{tc.sentence}, &out, &errOut); err != nil {
			t.Fatalf("%q: %v", tc.sentence, err)
		}
		first := strings.SplitN(out.String(), "\n", 2)[0]
		if !strings.Contains(first, `refers to "`+tc.want+`"`) {
			t.Errorf("%q: first line %q, want the answer %q", tc.sentence, first, tc.want)
		}
	}
}

// The mission's family: "A dog ate the X because it was hungry" (dog) and
// "... tasty" (X) for every food the eat frame takes. A model that knows the
// mission sentence but not its family learned a sentence, not the meaning:
// a model tried for the default had one member that answered X in 19 of the
// 54 hungry ones, and the three flagged 15 (docs/results.md). No answer may
// be stated wrong, and at most a tenth of each family may be flagged.
func TestMissionFamily(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	lex, err := data.DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	eat, ok := lex.Frame("eat")
	if !ok {
		t.Fatal("the lexicon has no eat frame")
	}
	for _, family := range []struct {
		predicate string
		eaterIsIt bool // "it" is the dog, not the food
	}{{"hungry", true}, {"tasty", false}} {
		flagged := 0
		for _, food := range eat.Objects {
			want := food
			if family.eaterIsIt {
				want = "dog"
			}
			s := fmt.Sprintf("A dog ate the %s because it was %s", food, family.predicate)
			res, err := p.Resolve(s)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			a := res.Predictions[0]
			switch {
			case a.Confidence.Guess:
				flagged++
			case a.TypedAnswer != want:
				t.Errorf("%q: stated %q, want %q", s, a.TypedAnswer, want)
			}
		}
		if 10*flagged > len(eat.Objects) {
			t.Errorf("%q: %d of %d foods flagged as guesses, want at most a tenth", family.predicate, flagged, len(eat.Objects))
		}
	}
}

// The mission sentence's answer, as README quotes it: a confident answer
// over known words prints no line about guessing.
func TestConfidentAnswerIsPrintedAsBefore(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"A dog ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(out.String(), "\n", 3)
	if !strings.HasPrefix(lines[0], `"it" (word 7) refers to "dog" (`) || !strings.HasPrefix(lines[1], "candidates: dog ") {
		t.Errorf("output begins\n%s\n%s\nwant the answer, then the candidates", lines[0], lines[1])
	}
}

// Each answer is printed as Resolve judges it: a guess says so on its
// answer line and why right under it, a note follows a confident answer
// with unknown words. At least one of these sentences must be a guess
// ("truck" is the only noun, and today's model puts its weight on "fresh").
func TestGuessIsSaidPlainly(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	guesses := 0
	for _, s := range []string{"truck it fresh buried", "A dog ate the food because it was famished", "The man lifted the boy because it was strong"} {
		res, err := p.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		if err := run([]string{s}, &out, &errOut); err != nil {
			t.Fatal(err)
		}
		a, c := res.Predictions[0], res.Predictions[0].Confidence
		verb, second := "refers to", "candidates: "
		switch {
		case c.Guess:
			verb, second = "might refer to", "this is a guess: "+c.Reason
			guesses++
		case c.Reason != "":
			second = "note: " + c.Reason
		}
		lines := strings.SplitN(out.String(), "\n", 3)
		first := fmt.Sprintf("%q (word %d) %s %q (", "it", a.Pronoun+1, verb, a.AnswerWord)
		if !strings.HasPrefix(lines[0], first) || !strings.HasPrefix(lines[1], second) {
			t.Errorf("%q (confidence %+v): printed\n%s\n%s\nwant\n%s…\n%s…", s, c, lines[0], lines[1], first, second)
		}
	}
	if guesses == 0 {
		t.Error("the default model answers none of these sentences with a guess; add one it is unsure of")
	}
}

// The two lines, on predictions made up for the purpose: the rule's
// reason under the answer, or a softer note for a confident answer that
// has unknown words outside the candidates.
func TestRenderAnswer(t *testing.T) {
	words := strings.Fields("a dog ate the food because it was famished")
	cases := []struct {
		c     inference.Confidence
		typed string // the answer as typed
		want  string
	}{
		{inference.Confidence{Guess: true, Reason: "why"}, "dog", "\"it\" (word 7) might refer to \"dog\" (55.0%)\nthis is a guess: why\n"},
		{inference.Confidence{Reason: "unknown"}, "dog", "\"it\" (word 7) refers to \"dog\" (55.0%)\nnote: unknown\n"},
		{inference.Confidence{}, "dog", "\"it\" (word 7) refers to \"dog\" (55.0%)\n"},
		{inference.Confidence{Reason: "rests"}, "puppy", "\"it\" (word 7) refers to \"puppy\" (55.0%), read as \"dog\"\nnote: rests\n"},
	}
	for _, tc := range cases {
		p := inference.Prediction{Tokens: words, Typed: slices.Clone(words), Pronoun: 6, Answer: 1, AnswerWord: "dog", TypedAnswer: tc.typed,
			WordProbs: []float64{0, 0.55, 0, 0, 0.45, 0, 0, 0, 0}, Confidence: tc.c}
		p.Typed[1] = tc.typed
		var out bytes.Buffer
		renderAnswer(&out, p)
		if out.String() != tc.want {
			t.Errorf("%+v: printed\n%s\nwant\n%s", tc.c, out.String(), tc.want)
		}
	}
}

func TestJSONOutput(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-json", "A dog ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var res inference.Resolution
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	p := res.Predictions[0]
	if p.AnswerWord != "dog" || p.Tokens[p.Pronoun] != "it" || p.Candidates[0].Word != "dog" {
		t.Fatalf("unexpected result %+v", p)
	}
	// One row of attention per layer and head, and the supervised head named
	// as the model names it.
	m, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	if len(p.Attention) != c.Layers {
		t.Errorf("attention for %d layers, want %d", len(p.Attention), c.Layers)
	}
	for l, heads := range p.Attention {
		if len(heads) != c.Heads {
			t.Errorf("layer %d: attention for %d heads, want %d", l+1, len(heads), c.Heads)
		}
		for h, row := range heads {
			if len(row) != len(p.Tokens) {
				t.Errorf("layer %d head %d: %d weights for %d words", l+1, h+1, len(row), len(p.Tokens))
			}
		}
	}
	if sl, sh, ok := m.SupervisedHead(); !ok || p.SupervisedLayer != sl || p.SupervisedHead != sh {
		t.Errorf("supervised layer %d head %d (0-based), want %d %d (ok %v)", p.SupervisedLayer, p.SupervisedHead, sl, sh, ok)
	}
	// Whether the answer is a guess, and the rule that says so.
	var doc struct {
		GuessRule string `json:"guess_rule"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || !strings.Contains(doc.GuessRule, "below 0.8") ||
		p.Confidence.Guess || p.Confidence.TopProbability < 0.99 || p.Confidence.CandidateMass < 0.95 { // the embedded model: 0.963
		t.Errorf("confidence %+v, rule %q: want a confident answer and the rule", p.Confidence, doc.GuessRule)
	}
	// The new views, with their definitions.
	a := p.Attribution
	if a == nil || len(a.IntegratedGradients) != len(p.Tokens) || len(a.GradientXInput) != len(p.Tokens) || !a.Complete || a.Target != p.Answer {
		t.Errorf("attribution %+v", a)
	}
	if len(p.Rollout) != c.Layers || len(p.Rollout[0]) != len(p.Tokens) {
		t.Errorf("rollout has %d rows", len(p.Rollout))
	}
	var defs struct {
		AttributionRule string `json:"attribution_rule"`
		RolloutRule     string `json:"rollout_rule"`
		AblationRule    string `json:"ablation_rule"`
	}
	if err := json.Unmarshal(out.Bytes(), &defs); err != nil || !strings.Contains(defs.AttributionRule, "trapezoid") ||
		!strings.Contains(defs.RolloutRule, "identity") || !strings.Contains(defs.AblationRule, "zeroed") {
		t.Errorf("definitions %+v", defs)
	}
	// The text counts words from 1, JSON from 0: the document must say so.
	var positions struct{ Positions string }
	if err := json.Unmarshal(out.Bytes(), &positions); err != nil || !strings.Contains(positions.Positions, "0-based") || p.Pronoun != 6 {
		t.Errorf("positions %q (pronoun at %d): the JSON does not say its positions are 0-based", positions.Positions, p.Pronoun)
	}
}

func TestUnknownWordsWarn(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"The zorblax ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "zorblax") {
		t.Fatalf("no warning naming the unknown word; stderr: %q", errOut.String())
	}
}

// The issue this answers: "it's" hid the pronoun (exit 1) and "didn't" was
// read as <unk>. A contraction the vocabulary lacks is read as its words, and
// the output says so and counts words in the tokens it shows; one the corpus
// writes ("didn't", since the meaning corpus) stays one known word.
func TestContractionsAreReadAsTheirWords(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"The dog didn't eat the food because it's full"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if want := "note: read \"it's\" as \"it is\"\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
	if !strings.HasPrefix(out.String(), `"it" (word 8) refers to`) || !strings.Contains(out.String(), "the dog didn't eat the food because it is full") {
		t.Errorf("the text does not count words in the tokens it shows:\n%s", out.String())
	}
	out.Reset()
	if err := run([]string{"-json", "The dog ate the food because it's hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tokens       []string
		Contractions []data.Contraction
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Contractions) != 1 || doc.Contractions[0].String() != `"it's" as "it is"` || doc.Contractions[0].Position != 6 ||
		doc.Tokens[6] != "it" || doc.Tokens[7] != "is" {
		t.Errorf("JSON contractions %+v, tokens %q", doc.Contractions, doc.Tokens)
	}
}

func TestBadInput(t *testing.T) {
	m, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	maxLen := m.Config().MaxLen
	// tokens returns a sentence of n tokens that ends "because it was hungry".
	tokens := func(n int) string {
		words := strings.Fields(strings.Repeat("the dog ate ", n))
		return strings.Join(append(words[:n-4], "because", "it", "was", "hungry"), " ")
	}
	var out, errOut bytes.Buffer
	if err := run([]string{tokens(maxLen)}, &out, &errOut); err != nil {
		t.Errorf("a sentence of max_len = %d tokens: %v", maxLen, err)
	}
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, checkpoint.FileName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no sentence", nil, "give a sentence"},
		{"empty", []string{""}, "empty"},
		{"spaces", []string{"   "}, "empty"},
		{"no pronoun", []string{"The dog ate the food"}, `no pronoun "it"`},
		{"only the pronoun", []string{"it"}, "no word besides the pronoun"},
		{"no noun", []string{"it it"}, `no noun for "it" to refer to in "it it"`},
		{"only punctuation", []string{". , it . ,"}, `no noun for "it" to refer to`},
		{"too long", []string{tokens(maxLen + 1)}, fmt.Sprintf("has %d tokens; this model reads at most %d", maxLen+1, maxLen)},
		{"missing checkpoint", []string{"-run", filepath.Join(broken, "nope"), "it was hungry"}, "nope"},
		{"broken checkpoint", []string{"-run", broken, "it was hungry"}, "not a valid checkpoint"},
		{"unknown flag", []string{"-frobnicate", "x"}, "flag provided but not defined"},
		// Go's flag package stops at the sentence: a flag after it would be words.
		{"flag after the sentence", []string{"A dog ate the food because it was hungry", "-json"}, `"-json" comes after the sentence: flags must come before the sentence`},
		{"double-dash flag after the words", []string{"A", "dog", "ate", "it", "--json"}, `"--json" comes after the sentence`},
		{"flag after the twins", []string{"-twin", "it was hungry", "it was tasty", "-json"}, `"-json" comes after the sentences`},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error()+errOut.String(), tc.want) {
			t.Errorf("%s: err %v (stderr %q), want a message containing %q", tc.name, err, errOut.String(), tc.want)
		}
		if tc.name == "no sentence" && !errors.Is(err, cli.ErrUsage) {
			t.Errorf("no sentence: want a usage error (exit 2), got %v", err)
		}
	}
}

func TestHTMLPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attention.html")
	var out, errOut bytes.Buffer
	if err := run([]string{"-html", path, "A dog ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), `"it" (word 7) refers to "dog"`) {
		t.Errorf("-html changed the text output:\n%s", out.String())
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{"<!DOCTYPE html>", `class="answer-word">dog</strong>`, `<svg class="headview"`, `<table class="heatmap">`, "trained to point"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	// A line from "it" to every word (10: the full stop the sentence is read
	// with, too) in every head of every layer.
	m, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	if n, want := strings.Count(html, `<line class="attn"`), c.Layers*c.Heads*10; n != want {
		t.Errorf("%d attention lines, want %d (%d layers x %d heads x 10 words)", n, want, c.Layers, c.Heads)
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
		t.Error("the page refers to the network")
	}
	// The model's training history is embedded for the playback, or the
	// page goes without it and stderr says why.
	_, histErr := cli.LoadHistory("")
	embedded := strings.Contains(html, `<script type="application/json" id="history-data">`)
	switch {
	case histErr == nil && !embedded:
		t.Error("the model has a history, but the page does not embed it")
	case histErr != nil && (embedded || strings.Contains(html, `id="history"`) || !strings.Contains(errOut.String(), "warning: the page has no playback of training")):
		t.Errorf("the model has no history (%v), but the page has a playback section, or stderr does not say so: %q", histErr, errOut.String())
	}
}

func TestHTMLPageCannotBeWritten(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no such folder", "attention.html")
	var out, errOut bytes.Buffer
	err := run([]string{"-html", missing, "A dog ate the food because it was hungry"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "cannot write the HTML page") || !strings.Contains(err.Error(), "attention.html") {
		t.Fatalf("err %v, want a message naming the file it cannot write", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a page was written anyway")
	}
}

// A checkpoint whose weights overflow gives NaN: infer must say the model is
// broken, in text and in JSON, and print no answer.
func TestBrokenModelIsAnError(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	dir := inferencetest.HugeWeights(t, p.Checkpoint())
	for _, args := range [][]string{{"-run", dir}, {"-run", dir, "-json"}, {"-run", dir, "-html", filepath.Join(t.TempDir(), "a.html")}} {
		var out, errOut bytes.Buffer
		err := run(append(args, "A dog ate the food because it was hungry"), &out, &errOut)
		if !errors.Is(err, inference.ErrBrokenModel) || !strings.Contains(err.Error(), "the checkpoint's weights are broken") {
			t.Errorf("%q: err %v, want the model reported broken", args[2:], err)
		}
		if out.Len() > 0 {
			t.Errorf("%q: printed an answer anyway:\n%s", args[2:], out.String())
		}
	}
}

func TestExplanationViews(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"A dog ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"attention rollout of \"it\"", "to L2 ", "through all 2 layers: ",
		"which words decided: each word's share of log P(\"dog\")", "   9  hungry  ", "tolerance 0.05: complete"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// A path the first 64 steps integrate too coarsely is refined, and the
// output says how many steps it took and why; the twin view names each side's.
func TestAttributionStepsAreReported(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		// Which sentence needs the doubling depends on the embedded model's weights.
		{[]string{"The owl could not catch the mouse because it was slow"}, "64 trapezoid steps from x' to the sentence's vectors x;"},
		{[]string{"The owl could not catch the mouse because it was fast"}, "128 trapezoid steps from x' to the sentence's vectors x (64, doubled until within tolerance);"},
		{[]string{"-twin", "The owl could not catch the mouse because it was slow", "The owl could not catch the mouse because it was fast"}, "(A 64 steps, B 128, completeness gap"},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		if err := run(tc.args, &out, &errOut); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%q: output lacks %q:\n%s", tc.args, tc.want, out.String())
		}
	}
}

func TestAblate(t *testing.T) {
	var whole, cut, errOut bytes.Buffer
	s := "A dog ate the food because it was hungry"
	if err := run([]string{"-json", s}, &whole, &errOut); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-json", "-ablate", "L2H1,l2h2", s}, &cut, &errOut); err != nil {
		t.Fatal(err)
	}
	var a, b inference.Resolution
	if json.Unmarshal(whole.Bytes(), &a) != nil || json.Unmarshal(cut.Bytes(), &b) != nil {
		t.Fatal("not JSON")
	}
	if len(a.Ablated) != 0 || strings.Join(b.Ablated, ",") != "L2H1,L2H2" {
		t.Errorf("ablated %v and %v", a.Ablated, b.Ablated)
	}
	if a.Predictions[0].WordProbs[1] == b.Predictions[0].WordProbs[1] {
		t.Error("knocking out L2H1 and L2H2 did not change P(dog)")
	}
	var text bytes.Buffer
	if err := run([]string{"-ablate", "L2H2", s}, &text, &errOut); err != nil || !strings.Contains(text.String(), "L2 H2 x ") {
		t.Errorf("text output does not mark the ablated head (err %v):\n%s", err, text.String())
	}
	for _, bad := range []struct{ value, want string }{
		{"L4H1", `-ablate: "L4H1": this model has layers 1-2 and heads 1-8`},
		{"L1H1,X", `-ablate: "X" is not a head: write L<layer>H<head>`},
	} {
		err := run([]string{"-ablate", bad.value, s}, &text, &errOut)
		if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("-ablate %s: %v, want a usage error with %q", bad.value, err, bad.want)
		}
	}
}

func TestTwin(t *testing.T) {
	var out, errOut bytes.Buffer
	a, b := "A dog ate the food because it was hungry", "A dog ate the food because it was tasty"
	if err := run([]string{"-twin", a, b}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`A: "it" (word 7) refers to "dog"`, `B: "it" (word 7) refers to "food"`, "the answer changed: dog -> food", " * hungry     tasty "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("twin output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run([]string{"-twin", "-json", a, b}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		inference.Twin
		AttributionRule string `json:"attribution_rule"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || !doc.AnswerChanged || len(doc.Words) != 10 || !doc.Words[8].Differs ||
		doc.A.Predictions[0].Attribution == nil || doc.AttributionRule == "" {
		t.Errorf("twin JSON (err %v):\n%s", err, out.String())
	}
	for _, args := range [][]string{{"-twin", a}, {"-twin", a, b, "x"}, {"-twin", "-html", "x.html", a, b}} {
		if err := run(args, &out, &errOut); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// Beside the heads, the text says what knocking out the ★ head does to the
// answer; -json carries it under knockout, with its rule, and leaves it out
// when -ablate has already knocked that head out.
func TestKnockoutOfTheSupervisedHead(t *testing.T) {
	s := "A dog ate the food because it was hungry"
	m, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	sl, sh, _ := m.SupervisedHead() // the default model's, whatever its size
	name := model.Head{Layer: sl, Head: sh}.String()
	var text, js, cut, errOut bytes.Buffer
	if err := run([]string{s}, &text, &errOut); err != nil {
		t.Fatal(err)
	}
	star := strings.Index(text.String(), "* trained to point")
	knock := strings.Index(text.String(), fmt.Sprintf("\nknocking out L%d H%d: dog ", sl+1, sh+1))
	if star < 0 || knock < star || knock > strings.Index(text.String(), "attention rollout") {
		t.Errorf("no knockout line between the heads and the rollout:\n%s", text.String())
	}
	if err := run([]string{"-json", s}, &js, &errOut); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		KnockoutRule string `json:"knockout_rule"`
		inference.Resolution
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	k := doc.Predictions[0].Knockout
	if k == nil || k.Head != name || k.AnswerWord == "" || k.Rests == "" || !strings.Contains(doc.KnockoutRule, "supervised head") {
		t.Errorf("knockout %+v, rule %q", k, doc.KnockoutRule)
	}
	if err := run([]string{"-json", "-ablate", name, s}, &cut, &errOut); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cut.String(), `"knockout":`) {
		t.Errorf("-ablate %s and still a knockout of it", name)
	}
}

// -words lists what the model can read: every word it knows, one a line,
// after a count; it takes no sentence.
func TestWordsListsTheVocabulary(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-words"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var n int
	if _, err := fmt.Sscanf(lines[0], "the model knows %d words", &n); err != nil || n != len(lines)-1 {
		t.Fatalf("first line %q, %d words after it", lines[0], len(lines)-1)
	}
	for _, w := range []string{"dog", "hungry", "because"} {
		if !slices.Contains(lines[1:], w) {
			t.Errorf("-words lacks %q", w)
		}
	}
	if slices.Contains(lines[1:], "<unk>") || slices.Contains(lines[1:], "<pad>") {
		t.Error("-words lists the special tokens")
	}
	if err := run([]string{"-words", "A dog ate the food because it was hungry"}, &out, &errOut); err == nil {
		t.Error("-words with a sentence was accepted")
	}
}

// Issue 26: a word the model does not know is read as its nearest WordNet
// relative the model knows, with a note on stderr and in -json;
// -relatives=false reads it as <unk>, as before.
func TestUnknownWordsAreReadAsTheirRelatives(t *testing.T) {
	sentence := "The dog ate the food because it was famished"
	var out, errOut bytes.Buffer
	if err := run([]string{sentence}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if want := "note: read \"famished\" as \"hungry\" (WordNet: similar to)\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
	if !strings.Contains(out.String(), `the answer rests on reading "famished" as "hungry" (WordNet: similar to)`) {
		t.Errorf("the answer does not say it rests on the relative:\n%s", out.String())
	}
	out.Reset()
	if err := run([]string{"-json", sentence}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tokens    []string
		Relatives []data.Relative
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Relatives) != 1 || doc.Relatives[0] != (data.Relative{Word: "famished", ReadAs: "hungry", Relation: "similar", Position: 8}) || doc.Tokens[8] != "hungry" {
		t.Errorf("JSON relatives %+v, tokens %q", doc.Relatives, doc.Tokens)
	}
	out.Reset()
	errOut.Reset()
	if err := run([]string{"-relatives=false", sentence}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if want := "warning: not in the model's vocabulary, read as <unk>: famished\n"; errOut.String() != want {
		t.Errorf("-relatives=false: stderr %q, want %q", errOut.String(), want)
	}
}

// A word read as its relative is shown as typed: the answer names "puppy"
// and says what it was read as, and the candidates, the heads' and the
// rollout's header and the attribution's rows show the sentence typed. The
// -json document keeps the model's tokens and adds the words typed; -twin
// compares what was typed.
func TestRelativesAreShownAsTyped(t *testing.T) {
	sentence := "The puppy ate the food because it was famished"
	var out, errOut bytes.Buffer
	if err := run([]string{sentence}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	lines := strings.SplitN(text, "\n", 4)
	if want := `"it" (word 7) refers to "puppy" (`; !strings.HasPrefix(lines[0], want) || !strings.HasSuffix(lines[0], `), read as "dog"`) {
		t.Errorf("answer line %q, want %q… %q", lines[0], want, `, read as "dog"`)
	}
	if !strings.HasPrefix(lines[2], "candidates: puppy ") {
		t.Errorf("candidates line %q, want puppy first", lines[2])
	}
	if n := strings.Count(text, "          the puppy ate the food because it was famished .\n"); n != 2 {
		t.Errorf("%d headers of the words typed, want the heads' and the rollout's:\n%s", n, text)
	}
	views := text[strings.Index(text, "\nattention of"):] // the notes above name the relatives, as they should
	if !strings.Contains(views, "   2  puppy  ") || strings.Contains(views, "dog") || strings.Contains(views, "hungry") {
		t.Errorf("the views show the words read, not the words typed:\n%s", text)
	}
	out.Reset()
	if err := run([]string{"-json", sentence}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var doc inference.Resolution
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Predictions[0]
	if doc.Tokens[1] != "dog" || doc.Typed[1] != "puppy" || a.Typed[8] != "famished" || a.AnswerWord != "dog" || a.TypedAnswer != "puppy" ||
		a.Candidates[0].Typed != "puppy" || a.Knockout.TypedAnswer != "puppy" || a.Confidence.Members.Votes[0].Typed != "puppy" {
		t.Errorf("JSON tokens %q, typed %q, answer %q typed %q, candidates %+v", doc.Tokens, doc.Typed, a.AnswerWord, a.TypedAnswer, a.Candidates)
	}
	out.Reset()
	if err := run([]string{"-twin", sentence, "The dog ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`A: "it" (word 7) refers to "puppy" (`, "the answer changed: puppy -> dog", " * puppy      dog ", " * famished   hungry "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("twin output lacks %q:\n%s", want, out.String())
		}
	}
}

// docs/json.md documents every field: each key of a -json document, and of
// a -twin one, for a sentence with a relative and a contraction, is named
// there in backticks. The steps' keys are the explainers' names, which the
// page lists as a whole.
func TestJSONFieldsAreDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	s := "The puppy ate the food because it's famished"
	for _, args := range [][]string{{"-json", s}, {"-json", "-twin", s, "The dog ate the food because it was hungry"}} {
		var out, errOut bytes.Buffer
		if err := run(args, &out, &errOut); err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, key := range jsonKeys(doc, "steps") {
			if !strings.Contains(page, "`"+key+"`") {
				t.Errorf("infer %s: docs/json.md does not document %q", args[:len(args)-1], key)
			}
		}
	}
}

// jsonKeys are the object keys in v, each once, not looking inside skip.
func jsonKeys(v any, skip string) []string {
	var keys []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
				if k != skip {
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return keys
}
