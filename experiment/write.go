package experiment

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"itformer/checkpoint"
)

// The tables write puts beside the plots.
const (
	resultsMDFile  = "results.md"
	resultsCSVFile = "results.csv"
	runsCSVFile    = "runs.csv"
)

// tables are their names, for checkOutDir.
var tables = []string{resultsMDFile, resultsCSVFile, runsCSVFile}

// write puts results.md, results.csv, runs.csv and the plots into dir.
func (r *Result) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{resultsMDFile: r.markdown(), resultsCSVFile: r.variantsCSV(), runsCSVFile: r.runsCSV()}
	for name, content := range files {
		if err := checkpoint.WriteFileAtomic(filepath.Join(dir, name), content); err != nil {
			return err
		}
	}
	return r.plot(dir)
}

func pm(s Stat, scale float64, digits int) string {
	return fmt.Sprintf("%.*f ± %.*f", digits, s.Mean*scale, digits, s.SD*scale)
}

// markdown is the table README and docs/ show. Training times vary from run to
// run; every other figure is reproduced exactly by the same command.
func (r *Result) markdown() []byte {
	e := r.Experiment
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Experiment: %s\n\n%s\n\n", e.Name, e.Description)
	fmt.Fprintf(&b, "`go run ./cmd/experiment %s`: base `%s`", filepath.ToSlash(e.Path), e.Base)
	if len(e.Set) > 0 {
		fmt.Fprintf(&b, " with `%s`", strings.Join(e.Set, " "))
	}
	fmt.Fprintf(&b, "; seeds %v. Each cell is the mean ± sample standard deviation over the seeds.\n\n", e.Seeds)
	b.WriteString("| variant | overrides | test accuracy % | attention alignment % (best head) | final train loss | test loss | attention entropy | grad norm | train time s |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for i, v := range r.Variants {
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %s | %s | %s |\n", v.Name, strings.Join(e.Variants[i].Set, " "),
			pm(v.TestAccuracy, 100, 1), pm(v.Alignment, 100, 1), pm(v.FinalTrainLoss, 1, 4), pm(v.TestLoss, 1, 4),
			pm(v.AttentionEntropy, 1, 3), pm(v.GradNorm, 1, 3), pm(v.Time, 1, 1))
	}
	b.WriteString("\nAttention entropy: mean entropy of the validation attention rows over log n (0 = each word looks at one word, 1 = evenly at all), last epoch. Grad norm: global L2 norm of the gradients, mean over the last epoch's steps. Train time varies between runs; every other figure is reproduced exactly by the same command.\n\n")
	for _, p := range r.plotNames() {
		fmt.Fprintf(&b, "![%s](%s)\n", p, p)
	}
	return b.Bytes()
}

func (r *Result) variantsCSV() []byte {
	rows := [][]string{{"variant", "runs", "test_accuracy_mean", "test_accuracy_sd", "alignment_mean", "alignment_sd",
		"final_train_loss_mean", "final_train_loss_sd", "test_loss_mean", "test_loss_sd", "attention_entropy_mean",
		"attention_entropy_sd", "grad_norm_mean", "grad_norm_sd", "train_seconds_mean", "train_seconds_sd"}}
	for _, v := range r.Variants {
		row := []string{v.Name, strconv.Itoa(v.Runs)}
		for _, s := range []Stat{v.TestAccuracy, v.Alignment, v.FinalTrainLoss, v.TestLoss, v.AttentionEntropy, v.GradNorm, v.Time} {
			row = append(row, num(s.Mean), num(s.SD))
		}
		rows = append(rows, row)
	}
	return csvBytes(rows)
}

func (r *Result) runsCSV() []byte {
	rows := [][]string{{"variant", "seed", "test_accuracy", "alignment", "final_train_loss", "test_loss", "attention_entropy", "grad_norm", "train_seconds"}}
	for _, x := range r.Runs {
		rows = append(rows, []string{x.Variant, strconv.FormatInt(x.Seed, 10), num(x.TestAccuracy), num(x.Alignment),
			num(x.FinalTrainLoss), num(x.TestLoss), num(x.AttentionEntropy), num(x.GradNorm), num(x.TrainSeconds)})
	}
	return csvBytes(rows)
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func csvBytes(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	return b.Bytes()
}

// Table is the results table alone, for the terminal.
func (r *Result) Table() []byte {
	md := r.markdown()
	start := bytes.Index(md, []byte("| variant"))
	end := bytes.Index(md[start:], []byte("\n\n"))
	return append(md[start:start+end], '\n')
}

// checkOutDir refuses, before any training, a results folder that is a file
// or holds a file no experiment writes there (another program's folder, whose
// files of the same names the results would replace). A missing or empty
// folder, or an experiment's earlier results (docs/experiments/NAME), pass.
func checkOutDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("results folder %s: %w", dir, err)
	}
	for _, e := range entries {
		if !isResultFile(e.Name()) {
			return fmt.Errorf("refusing to write the results into %s: it holds %s, which no experiment writes; choose a new or empty folder", dir, e.Name())
		}
	}
	return nil
}

// isResultFile says whether an experiment writes a file of this name.
func isResultFile(name string) bool {
	if slices.Contains(tables, name) {
		return true
	}
	key, png := strings.CutSuffix(name, ".png")
	_, extra := plottable[key]
	return png && (extra || slices.ContainsFunc(series, func(s struct{ key, label string }) bool { return s.key == key }))
}
