// Command explain prints the explainers' steps of self-attention with real numbers.
//
//	go run ./cmd/explain "A dog ate the food because it was hungry"
//	go run ./cmd/explain -word dog -layer 1 -head 2 "A dog ate the food because it was hungry"
//	go run ./cmd/explain -example robots     # "Smart robots perform complex tasks"
//	go run ./cmd/explain -example pool       # "pool beats badminton"
//
// For a sentence it shows, for one word (the pronoun unless -word says
// otherwise) in one layer and head: the input vector x, its q, k and v, the
// score with every word's key, the scaled scores, the softmax weights and the
// weighted sum z; then one line for every other layer and head.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/data"
	"itformer/inference"
)

func main() {
	cli.Exit("explain", run(os.Args[1:], cli.Stdout, os.Stderr))
}

type options struct {
	run, word, example string
	layer, head        int
	given              map[string]bool // the flags given, so that -layer 0 is refused, not read as the default
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("explain", `explain [-run DIR] [-word W] [-layer L] [-head H] "a sentence" | explain -example robots|pool`)
	var o options
	fs.StringVar(&o.run, "run", "", "run folder or checkpoint.json (default: the embedded default model)")
	fs.StringVar(&o.word, "word", "", `the word to explain, by position (1 = first) or text (default: the first "it")`)
	fs.IntVar(&o.layer, "layer", 0, "layer, 1-based (default: the head trained to point, else the last layer)")
	fs.IntVar(&o.head, "head", 0, "head, 1-based (default: as -layer)")
	fs.StringVar(&o.example, "example", "", "an explainer's worked example instead of a sentence: robots or pool")
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.FlagsFirst("the sentence"); err != nil {
		return err
	}
	o.given = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.given[f.Name] = true })
	if o.example != "" {
		if err := exampleMistakes(fs); err != nil {
			return err
		}
		err := runExample(stdout, o.example)
		if errors.Is(err, errUnknownExample) {
			return fs.Mistake("-example: %v", err)
		}
		return err
	}
	if fs.NArg() == 0 {
		return fs.Mistake("give a sentence in quotes, or -example robots|pool")
	}
	p, err := cli.LoadModel(o.run)
	if err != nil {
		return err
	}
	tr, err := p.Trace(strings.Join(fs.Args(), " "))
	if err != nil {
		return err
	}
	cli.WarnReading(stderr, tr.Unknown, tr.Contractions, tr.Relatives)
	t, err := chooseTarget(p, tr, o, fs.Mistake)
	if err != nil {
		return err
	}
	return explainSentence(stdout, p, tr, t)
}

// exampleMistakes refuses a sentence and the flags that pick a model, word,
// layer or head beside -example: its numbers are the explainer's own, and
// ignoring the flags silently would show something other than what was asked.
func exampleMistakes(fs *cli.FlagSet) error {
	if fs.NArg() > 0 {
		return fs.Mistake("-example takes no sentence")
	}
	var set []string
	fs.Visit(func(f *flag.Flag) { // only the flags given, in name order
		if f.Name != "example" {
			set = append(set, "-"+f.Name)
		}
	})
	const why = "(it shows the explainer's own vectors, not a model's)"
	switch len(set) {
	case 0:
		return nil
	case 1:
		return fs.Mistake("%s does not apply to -example %s", set[0], why)
	}
	return fs.Mistake("%s and %s do not apply to -example %s", strings.Join(set[:len(set)-1], ", "), set[len(set)-1], why)
}

// chooseTarget resolves -word, -layer and -head against the sentence and
// model; one that names no word, layer or head is a usage mistake (made with
// mistake, the flag set's), as infer -ablate L3H1 is.
func chooseTarget(p *inference.Predictor, tr *inference.Traced, o options, mistake func(string, ...any) error) (target, error) {
	var t target
	var err error
	if t.word, err = chooseWord(tr, o.word, mistake); err != nil {
		return t, err
	}
	c := p.Config()
	t.layer, t.head = c.Layers-1, 0
	if l, h, ok := p.SupervisedHead(); ok {
		t.layer, t.head = l, h
	}
	if o.given["layer"] {
		t.layer = o.layer - 1
	}
	if o.given["head"] {
		t.head = o.head - 1
	}
	if t.layer < 0 || t.layer >= c.Layers {
		return t, mistake("-layer %d: this model has layers 1 to %d", o.layer, c.Layers)
	}
	if t.head < 0 || t.head >= c.Heads {
		return t, mistake("-head %d: this model has heads 1 to %d", o.head, c.Heads)
	}
	return t, nil
}

func chooseWord(tr *inference.Traced, word string, mistake func(string, ...any) error) (int, error) {
	if word == "" {
		if len(tr.Pronouns) == 0 {
			return 0, fmt.Errorf(`no "it" in the sentence: pick a word with -word (a position or the word)`)
		}
		return tr.Pronouns[0], nil
	}
	if n, err := strconv.Atoi(word); err == nil {
		if n < 1 || n > len(tr.Tokens) {
			return 0, mistake("-word %d: the sentence has words 1 to %d", n, len(tr.Tokens))
		}
		return n - 1, nil
	}
	want := data.Tokenize(word)
	for _, words := range [][]string{tr.Typed, tr.Tokens} { // "puppy" as typed, or the "dog" it was read as
		for i, w := range words {
			if len(want) == 1 && w == want[0] {
				return i, nil
			}
		}
	}
	for _, c := range tr.Contractions {
		if len(want) == 1 && c.Word == want[0] {
			return 0, mistake("-word %q: the model read %s; pick one of those words", word, c)
		}
	}
	return 0, mistake("-word %q is not a word of the sentence (%s)", word, strings.Join(tr.Typed, " "))
}
