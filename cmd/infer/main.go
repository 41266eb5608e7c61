// Command infer resolves the pronoun "it" in a sentence and shows, for every
// layer and head, where "it" looks.
//
//	go run ./cmd/infer "A dog ate the food because it was hungry"
//	go run ./cmd/infer -run runs/default-... "The cat chased the mouse because it was hungry"
//	go run ./cmd/infer -json "..."
//	go run ./cmd/infer -html attention.html "..."   # also draw the attention as one HTML page
//	go run ./cmd/infer -ablate L1H4,L2H1 "..."      # knock heads out (their output zeroed)
//	go run ./cmd/infer -twin "... it was hungry" "... it was tasty"   # two sentences side by side
//
// Beside the answer and the per-head attention of "it", it prints the
// attention rollout of "it" through the layers (inference/rollout.go) and
// each word's attribution, integrated gradients and gradient × input, of
// the answer's log-probability (inference/attribution.go).
//
// With no -run it uses the default model embedded in the binary (trained by
// `go run ./cmd/train` with configs/default.json and its seed).
//
// The text output counts words from 1 ("it" (word 7)); -json gives positions
// (pronoun, answer, a candidate's position, the attention's indices) as
// 0-based indices into its "tokens", and says so in its "positions" field.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"itformer/checkpoint"
	"itformer/cmd/internal/cli"
	"itformer/cmd/internal/viz"
	"itformer/inference"
	"itformer/model"
)

func main() {
	cli.Exit("infer", run(os.Args[1:], cli.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, stdout)
	if err != nil {
		return err
	}
	p, err := loadPredictor(o)
	if err != nil {
		return err
	}
	if o.words {
		return writeWords(stdout, p.KnownWords(), o.asJSON)
	}
	if o.twin {
		return runTwin(p, o.fs.Arg(0), o.fs.Arg(1), o.asJSON, stdout, stderr)
	}
	res, err := resolveAttributed(p, strings.Join(o.fs.Args(), " "))
	if err != nil {
		return err
	}
	warnReading(stderr, res)
	if o.htmlPath != "" {
		if err := writePage(o, p, res, stderr); err != nil {
			return err
		}
	}
	if o.asJSON {
		return writeJSON(stdout, jsonOutput{documented, res})
	}
	for i, p := range res.Predictions {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		render(stdout, p, res.Ablated)
	}
	return nil
}

// options are infer's flags, parsed and checked against the arguments.
type options struct {
	fs                        *cli.FlagSet
	runPath, htmlPath, ablate string
	asJSON, twin, words       bool
	relatives                 bool
}

func parseOptions(args []string, stdout io.Writer) (options, error) {
	o := options{fs: cli.NewFlagSet("infer", `infer [-run DIR|checkpoint.json] [-json] [-html FILE] [-ablate L2H1,...] "a sentence with it" | infer -twin "sentence A" "sentence B" | infer -words`)}
	fs := o.fs
	fs.StringVar(&o.runPath, "run", "", "run folder, checkpoint.json or zipped checkpoint (.zip, as the browser site downloads) to use instead of the embedded default model")
	fs.BoolVar(&o.asJSON, "json", false, "print the result as JSON")
	fs.StringVar(&o.htmlPath, "html", "", "also write the answer and the attention pictures as one standalone HTML `FILE`")
	fs.StringVar(&o.ablate, "ablate", "", "knock out `heads` (their output zeroed), comma separated: L1H4,L2H1")
	fs.BoolVar(&o.twin, "twin", false, "compare two sentences, given as two quoted arguments, word by word")
	fs.BoolVar(&o.relatives, "relatives", true, "read a word the model does not know as its nearest WordNet relative it knows (\"famished\" as \"hungry\"), with a note; -relatives=false reads it as <unk>")
	fs.BoolVar(&o.words, "words", false, "print the words the model knows (any other word is read as <unk>), and no answer")
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, stdout); err != nil {
		return o, err
	}
	if err := fs.FlagsFirst(sentences(o.twin)); err != nil {
		return o, err
	}
	if o.words {
		if fs.NArg() > 0 || o.twin || o.htmlPath != "" || o.ablate != "" {
			return o, fs.Mistake("-words lists the vocabulary and takes no sentence, -twin, -html or -ablate")
		}
		return o, nil
	}
	return o, argumentMistakes(fs, o.twin, o.htmlPath)
}

// loadPredictor loads the model -run names (or the embedded one) with
// -ablate's heads knocked out.
func loadPredictor(o options) (*inference.Predictor, error) {
	p, err := cli.LoadModel(o.runPath)
	if err != nil {
		return p, err
	}
	p.SetRelatives(o.relatives)
	if o.ablate == "" {
		return p, nil
	}
	heads, err := model.ParseHeads(o.ablate, p.Config())
	if err != nil {
		return nil, o.fs.Mistake("-ablate: %v", err)
	}
	return p, p.Ablate(heads)
}

// resolveAttributed answers every "it" of the sentence, each with its
// integrated-gradients attribution and what knocking out the supervised
// head does to it.
func resolveAttributed(p *inference.Predictor, sentence string) (*inference.Resolution, error) {
	res, err := p.Resolve(sentence)
	if err != nil {
		return nil, err
	}
	for i := range res.Predictions {
		if err := p.Attribute(&res.Predictions[i]); err != nil {
			return nil, err
		}
		if err := p.KnockOut(&res.Predictions[i]); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// writePage writes -html's page, with the run's training playback when the
// run has a history (the page is drawn all the same without one).
func writePage(o options, p *inference.Predictor, res *inference.Resolution, stderr io.Writer) error {
	hist, err := cli.LoadHistory(o.runPath)
	if err != nil {
		fmt.Fprintf(stderr, "warning: the page has no playback of training: %v\n", err)
	}
	if err := writeHTML(o.htmlPath, res, viz.Options{History: hist, ModelEpoch: p.Checkpoint().Meta.Epoch, Words: p.KnownWords()}); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote the attention pictures to %s\n", o.htmlPath)
	return nil
}

// sentences names the arguments, for messages.
func sentences(twin bool) string {
	if twin {
		return "the sentences"
	}
	return "the sentence"
}

// argumentMistakes checks the sentence arguments: one sentence (it may come
// as several words), or exactly two with -twin.
func argumentMistakes(fs *cli.FlagSet, twin bool, htmlPath string) error {
	switch {
	case twin && htmlPath != "":
		return fs.Mistake("-html draws one sentence; it does not apply to -twin")
	case twin && fs.NArg() != 2:
		return fs.Mistake("-twin compares two sentences: give them as two quoted arguments (got %d)", fs.NArg())
	case fs.NArg() == 0:
		return fs.Mistake("give a sentence to resolve, in quotes")
	}
	return nil
}

// writeWords prints the vocabulary: a count, then the words, a line each
// (easy to grep), or as a JSON list.
func writeWords(w io.Writer, words []string, asJSON bool) error {
	if asJSON {
		return writeJSON(w, words)
	}
	fmt.Fprintf(w, "the model knows %d words; any other is read as <unk>:\n%s\n", len(words), strings.Join(words, "\n"))
	return nil
}

func warnReading(stderr io.Writer, res *inference.Resolution) {
	cli.WarnReading(stderr, res.Unknown, res.Contractions, res.Relatives)
}

func writeJSON(stdout io.Writer, doc any) error {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// jsonOutput is the -json document: the Resolution's fields, after a note on
// how its positions count, since the text output counts from 1, and the rule
// that sets each prediction's confidence.guess, so the document explains itself.
type jsonOutput struct {
	rules
	*inference.Resolution
}

// rules are the definitions every -json document opens with.
type rules struct {
	Positions       string `json:"positions"`
	GuessRule       string `json:"guess_rule"`
	AttributionRule string `json:"attribution_rule"`
	RolloutRule     string `json:"rollout_rule"`
	AblationRule    string `json:"ablation_rule"`
	KnockoutRule    string `json:"knockout_rule"`
}

var documented = rules{positionsNote, inference.GuessRule, inference.AttributionRule, inference.RolloutRule,
	inference.AblationRule, inference.KnockoutRule}

const positionsNote = "0-based token indices into tokens (the text output counts words from 1)"

// writeHTML writes the standalone page, with the model's history (if
// opts has one) embedded for the playback of attention as it was learned.
func writeHTML(path string, res *inference.Resolution, opts viz.Options) error {
	var buf bytes.Buffer
	if err := viz.WritePage(&buf, res, opts); err != nil {
		return err
	}
	if err := checkpoint.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("cannot write the HTML page: %w", err)
	}
	return nil
}
