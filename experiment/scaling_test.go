package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlotScalingWritesAPNGAndRefusesBadCurves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.png")
	good := Curve{Name: "Go", X: []float64{16, 32, 64}, Y: []float64{5, 11, 30}}
	if err := PlotScaling(path, "t", "T", "ms", good, Curve{Name: "PyTorch", X: []float64{16, 32}, Y: []float64{3, 7}}); err != nil {
		t.Fatal(err)
	}
	if raw, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(raw), "\x89PNG") {
		t.Fatalf("no PNG written: %v", err)
	}
	for _, bad := range []Curve{{Name: "short", X: []float64{1, 2}, Y: []float64{1}}, {Name: "zero", X: []float64{0}, Y: []float64{1}}} {
		if err := PlotScaling(path, "t", "T", "ms", bad); err == nil || !strings.Contains(err.Error(), bad.Name) {
			t.Errorf("curve %q: error %v", bad.Name, err)
		}
	}
}
