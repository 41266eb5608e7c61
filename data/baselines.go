// Baselines: accuracies of answers that ignore meaning, or use only part of
// it. The corpus is built so that the position and noun baselines stay near
// 50% everywhere, and the challenge sets so that none beats chance.

package data

import "fmt"

// BaselineScores are accuracies in [0, 1] on the evaluated examples.
type BaselineScores struct {
	N int `json:"n"` // examples evaluated
	// FirstNoun always answers the candidate that comes first in the sentence.
	FirstNoun float64 `json:"first_noun"`
	// NearestNoun answers the closest candidate before the pronoun, or, if no
	// candidate precedes it (reason clause first), the closest one after it.
	NearestNoun float64 `json:"nearest_noun"`
	// Majority answers first or second candidate, whichever was the
	// antecedent more often in train (first on a tie).
	Majority       float64 `json:"majority"`
	MajorityChoice string  `json:"majority_choice"` // "first" or "second"
	// NounIdentity answers the candidate noun that was the antecedent more
	// often, per appearance as a candidate, in train (first on a tie; a noun
	// train never had counts one half).
	NounIdentity float64 `json:"noun_identity"`
	// PredicateIdentity, VerbIdentity, Polarity and Connective each look at
	// one feature of the sentence (the predicate said of "it", ignoring
	// "not"; the verb and its outcome, "ate" or "did not eat"; whether the
	// reason clause says "not"; whether it concedes, "although") and answer
	// the candidate in the role that feature went with most often in train
	// (the agent on a tie; the first candidate for a value train never had).
	PredicateIdentity float64 `json:"predicate_identity"`
	VerbIdentity      float64 `json:"verb_identity"`
	Polarity          float64 `json:"polarity"`
	Connective        float64 `json:"connective"`
}

// Shortcut is the best of the baselines: every one of them looks at a
// single feature, and none should be able to answer.
func (s BaselineScores) Shortcut() float64 {
	return max(s.FirstNoun, s.NearestNoun, s.Majority, s.NounIdentity, s.PredicateIdentity, s.VerbIdentity, s.Polarity, s.Connective)
}

func (s BaselineScores) String() string {
	return fmt.Sprintf("first noun %.1f%%, nearest noun %.1f%%, majority (%s noun) %.1f%%, noun %.1f%%, predicate %.1f%%, verb %.1f%%, polarity %.1f%%, connective %.1f%% on %d examples",
		100*s.FirstNoun, 100*s.NearestNoun, s.MajorityChoice, 100*s.Majority, 100*s.NounIdentity,
		100*s.PredicateIdentity, 100*s.VerbIdentity, 100*s.Polarity, 100*s.Connective, s.N)
}

// roleFeatures are the features a one-feature baseline reads off an example.
var roleFeatures = []func(Example) string{
	func(e Example) string { return e.Predicate },
	func(e Example) string { return e.Frame + "/" + e.Verb },
	func(e Example) string { return fmt.Sprint(e.Negated) },
	func(e Example) string { return fmt.Sprint(e.Concessive) },
}

// Baselines scores every baseline on examples, learning what they need
// (majority position, noun rates, the roles each feature went with) from train.
func Baselines(train, examples []Example) BaselineScores {
	s := BaselineScores{N: len(examples), MajorityChoice: "first"}
	if 2*countFirst(train) < len(train) {
		s.MajorityChoice = "second"
	}
	nouns := nounRates(train)
	stats := make([]featureStats, len(roleFeatures))
	for i, f := range roleFeatures {
		stats[i] = featureRoles(train, f)
	}
	var first, nearest, majority, noun int
	byFeature := make([]int, len(roleFeatures))
	for _, e := range examples {
		first += hit(e, e.Candidates[0])
		nearest += hit(e, NearestNoun(e))
		majority += hit(e, e.Candidates[majorityIndex(s.MajorityChoice)])
		noun += hit(e, nouns.answer(e))
		for i, f := range roleFeatures {
			byFeature[i] += hit(e, stats[i].answer(e, f(e)))
		}
	}
	n := len(examples)
	s.FirstNoun, s.NearestNoun, s.Majority = ratio(first, n), ratio(nearest, n), ratio(majority, n)
	s.NounIdentity = ratio(noun, n)
	s.PredicateIdentity, s.VerbIdentity = ratio(byFeature[0], n), ratio(byFeature[1], n)
	s.Polarity, s.Connective = ratio(byFeature[2], n), ratio(byFeature[3], n)
	return s
}

// NearestNoun is the candidate closest before the pronoun, or the closest
// after it when none comes before.
func NearestNoun(e Example) int {
	before, after := -1, -1
	for _, c := range e.Candidates {
		if c < e.Pronoun && c > before {
			before = c
		}
		if c > e.Pronoun && (after < 0 || c < after) {
			after = c
		}
	}
	if before >= 0 {
		return before
	}
	return after
}

// nounStats counts, per noun, its appearances as a candidate and as the antecedent.
type nounStats map[string]*[2]int

func nounRates(train []Example) nounStats {
	s := nounStats{}
	for _, e := range train {
		for _, c := range e.Candidates {
			w := e.word(c)
			if s[w] == nil {
				s[w] = &[2]int{}
			}
			s[w][0]++
			s[w][1] += hit(e, c)
		}
	}
	return s
}

func (s nounStats) rate(w string) float64 {
	if c := s[w]; c != nil && c[0] > 0 {
		return float64(c[1]) / float64(c[0])
	}
	return 0.5
}

func (s nounStats) answer(e Example) int {
	a, b := e.Candidates[0], e.Candidates[1]
	if s.rate(e.word(b)) > s.rate(e.word(a)) {
		return b
	}
	return a
}

// featureStats counts, per value of one feature, how often the antecedent
// was in each role in train. Uncertain examples are left out: their
// predicate is not visible.
type featureStats map[string]*[2]int

func featureRoles(train []Example, feature func(Example) string) featureStats {
	s := featureStats{}
	for _, e := range train {
		if e.Uncertain {
			continue
		}
		k := feature(e)
		if s[k] == nil {
			s[k] = &[2]int{}
		}
		s[k][e.Role]++
	}
	return s
}

func (s featureStats) answer(e Example, value string) int {
	c := s[value]
	switch {
	case c == nil:
		return e.Candidates[0]
	case c[Object] > c[Agent]:
		return e.candidateIn(Object)
	}
	return e.candidateIn(Agent)
}

func countFirst(ex []Example) int {
	n := 0
	for _, e := range ex {
		n += hit(e, e.Candidates[0])
	}
	return n
}

func hit(e Example, answer int) int {
	if answer == e.Antecedent {
		return 1
	}
	return 0
}

func majorityIndex(choice string) int {
	if choice == "second" {
		return 1
	}
	return 0
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}
