package main

// The explainers' steps for one word of a sentence, with the model's real numbers.

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"itformer/cmd/internal/cli"
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
	word := tr.Typed[t.word] // every word shown is the word typed (Traced.Typed)
	fmt.Fprintf(w, "%q (word %d of %d) in layer %d, head %d\n%s", word, t.word+1, len(tr.Typed), t.layer+1, t.head+1, supervisedNote(p, t))
	fmt.Fprintf(w, "sentence: %s\n", strings.Join(tr.Typed, " "))
	if line := answerNote(tr.Answer); line != "" {
		fmt.Fprintln(w, wrap(line, lineWidth, "  "))
	}
	if tr.Answer != nil && tr.Answer.Confidence.Members != nil { // whose numbers these are
		fmt.Fprintln(w, wrap("models: "+tr.Answer.Confidence.Members.Describe(tr.Answer.TypedAnswer), lineWidth, "  "))
	}
	fmt.Fprintf(w, "sizes: d_model %d, %d heads, so d_k = %d / %d = %d and sqrt(d_k) = %.3f\n\n",
		c.DModel, c.Heads, c.DModel, c.Heads, steps.DK, sqrtf(steps.DK))
	vectors, numbered := split(steps.List())
	printVectors(w, vectors, steps)
	printSteps(w, tr.Typed, numbered, steps)
	fmt.Fprintf(w, "\nevery layer and head, where %q looks most (* = trained to point):\n", word)
	summarise(w, p, tr, t.word)
	return explainAnswer(w, p, tr.Answer)
}

// answerNote says that the first "it"'s answer is a guess and why, or,
// for a confident answer, what its unknown words mean; it is empty for a
// confident answer over known words, or with no answer.
func answerNote(a *inference.Prediction) string {
	if a == nil || a.Confidence.Reason == "" {
		return ""
	}
	lead, verb, joint := "note: ", "refers to", ", but "
	if a.Confidence.Guess {
		lead, verb, joint = "this is a guess: ", "might refer to", "; "
	}
	return fmt.Sprintf("%s%q (word %d) %s %q (%.1f%%)%s%s", lead, a.Typed[a.Pronoun], a.Pronoun+1,
		verb, a.TypedAnswer, 100*a.WordProbs[a.Answer], joint, a.Confidence.Reason)
}

func supervisedNote(p *inference.Predictor, t target) string {
	if l, h, ok := p.SupervisedHead(); ok && l == t.layer && h == t.head {
		return "(this head is trained to point from the pronoun to its antecedent)\n"
	}
	return ""
}

// step is one of the explainers' steps for the word: a vector, or one
// number per word of the sentence.
type step = model.Step[[]float64]

// split cuts the steps at the first per-word one: the vectors before it are
// the inputs, printed first; from it on, the steps are numbered.
func split(steps []step) (vectors, numbered []step) {
	for i, s := range steps {
		if s.PerKey() {
			return steps[:i], steps[i:]
		}
	}
	return steps, nil
}

// printVectors prints the input vectors, a heading for each run of the
// word's own (x) or one head's (q, k, v).
func printVectors(w io.Writer, vectors []step, s model.WordSteps) {
	for len(vectors) > 0 {
		n := 1
		for n < len(vectors) && vectors[n].PerHead() == vectors[0].PerHead() {
			n++
		}
		group := vectors[:n]
		width, each := len(group[0].Value), ""
		if n > 1 {
			each = " each"
		}
		if group[0].PerHead() {
			fmt.Fprintf(w, "its %s in head %d (%d numbers%s: columns %d-%d of x·W):\n",
				list(group, aboutOf), s.Head+1, width, each, s.Head*width+1, (s.Head+1)*width)
		} else {
			fmt.Fprintf(w, "%s, the word's %s entering layer %d (%d numbers%s):\n",
				list(group, nameOf), list(group, aboutOf), s.Layer+1, width, each)
		}
		for _, v := range group {
			fmt.Fprintf(w, "  %s = %s\n", v.Formula, vector(v.Value))
		}
		fmt.Fprintln(w)
		vectors = vectors[n:]
	}
}

func nameOf(s step) string  { return s.Name }
func aboutOf(s step) string { return s.About }

// list joins the steps' texts as "a", "a and b" or "a, b and c".
func list(steps []step, text func(step) string) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = text(s)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// printSteps numbers the steps with their formulas, prints the per-word
// ones as a table, one row per word, and then the vectors they give (z).
func printSteps(w io.Writer, words []string, numbered []step, s model.WordSteps) {
	printFormulas(w, numbered)
	var columns, results []step
	for _, st := range numbered {
		if st.PerKey() {
			columns = append(columns, st)
		} else {
			results = append(results, st)
		}
	}
	printTable(w, words, columns, s.Keys)
	for _, r := range results {
		fmt.Fprintf(w, "  %s = %s\n", symbol(r), vector(r.Value))
	}
	top := model.ArgMax(s.Weights)
	fmt.Fprintf(w, "  %s of z is %q's value v_%d\n", percent(s.Weights[top]), words[top], top+1)
}

// printFormulas prints "step n  lhs = rhs  about", the columns aligned.
func printFormulas(w io.Writer, numbered []step) {
	lw, rw := 0, 0
	for _, st := range numbered {
		lhs, rhs, _ := strings.Cut(st.Formula, " = ")
		lw, rw = max(lw, utf8.RuneCountInString(lhs)), max(rw, utf8.RuneCountInString(rhs))
	}
	for i, st := range numbered {
		lhs, rhs, _ := strings.Cut(st.Formula, " = ")
		fmt.Fprintf(w, "step %d  %-*s = %-*s  %s\n", i+1, lw, lhs, rw, rhs, st.About)
	}
	fmt.Fprintln(w)
}

// symbol is what a formula computes: "score" of "score_j = q · k_j".
func symbol(st step) string {
	lhs, _, _ := strings.Cut(st.Formula, " = ")
	return strings.TrimSuffix(lhs, "_j")
}

// printTable prints one row per word: its key k_j, whose dot product with
// q is the first step, and a column per step; a column that sums to 1 (the
// weights) gets four decimals, a bar and its sum.
func printTable(w io.Writer, words []string, columns []step, keys [][]float64) {
	head := fmt.Sprintf("   j  word       %-*s", keyWidth, fmt.Sprintf("k_j (%d of %d)", min(keyShown, len(keys[0])), len(keys[0])))
	totals, summed := strings.Repeat(" ", 17+keyWidth), false
	for i, c := range columns {
		head += cell(i, fmt.Sprintf("%8s", symbol(c)))
		total := strings.Repeat(" ", 8)
		if c.SumsToOne {
			total, summed = number(c, sum(c.Value)), true
		}
		totals += cell(i, total)
	}
	fmt.Fprintln(w, head)
	for j := range words {
		row, bars := fmt.Sprintf("  %2d  %-10s %-*s", j+1, clip(words[j], 10), keyWidth, shortKey(keys[j])), ""
		for i, c := range columns {
			row += cell(i, number(c, c.Value[j]))
			if c.SumsToOne {
				bars += "  " + bar(c.Value[j])
			}
		}
		fmt.Fprintln(w, strings.TrimRight(row+bars, " "))
	}
	if summed {
		fmt.Fprintf(w, "%s  (sum)\n", strings.TrimRight(totals, " "))
	}
	fmt.Fprintln(w)
}

// The key column shows each key's first keyShown numbers, in keyWidth runes.
const (
	keyShown = 3
	keyWidth = 21
)

// shortKey is k's first keyShown numbers, with one decimal: enough to see
// how the keys differ, in a table that still fits 80 columns beside the
// scores and the weights' bars.
func shortKey(k []float64) string {
	if len(k) <= keyShown {
		return "[" + join(k, "%4.1f") + "]"
	}
	return "[" + join(k[:keyShown], "%4.1f") + " …]"
}

// cell is a table cell: 8 columns after one space (the first) or two.
func cell(i int, text string) string {
	if i == 0 {
		return " " + text
	}
	return "  " + text
}

// number prints a weight with four decimals, anything else with three.
func number(c step, v float64) string {
	if c.SumsToOne {
		return fmt.Sprintf("%8.4f", v)
	}
	return fmt.Sprintf("%8.3f", v)
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
			fmt.Fprintf(w, "  L%d H%d %s  %s\n", l+1, h+1, mark, strongest(tr.Typed, a.Row(0, h, word)[:len(tr.Typed)], 3))
		}
	}
}

func strongest(words []string, row []float64, n int) string {
	var parts []string
	for _, j := range cli.Strongest(row, n) {
		parts = append(parts, fmt.Sprintf("%s %s", wordLabel(words, j, 12), percent(row[j])))
	}
	return strings.Join(parts, "   ")
}

// percent prints a weight as the table's four decimals round it: 0.9986 is
// 99.9%, not 100%.
func percent(w float64) string { return fmt.Sprintf("%.1f%%", 100*w) }

// wordLabel is word j, clipped to n runes, with its number when the
// sentence has the word more than once: "the(4)".
func wordLabel(words []string, j, n int) string {
	word, seen := clip(words[j], n), 0
	for _, t := range words {
		if t == words[j] {
			seen++
		}
	}
	if seen > 1 {
		word += fmt.Sprintf("(%d)", j+1)
	}
	return word
}
