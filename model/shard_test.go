package model

import (
	"math"
	"slices"
	"testing"
)

// Rows keeps the whole batch's weighting: the losses of the two one-row
// shards add up to the two-row batch's, though each shard alone has one
// labelled row. Without Normaliser each would weigh its row by 1/1.
func TestRowsAddUpToTheBatch(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := twoSentences()
	b.Spread = [][]int{nil, {0, 1}}
	opts := GraphOptions{Batch: 1, SeqLen: 7, Train: true, AttentionSupervision: 0.5}
	whole := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7, Train: true, AttentionSupervision: 0.5}, b)
	var sum, attention float64
	for r := range 2 {
		part, err := b.Rows(r, r+1)
		if err != nil {
			t.Fatal(err)
		}
		if part.Normaliser != 2 || !slices.Equal(part.IDs, b.IDs[r*7:(r+1)*7]) || len(part.Spread) != 1 {
			t.Fatalf("row %d: %+v", r, part)
		}
		out := runGraph(t, p, opts, part)
		sum, attention = sum+out.Objective, attention+out.AttentionLoss
	}
	if math.Abs(sum-whole.Objective) > 1e-12*whole.Objective || math.Abs(attention-whole.AttentionLoss) > 1e-12*whole.AttentionLoss {
		t.Errorf("shards' objective %v and attention loss %v; the batch's %v and %v", sum, attention, whole.Objective, whole.AttentionLoss)
	}
}

func TestRowsRefusesBadRanges(t *testing.T) {
	for _, r := range [][2]int{{-1, 1}, {1, 1}, {0, 3}, {2, 1}} {
		if _, err := twoSentences().Rows(r[0], r[1]); err == nil {
			t.Errorf("rows [%d, %d) of 2 accepted", r[0], r[1])
		}
	}
}

// Graphs on one Params share the weights' numbers but not their tensor
// headers, which Gorgonia's matmul flips in place to transpose: two graphs
// running at once must not see each other's flips.
func TestGraphsShareNumbersNotHeaders(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	var graphs [2]*Graph
	for i := range graphs {
		var err error
		if graphs[i], err = NewGraph(p, GraphOptions{Batch: 1, SeqLen: 4, Train: true}); err != nil {
			t.Fatal(err)
		}
		defer graphs[i].Close()
	}
	a, b := graphs[0].ValueGrads(), graphs[1].ValueGrads()
	for i := range a {
		if a[i].Value() == b[i].Value() || a[i].Value().Uintptr() != b[i].Value().Uintptr() || a[i].Value().Uintptr() != p.ordered[i].Uintptr() {
			t.Errorf("parameter %d: headers %p %p, storage %x %x (params %x)", i, a[i].Value(), b[i].Value(), a[i].Value().Uintptr(), b[i].Value().Uintptr(), p.ordered[i].Uintptr())
		}
	}
}
