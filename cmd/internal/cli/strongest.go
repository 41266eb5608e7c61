package cli

import "sort"

// Strongest returns the positions of the n largest weights of row, largest
// first (ties in position order): the words a text view names beside an
// attention, rollout or attribution row.
func Strongest(row []float64, n int) []int {
	order := make([]int, len(row))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return row[order[a]] > row[order[b]] })
	return order[:min(n, len(order))]
}
