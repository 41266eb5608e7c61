package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/train"
)

func writeMetrics(t *testing.T, m train.Metrics) string {
	t.Helper()
	dir := t.TempDir()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDrawsTheChosenSets(t *testing.T) {
	bins := []train.Bin{{Lower: 0.95, Upper: 1, N: 50, Confidence: 0.99, Accuracy: 0.98}}
	m := train.Metrics{Test: train.Evaluation{ECE: 0.01, Reliability: bins},
		Challenges: []train.Challenge{{Name: "negation", Evaluation: train.Evaluation{Reliability: bins}}}}
	dir := writeMetrics(t, m)
	out := filepath.Join(t.TempDir(), "r.png")
	if err := run([]string{"-run", dir, "-out", out, "-sets", "test,negation"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no picture: %v", err)
	}
	err := run([]string{"-run", dir, "-out", out, "-sets", "nope"})
	if !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), `no set "nope"`) {
		t.Errorf("unknown set: %v", err)
	}
}

func TestRefusesMetricsWithoutBins(t *testing.T) {
	dir := writeMetrics(t, train.Metrics{})
	err := run([]string{"-run", dir, "-out", filepath.Join(t.TempDir(), "r.png")})
	if err == nil || !strings.Contains(err.Error(), "no reliability bins") {
		t.Errorf("metrics without bins: %v", err)
	}
}
