package main

// The explainers' worked examples, computed by the model's own attention code
// (model.SelfAttention) and compared with the numbers the explainers printed.
// Those printed numbers were rounded by hand; they appear here only so the
// output can say where they differ. Tests never use them.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"itformer/model"
)

// example is a worked example: words, their vectors, and what its explainer printed.
type example struct {
	name    string // as -example names it
	title   string
	words   []string
	vectors [][]float64
	printed map[string][]float64 // explainer's printed output z per word (rounded by hand)
}

var robots = example{
	name: "robots",
	title: "\"Smart robots perform complex tasks\", the worked example of \"Understanding the\n" +
		"Math behind 'Self Attention Mechanism'\" (Generative AI Deep Dives, part 4)\n" +
		"five 2-D word vectors; W^Q = W^K = W^V = identity, so q = k = v = x",
	words:   []string{"smart", "robots", "perform", "complex", "tasks"},
	vectors: [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}},
	printed: map[string][]float64{
		"smart": {1.28, 0.24}, "robots": {0.19, 1.43}, "perform": {0.87, 0.87},
		"complex": {1.64, 0.12}, "tasks": {0.12, 1.64},
	},
}

// The explainer printed the robots softmax only for "robots".
var robotsPrintedWeights = []float64{0, 0.19, 0.19, 0, 0.62}

var pool = example{
	name: "pool",
	title: "\"pool beats badminton\", the worked example of \"Intuition Behind the Attention\n" +
		"Head of Transformers\"\nA holds three 4-D word vectors; output = softmax(A A^T) A",
	words:   []string{"pool", "beats", "badminton"},
	vectors: [][]float64{{0.5, 0.1, 0.1, 0.2}, {0.1, 0.5, 0.2, 0.1}, {0.5, 0.1, 0.2, 0.1}},
	printed: map[string][]float64{
		"pool": {0.38, 0.22, 0.16, 0.14}, "beats": {0.35, 0.25, 0.17, 0.13}, "badminton": {0.38, 0.22, 0.17, 0.13},
	},
}

// errUnknownExample is a usage mistake, which run reports with the usage line.
var errUnknownExample = errors.New("unknown example")

func runExample(w io.Writer, name string) error {
	switch name {
	case "robots":
		return explainExample(w, robots, true)
	case "pool":
		if err := explainExample(w, pool, false); err != nil {
			return err
		}
		fmt.Fprintln(w, "\nthe same with the scaling the explainer leaves out:")
		return explainExample(w, pool, true)
	}
	return fmt.Errorf("%w %q; try -example robots or -example pool", errUnknownExample, name)
}

func explainExample(w io.Writer, ex example, scale bool) error {
	t, err := model.SelfAttention(ex.vectors, scale)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, ex.title)
	if scale {
		fmt.Fprintf(w, "scaled: d_k = %d, so scores are divided by sqrt(%d) = %.4f\n", t.DK, t.DK, t.Divisor)
	} else {
		fmt.Fprintln(w, "unscaled, as the explainer computes it: scores are not divided by sqrt(d_k)")
	}
	for i := range ex.words {
		fmt.Fprintln(w)
		printExampleWord(w, ex, t, i)
		if !scale || ex.name == robots.name {
			compare(w, ex, t, i)
		}
	}
	return nil
}

func printExampleWord(w io.Writer, ex example, t *model.AttentionTable, i int) {
	fmt.Fprintf(w, "%s: x = q = k = v = %s\n", ex.words[i], vector(ex.vectors[i]))
	fmt.Fprintf(w, "   j  word        k_j                  score   scaled   weight\n")
	for j := range ex.words {
		row := fmt.Sprintf("  %2d  %-10s  %-20s %6.3f  %7.4f  %7.4f  %s", j+1, clip(ex.words[j], 10), vector(ex.vectors[j]),
			t.Scores[i][j], t.Scaled[i][j], t.Weights[i][j], bar(t.Weights[i][j]))
		fmt.Fprintln(w, strings.TrimRight(row, " "))
	}
	fmt.Fprintf(w, "  weights sum to %.4f;  z = Σ weight_j · v_j = %s\n", sum(t.Weights[i]), vector(t.Z[i]))
}

// compare says whether the explainer's printed z agrees with ours to its
// two decimals, differs from it only in rounding, or disagrees.
func compare(w io.Writer, ex example, t *model.AttentionTable, i int) {
	printed := ex.printed[ex.words[i]]
	switch {
	case within(printed, t.Z[i], 0.005):
		fmt.Fprintf(w, "  the explainer prints z = [%s]: agrees to its two decimals\n", join(printed, "%.2f"))
		return
	case within(printed, t.Z[i], 0.01):
		fmt.Fprintf(w, "  the explainer prints z = [%s]: a rounding difference only:\n", join(printed, "%.2f"))
		fmt.Fprintf(w, "  z is [%s], which rounds to [%s]\n", join(t.Z[i], "%.3f"), join(t.Z[i], "%.2f"))
		return
	}
	fmt.Fprintf(w, "  the explainer prints z = [%s]: differs, z is [%s]\n", join(printed, "%.2f"), join(t.Z[i], "%.2f"))
	if ex.name == robots.name && ex.words[i] == "robots" {
		fmt.Fprintf(w, "  the slip is its softmax, [%s]: a softmax is never\n", join(robotsPrintedWeights, "%.2f"))
		fmt.Fprintf(w, "  exactly 0, and equal scores get equal weights:\n  [%s]\n", join(t.Weights[i], "%.3f"))
	}
}

// within: every printed number is within tol of ours. A tol of 0.005 means
// the printed numbers are ours rounded to two decimals (ties either way);
// one under 0.01, that they differ in the last printed digit, as ours cut
// off or rounded by hand would (0.876 printed as 0.87).
func within(printed, ours []float64, tol float64) bool {
	for k := range printed {
		if math.Abs(printed[k]-ours[k]) > tol+1e-9 {
			return false
		}
	}
	return len(printed) == len(ours)
}
