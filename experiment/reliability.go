package experiment

// A reliability diagram: for each confidence bin, how often the model was
// right, beside the diagonal a perfectly calibrated model would follow.

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"itformer/train"
)

// Reliability is one evaluated set's bins, under a name for the legend.
type Reliability struct {
	Name string
	ECE  float64
	Bins []train.Bin
}

// MinBinSize is the fewest sentences a bin needs to be drawn: a bin of three
// sentences can only be 0, 33, 67 or 100% right, which says nothing.
const MinBinSize = 10

// PlotReliability draws the sets' accuracy per confidence bin (bins under
// MinBinSize sentences left out) against the diagonal, as a PNG at path.
func PlotReliability(path, title string, sets ...Reliability) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = fmt.Sprintf("confidence (the answer's share of the two candidates; bins of >= %d sentences)", MinBinSize)
	p.Y.Label.Text = "accuracy"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0.5, 1, 0, 1
	diagonal, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: 0.5}, {X: 1, Y: 1}})
	if err != nil {
		return err
	}
	diagonal.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diagonal, plotter.NewGrid())
	p.Legend.Add("perfect calibration", diagonal)
	for i, s := range sets {
		if err := addBins(p, i, s); err != nil {
			return err
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	return save(p, 6*vg.Inch, 5*vg.Inch, path)
}

// addBins draws one set as points sized by how many sentences each bin holds.
func addBins(p *plot.Plot, i int, s Reliability) error {
	var pts plotter.XYs
	for _, b := range s.Bins {
		if b.N >= MinBinSize {
			pts = append(pts, plotter.XY{X: b.Confidence, Y: b.Accuracy})
		}
	}
	line, points, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
	p.Add(line, points)
	p.Legend.Add(fmt.Sprintf("%s (ECE %.3f)", s.Name, s.ECE), line, points)
	return nil
}
