package viz

// The explanation views beside the attention (package inference): the
// attention rollout of the pronoun through the layers, the attribution of the
// answer to the words, the heads knocked out, and a twin sentence aligned
// word by word with the first. Each is drawn on the server, from the
// Resolution (or Twin) it is given; the page's script does not redraw them.

import (
	"fmt"
	"html/template"
	"math"

	"itformer/inference"
)

// The definitions the page shows beside the views: the same text -json carries.
var (
	RolloutRule     = inference.RolloutRule
	AttributionRule = inference.AttributionRule
	AblationRule    = inference.AblationRule
)

// rolloutView is the first prediction's rollout: a row per layer, a cell per word.
type rolloutView struct {
	Rule string
	Rows []scoreRow
}

// scoreRow is one labelled row of cells over the sentence's words.
type scoreRow struct {
	Name  string
	Cells []cell
}

// attributionView is the first prediction's attribution: integrated
// gradients and gradient x input, a cell per word.
type attributionView struct {
	Rule, Answer, Completeness string
	Rows                       []scoreRow
}

// ablationView lists the model's heads as checkboxes; those knocked out
// (Resolution.Ablated, or the form's choice) are checked.
type ablationView struct {
	Rule  string
	Heads []headBox
	Off   []string // the heads knocked out in the result shown
	Whole string   // what the whole model answers, when heads are knocked out
}

type headBox struct {
	Name    string // "L2H1"
	Label   string // "L2 H1"
	Checked bool
}

func newRolloutView(p inference.Prediction) *rolloutView {
	if len(p.Rollout) == 0 {
		return nil
	}
	v := &rolloutView{Rule: RolloutRule}
	for l, row := range p.Rollout {
		name := fmt.Sprintf("to layer %d", l+1)
		if l == len(p.Rollout)-1 {
			name = fmt.Sprintf("through all %d", l+1)
		}
		sr := scoreRow{Name: name}
		for j, w := range row {
			sr.Cells = append(sr.Cells, cell{Dark: w > 0.55, Style: template.CSS(fmt.Sprintf("background-color:rgba(90,90,90,%.3f)", w)),
				Title: fmt.Sprintf("rollout %s → %s: %s", p.Typed[p.Pronoun], p.Typed[j], percent(w)), Text: cellText(w)})
		}
		v.Rows = append(v.Rows, sr)
	}
	return v
}

func newAttributionView(p inference.Prediction) *attributionView {
	a := p.Attribution
	if a == nil {
		return nil
	}
	v := &attributionView{Rule: AttributionRule, Answer: p.TypedAnswer,
		Completeness: fmt.Sprintf("The integrated gradients sum to %+.3f; log P(%s) went from %.3f (no words) to %.3f: a gap of %.3f nats (tolerance %.2f, %d trapezoid steps).",
			a.Sum, p.TypedAnswer, a.BaselineLogProbability, a.LogProbability, a.Gap, a.Tolerance, a.Steps)}
	if !a.Complete {
		v.Completeness += " The path is integrated less exactly than the tolerance: read the numbers as rough."
	}
	rows := []struct {
		name   string
		values []float64
	}{{"integrated gradients", a.IntegratedGradients}, {"gradient × input", a.GradientXInput}}
	top := 0.0 // one scale for both rows, so that a row of tiny values stays pale
	for _, r := range rows {
		for _, x := range r.values {
			top = math.Max(top, math.Abs(x))
		}
	}
	for _, r := range rows {
		v.Rows = append(v.Rows, scoreRow{Name: r.name, Cells: signedCells(p.Typed, r.values, top)})
	}
	return v
}

// signedCells shade positive values (towards the answer) orange and
// negative ones blue, by their size against top.
func signedCells(words []string, values []float64, top float64) []cell {
	var cells []cell
	for j, x := range values {
		a, rgb := 0.0, "214,96,0"
		if top > 0 {
			a = math.Abs(x) / top
		}
		if x < 0 {
			rgb = "31,95,153"
		}
		cells = append(cells, cell{Dark: a > 0.6, Style: template.CSS(fmt.Sprintf("background-color:rgba(%s,%.3f)", rgb, a)),
			Title: fmt.Sprintf("%s: %+.3f nats", words[j], x), Text: signed(x)})
	}
	return cells
}

// newAblationView lists every head, checking those in off.
func newAblationView(layers, heads int, off []string, whole string) *ablationView {
	v := &ablationView{Rule: AblationRule, Off: off, Whole: whole}
	isOff := map[string]bool{}
	for _, h := range off {
		isOff[h] = true
	}
	for l := range layers {
		for h := range heads {
			name := fmt.Sprintf("L%dH%d", l+1, h+1)
			v.Heads = append(v.Heads, headBox{Name: name, Label: fmt.Sprintf("L%d H%d", l+1, h+1), Checked: isOff[name]})
		}
	}
	return v
}

// twinView is a second sentence beside the first: both answers, and their
// words aligned with what changed from the first to the second.
type twinView struct {
	Answers       []answer // the first sentence's, then the second's
	Columns       []string // twinColumns
	AnswerChanged bool
	Change        string // the answer's probability change
	Head          string // which head's attention the rows show: "L3 H1"
	Rows          []twinRow
	Second        *reading // how the second sentence was read; nil if as written
}

type twinRow struct {
	A, B    string // the words; "" where a sentence has none
	Differs bool
	Values  []twinValue // probability, the head's attention, rollout, integrated gradients
}

type twinValue struct {
	A, B, Change string
	Changed      bool // a change of at least twinMarked
}

// twinMarked is the change (0.1 = 10 points, or 0.1 nats) marked as a difference.
const twinMarked = 0.1

// twinColumns name twinValue's columns, in order.
var twinColumns = []string{"P(antecedent)", "attention", "rollout", "integrated gradients"}

func newTwinView(tw *inference.Twin, l, h int) *twinView {
	pa, pb := tw.A.Predictions[0], tw.B.Predictions[0]
	v := &twinView{Answers: []answer{newAnswer(0, pa), newAnswer(1, pb)}, Columns: twinColumns, AnswerChanged: tw.AnswerChanged,
		Change: fmt.Sprintf("%+.1f points", 100*tw.ProbabilityChange), Head: fmt.Sprintf("L%d H%d", l+1, h+1)}
	if second := readingOf(tw.B); len(second.Unknown)+len(second.Contractions)+len(second.Relatives) > 0 {
		v.Second = &second
	}
	for _, w := range tw.Words {
		r := twinRow{A: word(pa, w.A), B: word(pb, w.B), Differs: w.Differs}
		for _, of := range []func(inference.Prediction) []float64{
			func(p inference.Prediction) []float64 { return p.WordProbs },
			func(p inference.Prediction) []float64 { return p.Attention[l][h] },
			func(p inference.Prediction) []float64 { return p.Rollout[len(p.Rollout)-1] },
			func(p inference.Prediction) []float64 {
				if p.Attribution == nil {
					return nil
				}
				return p.Attribution.IntegratedGradients
			},
		} {
			r.Values = append(r.Values, twinPair(value(pa, w.A, of), value(pb, w.B, of)))
		}
		v.Rows = append(v.Rows, r)
	}
	return v
}

// word is the word typed at position i of p, or "" for none.
func word(p inference.Prediction, i int) string {
	if i < 0 {
		return ""
	}
	return p.Typed[i]
}

// value is of(p)[i], or NaN where the word or the values are missing.
func value(p inference.Prediction, i int, of func(inference.Prediction) []float64) float64 {
	vs := of(p)
	if i < 0 || i >= len(vs) {
		return math.NaN()
	}
	return vs[i]
}

func twinPair(a, b float64) twinValue {
	f := func(x float64) string {
		if math.IsNaN(x) {
			return "–"
		}
		if math.Abs(x) < 0.005 {
			return "0.00" // not "-0.00"
		}
		return fmt.Sprintf("%.2f", x)
	}
	d := b - a
	if math.IsNaN(a) {
		d = b
	} else if math.IsNaN(b) {
		d = -a
	}
	return twinValue{A: f(a), B: f(b), Change: signed(d), Changed: math.Abs(d) >= twinMarked}
}

// signed writes x with its sign and 2 decimals, and as 0.00 when it rounds
// to zero: "-0.00" would claim a direction the number does not have.
func signed(x float64) string {
	if math.Abs(x) < 0.005 {
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", x)
}
