package main

// The explainers' steps for one word of a sentence, with the model's real numbers.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"itformer/inference"
	"itformer/model"
)

// target is the word, layer and head to explain (0-based).
type target struct{ word, layer, head int }

func explainSentence(w io.Writer, p *inference.Predictor, tr *inference.Traced, t target) error {
	steps, err := tr.Output.Steps(0, t.layer, t.head, t.word)
	if err != nil {
		return err
	}
	c := p.Config()
	word := tr.Tokens[t.word]
	fmt.Fprintf(w, "%q (word %d of %d) in layer %d, head %d\n%s", word, t.word+1, len(tr.Tokens), t.layer+1, t.head+1, supervisedNote(p, t))
	fmt.Fprintf(w, "sentence: %s\n", strings.Join(tr.Tokens, " "))
	fmt.Fprintf(w, "sizes: d_model %d, %d heads, so d_k = %d / %d = %d\n\n", c.DModel, c.Heads, c.DModel, c.Heads, steps.DK)
	fmt.Fprintf(w, "x, the word's vector entering layer %d (%d numbers):\n  x = %s\n\n", t.layer+1, len(steps.X), vector(steps.X))
	fmt.Fprintf(w, "its query, key and value in head %d (%d numbers each: columns %d-%d of x·W):\n",
		t.head+1, steps.DK, t.head*steps.DK+1, (t.head+1)*steps.DK)
	fmt.Fprintf(w, "  q = x·W^Q = %s\n  k = x·W^K = %s\n  v = x·W^V = %s\n\n", vector(steps.Q), vector(steps.K), vector(steps.V))
	printSteps(w, tr.Tokens, steps)
	fmt.Fprintf(w, "\nevery layer and head, where %q looks most (* = trained to point):\n", word)
	summarise(w, p, tr, t.word)
	return nil
}

func supervisedNote(p *inference.Predictor, t target) string {
	if l, h, ok := p.SupervisedHead(); ok && l == t.layer && h == t.head {
		return "(this head is trained to point from the pronoun to its antecedent)\n"
	}
	return ""
}

// printSteps is the explainers' four steps as one table, one row per word.
func printSteps(w io.Writer, tokens []string, s model.WordSteps) {
	fmt.Fprintf(w, "step 1  score_j  = q · k_j              the dot product with every word's key\n")
	fmt.Fprintf(w, "step 2  scaled_j = score_j / sqrt(d_k)  = score_j / %.3f   (sqrt(%d))\n", sqrtf(s.DK), s.DK)
	fmt.Fprintf(w, "step 3  weight_j = softmax(scaled)_j    weights are positive and sum to 1\n")
	fmt.Fprintf(w, "step 4  z        = Σ_j weight_j · v_j   the weighted sum of the values\n\n")
	fmt.Fprintf(w, "   j  word          score    scaled    weight\n")
	for j := range s.Scores {
		row := fmt.Sprintf("  %2d  %-10s %8.3f  %8.3f  %8.4f  %s", j+1, clip(tokens[j], 10), s.Scores[j], s.Scaled[j], s.Weights[j], bar(s.Weights[j]))
		fmt.Fprintln(w, strings.TrimRight(row, " "))
	}
	fmt.Fprintf(w, "  %33s  %8.4f  (sum)\n\n", "", sum(s.Weights))
	top := argmax(s.Weights)
	fmt.Fprintf(w, "  z = %s\n", vector(s.Z))
	fmt.Fprintf(w, "  %.1f%% of z is %q's value v_%d\n", 100*s.Weights[top], tokens[top], top+1)
}

// summarise prints one line per layer and head: the word's three strongest weights.
func summarise(w io.Writer, p *inference.Predictor, tr *inference.Traced, word int) {
	sl, sh, _ := p.SupervisedHead()
	for l, a := range tr.Output.Attention {
		for h := 0; h < a.Shape[1]; h++ {
			mark := " "
			if l == sl && h == sh {
				mark = "*"
			}
			fmt.Fprintf(w, "  L%d H%d %s  %s\n", l+1, h+1, mark, strongest(tr.Tokens, a.Row(0, h, word)[:len(tr.Tokens)], 3))
		}
	}
}

func strongest(tokens []string, row []float64, n int) string {
	order := make([]int, len(row))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return row[order[a]] > row[order[b]] })
	var parts []string
	for _, j := range order[:min(n, len(order))] {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", clip(tokens[j], 12), 100*row[j]))
	}
	return strings.Join(parts, "   ")
}
