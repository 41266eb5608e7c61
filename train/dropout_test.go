package train

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"itformer/data"
)

func dropoutBatches(t *testing.T) []data.Batch {
	t.Helper()
	c, err := data.Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := data.Batches(c.Train, c.Vocab(), 32, 24, rand.New(rand.NewSource(1)), true)
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

func copyIDs(bs []data.Batch) [][]int {
	out := make([][]int, len(bs))
	for i, b := range bs {
		out[i] = slices.Clone(b.IDs)
	}
	return out
}

// TestDropNouns: only candidate nouns of rows that still have their deciding
// words become <unk>, at about the configured rate, the same way for the same
// (seed, epoch) and differently for another epoch; p = 0 changes nothing.
func TestDropNouns(t *testing.T) {
	bs := dropoutBatches(t)
	before := copyIDs(bs)
	dropNouns(bs, 0, 1, 0)
	if !slices.EqualFunc(before, copyIDs(bs), slices.Equal) {
		t.Fatal("noun dropout 0 changed the batches")
	}
	const p = 0.2
	dropNouns(bs, p, 1, 3)
	dropped, candidates := 0, 0
	for i, b := range bs {
		for j, id := range b.IDs {
			if id == before[i][j] {
				continue
			}
			r, pos := j/b.SeqLen, j%b.SeqLen
			if id != data.UnkID || b.Uncertain[r] || !slices.Contains(b.Candidates[r][:], pos) {
				t.Fatalf("batch %d row %d position %d: id %d -> %d; only candidates of rows with their deciding words may become <unk>", i, r, pos, before[i][j], id)
			}
			dropped++
		}
		for r := range b.Examples {
			if !b.Uncertain[r] {
				candidates += 2
			}
		}
	}
	if rate := float64(dropped) / float64(candidates); math.Abs(rate-p) > 0.02 {
		t.Errorf("dropped %d of %d candidates (%.3f), want about %v", dropped, candidates, rate, p)
	}
	again, other := dropoutBatches(t), dropoutBatches(t)
	dropNouns(again, p, 1, 3)
	dropNouns(other, p, 1, 4)
	if !slices.EqualFunc(copyIDs(bs), copyIDs(again), slices.Equal) {
		t.Error("the same seed and epoch dropped different nouns")
	}
	if slices.EqualFunc(copyIDs(bs), copyIDs(other), slices.Equal) {
		t.Error("another epoch dropped the same nouns")
	}
}

// TestDropConnectives: at p = 1 every word of an explaining connective
// becomes <unk> and nothing else changes: no conceding row, no comma, no
// other position; p = 0 changes nothing; the draws follow (seed, epoch).
func TestDropConnectives(t *testing.T) {
	bs := dropoutBatches(t)
	before := copyIDs(bs)
	dropConnectives(bs, 0, 1, 0)
	if !slices.EqualFunc(before, copyIDs(bs), slices.Equal) {
		t.Fatal("connective dropout 0 changed the batches")
	}
	dropConnectives(bs, 1, 1, 3)
	hidden := 0
	for i, b := range bs {
		for r, e := range b.Examples {
			for pos, tok := range e.Tokens {
				want := before[i][r*b.SeqLen+pos]
				if !e.Concessive && slices.Contains(e.Connective, pos) && tok != "," {
					want = data.UnkID
					hidden++
				}
				if got := b.IDs[r*b.SeqLen+pos]; got != want {
					t.Fatalf("%q, word %d %q: id %d, want %d", e.Text, pos, tok, got, want)
				}
			}
		}
	}
	if hidden == 0 {
		t.Fatal("no explaining connective was hidden at p = 1")
	}
	half, again, other := dropoutBatches(t), dropoutBatches(t), dropoutBatches(t)
	dropConnectives(half, 0.5, 1, 3)
	dropConnectives(again, 0.5, 1, 3)
	dropConnectives(other, 0.5, 1, 4)
	if !slices.EqualFunc(copyIDs(half), copyIDs(again), slices.Equal) {
		t.Error("the same seed and epoch hid different connectives")
	}
	if slices.EqualFunc(copyIDs(half), copyIDs(other), slices.Equal) {
		t.Error("another epoch hid the same connectives")
	}
}
