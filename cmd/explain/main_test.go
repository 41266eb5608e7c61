package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"itformer/cmd/internal/cli"
	"itformer/inference"
	"itformer/inference/inferencetest"
	"itformer/model"
)

func explain(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("explain %q: %v (stderr %s)", args, err, errOut.String())
	}
	return out.String()
}

// softmaxByHand is computed here, independently of the model package.
func softmaxByHand(x []float64) []float64 {
	total := 0.0
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Exp(v)
		total += out[i]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}

// "robots" attends with scores q·k_j = [0 1 1 0 2] / sqrt(2); z is the
// weighted sum of the vectors. The output must show these numbers and must
// say that the explainer's printed z for robots is wrong.
func TestRobotsExample(t *testing.T) {
	out := explain(t, "-example", "robots")
	x := [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}}
	w := softmaxByHand([]float64{0, 1 / math.Sqrt2, 1 / math.Sqrt2, 0, 2 / math.Sqrt2})
	z := []float64{0, 0}
	for j, v := range x {
		z[0] += w[j] * v[0]
		z[1] += w[j] * v[1]
	}
	for _, want := range []string{
		fmt.Sprintf("%7.4f", w[0]), fmt.Sprintf("%7.4f", w[4]),
		fmt.Sprintf("z = Σ weight_j · v_j = [%.3f, %.3f]", z[0], z[1]),
		"sqrt(2) = 1.4142",
		"differs, z is [0.49, 1.21]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("robots output lacks %q:\n%s", want, out)
		}
	}
	checkWidth(t, out)
}

// "pool beats badminton": softmax(A A^T) A unscaled, then scaled by sqrt(4).
func TestPoolExample(t *testing.T) {
	out := explain(t, "-example", "pool")
	a := [][]float64{{0.5, 0.1, 0.1, 0.2}, {0.1, 0.5, 0.2, 0.1}, {0.5, 0.1, 0.2, 0.1}}
	for _, divisor := range []float64{1, 2} {
		scores := make([]float64, 3)
		for j := range a {
			for c := range a[0] {
				scores[j] += a[0][c] * a[j][c] / divisor
			}
		}
		w := softmaxByHand(scores)
		z := make([]float64, 4)
		for j := range a {
			for c := range z {
				z[c] += w[j] * a[j][c]
			}
		}
		want := fmt.Sprintf("[%.3f, %.3f, %.3f, %.3f]", z[0], z[1], z[2], z[3])
		if !strings.Contains(out, want) {
			t.Errorf("pool output (divisor %g) lacks z for pool %s:\n%s", divisor, want, out)
		}
	}
	if !strings.Contains(out, "unscaled") || !strings.Contains(out, "sqrt(4) = 2.0000") {
		t.Errorf("pool output does not show both the unscaled and scaled versions:\n%s", out)
	}
	checkWidth(t, out)
}

// By default the explained head is the supervised one, and the output
// shows every layer and head of the model; what the head attends to most
// comes from Resolve, so a retrained model changes the numbers, not the test.
func TestExplainModelSentence(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	sl, sh, ok := p.SupervisedHead()
	if !ok {
		t.Fatal("the default model has no supervised head")
	}
	c := p.Config()
	s := "A dog ate the food because it was hungry"
	res, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Predictions[0]
	if a.AnswerWord != "dog" {
		t.Fatalf("%q: answer %q, want dog", s, a.AnswerWord)
	}
	top := a.Tokens[model.ArgMax(a.Attention[sl][sh])]
	out := explain(t, s)
	want := []string{
		fmt.Sprintf("\"it\" (word 7 of 10) in layer %d, head %d\n(this head is trained to point", sl+1, sh+1),
		fmt.Sprintf("d_k = %d / %d = %d and sqrt(d_k) = %.3f", c.DModel, c.Heads, c.DModel/c.Heads, math.Sqrt(float64(c.DModel/c.Heads))),
		"1.0000  (sum)", fmt.Sprintf("of z is %q's value", top),
		fmt.Sprintf("\n  L%d H%d *  %s ", sl+1, sh+1, top),
	}
	for l := range c.Layers {
		for h := range c.Heads {
			want = append(want, fmt.Sprintf("\n  L%d H%d ", l+1, h+1))
		}
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "\n  L"); n != c.Layers*c.Heads {
		t.Errorf("%d summary lines, want %d layers x %d heads:\n%s", n, c.Layers, c.Heads, out)
	}
	checkWidth(t, out)
	other := explain(t, "-word", "dog", "-layer", "1", "-head", "2", "A dog ate the food because it was hungry")
	if !strings.Contains(other, `"dog" (word 2 of 10) in layer 1, head 2`) {
		t.Errorf("-word dog -layer 1 -head 2 explained something else:\n%s", other)
	}
}

// "it's" is read as "it" "is": explain finds the pronoun, says how it read
// the sentence, and counts words in the tokens it shows.
func TestExplainReadsContractions(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"The dog ate the food because it's hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if want := "note: read \"it's\" as \"it is\"\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
	for _, want := range []string{"sentence: the dog ate the food because it is hungry .\n", `"it" (word 7 of 10) in layer`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// A word read as its relative is shown as typed: the sentence, the table,
// the summaries and the attribution name "puppy", which the note says was
// read as "dog"; -word finds it by either.
func TestExplainShowsTheWordsTyped(t *testing.T) {
	s := "The puppy ate the food because it was famished"
	out := explain(t, s)
	for _, want := range []string{"sentence: the puppy ate the food because it was famished .\n", `"it" (word 7) refers to "puppy" (`,
		`"puppy" as "dog"`, "\n   2  puppy      [", "\n   9  famished   [", `which words decided "puppy"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if views := out[strings.Index(out, "\nsizes: "):]; strings.Contains(views, "dog") || strings.Contains(views, "hungry") {
		t.Errorf("the steps name the words read, not the words typed:\n%s", out)
	}
	for _, word := range []string{"puppy", "dog"} {
		if got := explain(t, "-word", word, s); !strings.HasPrefix(got, `"puppy" (word 2 of 10) in layer`) {
			t.Errorf("-word %s explained %q", word, strings.SplitN(got, "\n", 2)[0])
		}
	}
}

// Whether the answer is a guess is said under the sentence, with its
// reason, in 80 columns, as Resolve judges it; a confident answer over known
// words adds no line (README quotes it). The expected lines come from
// Resolve, so a retrained model changes the numbers, not the test.
func TestExplainSaysWhenTheAnswerIsAGuess(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"A dog ate the food because it was hungry", "The man lifted the boy because it was strong"} {
		res, err := p.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		a := res.Predictions[0]
		out := explain(t, s)
		want := "sentence: " + strings.Join(a.Typed, " ") + "\n"
		if a.Confidence.Reason != "" {
			want += wrap(answerNote(&a), 80, "  ") + "\n"
		}
		if m := a.Confidence.Members; m != nil {
			want += wrap("models: "+m.Describe(a.TypedAnswer), 80, "  ") + "\n"
		}
		if !strings.Contains(out, want+"sizes: ") || (a.Confidence.Guess && !strings.Contains(out, "\nthis is a guess: ")) {
			t.Errorf("%q (confidence %+v): output lacks\n%s\n%s", s, a.Confidence, want, out)
		}
		checkWidth(t, out)
	}
}

// The line for each kind of answer, on answers made up for the purpose.
func TestAnswerNote(t *testing.T) {
	words := strings.Fields("a dog ate the food because it was famished")
	a := &inference.Prediction{Tokens: words, Typed: words, Pronoun: 6, Answer: 1, AnswerWord: "dog", TypedAnswer: "dog",
		WordProbs: []float64{0, 0.55, 0, 0, 0.45, 0, 0, 0, 0}}
	cases := []struct {
		c    inference.Confidence
		want string
	}{
		{inference.Confidence{Guess: true, Reason: "why"}, `this is a guess: "it" (word 7) might refer to "dog" (55.0%); why`},
		{inference.Confidence{Reason: "what"}, `note: "it" (word 7) refers to "dog" (55.0%), but what`},
		{inference.Confidence{}, ""},
	}
	for _, tc := range cases {
		a.Confidence = tc.c
		if got := answerNote(a); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
	if answerNote(nil) != "" {
		t.Error("no answer: a line anyway")
	}
}

// wrap keeps every line within the width, indents the rest, and loses no word.
func TestWrap(t *testing.T) {
	text := strings.Repeat("word ", 40) + strings.Repeat("x", 90)
	got := wrap(text, 30, "  ")
	lines := strings.Split(got, "\n")
	for i, l := range lines[:len(lines)-1] {
		if utf8.RuneCountInString(l) > 30 || (i > 0) != strings.HasPrefix(l, "  ") {
			t.Errorf("line %d: %q", i, l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(text), " ") {
		t.Errorf("words lost or changed:\n%s", got)
	}
}

func checkWidth(t *testing.T, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("line of %d columns (> 80): %q", n, line)
		}
	}
}

func TestExplainErrors(t *testing.T) {
	s := "A dog ate the food because it was hungry"
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	c := p.Config()
	cases := []struct {
		args  []string
		want  string
		usage bool
	}{
		{nil, "give a sentence", true},
		{[]string{"-example", "nope"}, `unknown example "nope"`, true},
		{[]string{"-example", "robots", "extra"}, "takes no sentence", true},
		{[]string{"-example", "robots", "-layer", "5", "-word", "99"}, "-layer and -word do not apply to -example", true},
		{[]string{"-run", "x", "-head", "1", "-example", "pool"}, "-head and -run do not apply to -example", true},
		{[]string{"-word", "dog", "-example", "pool"}, "-word does not apply to -example", true},
		{[]string{"-layer", strconv.Itoa(c.Layers + 1), s}, fmt.Sprintf("-layer %d: this model has layers 1 to %d", c.Layers+1, c.Layers), true},
		{[]string{"-layer", "-1", s}, fmt.Sprintf("layers 1 to %d", c.Layers), true},
		{[]string{"-layer", "0", s}, fmt.Sprintf("-layer 0: this model has layers 1 to %d", c.Layers), true},
		{[]string{"-head", "0", s}, fmt.Sprintf("-head 0: this model has heads 1 to %d", c.Heads), true},
		{[]string{"-head", strconv.Itoa(c.Heads + 1), s}, fmt.Sprintf("-head %d: this model has heads 1 to %d", c.Heads+1, c.Heads), true},
		{[]string{"-word", "0", s}, "words 1 to 10", true},
		{[]string{"-word", "zebra", s}, `"zebra" is not a word`, true},
		{[]string{"-word", "it's", "The dog ate the food because it's hungry"}, `the model read "it's" as "it is"; pick one`, true},
		{[]string{"The dog ate the food"}, `no "it"`, false},
		{[]string{""}, "empty", false},
		{[]string{s, "-layer", "1"}, `"-layer" comes after the sentence: flags must come before the sentence`, true},
		{[]string{"A", "dog", "ate", "it", "--word=dog"}, `"--word=dog" comes after the sentence`, true},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, cli.ErrUsage) != tc.usage {
			t.Errorf("%q: error %v (usage %v), want %q (usage %v)", tc.args, err, errors.Is(err, cli.ErrUsage), tc.want, tc.usage)
		}
		// A usage mistake's message ends with the usage line, as README says.
		if tc.usage && err != nil && !strings.Contains(err.Error(), "\nusage: explain ") {
			t.Errorf("%q: usage error %q has no usage line", tc.args, err)
		}
	}
}

// A checkpoint whose weights overflow: an error that says so, not a panic.
func TestBrokenModelIsAnError(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	dir := inferencetest.HugeWeights(t, p.Checkpoint())
	var out, errOut bytes.Buffer
	err = run([]string{"-run", dir, "A dog ate the food because it was hungry"}, &out, &errOut)
	if !errors.Is(err, inference.ErrBrokenModel) || !strings.Contains(err.Error(), "the checkpoint's weights are broken") {
		t.Errorf("err %v, want the model reported broken", err)
	}
}

// bar draws any number without panicking: NaN and negatives as nothing,
// more than 1 as a full bar.
func TestBarAnyInput(t *testing.T) {
	for w, want := range map[float64]int{math.NaN(): 0, -0.5: 0, math.Inf(-1): 0, 0: 0, 0.44: 4, 1: 10, 1.7: 10, math.Inf(1): 10} {
		if got := utf8.RuneCountInString(bar(w)); got != want {
			t.Errorf("bar(%v) has %d blocks, want %d", w, got, want)
		}
	}
}

func TestExplainShowsRolloutAndAttribution(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"A dog ate the food because it was hungry"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`attention rollout of "it" through all 2 layers`, `which words decided "dog"`,
		"    for: ", "    against: ", "gradient × input"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("explain output lacks %q:\n%s", want, out.String())
		}
	}
}

// The table shows every word's key beside its score; a word the sentence
// has twice is numbered in the summaries ("the(4)"); and a weight is
// printed at one precision in the table and the summaries: a summary's
// percent is the table's weight rounded, never 100% beside 0.9986.
func TestKeysRepeatsAndRounding(t *testing.T) {
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	s := "The dog chased the cat because it was angry"
	tr, err := p.Trace(s)
	if err != nil {
		t.Fatal(err)
	}
	sl, sh, _ := p.SupervisedHead()
	ws, err := tr.Output.Steps(0, sl, sh, tr.Pronouns[0])
	if err != nil {
		t.Fatal(err)
	}
	out := explain(t, s)
	for j, k := range ws.Keys {
		row := fmt.Sprintf("\n  %2d  %-10s %-21s %8.3f", j+1, tr.Tokens[j], shortKey(k), ws.Scores[j])
		if !strings.Contains(out, row) {
			t.Errorf("no row %q with word %d's key beside its score:\n%s", row, j+1, out)
		}
	}
	if !strings.Contains(out, "k_j (3 of ") {
		t.Errorf("the key column is not headed:\n%s", out)
	}
	top := model.ArgMax(ws.Weights)
	label := tr.Tokens[top]
	if tr.Tokens[top] == "the" {
		label = fmt.Sprintf("the(%d)", top+1)
	}
	if want := fmt.Sprintf("  L%d H%d *  %s %.1f%%", sl+1, sh+1, label, 100*ws.Weights[top]); !strings.Contains(out, want) {
		t.Errorf("summary lacks %q, the table's weight %.4f as a percent:\n%s", want, ws.Weights[top], out)
	}
	if !strings.Contains(out, "the(1) ") && !strings.Contains(out, "the(4) ") {
		t.Errorf("no summary tells the two \"the\"s apart:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  L") && strings.Contains(line, " the ") {
			t.Errorf("a summary names an unnumbered \"the\": %q", line)
		}
	}
	checkWidth(t, out)
}

// The worked examples name their explainers by title, and a printed z
// that is ours cut off at two decimals is a rounding difference, not a
// disagreement.
func TestExamplesNameTheirExplainers(t *testing.T) {
	robots, pool := explain(t, "-example", "robots"), explain(t, "-example", "pool")
	if !strings.Contains(robots, `"Understanding the`+"\n"+`Math behind 'Self Attention Mechanism'"`) ||
		!strings.Contains(pool, `"Intuition Behind the Attention`+"\n"+`Head of Transformers"`) || strings.Contains(robots+pool, "explainer 2") {
		t.Errorf("the examples do not name their explainers:\n%s\n%s", robots, pool)
	}
	perform := "[0.87, 0.87]: a rounding difference only:\n  z is [0.876, 0.876], which rounds to [0.88, 0.88]"
	if !strings.Contains(robots, perform) || !strings.Contains(robots, "[1.28, 0.24]: differs") {
		t.Errorf("robots: want perform's z called a rounding difference and smart's a difference:\n%s", robots)
	}
}
