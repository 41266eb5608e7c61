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
// place, each with probability p, drawn from (seed, epoch) alone.
func dropConnectives(batches []data.Batch, p float64, seed int64, epoch int) {
	if p <= 0 {
		return
	}
	rng := rand.New(rand.NewSource(seed ^ connectiveSeed ^ int64(epoch)<<32))
	for _, b := range batches {
		for r, e := range b.Examples {
			if e.Concessive {
				continue
			}
			for _, pos := range e.Connective {
				if isWord(e.Tokens[pos]) && rng.Float64() < p {
					b.IDs[r*b.SeqLen+pos] = data.UnkID
				}
			}
		}
	}
}

// isWord reports whether a token is a word rather than punctuation.
func isWord(token string) bool { return token != "," && token != "." }
