package train

// Calibration: does the model's confidence match how often it is right?
//
// For one sentence the model's answer is the more probable of its two
// candidate nouns, and its confidence is that noun's share of the two:
//
//	confidence = max(P(c1), P(c2)) / (P(c1) + P(c2))      in [0.5, 1]
//
// the figure `infer` reports. Sentences are put in ReliabilityBins equal
// bins of confidence; in each, accuracy is the share answered right. The
// expected calibration error (Guo et al., 2017) is the bins' gap weighted by
// their size:
//
//	ECE = Σ_bins (n_bin / N) · |accuracy_bin - mean confidence_bin|
//
// 0 is perfect calibration; a model that is always sure and right 90% of the
// time has ECE 0.1.

import (
	"math"

	"itformer/data"
)

// ReliabilityBins is the number of equal confidence bins over [0.5, 1].
const ReliabilityBins = 10

// Bin is one bar of a reliability diagram.
type Bin struct {
	Lower, Upper float64 // its confidence range
	N            int     // sentences whose confidence falls in it
	Confidence   float64 // their mean confidence
	Accuracy     float64 // the share of them answered right
}

// calibration accumulates confidences and hits, then summarises them.
type calibration struct {
	bins   [ReliabilityBins]Bin
	topSum float64
	n      int
}

// add counts one sentence given its word probabilities.
func (c *calibration) add(probs []float64, ex data.Example) {
	a, b := probs[ex.Candidates[0]], probs[ex.Candidates[1]]
	answer, conf := ex.Candidates[0], a/(a+b)
	if b > a {
		answer, conf = ex.Candidates[1], b/(a+b)
	}
	if math.IsNaN(conf) { // both candidates at exactly 0: no preference at all
		conf = 0.5
	}
	i := min(int((conf-0.5)*2*ReliabilityBins), ReliabilityBins-1)
	c.bins[i].N++
	c.bins[i].Confidence += conf
	if answer == ex.Antecedent {
		c.bins[i].Accuracy++
	}
	c.topSum += conf
	c.n++
}

// result returns the bins (means, not sums), the ECE and the mean confidence.
func (c *calibration) result() (bins []Bin, ece, meanTop float64) {
	for i, b := range c.bins {
		b.Lower, b.Upper = 0.5+float64(i)/(2*ReliabilityBins), 0.5+float64(i+1)/(2*ReliabilityBins)
		if b.N > 0 {
			b.Confidence /= float64(b.N)
			b.Accuracy /= float64(b.N)
			ece += float64(b.N) / float64(c.n) * math.Abs(b.Accuracy-b.Confidence)
		}
		bins = append(bins, b)
	}
	if c.n > 0 {
		meanTop = c.topSum / float64(c.n)
	}
	return bins, ece, meanTop
}
