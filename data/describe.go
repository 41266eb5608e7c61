// Describe: corpus statistics in a few readable lines, for logs and README.

package data

import (
	"fmt"
	"strings"
)

// Longest returns the example with the most tokens (the first one on a tie).
func Longest(ex []Example) (Example, bool) {
	if len(ex) == 0 {
		return Example{}, false
	}
	best := ex[0]
	for _, e := range ex[1:] {
		if len(e.Tokens) > len(best.Tokens) {
			best = e
		}
	}
	return best, true
}

// Longest returns the longest sentence of the splits and challenge sets.
func (c *Corpus) Longest() Example {
	all := []Example{}
	for _, split := range c.allSets() {
		if e, ok := Longest(split); ok {
			all = append(all, e)
		}
	}
	e, _ := Longest(all)
	return e
}

// allSets lists the three splits, then each challenge set.
func (c *Corpus) allSets() [][]Example {
	sets := [][]Example{c.Train, c.Validation, c.Test}
	for _, ch := range c.Challenges {
		sets = append(sets, ch.Examples)
	}
	return sets
}

// Describe summarises sizes, frames, shapes, balance, longest sentence,
// vocabulary and baselines on test and on every challenge set.
func (c *Corpus) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: train %d, validation %d, test %d sentences\n", c.Seed, len(c.Train), len(c.Validation), len(c.Test))
	fmt.Fprintf(&b, "%d frames: %s\n", len(c.Frames), strings.Join(c.Frames, ", "))
	val, test := HeldOutShapes()
	fmt.Fprintf(&b, "shapes: %s; held out: %s (validation only), %s (test only)\n", strings.Join(trainShapes, ", "), val, test)
	for _, s := range []splitID{trainSplit, validationSplit, testSplit} {
		ex, _ := c.Split(s.String())
		fmt.Fprintf(&b, "%s: antecedent first %.1f%%, negated %.1f%%, place noun %.1f%%, uncertain %.1f%%; shapes %s\n",
			s, 100*ratio(countFirst(ex), len(ex)), 100*share(ex, func(e Example) bool { return e.Negated }),
			100*share(ex, func(e Example) bool { return len(e.Distractors) > 0 }),
			100*share(ex, func(e Example) bool { return e.Uncertain }), shapeCounts(ex))
	}
	long := c.Longest()
	fmt.Fprintf(&b, "longest sentence: %d tokens (MaxTokens %d): %q\n", len(long.Tokens), MaxTokens, long.Text)
	fmt.Fprintf(&b, "vocabulary (train): %d tokens incl. %s and %s\n", c.Vocab().Size(), Pad, Unk)
	fmt.Fprintf(&b, "held-out (noun, role) pairs: %s\n", nounRoleList(c.HeldOutNounRoles))
	fmt.Fprintf(&b, "baselines on test: %s\n", Baselines(c.Train, c.Test))
	for _, ch := range c.Challenges {
		fmt.Fprintf(&b, "baselines on %s: %s\n", ch.Name, Baselines(c.Train, ch.Examples))
	}
	return b.String()
}

func share(ex []Example, pred func(Example) bool) float64 {
	n := 0
	for _, e := range ex {
		if pred(e) {
			n++
		}
	}
	return ratio(n, len(ex))
}

// shapeCounts gives "active 1200, passive 1100, ..." in a fixed order.
func shapeCounts(ex []Example) string {
	counts := map[string]int{}
	for _, e := range ex {
		counts[e.Shape]++
	}
	var parts []string
	for _, sh := range allShapes {
		if n := counts[sh.Name]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", sh.Name, n))
		}
	}
	return strings.Join(parts, ", ")
}
