// Batch: groups examples into fixed-size, padded id matrices with the
// per-row lengths, pronoun and antecedent positions a model step needs.

package data

import (
	"errors"
	"fmt"
	"math/rand"
)

// Batch is Size rows of SeqLen positions. Row r holds IDs[r*SeqLen:(r+1)*SeqLen],
// of which the first Lengths[r] are real tokens and the rest PadID. Rows
// beyond len(Examples) are filler: Lengths, Pronoun and Antecedent are 0,
// Uncertain false.
type Batch struct {
	Size, SeqLen int
	IDs          []int
	Lengths      []int
	Pronoun      []int
	Antecedent   []int
	Candidates   [][2]int  // both candidate nouns per row; {0, 0} for filler rows
	Uncertain    []bool    // the row's deciding words are unknown: spread the answer over both candidates
	Examples     []Example // the real rows, len <= Size
}

// Batches cuts ex into batches of size rows padded to seqLen. With rng nil
// the order of ex is kept; otherwise it is shuffled by rng (same rng state,
// same batches). With dropLast the incomplete last batch is dropped, else it
// is completed with filler rows. Tokens missing from v are encoded as UnkID.
func Batches(ex []Example, v *Vocab, size, seqLen int, rng *rand.Rand, dropLast bool) ([]Batch, error) {
	if v == nil || size <= 0 || seqLen <= 0 {
		return nil, fmt.Errorf("batches need a vocabulary, size >= 1 and seqLen >= 1; got vocab %v, size %d, seqLen %d", v != nil, size, seqLen)
	}
	if err := checkExamples(ex, seqLen); err != nil {
		return nil, err
	}
	order := make([]int, len(ex))
	for i := range order {
		order[i] = i
	}
	if rng != nil {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	var out []Batch
	for start := 0; start < len(order); start += size {
		rows := order[start:min(start+size, len(order))]
		if len(rows) < size && dropLast {
			break
		}
		out = append(out, newBatch(ex, rows, v, size, seqLen))
	}
	return out, nil
}

// checkExamples rejects sentences that do not fit seqLen or whose positions
// point outside the sentence, quoting the sentence.
func checkExamples(ex []Example, seqLen int) error {
	var errs []error
	for i, e := range ex {
		n := len(e.Tokens)
		switch {
		case n > seqLen:
			errs = append(errs, fmt.Errorf("example %d %q has %d tokens, more than seqLen %d", i, e.Text, n, seqLen))
		case !inRange(n, e.Pronoun, e.Antecedent, e.Candidates[0], e.Candidates[1]):
			errs = append(errs, fmt.Errorf("example %d %q: pronoun %d, antecedent %d or candidates %v outside its %d tokens",
				i, e.Text, e.Pronoun, e.Antecedent, e.Candidates, n))
		}
		if len(errs) == 10 {
			errs = append(errs, errors.New("(further errors not listed)"))
			break
		}
	}
	return errors.Join(errs...)
}

func inRange(n int, positions ...int) bool {
	for _, p := range positions {
		if p < 0 || p >= n {
			return false
		}
	}
	return true
}

func newBatch(ex []Example, rows []int, v *Vocab, size, seqLen int) Batch {
	b := Batch{
		Size: size, SeqLen: seqLen,
		IDs:     make([]int, size*seqLen), // PadID is 0
		Lengths: make([]int, size), Pronoun: make([]int, size), Antecedent: make([]int, size),
		Candidates: make([][2]int, size), Uncertain: make([]bool, size),
	}
	for r, i := range rows {
		e := ex[i]
		ids, _ := v.Encode(e.Tokens)
		copy(b.IDs[r*seqLen:], ids)
		b.Lengths[r], b.Pronoun[r], b.Antecedent[r] = len(ids), e.Pronoun, e.Antecedent
		b.Candidates[r], b.Uncertain[r] = e.Candidates, e.Uncertain
		b.Examples = append(b.Examples, e)
	}
	return b
}

// Longest is the length of the batch's longest row (at least 1).
func (b Batch) Longest() int {
	longest := 1
	for _, n := range b.Lengths {
		longest = max(longest, n)
	}
	return longest
}

// Repadded returns the batch padded to seqLen tokens instead of b.SeqLen,
// sharing everything but IDs; seqLen below Longest() is raised to it, so no
// token is cut. Padding is masked out of attention and the loss, so a model
// run on a shorter padding gives the same numbers for the real tokens and
// does less work for the padding: with shuffled batches of the default
// corpus, most batches' longest sentence is 17 to 19 tokens against max_len 24.
func (b Batch) Repadded(seqLen int) Batch {
	seqLen = max(seqLen, b.Longest())
	if seqLen == b.SeqLen {
		return b
	}
	ids := make([]int, b.Size*seqLen)
	for r := 0; r < b.Size; r++ {
		n := min(seqLen, b.SeqLen)
		copy(ids[r*seqLen:r*seqLen+n], b.IDs[r*b.SeqLen:r*b.SeqLen+n])
	}
	b.IDs, b.SeqLen = ids, seqLen
	return b
}

// Mask reports whether (row, pos) is a real token (false for padding,
// filler rows and positions outside the batch).
func (b *Batch) Mask(row, pos int) bool {
	return row >= 0 && row < len(b.Lengths) && pos >= 0 && pos < b.SeqLen && pos < b.Lengths[row]
}

// MaskValues returns a row-major Size*SeqLen matrix holding real for real
// tokens and pad elsewhere: MaskValues(1, 0) to multiply, MaskValues(0, -1e9)
// to add to attention scores.
func (b *Batch) MaskValues(real, pad float64) []float64 {
	out := make([]float64, b.Size*b.SeqLen)
	for i := range out {
		out[i] = pad
		if b.SeqLen > 0 && b.Mask(i/b.SeqLen, i%b.SeqLen) {
			out[i] = real
		}
	}
	return out
}
