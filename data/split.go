// Split: which (noun pair, predicate) combinations and which sentence shapes
// each of train, validation and test may use (see the package doc).

package data

import (
	"math"
	"math/rand"
	"slices"
)

// splitID indexes the three splits.
type splitID int

const (
	trainSplit splitID = iota
	validationSplit
	testSplit
)

var splitNames = [...]string{"train", "validation", "test"}

func (s splitID) String() string { return splitNames[s] }

// heldOutShape is the one shape a held-out split adds to the training shapes.
var heldOutShape = map[splitID]string{
	validationSplit: ShapePassiveAdverb,
	testSplit:       ShapeFrontedAs,
}

// trainShapes are the shapes every split uses.
var trainShapes = []string{ShapeActive, ShapePassive, ShapeFronted, ShapeFrontedPassive}

// HeldOutShapes returns the shape only validation uses and the shape only test uses.
func HeldOutShapes() (validation, test string) {
	return heldOutShape[validationSplit], heldOutShape[testSplit]
}

// shapesFor returns the shapes split s may write frame f in.
func shapesFor(s splitID, f *Frame) []Shape {
	names := trainShapes
	if extra, ok := heldOutShape[s]; ok {
		names = append(names[:len(names):len(names)], extra)
	}
	return fittingShapes(names, f)
}

// fittingShapes returns the named shapes that can write frame f, in allShapes order.
func fittingShapes(names []string, f *Frame) []Shape {
	var out []Shape
	for _, sh := range allShapes {
		if slices.Contains(names, sh.Name) && sh.fits(f) {
			out = append(out, sh)
		}
	}
	return out
}

// assignCombinations gives every combination a split. The forced ones keep
// theirs; the rest are shuffled and the first TestShare go to test, the next
// ValidationShare to validation, the remainder to train.
func assignCombinations(keys []comboKey, forced map[comboKey]splitID, cfg Config, rng *rand.Rand) map[comboKey]splitID {
	want := [3]int{
		validationSplit: int(math.Round(cfg.ValidationShare * float64(len(keys)))),
		testSplit:       int(math.Round(cfg.TestShare * float64(len(keys)))),
	}
	out := make(map[comboKey]splitID, len(keys))
	var have [3]int
	for _, k := range keys {
		if s, ok := forced[k]; ok {
			out[k] = s
			have[s]++
		}
	}
	for _, i := range rng.Perm(len(keys)) {
		if _, done := out[keys[i]]; done {
			continue
		}
		s := nextSplit(have, want)
		out[keys[i]] = s
		have[s]++
	}
	return out
}

func nextSplit(have, want [3]int) splitID {
	switch {
	case have[testSplit] < want[testSplit]:
		return testSplit
	case have[validationSplit] < want[validationSplit]:
		return validationSplit
	}
	return trainSplit
}

// uniqueKeys lists the combinations of the tuples in first-seen order, so
// the shuffle that follows depends only on the seed.
func uniqueKeys(tuples []tuple) []comboKey {
	seen := map[comboKey]bool{}
	var keys []comboKey
	for _, t := range tuples {
		if k := t.key(); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}
