package model

// ArgMax is the index of the largest of xs, the first one on a tie (0 for
// an empty slice): the answer read off a row of probabilities or weights.
func ArgMax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}
