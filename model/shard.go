package model

// Splitting a batch into shards by rows, so that each shard can run on its
// own training graph (and goroutine) and the gradients be summed after:
//
//	L(batch) = Σ_r w·ℓ_r,  w = 1/N(batch)  ⇒  L(batch) = Σ_k L(shard_k)
//
// when every shard weighs its rows by the whole batch's N (Batch.Normaliser),
// and the same for the attention-supervision term, which uses the same
// target weights (supervision.go). The gradient is linear in the loss, so the
// shards' gradients add up to the whole batch's, up to rounding.

import "fmt"

// Rows returns rows [lo, hi) of the batch, sharing its storage, weighted as
// rows of the whole batch: Normaliser is the whole batch's.
func (b Batch) Rows(lo, hi int) (Batch, error) {
	n := len(b.Lengths)
	if lo < 0 || hi > n || lo >= hi || len(b.IDs)%max(n, 1) != 0 {
		return Batch{}, fmt.Errorf("rows [%d, %d) of a batch of %d rows and %d ids", lo, hi, n, len(b.IDs))
	}
	t := len(b.IDs) / n
	part := Batch{IDs: b.IDs[lo*t : hi*t], Lengths: b.Lengths[lo:hi], Pronoun: b.Pronoun[lo:hi], Normaliser: b.normaliser()}
	if b.Antecedent != nil {
		part.Antecedent = b.Antecedent[lo:hi]
	}
	if b.Spread != nil {
		part.Spread = b.Spread[lo:hi]
	}
	if b.Vectors != nil {
		per := len(b.Vectors) / n
		part.Vectors = b.Vectors[lo*per : hi*per]
	}
	return part, nil
}
