package train

import (
	"math"
	"testing"

	"itformer/data"
)

// Confidences and hits chosen so the bins, the ECE and the mean are known by hand.
func TestCalibration(t *testing.T) {
	ex := data.Example{Candidates: [2]int{0, 2}, Antecedent: 0}
	var c calibration
	// Four sentences at confidence 0.9 for candidate 0 (right), one at 0.9 for
	// candidate 1 (wrong): bin [0.9, 0.95) holds 5 at accuracy 0.8.
	for i := 0; i < 4; i++ {
		c.add([]float64{0.9, 0.05, 0.1}, ex)
	}
	c.add([]float64{0.1, 0.05, 0.9}, ex)
	// Two undecided sentences (0.5): bin [0.5, 0.55), one right by the tie rule.
	c.add([]float64{0.45, 0.1, 0.45}, ex)
	c.add([]float64{0, 1, 0}, ex) // no mass on either candidate: confidence 0.5
	bins, ece, mean := c.result()
	if len(bins) != ReliabilityBins || bins[8].N != 5 || bins[0].N != 2 {
		t.Fatalf("bins %+v", bins)
	}
	if math.Abs(bins[8].Accuracy-0.8) > 1e-12 || math.Abs(bins[8].Confidence-0.9) > 1e-12 {
		t.Errorf("bin 8 = %+v, want accuracy 0.8 at confidence 0.9", bins[8])
	}
	wantECE := 5.0/7*math.Abs(0.8-0.9) + 2.0/7*math.Abs(1-0.5)
	if math.Abs(ece-wantECE) > 1e-12 {
		t.Errorf("ECE %v, want %v", ece, wantECE)
	}
	if want := (5*0.9 + 2*0.5) / 7; math.Abs(mean-want) > 1e-12 {
		t.Errorf("mean top probability %v, want %v", mean, want)
	}
	if bins[0].Lower != 0.5 || bins[ReliabilityBins-1].Upper != 1 {
		t.Errorf("bins span [%v, %v], want [0.5, 1]", bins[0].Lower, bins[ReliabilityBins-1].Upper)
	}
}
