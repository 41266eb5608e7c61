package main

// The figures as Markdown tables, the models side by side in each.

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"itformer/inference"
)

func writeJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// undecidable is the set whose deciding word no model can know: its
// accuracy is 50% by construction, so accuracy tables leave it out.
const undecidable = "unknown_deciding_word"

func writeMarkdown(w io.Writer, models []modelFigures) {
	fmt.Fprintln(w, "Models:")
	for i, m := range models {
		fmt.Fprintf(w, "- %s = `%s` (attention_supervision %g)\n", label(i), m.Run, m.AttentionSupervision)
	}
	writeAblation(w, models)
	writeAttention(w, models)
	writeAttribution(w, models, "integrated gradients", func(f inference.AttributionFigures) [3]float64 {
		return [3]float64{f.IGOnDeciding, f.IGOnCandidate, f.IGRestOnDeciding}
	})
	writeAttribution(w, models, "gradient × input", func(f inference.AttributionFigures) [3]float64 {
		return [3]float64{f.GxIOnDeciding, f.GxIOnCandidate, f.GxIRestOnDeciding}
	})
	writeCompleteness(w, models)
}

// label is the model's column letter: A, B, …
func label(i int) string { return string(rune('A' + i)) }

func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// table prints a Markdown header row and its rule.
func table(w io.Writer, columns ...string) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(columns, " | "), strings.Repeat("---|", len(columns)))
}

func row(w io.Writer, cells ...string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }

// decidable lists the sets of the first model whose accuracy means something.
func decidable(models []modelFigures) []string {
	var names []string
	for _, s := range models[0].Sets {
		if s.Name != undecidable {
			names = append(names, s.Name)
		}
	}
	return names
}

// set returns model m's figures on the named set, or nil.
func (m modelFigures) set(name string) *inference.SetExplanations {
	for i := range m.Sets {
		if m.Sets[i].Name == name {
			return &m.Sets[i]
		}
	}
	return nil
}

// perModel is one cell per model and set: "-" where a model lacks the set.
func perModel(models []modelFigures, sets []string, cell func(inference.SetExplanations) string) []string {
	var cells []string
	for _, name := range sets {
		for _, m := range models {
			if s := m.set(name); s != nil {
				cells = append(cells, cell(*s))
			} else {
				cells = append(cells, "-")
			}
		}
	}
	return cells
}

func columns(models []modelFigures, sets []string) []string {
	var cols []string
	for _, name := range sets {
		for i := range models {
			cols = append(cols, label(i)+" "+name)
		}
	}
	return cols
}

func writeAblation(w io.Writer, models []modelFigures) {
	sets := decidable(models)
	fmt.Fprintf(w, "\n### Accuracy with one head knocked out (its output zeroed)\n\n")
	table(w, append([]string{"knocked out"}, columns(models, sets)...)...)
	row(w, append([]string{"none"}, perModel(models, sets, func(s inference.SetExplanations) string { return percent(s.Accuracy) })...)...)
	headRows(w, models, sets, func(s inference.SetExplanations) [][]float64 { return s.AblatedAccuracy })
}

// headRows writes one row per layer and head (L1H1, L1H2, ...) of the
// per-head figure grid picks from each set, "-" where a model lacks the head.
func headRows(w io.Writer, models []modelFigures, sets []string, grid func(inference.SetExplanations) [][]float64) {
	for l := 0; l < models[0].Layers; l++ {
		for h := 0; h < models[0].Heads; h++ {
			row(w, append([]string{fmt.Sprintf("L%dH%d", l+1, h+1)}, perModel(models, sets, func(s inference.SetExplanations) string {
				g := grid(s)
				if l >= len(g) || h >= len(g[l]) {
					return "-"
				}
				return percent(g[l][h])
			})...)...)
		}
	}
}

func writeAttention(w io.Writer, models []modelFigures) {
	sets := decidable(models)
	fmt.Fprintf(w, "\n### The pronoun's strongest attention (itself excluded) on the antecedent\n\n")
	table(w, append([]string{"view"}, columns(models, sets)...)...)
	headRows(w, models, sets, func(s inference.SetExplanations) [][]float64 { return s.HeadOnAntecedent })
	row(w, append([]string{"rollout"}, perModel(models, sets, func(s inference.SetExplanations) string { return percent(s.RolloutOnAntecedent) })...)...)
}

func writeAttribution(w io.Writer, models []modelFigures, method string, pick func(inference.AttributionFigures) [3]float64) {
	fmt.Fprintf(w, "\n### Where %s puts its top word\n\n", method)
	var cols []string
	for _, what := range []string{"on a deciding word", "on a candidate noun", "top non-noun on a deciding word"} {
		for i := range models {
			cols = append(cols, label(i)+" "+what)
		}
	}
	table(w, append([]string{"set (sentences attributed)"}, cols...)...)
	for _, s := range models[0].Sets {
		cells := []string{fmt.Sprintf("%s (%d)", s.Name, s.Attribution.N)}
		for k := 0; k < 3; k++ {
			for _, m := range models {
				if ms := m.set(s.Name); ms != nil {
					cells = append(cells, percent(pick(ms.Attribution)[k]))
				} else {
					cells = append(cells, "-")
				}
			}
		}
		row(w, cells...)
	}
}

func writeCompleteness(w io.Writer, models []modelFigures) {
	fmt.Fprintf(w, "\n### Integrated gradients' completeness (tolerance %.2f nats; %d steps, doubled up to %d while beyond it) and cost\n\n",
		inference.CompletenessTolerance, inference.AttributionSteps, inference.MaxAttributionSteps)
	var names []string
	for _, s := range models[0].Sets {
		names = append(names, s.Name)
	}
	table(w, append([]string{"figure"}, columns(models, names)...)...)
	for _, f := range []struct {
		name string
		cell func(inference.AttributionFigures) string
	}{
		{"within tolerance", func(a inference.AttributionFigures) string { return percent(a.Complete) }},
		{"mean abs gap", func(a inference.AttributionFigures) string { return fmt.Sprintf("%.4f", a.MeanAbsGap) }},
		{"max abs gap", func(a inference.AttributionFigures) string { return fmt.Sprintf("%.3f", a.MaxAbsGap) }},
		{"mean steps", func(a inference.AttributionFigures) string { return fmt.Sprintf("%.0f", a.MeanSteps) }},
		{"ms per sentence", func(a inference.AttributionFigures) string { return fmt.Sprintf("%.0f", 1000*a.MeanSecondsPerSentence) }},
	} {
		row(w, append([]string{f.name}, perModel(models, names, func(s inference.SetExplanations) string { return f.cell(s.Attribution) })...)...)
	}
}
