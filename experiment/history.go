package experiment

// A picture strip of attention as it was learned (package history): for one
// probe sentence, the pronoun's attention in every layer and head at a few
// points of training, one panel per point, left to right. Each panel is a
// grid, a row per layer and head and a column per word, shaded in the head's
// colour by the weight (white 0, full colour 1), as the page's heatmaps are.

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"itformer/checkpoint"
	"itformer/history"
)

// headColours are the page's head colours (cmd/internal/viz), by head index.
var headColours = []color.RGBA{{31, 119, 180, 255}, {214, 39, 40, 255}, {44, 160, 44, 255}, {255, 127, 14, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {23, 190, 207, 255}}

// Strip geometry, in points.
const (
	stripCell   = vg.Length(15) // a cell's width
	stripRow    = vg.Length(13) // a cell's height
	stripGap    = vg.Length(14) // between panels
	stripLabels = vg.Length(52) // the rotated words above each panel
	stripTitle  = vg.Length(30) // the two title lines above the words
	stripHeads  = vg.Length(50) // the "L3 H1 *" column on the left
	stripMargin = vg.Length(8)
	stripNote   = vg.Length(16) // the legend line below
)

// PlotHistoryStrip draws the probe's panels at the given point indices of h
// as a PNG at path, whose name must say so (CheckStrip).
func PlotHistoryStrip(path string, h *history.History, probe string, points []int) error {
	if err := CheckStrip(path); err != nil { // it had written a PNG named strip.txt
		return fmt.Errorf("%s: %w", path, err)
	}
	pr, pi, ok := h.Probe(probe)
	if !ok {
		return fmt.Errorf("the history has no probe %q", probe)
	}
	if len(points) == 0 {
		return fmt.Errorf("no points to draw")
	}
	for _, i := range points {
		if i < 0 || i >= len(h.Points) {
			return fmt.Errorf("point %d is not in the history (it has %d)", i, len(h.Points))
		}
	}
	n, rows := len(pr.Tokens), h.Layers*h.Heads
	panelW := vg.Length(n) * stripCell
	w := 2*stripMargin + stripHeads + vg.Length(len(points))*(panelW+stripGap) - stripGap
	ht := 2*stripMargin + stripTitle + stripLabels + vg.Length(rows)*stripRow + stripNote
	img := vgimg.New(w, ht)
	c := draw.New(img)
	c.FillPolygon(color.White, rect(0, 0, w, ht))
	top := ht - stripMargin - stripTitle - stripLabels // y of the grids' top edge (y grows upwards)
	drawHeadNames(c, h, stripMargin+stripHeads-4, top)
	for k, i := range points {
		x := stripMargin + stripHeads + vg.Length(k)*(panelW+stripGap)
		drawPanel(c, h, pr, h.Points[i], h.Points[i].Readings[pi], x, top)
	}
	note := fmt.Sprintf("%q: the attention of %q (row: layer and head; column: the word it looks at; darker = more weight). * trained to point.",
		pr.Text, pr.Tokens[pr.Pronoun])
	c.FillText(textStyle(9, color.Gray{90}, draw.XLeft), vg.Point{X: stripMargin, Y: stripMargin + 2}, note)
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return checkpoint.WriteFileAtomic(path, buf.Bytes())
}

// drawPanel draws one point: its title, the words and the grid.
func drawPanel(c draw.Canvas, h *history.History, pr history.Probe, pt history.Point, r history.Reading, x, top vg.Length) {
	title := textStyle(10, color.Black, draw.XLeft)
	c.FillText(title, vg.Point{X: x, Y: top + stripLabels + 16}, StripLabel(pt))
	c.FillText(textStyle(9, color.Gray{70}, draw.XLeft), vg.Point{X: x, Y: top + stripLabels + 4},
		fmt.Sprintf("P(%s) %.0f%%", pr.Tokens[pr.Antecedent], 100*pr.AnswerProbability(r)))
	for j, word := range pr.Tokens {
		sty := textStyle(8.5, color.Black, draw.XLeft)
		sty.Rotation = math.Pi / 2
		if j == pr.Antecedent {
			sty.Color = color.RGBA{184, 110, 0, 255}
		}
		c.FillText(sty, vg.Point{X: x + (vg.Length(j)+0.5)*stripCell + 3, Y: top + 3}, word)
	}
	for l := range h.Layers {
		for hd := range h.Heads {
			y := top - vg.Length(l*h.Heads+hd+1)*stripRow
			for j, wt := range r.Attention[l][hd] {
				x0 := x + vg.Length(j)*stripCell
				c.FillPolygon(shade(headColours[hd%len(headColours)], wt), rect(x0, y, x0+stripCell-1, y+stripRow-1))
			}
		}
	}
}

// drawHeadNames writes "L1 H1" ... down the left, right-aligned at x.
func drawHeadNames(c draw.Canvas, h *history.History, x, top vg.Length) {
	for l := range h.Layers {
		for hd := range h.Heads {
			name := fmt.Sprintf("L%d H%d", l+1, hd+1)
			if l == h.SupervisedLayer && hd == h.SupervisedHead {
				name += " *"
			}
			y := top - (vg.Length(l*h.Heads+hd)+0.5)*stripRow
			c.FillText(textStyle(9, color.Black, draw.XRight), vg.Point{X: x, Y: y - 3}, name)
		}
	}
}

// StripLabel names a point as the strip's panels do: "before training",
// "epoch 1/8", "epoch 2".
func StripLabel(pt history.Point) string {
	if pt.Step == 0 {
		return "before training"
	}
	if whole := math.Round(pt.Epoch); math.Abs(pt.Epoch-whole) < 1e-9 {
		return fmt.Sprintf("epoch %.0f", whole)
	}
	for _, d := range []float64{2, 4, 8} {
		if k := math.Round(pt.Epoch * d); math.Abs(pt.Epoch*d-k) < 0.02 {
			return fmt.Sprintf("epoch %.0f/%.0f", k, d)
		}
	}
	return fmt.Sprintf("epoch %.2f", pt.Epoch)
}

// shade mixes the head's colour into white by the weight.
func shade(c color.RGBA, w float64) color.RGBA {
	w = math.Min(math.Max(w, 0), 1)
	mix := func(v uint8) uint8 { return uint8(math.Round(255 - (255-float64(v))*w)) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}

func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

func textStyle(size vg.Length, clr color.Color, x text.XAlignment) draw.TextStyle {
	return draw.TextStyle{Color: clr, Font: font.From(plot.DefaultFont, size), XAlign: x, Handler: plot.DefaultTextHandler}
}
