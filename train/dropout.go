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

	"itformer/data"
)

// dropoutSeed separates the dropout draws from the batch-order stream, so a
// run with noun_dropout 0 makes exactly the batches it always made.
const dropoutSeed = 0x6e6f756e // "noun"

// dropNouns replaces candidate nouns by <unk> in place, each with
// probability p. Rows whose deciding words are already hidden (Uncertain)
// are left alone: with both the noun and the meaning hidden nothing is left
// to learn from. The draws depend only on (seed, epoch), so a resumed run
// makes the same ones.
func dropNouns(batches []data.Batch, p float64, seed int64, epoch int) {
	if p <= 0 {
		return
	}
	rng := rand.New(rand.NewSource(seed ^ dropoutSeed ^ int64(epoch)<<32))
	for _, b := range batches {
		for r := range b.Examples {
			if b.Uncertain[r] {
				continue
			}
			for _, c := range b.Candidates[r] {
				if rng.Float64() < p {
					b.IDs[r*b.SeqLen+c] = data.UnkID
				}
			}
		}
	}
}
