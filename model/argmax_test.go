package model

import "testing"

func TestArgMax(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want int
	}{
		{[]float64{0.1, 0.7, 0.2}, 1},
		{[]float64{0.5, 0.5}, 0}, // ties go to the first
		{[]float64{-3, -1, -2}, 1},
		{[]float64{4}, 0},
		{nil, 0},
	} {
		if got := ArgMax(tc.xs); got != tc.want {
			t.Errorf("ArgMax(%v) = %d, want %d", tc.xs, got, tc.want)
		}
	}
}
