package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/train"
)

func TestPlotReliability(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reliability.png")
	bins := []train.Bin{{Lower: 0.5, Upper: 0.55, N: 3, Confidence: 0.52, Accuracy: 0.66}, {Lower: 0.95, Upper: 1, N: 90, Confidence: 0.99, Accuracy: 0.98}, {N: 0}}
	if err := PlotReliability(path, "test", Reliability{Name: "test", ECE: 0.01, Bins: bins}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() < 1000 {
		t.Fatalf("no picture written: %v", err)
	}
}

// A folder, or a name without a picture extension, is refused with a message
// that says what is wrong with it, not gonum's `/tmp: unsupported format: ""`
// (what `reliability -out /tmp` printed).
func TestPlotReliabilityNamesABadPath(t *testing.T) {
	dir := t.TempDir()
	bins := []train.Bin{{Lower: 0.95, Upper: 1, N: 90, Confidence: 0.99, Accuracy: 0.98}}
	for _, tc := range []struct{ path, want string }{
		{dir, dir + ": it is a folder, not a file"},
		{filepath.Join(dir, "plot.txt"), `plot.txt: the extension ".txt" names no picture format (use .png, .svg or .pdf)`},
		{filepath.Join(dir, "plot"), `plot: the extension "" names no picture format (use .png, .svg or .pdf)`},
	} {
		err := PlotReliability(tc.path, "test", Reliability{Name: "test", Bins: bins})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PlotReliability(%s) = %v, want an error containing %q", tc.path, err, tc.want)
		}
	}
}
