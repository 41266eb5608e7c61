package inference

import (
	"reflect"
	"testing"
)

func TestRiskCoverage(t *testing.T) {
	for _, tc := range []struct {
		name           string
		in             []Scored
		coverage, risk []float64
	}{
		{"surest right first", []Scored{{Right: false, Score: 0.6}, {Right: true, Score: 0.9}, {Right: true, Score: 0.8}, {Right: false, Score: 0.7}},
			[]float64{0.25, 0.5, 0.75, 1}, []float64{0, 0, 1.0 / 3, 0.5}},
		{"ties kept together", []Scored{{Right: true, Score: 0.9}, {Right: false, Score: 0.9}, {Right: true, Score: 0.5}},
			[]float64{2.0 / 3, 1}, []float64{0.5, 1.0 / 3}},
		{"none", nil, nil, nil},
	} {
		c, r := RiskCoverage(tc.in)
		if !reflect.DeepEqual(c, tc.coverage) || !reflect.DeepEqual(r, tc.risk) {
			t.Errorf("%s: coverage %v risk %v, want %v and %v", tc.name, c, r, tc.coverage, tc.risk)
		}
	}
}

// A member that disagrees lowers the score of the shown answer and makes it
// a guess; the set's figures count it out of the coverage.
func TestScoredUsesTheMembersShares(t *testing.T) {
	pr := Prediction{AnswerWord: "dog", TypedAnswer: "dog", Confidence: Confidence{TopProbability: 0.9, Guess: true,
		Members: newAgreement([]Vote{vote(1, "dog", 0.9), vote(2, "food", 0.7)}, 0)}}
	s := scored(pr, true)
	if want := (0.9 + 0.3) / 2; s.Score < want-1e-12 || s.Score > want+1e-12 || !s.Guess || !s.Right {
		t.Errorf("scored: %+v, want score %v, a guess, right", s, want)
	}
}

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []Scored
		want Selective
	}{
		{"a guess is out of the coverage", []Scored{{Right: true, Unanimous: true}, {Right: false, Guess: true}, {Right: true, Guess: true, Unanimous: true}, {Right: false, Unanimous: true}},
			Selective{Name: "s", N: 4, Accuracy: 0.5, Coverage: 0.5, SelectiveAccuracy: 0.5, Unanimous: 0.75}},
		{"every answer a guess", []Scored{{Right: true, Guess: true}}, Selective{Name: "s", N: 1, Accuracy: 1}},
		{"none", nil, Selective{Name: "s"}},
	} {
		if got := Summarize("s", tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestAtTemperatureReappliesTheRule: scaling changes the share the rule
// reads, never a flag another condition raised, nor the ranking.
func TestAtTemperatureReappliesTheRule(t *testing.T) {
	scored := []Scored{{Score: 0.9}, {Score: 0.9, Besides: true, Guess: true}, {Score: 0.75, Guess: true}}
	soft := AtTemperature(scored, 2) // σ(log 9 / 2) = 0.75: below 0.8
	if !soft[0].Guess || !soft[1].Guess || !soft[2].Guess {
		t.Errorf("at T = 2: %+v, want all three guesses", soft)
	}
	sharp := AtTemperature(scored, 0.5) // 0.9 -> 0.988, 0.75 -> 0.9
	if sharp[0].Guess || !sharp[1].Guess || sharp[2].Guess {
		t.Errorf("at T = 0.5: %+v, want only the one flagged besides its share a guess", sharp)
	}
	if !(sharp[0].Score > sharp[2].Score && soft[0].Score > soft[2].Score) {
		t.Errorf("scaling changed the ranking: %+v, %+v", soft, sharp)
	}
}
