package main

// -twin: two sentences side by side, aligned word by word, with the words
// that differ marked and what changed between them.

import (
	"fmt"
	"io"

	"itformer/inference"
)

// twinJSON is the -twin -json document.
type twinJSON struct {
	rules
	*inference.Twin
}

func runTwin(p *inference.Predictor, a, b string, asJSON bool, stdout, stderr io.Writer) error {
	tw, err := p.Twins(a, b)
	if err != nil {
		return err
	}
	warnReading(stderr, tw.A)
	warnReading(stderr, tw.B)
	if asJSON {
		return writeJSON(stdout, twinJSON{documented, tw})
	}
	renderTwin(stdout, tw)
	return nil
}

func renderTwin(w io.Writer, tw *inference.Twin) {
	pa, pb := tw.A.Predictions[0], tw.B.Predictions[0]
	fmt.Fprint(w, "A: ")
	renderAnswer(w, pa)
	fmt.Fprint(w, "B: ")
	renderAnswer(w, pb)
	if tw.AnswerChanged {
		fmt.Fprintf(w, "the answer changed: %s -> %s\n", pa.TypedAnswer, pb.TypedAnswer)
	} else {
		fmt.Fprintf(w, "the same answer, %s; its probability changed by %+.1f points\n", pa.TypedAnswer, 100*tw.ProbabilityChange)
	}
	l, h := viewedHead(pa)
	fmt.Fprintf(w, "\n   %-10s %-10s %-15s %-24s %-13s %s\n", "A", "B", "P(antecedent)", "integrated gradients", "rollout", fmt.Sprintf("attention L%d H%d", l+1, h+1))
	fmt.Fprintf(w, "   %-10s %-10s %6s %7s   %7s %7s %7s   %5s %5s   %5s %5s\n", "word", "word", "A", "B", "A", "B", "B−A", "A", "B", "A", "B")
	for _, row := range tw.Words {
		fmt.Fprintln(w, twinRow(tw, row, l, h))
	}
	fmt.Fprintf(w, "* the words that differ; integrated gradients of each sentence's own answer (%s, completeness gap A %+.3f, B %+.3f)\n",
		twinSteps(pa.Attribution.Steps, pb.Attribution.Steps), pa.Attribution.Gap, pb.Attribution.Gap)
	fmt.Fprintf(w, "rollout: %s\n", rolloutHelp)
}

// viewedHead is the head whose attention the twin view shows: the
// supervised one, else the first head of the last layer.
func viewedHead(p inference.Prediction) (layer, head int) {
	if p.SupervisedLayer >= 0 {
		return p.SupervisedLayer, p.SupervisedHead
	}
	return len(p.Attention) - 1, 0
}

func twinRow(tw *inference.Twin, row inference.TwinWord, l, h int) string {
	pa, pb := tw.A.Predictions[0], tw.B.Predictions[0]
	mark := " "
	if row.Differs {
		mark = "*"
	}
	word := func(p inference.Prediction, i int) string {
		if i < 0 {
			return "-"
		}
		return p.Typed[i]
	}
	percent := func(p inference.Prediction, i int, values func(inference.Prediction) []float64) string {
		if i < 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*values(p)[i])
	}
	ig := func(p inference.Prediction, i int) string {
		if i < 0 {
			return "-"
		}
		return fmt.Sprintf("%+.3f", p.Attribution.IntegratedGradients[i])
	}
	probs := func(p inference.Prediction) []float64 { return p.WordProbs }
	roll := func(p inference.Prediction) []float64 { return p.Rollout[len(p.Rollout)-1] }
	att := func(p inference.Prediction) []float64 { return p.Attention[l][h] }
	return fmt.Sprintf(" %s %-10s %-10s %6s %7s   %7s %7s %+7.3f   %5s %5s   %5s %5s", mark,
		clip(word(pa, row.A)), clip(word(pb, row.B)), percent(pa, row.A, probs), percent(pb, row.B, probs),
		ig(pa, row.A), ig(pb, row.B), row.IntegratedGradientsChange,
		percent(pa, row.A, roll), percent(pb, row.B, roll), percent(pa, row.A, att), percent(pb, row.B, att))
}

// clip shortens a word to 10 runes for a column.
func clip(s string) string {
	if r := []rune(s); len(r) > 10 {
		return string(r[:9]) + "…"
	}
	return s
}

// twinSteps names the attributions' trapezoid steps, A's and B's where the
// doubling gave them different counts.
func twinSteps(a, b int) string {
	if a == b {
		return fmt.Sprintf("%d steps", a)
	}
	return fmt.Sprintf("A %d steps, B %d", a, b)
}
