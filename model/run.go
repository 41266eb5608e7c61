package model

import (
	"errors"
	"fmt"

	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

// maskValue is added to a score to remove its word: exp(-1e9 - max) is exactly 0
// in float32 and float64, while -1e9 itself stays far from overflow in both.
const maskValue = -1e9

// Batch is a padded batch in the graph's geometry: row b holds IDs[b·T : (b+1)·T],
// of which the first Lengths[b] are real. A row of length 0 is filler and is ignored.
// Antecedent may be nil (inference), and the loss is then 0.
//
// Spread, if not nil, marks the rows whose answer the sentence cannot decide
// (its deciding word was replaced by <unk>): Spread[b] lists the positions
// the target is spread evenly over, both candidate nouns, so training asks
// for an honest "either" instead of a confident guess; nil for the others.
//
// Vectors, only for a graph built with InputGradients, are the input vectors
// X (B·T·d_model, row-major) fed in place of the embedding of IDs
// (inputgrad.go); IDs and Lengths still say which words are real.
//
// Normaliser, if above 0, is the number of labelled rows the loss is a mean
// over, in place of this batch's own count: a shard of a larger batch (Rows)
// keeps the whole batch's, so that the shards' losses and gradients add up to
// the whole batch's (shard.go, train.Session.Run).
type Batch struct {
	IDs, Lengths, Pronoun, Antecedent []int
	Spread                            [][]int
	Vectors                           []float64
	Normaliser                        int
}

// Run feeds a batch, runs the graph and returns the loss and what the options asked for.
// On a training graph it also adds this batch's gradients to ValueGrads.
func (gr *Graph) Run(b Batch) (*Output, error) {
	if err := gr.check(b); err != nil {
		return nil, err
	}
	gr.feed(b)
	// Without a rewind or a Reset, RunAll silently replays nothing and returns
	// stale values. Rewind keeps last run's buffers (internal/gorgoniax/rewind.go);
	// the first run, and any run after a failed one, starts from a Reset machine.
	if !gr.reuse || !gorgoniax.Rewind(gr.vm) {
		gr.vm.Reset()
	}
	gr.reuse = false
	if err := gr.vm.RunAll(); err != nil {
		return nil, fmt.Errorf("running the model graph: %w", err)
	}
	gr.reuse = true
	return gr.output(b)
}

// check refuses a batch that does not fit the graph, naming the row and field.
func (gr *Graph) check(b Batch) error {
	s, vocab := gr.shape, gr.params.config.VocabSize
	if len(b.IDs) != s.B*s.T || len(b.Lengths) != s.B || len(b.Pronoun) != s.B {
		return fmt.Errorf("batch has %d ids, %d lengths, %d pronouns; graph wants %d, %d, %d", len(b.IDs), len(b.Lengths), len(b.Pronoun), s.B*s.T, s.B, s.B)
	}
	if b.Antecedent != nil && len(b.Antecedent) != s.B {
		return fmt.Errorf("batch has %d antecedents, graph wants %d", len(b.Antecedent), s.B)
	}
	if b.Spread != nil && len(b.Spread) != s.B {
		return fmt.Errorf("batch has %d spread rows, graph wants %d", len(b.Spread), s.B)
	}
	if err := gr.checkVectors(b); err != nil {
		return err
	}
	var errs []error
	for r := 0; r < s.B; r++ {
		errs = append(errs, checkRow(b, r, s.T, vocab))
	}
	return errors.Join(errs...)
}

func checkRow(b Batch, r, T, vocab int) error {
	n := b.Lengths[r]
	if n < 0 || n > T {
		return fmt.Errorf("row %d: length %d outside [0, %d]", r, n, T)
	}
	for t, id := range b.IDs[r*T : r*T+n] {
		if id < 0 || id >= vocab {
			return fmt.Errorf("row %d position %d: token id %d outside the vocabulary [0, %d)", r, t, id, vocab)
		}
	}
	if n == 0 {
		return nil
	}
	if p := b.Pronoun[r]; p < 0 || p >= n {
		return fmt.Errorf("row %d: pronoun position %d outside the sentence [0, %d)", r, p, n)
	}
	if b.Antecedent != nil {
		if a := b.Antecedent[r]; a < 0 || a >= n || a == b.Pronoun[r] {
			return fmt.Errorf("row %d: antecedent position %d must be a word of the sentence [0, %d) other than the pronoun", r, a, n)
		}
	}
	return checkSpread(b, r, n)
}

// checkSpread refuses spread positions outside the sentence or on the pronoun.
func checkSpread(b Batch, r, n int) error {
	if b.Spread == nil {
		return nil
	}
	for _, p := range b.Spread[r] {
		if p < 0 || p >= n || p == b.Pronoun[r] {
			return fmt.Errorf("row %d: spread position %d must be a word of the sentence [0, %d) other than the pronoun", r, p, n)
		}
	}
	return nil
}

// feed writes the batch into the input nodes' storage in place.
func (gr *Graph) feed(b Batch) {
	s := gr.shape
	ids := gr.in.ids.Value().Data().([]int)
	copy(ids, b.IDs)
	pronoun := gr.in.pronoun.Value().Data().([]int)
	keyMask := make([]float64, s.B*s.T)
	candidates := make([]float64, s.B*s.T)
	target := make([]float64, s.B*s.T)
	weight := 1 / float64(max(1, b.normaliser()))
	for r := 0; r < s.B; r++ {
		n := b.Lengths[r]
		for t := 0; t < s.T; t++ {
			if t >= n {
				keyMask[r*s.T+t] = maskValue
				candidates[r*s.T+t] = maskValue
			}
		}
		pronoun[r] = r*s.T + b.Pronoun[r]
		if gr.in.supervisedRow != nil {
			_, head := SupervisedHead(gr.params.config)
			gr.in.supervisedRow.Value().Data().([]int)[r] = (r*s.H+head)*s.T + b.Pronoun[r]
		}
		if n > 0 {
			candidates[r*s.T+b.Pronoun[r]] = maskValue
			writeTarget(target[r*s.T:(r+1)*s.T], b, r, weight)
		}
	}
	gorgoniax.CopyInto(gr.in.keyMask.Value().(*tensor.Dense), keyMask)
	gorgoniax.CopyInto(gr.in.candidates.Value().(*tensor.Dense), candidates)
	gorgoniax.CopyInto(gr.in.target.Value().(*tensor.Dense), target)
	if gr.in.vectors != nil {
		gorgoniax.CopyInto(gr.in.vectors.Value().(*tensor.Dense), b.Vectors)
	}
}

// writeTarget puts row r's share of the loss, weight, on its antecedent, or
// spreads it evenly over the row's Spread positions.
func writeTarget(row []float64, b Batch, r int, weight float64) {
	switch {
	case b.Antecedent == nil:
	case b.Spread != nil && len(b.Spread[r]) > 0:
		for _, p := range b.Spread[r] {
			row[p] += weight / float64(len(b.Spread[r]))
		}
	default:
		row[b.Antecedent[r]] = weight
	}
}

// normaliser is what each labelled row's target weighs the inverse of: the
// Normaliser if set, else the batch's own count of labelled rows.
func (b Batch) normaliser() int {
	if b.Normaliser > 0 {
		return b.Normaliser
	}
	return countLabelled(b)
}

func countLabelled(b Batch) int {
	if b.Antecedent == nil {
		return 0
	}
	n := 0
	for _, l := range b.Lengths {
		if l > 0 {
			n++
		}
	}
	return n
}
