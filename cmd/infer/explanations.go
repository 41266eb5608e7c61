package main

// The views beside the per-head attention: attention rollout across the
// layers, and the attribution of the answer to the words.

import (
	"fmt"
	"io"
	"math"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/inference"
)

// rolloutHelp defines the view where it is shown (inference/rollout.go).
const rolloutHelp = "each layer's heads averaged, the identity added for the residual, rows renormalised, multiplied up"

func renderRollout(w io.Writer, p inference.Prediction) {
	fmt.Fprintf(w, "\nattention rollout of %q through the layers (Abnar & Zuidema 2020):\n%s\n", p.Typed[p.Pronoun], rolloutHelp)
	widths := wordWidths(w, p.Typed)
	for l, row := range p.Rollout {
		fmt.Fprintln(w, heatmapRow(p.Typed, fmt.Sprintf("to L%d", l+1), row, widths))
	}
	last := p.Rollout[len(p.Rollout)-1]
	fmt.Fprintf(w, "through all %d layers: %s\n", len(p.Rollout), topWords(p.Typed, last, 4))
}

// topWords lists the n largest weights as "dog 18%, it 17%".
func topWords(words []string, row []float64, n int) string {
	var parts []string
	for _, j := range cli.Strongest(row, n) {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", words[j], 100*row[j]))
	}
	return strings.Join(parts, ", ")
}

func renderAttribution(w io.Writer, p inference.Prediction) {
	a := p.Attribution
	fmt.Fprintf(w, "\nwhich words decided: each word's share of log P(%q) = %.3f, from %.3f with no words\n",
		p.Typed[a.Target], a.LogProbability, a.BaselineLogProbability)
	fmt.Fprintf(w, "   j  %-10s %s   %s\n", "word", pad("integrated gradients", 24), "gradient × input")
	scale := 0.0
	for _, v := range a.IntegratedGradients {
		scale = max(scale, math.Abs(v))
	}
	for j, tok := range p.Typed {
		ig := a.IntegratedGradients[j]
		fmt.Fprintf(w, "  %2d  %-10s %+8.3f %s   %8s\n", j+1, tok, ig, pad(signedBar(ig, scale), 15), nats(a.GradientXInput[j]))
	}
	verdict := "complete"
	if !a.Complete {
		verdict = fmt.Sprintf("NOT complete even at %d steps: a sharper path than the rule resolves", a.Steps)
	}
	fmt.Fprintf(w, "     %-10s %+8.3f = %.3f − (%.3f) %+.3f  (completeness gap; tolerance %.2f: %s)\n",
		"sum", a.Sum, a.LogProbability, a.BaselineLogProbability, a.Gap, a.Tolerance, verdict)
	fmt.Fprintf(w, "integrated gradients: %d trapezoid steps from x' to the sentence's vectors x%s;\n  x' = %s\n",
		a.Steps, doubled(a.Steps), a.Baseline)
	fmt.Fprintln(w, "gradient × input: the gradient at x times each word's x (embedding + position)")
	fmt.Fprintln(w, "both in nats of log P: + for the answer, − against it")
}

// nats prints an attribution with three decimals, or, below 0.0005, in
// scientific notation: a saturated answer's gradient is tiny, not zero.
func nats(v float64) string {
	if v != 0 && math.Abs(v) < 0.0005 {
		return fmt.Sprintf("%+.1e", v)
	}
	return fmt.Sprintf("%+.3f", v)
}

// signedBar draws |v|/scale as up to 12 blocks: █ for, ░ against the answer.
func signedBar(v, scale float64) string {
	if scale == 0 {
		return ""
	}
	n := int(math.Round(12 * math.Abs(v) / scale))
	if v < 0 {
		return strings.Repeat("░", n)
	}
	return strings.Repeat("█", n)
}

// doubled says why an attribution took more than the first pass's steps.
func doubled(steps int) string {
	if steps <= inference.AttributionSteps {
		return ""
	}
	return fmt.Sprintf(" (%d, doubled until within tolerance)", inference.AttributionSteps)
}
