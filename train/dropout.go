// Noun dropout: in each epoch, each candidate noun of a training sentence is
// read as <unk> with probability p (config train.noun_dropout).
//
// Why: the corpus holds some (noun, role) pairs out of every split, so in
// training such a noun only ever plays its other role, and its embedding can
// learn "I am the object" as a shortcut that agrees with every training
// sentence. Hiding the noun now and then leaves only the sentence's structure
// and predicate to answer from, so the shortcut stops paying. Unlike the
// corpus's fixed <unk>-noun rows, the hidden nouns change every epoch, so no
// sentence is lost to training for good.

package train

import (
	"math/rand"
	"slices"

	"itformer/data"
)

// dropoutSeed separates the dropout draws from the batch-order stream, so a
// run with noun_dropout 0 makes exactly the batches it always made.
const dropoutSeed = 0x6e6f756e // "noun"

// dropNouns replaces candidate nouns by <unk> in place, each with
// probability p. Rows whose deciding words are already hidden (Uncertain)
// are left alone: with both the noun and the meaning hidden nothing is left
// to learn from.
func dropNouns(batches []data.Batch, p float64, seed int64, epoch int) {
	dropWords(batches, p, seed^dropoutSeed, epoch, func(b data.Batch, r int) []int {
		if b.Uncertain[r] {
			return nil
		}
		return b.Candidates[r][:]
	})
}

// Connective dropout: in each epoch, each word of the connective that joins
// an explaining reason clause to the outcome ("because", "since", ", so") is
// read as <unk> with probability p (config train.connective_dropout).
//
// Why: concession is marked ("although", "but"); explanation needs no mark
// ("The dog ate the food. It was hungry."). A corpus whose every explaining
// clause opens with "because", "since", "as" or "so" lets a model learn
// concession as "not one of those four", and then a clause joined by a word
// it never saw there (". ", ", so" before the main clause) is read as a
// concession or not by chance of the seed. Hiding the explaining word now
// and then leaves the conceding words as the only mark that turns the
// answer round. Punctuation is kept, and conceding rows are never touched.

// connectiveSeed separates these draws from the batch order and from noun
// dropout, so either rate at 0 leaves the other's draws as they were.
const connectiveSeed = 0x636f6e6e // "conn"

// dropConnectives replaces the words of explaining connectives by <unk> in
// place, each with probability p.
func dropConnectives(batches []data.Batch, p float64, seed int64, epoch int) {
	dropWords(batches, p, seed^connectiveSeed, epoch, func(b data.Batch, r int) []int {
		e := b.Examples[r]
		if e.Concessive {
			return nil
		}
		return slices.DeleteFunc(slices.Clone(e.Connective), func(pos int) bool { return !isWord(e.Tokens[pos]) })
	})
}

// isWord reports whether a token is a word rather than punctuation.
func isWord(token string) bool { return token != "," && token != "." }

// dropWords replaces by <unk>, in place, each position that at names in a
// row, with probability p. The draws depend only on (stream, epoch), one per
// named position in batch and row order, so a resumed run makes the same
// ones; p <= 0 draws nothing.
func dropWords(batches []data.Batch, p float64, stream int64, epoch int, at func(b data.Batch, row int) []int) {
	if p <= 0 {
		return
	}
	rng := rand.New(rand.NewSource(stream ^ int64(epoch)<<32))
	for _, b := range batches {
		for r := range b.Examples {
			for _, pos := range at(b, r) {
				if rng.Float64() < p {
					b.IDs[r*b.SeqLen+pos] = data.UnkID
				}
			}
		}
	}
}
