package experiment

// A risk-coverage curve (Geifman & El-Yaniv 2017): answers ranked by
// confidence, the error rate among the surest share c of them, for every c.
// A model whose doubt means something has a curve that starts low and rises
// only at the right, where its unsure answers join.

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PlotRiskCoverage draws the curves (X coverage, Y risk, both in [0, 1]) as a
// PNG at path.
func PlotRiskCoverage(path, title string, curves ...Curve) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "coverage (the share of answers kept, surest first)"
	p.Y.Label.Text = "risk (the share of kept answers that are wrong)"
	p.X.Min, p.X.Max, p.Y.Min = 0, 1, 0
	p.Add(plotter.NewGrid())
	for i, c := range curves {
		pts, err := c.points()
		if err != nil {
			return err
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		line.Color, line.Dashes = plotutil.Color(i), plotutil.Dashes(i)
		p.Add(line)
		p.Legend.Add(c.Name, line)
	}
	p.Legend.Top, p.Legend.Left = true, true
	return save(p, 6*vg.Inch, 4.5*vg.Inch, path)
}
