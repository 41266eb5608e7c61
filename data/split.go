// Split: which meanings and which sentence shapes each of train, validation
// and test may use, and which (noun, role) pairs no split sees at all (see
// the package doc).

package data

import (
	"fmt"
	"math/rand"
	"slices"
)

// splitID indexes the three ordinary splits.
type splitID int

const (
	trainSplit splitID = iota
	validationSplit
	testSplit
)

var splitNames = [...]string{"train", "validation", "test"}

func (s splitID) String() string { return splitNames[s] }

// splitShape is the one shape a split adds to the shapes every split uses:
// validation and test a shape built only from words and orders training has
// seen, train lead-it ("The dog found the food and ate it."), which writes
// no predicate, so its sentences could not be kept apart by combination.
var splitShape = map[splitID]string{
	trainSplit:      ShapeLeadIt,
	validationSplit: ShapePassiveAdverb,
	testSplit:       ShapeFrontedAs,
}

// trainShapes are the shapes every split uses.
var trainShapes = []string{ShapeActive, ShapePassive, ShapeFronted, ShapeFrontedPassive, ShapeSoIt, ShapeTwoIt}

// challengeShapes are the shapes only the held_out_shape challenge uses:
// a reason clause joined by "so", and the reason as a sentence of its own.
var challengeShapes = []string{ShapeSo, ShapeSoPassive, ShapeTwoSentences, ShapeTwoPassive}

// HeldOutShapes returns the shape only validation uses and the shape only test uses.
func HeldOutShapes() (validation, test string) {
	return splitShape[validationSplit], splitShape[testSplit]
}

// ChallengeShapes returns the shapes only the held_out_shape challenge uses.
func ChallengeShapes() []string { return slices.Clone(challengeShapes) }

// shapesFor returns the shapes split s may write frame f in.
func shapesFor(s splitID, f *Frame) []Shape {
	names := trainShapes
	if extra, ok := splitShape[s]; ok {
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

// NounRole is a noun in a grammatical role: {"fox", Object} is the fox as
// the one chased, caught or overtaken.
type NounRole struct {
	Noun string `json:"noun"`
	Role Role   `json:"role"`
}

func (nr NounRole) String() string { return nr.Noun + " as " + nr.Role.String() }

// chooseHeldOutNounRoles picks n (noun, role) pairs, alternating agent and
// object, among nouns that play both roles somewhere, so each held-out noun
// is still seen in training in its other role (a noun is held out in one
// role only). forbidden pairs (the mission's dog as agent, food as object)
// are never chosen. A pair is taken first only if no pair taken before is
// explained by the same dimensions (taste, hunger, size...) in its frames,
// whichever its role, so the challenge spreads over kinds of meaning rather
// than, say, four foods and drinks eaten, drunk or tempting, where whatever
// role the training data's counts give each taste word would decide most of
// it.
func chooseHeldOutNounRoles(lex *Lexicon, n int, forbidden []NounRole, rng *rand.Rand) []NounRole {
	eligible := lex.nounsInBothRoles()
	order := rng.Perm(len(eligible))
	var out []NounRole
	kinds := map[string]bool{} // the dimensions of each pair taken
	for _, newKind := range []bool{true, false} {
		for _, i := range order {
			if len(out) == n {
				break
			}
			nr := NounRole{eligible[i], Role(len(out) % 2)}
			kind := fmt.Sprint(lex.dimensionsOf(nr))
			taken := slices.ContainsFunc(out, func(o NounRole) bool { return o.Noun == nr.Noun })
			if taken || slices.Contains(forbidden, nr) || newKind && kinds[kind] {
				continue
			}
			out = append(out, nr)
			kinds[kind] = true
		}
	}
	slices.SortFunc(out, func(a, b NounRole) int { return compareNounRoles(a, b) })
	return out
}

// dimensionsOf lists, sorted and once each, the dimensions that explain the
// outcome of the frames in which nr's noun plays nr's role.
func (l *Lexicon) dimensionsOf(nr NounRole) []string {
	var out []string
	for i := range l.Frames {
		if f := &l.Frames[i]; slices.Contains(f.Nouns(nr.Role), nr.Noun) {
			out = append(out, f.Dimensions(nr.Role)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func compareNounRoles(a, b NounRole) int {
	switch {
	case a.Noun < b.Noun:
		return -1
	case a.Noun > b.Noun:
		return 1
	}
	return int(a.Role) - int(b.Role)
}

// nounsInBothRoles lists, sorted, the nouns that are an agent in some frame
// and an object in some frame.
func (l *Lexicon) nounsInBothRoles() []string {
	var seen [2]map[string]bool
	for r := range seen {
		seen[r] = map[string]bool{}
		for _, f := range l.Frames {
			addAll(seen[r], f.Nouns(Role(r)))
		}
	}
	var out []string
	for w := range seen[Agent] {
		if seen[Object][w] {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}

// heldOutSet answers whether a tuple uses a held-out (noun, role) pair.
type heldOutSet map[NounRole]bool

func newHeldOutSet(pairs []NounRole) heldOutSet {
	s := heldOutSet{}
	for _, p := range pairs {
		s[p] = true
	}
	return s
}

func (h heldOutSet) has(t tuple) bool {
	return h[NounRole{t.agent, Agent}] || h[NounRole{t.object, Object}]
}
