// Balance: how often each meaning is drawn, so that no single feature of a
// sentence tells which noun "it" is, and which meanings no split sees.
//
// Weights over cells are set by iterative proportional fitting (raking):
// repeatedly, for each feature (predicate, verb, negation, connective,
// frame), every value's cells pointing at the agent are scaled to carry as
// much weight as those pointing at the object; then the shares of negated
// and conceding sentences and of each frame are set. The lexicon makes
// this possible (checkBothRoles: every predicate describes both roles
// somewhere); raking finds the weights.

package data

import (
	"math/rand"
	"strconv"
)

// balanceRounds is enough for the largest correction to fall below 1e-6
// on the shipped lexicon.
const balanceRounds = 200

// features are what a one-feature baseline may look at, per cell.
var features = []func(c cell) string{
	func(c cell) string { return c.Predicate },
	func(c cell) string { return strconv.Itoa(c.frameIndex) + c.Outcome.String() }, // the verb
	func(c cell) string { return strconv.FormatBool(c.Negated) },
	func(c cell) string { return strconv.FormatBool(c.Concessive) },
	func(c cell) string { return strconv.Itoa(c.frameIndex) },
}

// balance rakes w (one weight per cell, 0 for cells never drawn) in place.
func balance(cells []cell, w []float64) {
	nFrames := 0
	for _, c := range cells {
		nFrames = max(nFrames, c.frameIndex+1)
	}
	for range balanceRounds { // the role balance last, so it is what holds best
		setShares(cells, w, func(c cell) int { return boolIndex(c.Negated) }, []float64{1 - negatedShare, negatedShare})
		setShares(cells, w, func(c cell) int { return boolIndex(c.Concessive) }, []float64{1 - concessiveShare, concessiveShare})
		boundFrames(cells, w, nFrames)
		for _, f := range features {
			balanceRoles(cells, w, f)
		}
	}
}

// balanceRoles scales, for every value of feature, the weight of the cells
// pointing at each role to half the value's weight. A value one role never
// has is left as it is.
func balanceRoles(cells []cell, w []float64, feature func(cell) string) {
	sums := map[string]*[2]float64{}
	for i, c := range cells {
		k := feature(c)
		if sums[k] == nil {
			sums[k] = &[2]float64{}
		}
		sums[k][c.role] += w[i]
	}
	for i, c := range cells {
		s := sums[feature(c)]
		if s[0] > 0 && s[1] > 0 {
			w[i] *= (s[0] + s[1]) / 2 / s[c.role]
		}
	}
}

// setShares scales the cells of each group to its share of the total.
func setShares(cells []cell, w []float64, group func(cell) int, shares []float64) {
	sums := make([]float64, len(shares))
	total := 0.0
	for i, c := range cells {
		sums[group(c)] += w[i]
		total += w[i]
	}
	for i, c := range cells {
		if s := sums[group(c)]; s > 0 {
			w[i] *= shares[group(c)] * total / s
		}
	}
}

// frameShareBounds bound any frame's share of sentences, as multiples of an
// equal share: balancing alone would starve a frame whose predicates lean
// one way elsewhere (climb's "tall" is only ever what is climbed) and feed
// the one that evens them out, and a frame the model barely sees is one it
// cannot learn. Within these bounds the roles stay balanced to a few
// percent (TestBalanceOfCells).
var frameShareBounds = [2]float64{0.5, 2.5}

// boundFrames scales every frame whose share is out of frameShareBounds to
// the nearest bound.
func boundFrames(cells []cell, w []float64, nFrames int) {
	sums := make([]float64, nFrames)
	total := 0.0
	for i, c := range cells {
		sums[c.frameIndex] += w[i]
		total += w[i]
	}
	equal := total / float64(nFrames)
	lo, hi := frameShareBounds[0]*equal, frameShareBounds[1]*equal
	for i, c := range cells {
		if s := sums[c.frameIndex]; s > 0 {
			w[i] *= min(max(s, lo), hi) / s
		}
	}
}

// chooseHeldOutCells picks about share of the (verb, predicate, polarity)
// combinations, in twin pairs: a combination and the one that differs only
// in the polarity, or only in the outcome, and moves the answer to the other
// noun ("could not catch / fast" and "could not catch / not fast"). So the
// held_out_cell challenge can be written in twins whose predicate is the
// same, and the predicate alone tells nothing there. At most one pair per
// frame and predicate, so the predicate is still seen with that verb the
// other way; never one of the mission sentences' combinations, and never
// one whose words another frame shares ("could not cross / big" is ford's
// and cross's, with the answer the other way round): the held-out
// combination of words must be unseen, not only that frame's. Nor one that
// would leave its verb pointing one way only: where one role has a single
// dimension of two words ("reached": only "tall" and "short" describe what
// is reached), holding out both would make the verb alone the answer.
func chooseHeldOutCells(lex *Lexicon, cells []cell, share float64, rng *rand.Rand) map[cellKey]bool {
	keys := distinctKeys(cells)
	frames := map[string]int{} // cell name → frames that have it
	for _, k := range keys {
		frames[lex.cellName(k)]++
	}
	pairs := twinPairs(lex, keys)
	want := int(share*float64(len(keys)) + 0.5)
	out := map[cellKey]bool{}
	used := map[[2]any]bool{}
	for _, i := range rng.Perm(len(pairs)) {
		p := pairs[i]
		fp := [2]any{p[0].frameIndex, p[0].predicate}
		shared := frames[lex.cellName(p[0])] > 1 || frames[lex.cellName(p[1])] > 1
		if len(out)+2 > want || used[fp] || shared || isMissionCell(lex, p[0]) || isMissionCell(lex, p[1]) ||
			!verbsPointBothWays(cells, out, p) {
			continue
		}
		out[p[0]], out[p[1]], used[fp] = true, true, true
	}
	return out
}

// verbsPointBothWays says whether the verbs (frame and outcome) of pair
// would still have cells of both roles if pair were held out beside heldOut.
func verbsPointBothWays(cells []cell, heldOut map[cellKey]bool, pair [2]cellKey) bool {
	for _, k := range pair {
		var roles [2]bool
		for _, c := range cells {
			ck := c.key()
			if ck.frameIndex == k.frameIndex && ck.outcome == k.outcome && !heldOut[ck] && ck != pair[0] && ck != pair[1] {
				roles[c.role] = true
			}
		}
		if !roles[Agent] || !roles[Object] {
			return false
		}
	}
	return true
}

// distinctKeys lists the cells' keys once each, in the cells' order, so that
// what is drawn from them depends on the seed alone.
func distinctKeys(cells []cell) []cellKey {
	var out []cellKey
	seen := map[cellKey]bool{}
	for _, c := range cells {
		if k := c.key(); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// twinPairs pairs every unnegated, succeeded key whose predicate describes
// both roles with its negated twin and with its failed twin.
func twinPairs(lex *Lexicon, keys []cellKey) [][2]cellKey {
	var pairs [][2]cellKey
	for _, k := range keys {
		roles := lex.Frames[k.frameIndex].describes(k.predicate)
		if !roles[Agent] || !roles[Object] || k.negated || k.outcome == Failed {
			continue // each pair once, from its unnegated, succeeded corner
		}
		for _, twin := range []cellKey{{k.frameIndex, k.outcome, k.predicate, true}, {k.frameIndex, Failed, k.predicate, false}} {
			pairs = append(pairs, [2]cellKey{k, twin})
		}
	}
	return pairs
}

// isMissionCell says whether k is the verb, predicate and polarity of a mission sentence.
func isMissionCell(lex *Lexicon, k cellKey) bool {
	return lex.Frames[k.frameIndex].Name == "eat" && k.outcome == Succeeded && !k.negated &&
		(k.predicate == "hungry" || k.predicate == "tasty")
}
