package experiment

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Curve is one line of a scaling plot: a y value (a step time in ms) per x
// (a size).
type Curve struct {
	Name string
	X, Y []float64
}

// points are the curve's (x, y) pairs; a curve with none, or with unequal
// counts of x and y values, is refused.
func (c Curve) points() (plotter.XYs, error) {
	if len(c.X) != len(c.Y) || len(c.X) == 0 {
		return nil, fmt.Errorf("curve %q: %d x and %d y values", c.Name, len(c.X), len(c.Y))
	}
	pts := make(plotter.XYs, len(c.X))
	for j := range c.X {
		pts[j] = plotter.XY{X: c.X[j], Y: c.Y[j]}
	}
	return pts, nil
}

// PlotScaling draws the curves on log-log axes as a PNG at path: equal
// slopes mean equal growth with the size, and the vertical gap between two
// curves is their ratio.
func PlotScaling(path, title, xLabel, yLabel string, curves ...Curve) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = sizeTicks(curves), plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	for i, c := range curves {
		pts, err := c.points()
		if err != nil {
			return err
		}
		for _, pt := range pts {
			if pt.X <= 0 || pt.Y <= 0 {
				return fmt.Errorf("curve %q: point (%g, %g) cannot go on log axes", c.Name, pt.X, pt.Y)
			}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
		points.Shape = plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(c.Name, line, points)
	}
	p.Legend.Top, p.Legend.Left = true, true
	return save(p, 6*vg.Inch, 4.5*vg.Inch, path)
}

// sizeTicks labels the x axis at the sizes measured (log ticks would label
// only the powers of ten).
func sizeTicks(curves []Curve) plot.ConstantTicks {
	seen := map[float64]bool{}
	var ticks plot.ConstantTicks
	for _, c := range curves {
		for _, x := range c.X {
			if !seen[x] {
				seen[x] = true
				ticks = append(ticks, plot.Tick{Value: x, Label: fmt.Sprint(x)})
			}
		}
	}
	return ticks
}
