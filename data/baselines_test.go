package data

import (
	"math"
	"testing"
)

// hand builds an example with the pronoun and candidates at given positions.
func hand(pronoun, first, second int, antecedentFirst bool) Example {
	e := Example{Tokens: make([]string, 12), Pronoun: pronoun, Candidates: [2]int{first, second}, Antecedent: second}
	if antecedentFirst {
		e.Antecedent = first
	}
	e.AntecedentFirst = antecedentFirst
	return e
}

func TestBaselinesHandMade(t *testing.T) {
	train := []Example{hand(6, 1, 4, false), hand(6, 1, 4, false), hand(1, 6, 9, true)} // majority: second
	test := []Example{
		hand(6, 1, 4, true),  // mid pronoun, answer first: first ✓ nearest(4) ✗ majority ✗
		hand(6, 1, 4, false), // first ✗ nearest(4) ✓ majority ✓
		hand(1, 6, 9, true),  // pronoun first, nearest after = 6: first ✓ nearest ✓ majority ✗
		hand(1, 6, 9, false), // first ✗ nearest ✗ majority ✓
		hand(11, 1, 4, true), // pronoun last, nearest before = 4: first ✓ nearest ✗ majority ✗
	}
	got := Baselines(train, test)
	want := BaselineScores{N: 5, FirstNoun: 3.0 / 5, NearestNoun: 2.0 / 5, Majority: 2.0 / 5, MajorityChoice: "second"}
	if got != want {
		t.Errorf("Baselines = %+v, want %+v", got, want)
	}
}

func TestBaselinesEmpty(t *testing.T) {
	got := Baselines(nil, nil)
	if got.N != 0 || got.FirstNoun != 0 || got.MajorityChoice != "first" {
		t.Errorf("Baselines(nil, nil) = %+v", got)
	}
}

func TestNearestNoun(t *testing.T) {
	for _, tt := range []struct {
		e    Example
		want int
	}{
		{hand(6, 1, 4, true), 4}, {hand(1, 6, 9, true), 6}, {hand(5, 3, 8, true), 3}, {hand(11, 1, 4, true), 4},
	} {
		if got := NearestNoun(tt.e); got != tt.want {
			t.Errorf("NearestNoun(pronoun %d, candidates %v) = %d, want %d", tt.e.Pronoun, tt.e.Candidates, got, tt.want)
		}
	}
}

// On the real test split no meaning-blind baseline should beat chance by much.
func TestBaselinesOnTestSplit(t *testing.T) {
	c := testCorpus(t)
	for name, split := range map[string][]Example{"validation": c.Validation, "test": c.Test} {
		s := Baselines(c.Train, split)
		t.Logf("%s baselines: %s", name, s)
		for _, acc := range []float64{s.FirstNoun, s.NearestNoun, s.Majority} {
			if math.Abs(acc-0.5) > 0.05 {
				t.Errorf("%s: a baseline scores %.3f, want 0.45-0.55 (%s)", name, acc, s)
			}
		}
	}
}
