package experiment

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"itformer/checkpoint"
	"itformer/train"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// series are the per-epoch curves every experiment plots, then its extras.
var series = []struct{ key, label string }{
	{"train_loss", "training loss (resolution head)"},
	{"validation_accuracy", "validation accuracy"},
}

func (r *Result) plotNames() []string {
	var names []string
	for _, s := range series {
		names = append(names, s.key+".png")
	}
	for _, p := range r.Experiment.Plots {
		names = append(names, p+".png")
	}
	return names
}

// plot draws one PNG per series: a line per variant, the mean over seeds per epoch.
func (r *Result) plot(dir string) error {
	all := append([]struct{ key, label string }{}, series...)
	for _, p := range r.Experiment.Plots {
		all = append(all, struct{ key, label string }{p, plottable[p]})
	}
	for _, s := range all {
		if err := r.plotSeries(filepath.Join(dir, s.key+".png"), s.key, s.label); err != nil {
			return fmt.Errorf("plotting %s: %w", s.key, err)
		}
	}
	return nil
}

func (r *Result) plotSeries(path, key, label string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s", r.Experiment.Name, label)
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = label
	var lines []interface{}
	for _, v := range r.Experiment.Variants {
		lines = append(lines, v.Name, r.meanCurve(v.Name, key))
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	// Rising curves keep the lower right free, falling ones the upper right.
	p.Legend.Top = key != "validation_accuracy"
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(12), vg.Points(12)
	if p.Legend.Top {
		p.Legend.YOffs = -vg.Points(6)
	}
	return save(p, 7*vg.Inch, 4*vg.Inch, path)
}

// CheckPicture says whether the Plot functions can write a picture at path:
// not a folder, and an extension naming a format they draw (.png, .svg,
// .pdf). Commands call it on their flag before the work whose result they
// draw, which can take minutes.
func CheckPicture(path string) error { return checkPicture(path, "png", "svg", "pdf") }

// CheckStrip is CheckPicture for PlotHistoryStrip, which draws PNG only.
func CheckStrip(path string) error { return checkPicture(path, "png") }

// checkPicture refuses a folder, or a path whose extension is none of
// formats; the error does not repeat path.
func checkPicture(path string, formats ...string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("it is a folder, not a file")
	}
	if !slices.Contains(formats, pictureFormat(path)) {
		n := len(formats)
		use := "." + formats[n-1]
		if n > 1 {
			use = "." + strings.Join(formats[:n-1], ", .") + " or " + use
		}
		return fmt.Errorf("the extension %q names no picture format (use %s)", filepath.Ext(path), use)
	}
	return nil
}

// pictureFormat is the format path's extension names, in lower case.
func pictureFormat(path string) string {
	return strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
}

// save renders p in the format path's extension names (png, svg, pdf) and
// writes it atomically: an interrupted run leaves the old image, not half
// of a new one.
func save(p *plot.Plot, w, h vg.Length, path string) error {
	// Check the path before drawing: gonum's answer to a folder or a name
	// such as "plot.txt" is `unsupported format: ""`.
	if err := CheckPicture(path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	img, err := p.WriterTo(w, h, pictureFormat(path))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var buf bytes.Buffer
	if _, err := img.WriteTo(&buf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return checkpoint.WriteFileAtomic(path, buf.Bytes())
}

// meanCurve averages a per-epoch field over a variant's seeds.
func (r *Result) meanCurve(variant, key string) plotter.XYs {
	var pts plotter.XYs
	n := 0
	for _, run := range r.Runs {
		if run.Variant != variant {
			continue
		}
		n++
		for i, e := range run.Epochs {
			if i >= len(pts) {
				pts = append(pts, plotter.XY{X: float64(e.Epoch)})
			}
			pts[i].Y += epochField(e, key)
		}
	}
	for i := range pts {
		pts[i].Y /= float64(max(n, 1))
	}
	return pts
}

func epochField(e train.EpochRecord, key string) float64 {
	switch key {
	case "train_loss":
		return e.TrainLoss
	case "validation_accuracy":
		return e.ValidationAccuracy
	case "grad_norm":
		return e.GradNorm
	case "attention_entropy":
		return e.AttentionEntropy
	}
	return 0
}
