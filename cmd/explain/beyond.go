package main

// Beyond one head: where the pronoun's attention can carry information
// through all the layers (rollout), and which words its answer owes most to
// (integrated gradients and gradient × input, by autodiff).

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"itformer/inference"
)

// explainAnswer prints the rollout and the attribution of the first "it"'s
// answer; a sentence without one gets nothing.
func explainAnswer(w io.Writer, p *inference.Predictor, a *inference.Prediction) error {
	if a == nil {
		return nil
	}
	if err := p.Attribute(a); err != nil {
		return err
	}
	words := a.Typed // the words typed, as the model view shows them
	fmt.Fprintf(w, "\nattention rollout of %q through all %d layers (Abnar & Zuidema 2020):\n", words[a.Pronoun], len(a.Rollout))
	fmt.Fprintln(w, "  heads averaged, + identity for the residual, rows renormalised,")
	const rollout = "  multiplied through the layers: "
	fmt.Fprintf(w, "%s%s\n", rollout, ranked(words, a.Rollout[len(a.Rollout)-1], 4, "%.1f%%", 100, lineWidth-len(rollout)))
	at := a.Attribution
	fmt.Fprintf(w, "\nwhich words decided %q: log P = %.3f, from %.3f with no words\n", a.TypedAnswer, at.LogProbability, at.BaselineLogProbability)
	fmt.Fprintf(w, "  integrated gradients, %d steps from the words' embeddings zeroed\n", at.Steps)
	fmt.Fprintf(w, "  (positions kept): sum %+.3f, gap %+.3f (tolerance %.2f)\n", at.Sum, at.Gap, at.Tolerance)
	fmt.Fprintf(w, "    for: %s\n    against: %s\n", ranked(words, at.IntegratedGradients, 3, "%+.2f", 1, lineWidth-len("    for: ")),
		ranked(words, negate(at.IntegratedGradients), 3, "%+.2f", -1, lineWidth-len("    against: ")))
	fmt.Fprintf(w, "  gradient × input (the gradient at the sentence, times each word's\n  vector): %s\n",
		ranked(words, at.GradientXInput, 3, "%+.2g", 1, lineWidth-len("  vector: ")))
	return nil
}

// ranked lists the n largest positive values as "dog 18.2%, it 17.0%", each
// printed as format of value·scale, as many as fit in width columns (the
// first always), or says there is none.
func ranked(words []string, values []float64, n int, format string, scale float64, width int) string {
	order := make([]int, len(values))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return values[order[a]] > values[order[b]] })
	var parts []string
	for _, j := range order[:min(n, len(order))] {
		part := fmt.Sprintf("%s "+format, wordLabel(words, j, 12), values[j]*scale)
		if values[j] <= 0 || (len(parts) > 0 && utf8.RuneCountInString(strings.Join(append(parts, part), ", ")) > width) {
			break
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "no word"
	}
	return strings.Join(parts, ", ")
}

func negate(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = -x
	}
	return out
}
