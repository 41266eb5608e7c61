// Command wsc scores a model on an outside benchmark of pronoun resolution:
// a file of Winograd schemas about "it", such as the 86 WSC273 items kept
// outside the repository (docs/commands.md#wsc). It measures, and nothing more: no
// item is ever training data, nor a source of words or frames.
//
//	go run ./cmd/wsc docs/external/wsc273_it.tsv          # the embedded default model
//	go run ./cmd/wsc -run runs/default-... FILE.tsv
//	go run ./cmd/wsc -json FILE.tsv                             # every item, and the counts
//
// Each item's sentence is resolved as infer resolves it. The command
// prints how many items have every word known to the model, how many it
// refuses and why, its accuracy, the accuracy of the answers not flagged as
// guesses, the share flagged as guesses, and the two-choice accuracy that
// published WSC scores report (the correct noun against the other one).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"itformer/cmd/internal/cli"
)

func main() {
	cli.Exit("wsc", run(os.Args[1:], cli.Stdout))
}

func run(args []string, stdout io.Writer) error {
	fs := cli.NewFlagSet("wsc", "wsc [-run DIR|checkpoint.json] [-member K] [-json] FILE.tsv")
	runPath := fs.String("run", "", "run folder, checkpoint.json or zipped checkpoint to score instead of the embedded default model")
	asJSON := fs.Bool("json", false, "print every item's result and the counts as JSON")
	relatives := fs.Bool("relatives", true, "read a word the model does not know as its nearest WordNet relative it knows; -relatives=false reads it as <unk>")
	member := fs.MemberFlag()
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.FlagsFirst("the file"); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fs.Mistake("give one benchmark file (tab-separated: source, id, sentence, correct word, other word), got %d arguments", fs.NArg())
	}
	if fs.Arg(0) == "" {
		return fs.Mistake("the benchmark file's path is empty")
	}
	items, err := readItems(fs.Arg(0))
	if err != nil {
		return err
	}
	p, err := fs.LoadMember(*runPath, *member)
	if err != nil {
		return err
	}
	p.SetRelatives(*relatives)
	results, err := score(p, items)
	if err != nil {
		return err
	}
	model := cli.ModelName(*runPath)
	if *member > 0 {
		model = fmt.Sprintf("member %d of %s, alone", *member, model)
	}
	doc := document{File: fs.Arg(0), Model: model, MaxLen: p.Config().MaxLen,
		Summary: summarise(results), Sources: bySource(results), Items: results}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	writeText(stdout, doc)
	return nil
}

// document is -json's output.
type document struct {
	File    string  `json:"file"`
	Model   string  `json:"model"`
	MaxLen  int     `json:"max_len"`
	Summary Summary `json:"summary"`
	// Sources are the counts of each source apart, when there are several.
	Sources []SourceSummary `json:"sources,omitempty"`
	Items   []Result        `json:"items"`
}

// writeText prints the counts, each source's, then the refused items by why.
func writeText(w io.Writer, doc document) {
	s := doc.Summary
	fmt.Fprintf(w, "%s: %d items, scored with %s (max_len %d)\n", doc.File, s.Items, doc.Model, doc.MaxLen)
	fmt.Fprintf(w, "words known:   %d of %d items have every word known to the model\n", s.WordsKnown, s.Items)
	if len(s.Unknown) > 0 {
		fmt.Fprintf(w, "unknown words: %d, the most common: %s\n", len(s.Unknown), commonWords(s.Unknown, 10))
	}
	fmt.Fprintf(w, "refused:       %d%s\n", s.Refused, whyList(s.Why))
	fmt.Fprintf(w, "answered:      %d\n", s.Answered)
	fmt.Fprintf(w, "accuracy:      %d of %d answered (%s); %d of %d items (%s)\n", s.Right, s.Answered, pct(s.Accuracy), s.Right, s.Items, pct(s.AccuracyAll))
	fmt.Fprintf(w, "not guesses:   %d answers not flagged as guesses, %d right (%s)\n", s.Sure, s.SureRight, pct(s.SureAccuracy))
	fmt.Fprintf(w, "guess rate:    %d of %d answers flagged as guesses (%s)\n", s.Answered-s.Sure, s.Answered, pct(s.GuessRate))
	fmt.Fprintf(w, "two-choice:    %d of %d (%s): the correct noun gets more probability than the other, as published WSC scores count (chance 50%%)\n",
		s.TwoChoiceRight, s.TwoChoice, pct(s.TwoChoiceAccuracy))
	fmt.Fprintf(w, "twins:         %d of %d twin pairs both right (neighbouring items of one source, the answer swapped, at most two words different)\n", s.TwinsRight, s.Twins)
	if len(doc.Sources) > 0 {
		fmt.Fprintln(w, "\nby source:")
		for _, src := range doc.Sources {
			t := src.Summary
			fmt.Fprintf(w, "  %s: %d of %d right (%s); not guesses %d, %d right; twins %d of %d\n",
				src.Source, t.Right, t.Items, pct(t.AccuracyAll), t.Sure, t.SureRight, t.TwinsRight, t.Twins)
		}
	}
	if s.Refused > 0 {
		fmt.Fprintln(w, "\nrefused items:")
		for _, r := range doc.Items {
			if r.Refused != "" {
				fmt.Fprintf(w, "  %s %s: %s\n", r.Source, r.ID, r.Refused)
			}
		}
	}
}

// whyList is " (12 longer than ..., 1 no word ...)".
func whyList(why map[string]int) string {
	if len(why) == 0 {
		return ""
	}
	var parts []string
	for _, k := range sortedKeys(why) {
		parts = append(parts, fmt.Sprintf("%d %s", why[k], k))
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// commonWords lists the first n words with their item counts: "i (24), of (8)".
func commonWords(words []WordCount, n int) string {
	var parts []string
	for _, w := range words[:min(n, len(words))] {
		parts = append(parts, fmt.Sprintf("%s (%d)", w.Word, w.Items))
	}
	return strings.Join(parts, ", ")
}
