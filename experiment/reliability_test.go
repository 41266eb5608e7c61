package experiment

import (
	"os"
	"path/filepath"
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
