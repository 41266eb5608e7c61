// Command history shows how a run's attention was learned, from its
// history.json: for one probe sentence it prints, point by point, the
// answer's probability and where the pronoun looks in the head trained to
// point, and draws the pronoun's attention in every layer and head at a few
// points as a picture strip (PNG).
//
//	go run ./cmd/history                                   # the embedded model, the mission sentence
//	go run ./cmd/history -run runs/default-... -probe "negation" -out negation.png
//	go run ./cmd/history -points 0,0.125,0.5,1,2,5,20 -out docs/history.png
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/experiment"
	"itformer/history"
	"itformer/model"
)

func main() {
	cli.Exit("history", run(os.Args[1:], cli.Stdout))
}

func run(args []string, stdout io.Writer) error {
	fs := cli.NewFlagSet("history", "history [-run DIR] [-probe NAME] [-points EPOCHS] [-out FILE.png]")
	runPath := fs.String("run", "", "run folder (or its checkpoint.json) whose history.json to read; default the embedded model's")
	probe := fs.String("probe", "mission", "the probe sentence, by name (the table lists them when the name is unknown)")
	points := fs.String("points", "", "comma-separated epochs to draw (0 = before training, 0.125 = 1/8 of epoch 1); default up to 8 spread over the run")
	out := fs.String("out", "", "write the picture strip to this PNG")
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if err := fs.NoArguments(); err != nil {
		return err
	}
	if *out != "" {
		if err := fs.OutputFile("out", *out, experiment.CheckStrip); err != nil {
			return err
		}
	}
	h, err := cli.LoadHistory(*runPath)
	if err != nil {
		return err
	}
	if len(h.Points) == 0 { // a table of no rows and "the history has " would say nothing
		return fmt.Errorf("%s records no point of training", history.FileName)
	}
	if _, _, ok := h.Probe(*probe); !ok {
		return fs.Mistake("-probe: no probe %q; the history has %s", *probe, probeNames(h))
	}
	chosen, err := pickPoints(h, *points)
	if err != nil {
		return fs.Mistake("-points: %v", err)
	}
	if *points != "" && *out == "" { // the table lists every point; the picture is what -points chooses for
		return fs.Mistake("-points picks the picture's points; give -out FILE.png too (the table lists every point)")
	}
	writeTable(stdout, h, *probe)
	if *out == "" {
		return nil
	}
	if err := experiment.PlotHistoryStrip(*out, h, *probe, chosen); err != nil {
		return fmt.Errorf("drawing %s: %w", *out, err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

func probeNames(h *history.History) string {
	var names []string
	for _, p := range h.Probes {
		names = append(names, strconv.Quote(p.Name))
	}
	return strings.Join(names, ", ")
}

// pickPoints turns -points into point indices; empty picks the points
// recorded within the first epoch and then up to 4 epochs, spread to the last.
func pickPoints(h *history.History, list string) ([]int, error) {
	if list == "" {
		return spread(h), nil
	}
	var out []int
	for _, f := range strings.Split(list, ",") {
		e, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(e) || math.IsInf(e, 0) {
			return nil, fmt.Errorf("%q is not a number of epochs", f)
		}
		i, where := pointAt(h, e)
		if i < 0 {
			return nil, fmt.Errorf("no point at epoch %s%s; the history has %s", strings.TrimSpace(f), where, epochList(h))
		}
		out = append(out, i)
	}
	return out, nil
}

// pointAt is the index of the point recorded at epoch e, or -1 and where it
// would be: " (step N)" within the run, nothing outside it (a NaN-free but
// huge epoch's step does not fit an int: "step -9223372036854775808").
func pointAt(h *history.History, e float64) (int, string) {
	step := e * float64(h.StepsPerEpoch)
	if len(h.Points) == 0 || step < 0 || step > float64(h.Points[len(h.Points)-1].Step) {
		return -1, ""
	}
	for k, p := range h.Points {
		if p.Step == int(step) {
			return k, ""
		}
	}
	return -1, fmt.Sprintf(" (step %d)", int(step))
}

func spread(h *history.History) []int {
	var early, later []int
	for i, p := range h.Points {
		if p.Step < h.StepsPerEpoch {
			early = append(early, i)
		} else {
			later = append(later, i)
		}
	}
	const most = 4
	if len(later) <= most {
		return append(early, later...)
	}
	for k := range most { // the first epoch, the last, and evenly between
		early = append(early, later[k*(len(later)-1)/(most-1)])
	}
	return early
}

func epochList(h *history.History) string {
	var s []string
	for _, p := range h.Points {
		s = append(s, strconv.FormatFloat(p.Epoch, 'g', 4, 64))
	}
	return strings.Join(s, ", ")
}

// writeTable prints every point: the answer's probability, and where the
// pronoun looks in the supervised head (or in no head, if there is none).
func writeTable(w io.Writer, h *history.History, name string) {
	pr, pi, _ := h.Probe(name)
	ante := pr.Tokens[pr.Antecedent]
	fmt.Fprintf(w, "%q: %s (answer %q)\n", pr.Name, pr.Text, ante)
	sup := h.SupervisedLayer >= 0
	head := fmt.Sprintf("%-16s %6s %9s", "point", "step", "P("+ante+")")
	if sup {
		fmt.Fprintf(w, "L%d H%d is the head trained to point from %q to its antecedent\n", h.SupervisedLayer+1, h.SupervisedHead+1, pr.Tokens[pr.Pronoun])
		head += fmt.Sprintf("  %14s  %s", fmt.Sprintf("L%d H%d on %s", h.SupervisedLayer+1, h.SupervisedHead+1, ante), "its strongest word")
	}
	fmt.Fprintln(w, head)
	for _, p := range h.Points {
		r := p.Readings[pi]
		line := fmt.Sprintf("%-16s %6d %8.1f%%", experiment.StripLabel(p), p.Step, 100*pr.AnswerProbability(r))
		if sup {
			row := r.Attention[h.SupervisedLayer][h.SupervisedHead]
			j := model.ArgMax(row)
			line += fmt.Sprintf("  %13.1f%%  %s %.0f%%", 100*row[pr.Antecedent], pr.Tokens[j], 100*row[j])
		}
		fmt.Fprintln(w, line)
	}
}
