package inference

import (
	"math"
	"testing"
)

// TestFitTemperature checks the fit where the answer has a closed form:
// answers that all have share s and are right a fraction r of the time are
// best described by σ(l/T) = r, so T = logit(s) / logit(r).
func TestFitTemperature(t *testing.T) {
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	for _, tt := range []struct {
		name      string
		share     float64
		right, of int
		want      float64
	}{
		{"calibrated", 0.9, 90, 100, 1},
		{"overconfident", 0.99, 90, 100, logit(0.99) / logit(0.9)},
		{"underconfident", 0.7, 95, 100, logit(0.7) / logit(0.95)},
	} {
		shares, right := make([]float64, tt.of), make([]bool, tt.of)
		for i := range shares {
			shares[i], right[i] = tt.share, i < tt.right
		}
		got, err := FitTemperature(shares, right)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if math.Abs(got-tt.want) > 1e-6*tt.want {
			t.Errorf("%s: T = %.9f, want %.9f", tt.name, got, tt.want)
		}
		if r := ScaleShare(tt.share, got); math.Abs(r-float64(tt.right)/float64(tt.of)) > 1e-6 {
			t.Errorf("%s: scaled share %.9f, want the rate right %.2f", tt.name, r, float64(tt.right)/float64(tt.of))
		}
	}
}

// TestFitTemperatureBounds: with no wrong answer the likelihood wants ever
// sharper shares, and the fit stops at the bound; bad input is refused.
func TestFitTemperatureBounds(t *testing.T) {
	got, err := FitTemperature([]float64{0.9, 0.95, 1}, []bool{true, true, true})
	if err != nil || math.Abs(got-MinTemperature) > 1e-9 {
		t.Errorf("every answer right: T = %g, %v; want the bound %g", got, err, MinTemperature)
	}
	if _, err := FitTemperature(nil, nil); err == nil {
		t.Error("no answers: want an error")
	}
	if _, err := FitTemperature([]float64{0.9}, []bool{true, false}); err == nil {
		t.Error("shares and answers of different lengths: want an error")
	}
}
