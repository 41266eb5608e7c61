package main

// The text view: the answer first, then where "it" looks in every layer and
// head, as one row of shades per head.

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"itformer/inference"
)

// shade maps an attention weight to a block: the heavier, the darker.
func shade(w float64) string {
	switch {
	case w >= 0.7:
		return "█"
	case w >= 0.4:
		return "▓"
	case w >= 0.2:
		return "▒"
	case w >= 0.05:
		return "░"
	}
	return "·"
}

// render prints one answer and its views. Every word shown is the word
// typed (Prediction.Typed): "puppy", not the "dog" the model read it as,
// which the answer line and the notes name.
func render(w io.Writer, p inference.Prediction, ablated []string) {
	pronoun := p.Typed[p.Pronoun]
	renderAnswer(w, p)
	renderCandidates(w, p)
	if m := p.Confidence.Members; m != nil {
		fmt.Fprintf(w, "models: %s\n", m.Describe(p.TypedAnswer))
	}
	fmt.Fprintf(w, "\nattention of %q, layer by layer (█ ≥70%%  ▓ ≥40%%  ▒ ≥20%%  ░ ≥5%%  · <5%%)\n", pronoun)
	renderHeatmap(w, p, ablated)
	if p.Knockout != nil {
		fmt.Fprintln(w, p.Knockout.Describe(p.TypedAnswer))
	}
	renderRollout(w, p)
	if p.Attribution != nil {
		renderAttribution(w, p)
	}
}

// renderAnswer prints the answer line, which claims no certainty for a
// guess, and under it why the answer is a guess, or what its unknown words
// mean; a confident answer over known words gets the answer line alone.
func renderAnswer(w io.Writer, p inference.Prediction) {
	verb, c := "refers to", p.Confidence
	if c.Guess {
		verb = "might refer to"
	}
	fmt.Fprintf(w, "%q (word %d) %s %q (%.1f%%)%s\n", p.Typed[p.Pronoun], p.Pronoun+1, verb, p.TypedAnswer, 100*p.WordProbs[p.Answer], readAs(p))
	switch {
	case c.Guess:
		fmt.Fprintf(w, "this is a guess: %s\n", c.Reason)
	case c.Reason != "":
		fmt.Fprintf(w, "note: %s\n", c.Reason)
	}
}

// readAs is `, read as "dog"` when the answer was read as another word
// than the one typed, else empty.
func readAs(p inference.Prediction) string {
	if p.AnswerWord == p.TypedAnswer {
		return ""
	}
	return fmt.Sprintf(", read as %q", p.AnswerWord)
}

func renderCandidates(w io.Writer, p inference.Prediction) {
	var parts []string
	rest := 1.0
	for _, c := range p.Candidates {
		parts = append(parts, fmt.Sprintf("%s %.1f%%", c.Typed, 100*c.Probability))
		rest -= c.Probability
	}
	line := "candidates: " + strings.Join(parts, "   ")
	if rest > 0.0005 {
		line += fmt.Sprintf("   (other words %.1f%%)", 100*rest)
	}
	fmt.Fprintln(w, line)
}

func renderHeatmap(w io.Writer, p inference.Prediction, ablated []string) {
	widths := wordWidths(w, p.Typed)
	for l, heads := range p.Attention {
		for h, row := range heads {
			mark := " "
			if l == p.SupervisedLayer && h == p.SupervisedHead {
				mark = "*"
			}
			if slices.Contains(ablated, fmt.Sprintf("L%dH%d", l+1, h+1)) {
				mark = "x"
			}
			fmt.Fprintln(w, heatmapRow(p.Typed, fmt.Sprintf("L%d H%d %s", l+1, h+1, mark), row, widths))
		}
	}
	if p.SupervisedLayer >= 0 {
		fmt.Fprintln(w, "* trained to point from the pronoun to its antecedent (attention supervision)")
	}
	if len(ablated) > 0 {
		fmt.Fprintln(w, "x knocked out (-ablate): its output is zeroed; the row shows where it would look")
	}
}

// wordWidths prints the header of words and returns each word's column width.
func wordWidths(w io.Writer, words []string) []int {
	widths := make([]int, len(words))
	header := fmt.Sprintf("%-10s", "")
	for j, t := range words {
		widths[j] = max(utf8.RuneCountInString(t), 1) + 1
		header += pad(t, widths[j])
	}
	fmt.Fprintln(w, strings.TrimRight(header, " "))
	return widths
}

// heatmapRow is a label of 7 runes, a shade per word and the strongest word.
func heatmapRow(words []string, label string, row []float64, widths []int) string {
	line := pad(label, 10)
	strongest := 0
	for j, weight := range row {
		line += pad(shade(weight), widths[j])
		if weight > row[strongest] {
			strongest = j
		}
	}
	return line + fmt.Sprintf("  %s %.0f%%", words[strongest], 100*row[strongest])
}

// pad left-aligns s in a field of n runes.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(n-utf8.RuneCountInString(s), 0))
}
