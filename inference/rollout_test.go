package inference

import (
	"math"
	"testing"

	"itformer/model"
)

// Two layers of one head over two words, by hand:
// A1 = [[1 0] [0 1]] -> Â1 = I; A2 = [[0 1] [1 0]] -> Â2 = [[.5 .5] [.5 .5]].
// R2 = Â2·Â1 = Â2, so word 0's rollout after layer 2 is [.5 .5].
// With two heads [[1 0] [1 0]] and [[0 1] [0 1]], Ā = .5 everywhere and
// Â = [[.75 .25] [.25 .75]].
func TestRolloutByHand(t *testing.T) {
	id, swap := [][]float64{{1, 0}, {0, 1}}, [][]float64{{0, 1}, {1, 0}}
	for _, tc := range []struct {
		name    string
		att     [][][][]float64
		ablated []model.Head
		want    [][]float64
	}{
		{"identity then swap", [][][][]float64{{id}, {swap}}, nil, [][]float64{{1, 0}, {.5, .5}}},
		{"two heads", [][][][]float64{{{{1, 0}, {1, 0}}, {{0, 1}, {0, 1}}}}, nil, [][]float64{{.75, .25}}},
		{"one of two ablated", [][][][]float64{{{{1, 0}, {1, 0}}, {{0, 1}, {0, 1}}}}, []model.Head{{Layer: 0, Head: 1}}, [][]float64{{1, 0}}},
		{"every head ablated", [][][][]float64{{swap}}, []model.Head{{Layer: 0, Head: 0}}, [][]float64{{1, 0}}},
	} {
		got := rollout(tc.att, tc.ablated, 0)
		for l := range tc.want {
			for j := range tc.want[l] {
				if math.Abs(got[l][j]-tc.want[l][j]) > 1e-15 {
					t.Errorf("%s: rollout = %v, want %v", tc.name, got, tc.want)
				}
			}
		}
	}
}

func TestRolloutRowsSumToOne(t *testing.T) {
	res, err := defaultPredictor(t).Resolve("A dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	pr := res.Predictions[0]
	if len(pr.Rollout) != len(pr.Attention) {
		t.Fatalf("%d rollout rows for %d layers", len(pr.Rollout), len(pr.Attention))
	}
	for l, row := range pr.Rollout {
		sum := 0.0
		for _, w := range row {
			sum += w
		}
		if math.Abs(sum-1) > 1e-12 || len(row) != len(pr.Tokens) {
			t.Errorf("layer %d: rollout row of %d words sums to %v", l+1, len(row), sum)
		}
	}
}
