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

// A plot is written whole or not at all: no temporary is left beside it, a
// format the extension does not name is refused with the path, and a folder
// that does not exist leaves nothing behind.
func TestSaveIsAtomicAndNamesThePath(t *testing.T) {
	dir := t.TempDir()
	good := Curve{Name: "Go", X: []float64{16, 32}, Y: []float64{5, 11}}
	if err := PlotScaling(filepath.Join(dir, "s.svg"), "t", "T", "ms", good); err != nil {
		t.Fatal(err)
	}
	if raw, err := os.ReadFile(filepath.Join(dir, "s.svg")); err != nil || !strings.Contains(string(raw), "<svg") {
		t.Fatalf("no SVG written: %v", err)
	}
	bad := filepath.Join(dir, "s.bogus")
	if err := PlotScaling(bad, "t", "T", "ms", good); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("unknown format: error %v, want one naming %s", err, bad)
	}
	if err := PlotScaling(filepath.Join(dir, "missing", "s.png"), "t", "T", "ms", good); err == nil {
		t.Error("a plot into a missing folder was accepted")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only s.svg: %v", len(entries), entries)
	}
}
