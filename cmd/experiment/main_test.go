package main

import (
	"strings"
	"testing"
)

// A shipped experiment is found from any directory, by its name or by its
// path in the repository, in the configs built into the binary.
func TestShippedExperimentByName(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, arg := range []string{"scaling", "scaling.json", "configs/experiments/scaling.json"} {
		e, err := loadExperiment(arg)
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if e.Name != "scaling" || e.Path != "configs/experiments/scaling.json" || len(e.Variants) != 2 {
			t.Errorf("%s: loaded %s (%s) with %d variants", arg, e.Name, e.Path, len(e.Variants))
		}
	}
	_, err := loadExperiment("nosuch")
	if err == nil || !strings.Contains(err.Error(), "nosuch") || !strings.Contains(err.Error(), "heads, layers, positions, scaling, supervision") {
		t.Errorf("an unknown experiment: %v, want its name and the shipped ones", err)
	}
}
