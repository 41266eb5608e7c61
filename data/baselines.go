// Baselines: accuracies of answers that ignore meaning. The corpus is built
// so that each stays near 50%: only the predicate's meaning resolves "it".

package data

import "fmt"

// BaselineScores are accuracies in [0, 1] on the evaluated split.
type BaselineScores struct {
	N int // examples evaluated
	// FirstNoun always answers the noun that comes first in the sentence.
	FirstNoun float64
	// NearestNoun answers the closest noun before the pronoun, or, if no noun
	// precedes it (reason clause first), the closest noun after it.
	NearestNoun float64
	// Majority answers first or second noun, whichever was the antecedent
	// more often in train (first on a tie).
	Majority       float64
	MajorityChoice string // "first" or "second"
}

func (s BaselineScores) String() string {
	return fmt.Sprintf("first noun %.1f%%, nearest noun %.1f%%, majority (%s noun) %.1f%% on %d examples",
		100*s.FirstNoun, 100*s.NearestNoun, s.MajorityChoice, 100*s.Majority, s.N)
}

// Baselines scores the three baselines on test, taking the majority from train.
func Baselines(train, test []Example) BaselineScores {
	s := BaselineScores{N: len(test), MajorityChoice: "first"}
	if 2*countFirst(train) < len(train) {
		s.MajorityChoice = "second"
	}
	var first, nearest, majority int
	for _, e := range test {
		first += hit(e, e.Candidates[0])
		nearest += hit(e, NearestNoun(e))
		majority += hit(e, e.Candidates[majorityIndex(s.MajorityChoice)])
	}
	s.FirstNoun, s.NearestNoun, s.Majority = ratio(first, len(test)), ratio(nearest, len(test)), ratio(majority, len(test))
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
