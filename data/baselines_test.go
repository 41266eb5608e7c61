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
	// The hand-made examples have no words: noun identity ties and answers
	// the first noun; every one says "" describes its antecedent (the agent),
	// so predicate identity is always right.
	want := BaselineScores{N: 5, FirstNoun: 3.0 / 5, NearestNoun: 2.0 / 5, Majority: 2.0 / 5, MajorityChoice: "second",
		NounIdentity: 3.0 / 5, PredicateIdentity: 1}
	if got != want {
		t.Errorf("Baselines = %+v, want %+v", got, want)
	}
}

// worded writes "the AGENT ate the OBJECT because it was [not] PREDICATE",
// the predicate describing role.
func worded(agent, object, predicate string, role Role, negated bool) Example {
	f := &Frame{Name: "eat", Active: "ate"}
	t := tuple{frame: f, agent: agent, object: object, predicate: predicate, role: role, negated: negated}
	return realise(t, shapeByName(ShapeActive), surface{agentArticle: "the", objectArticle: "the", connective: "because"})
}

func TestNounAndPredicateIdentity(t *testing.T) {
	train := []Example{
		worded("dog", "cake", "hungry", Agent, false),             // dog: antecedent 2 of 2
		worded("dog", "cake", "hungry", Agent, false),             // cake: 1 of 3
		worded("cat", "cake", "tasty", Object, false),             // cat: 0 of 1
		maskDeciding(worded("owl", "pie", "tasty", Agent, false)), // uncertain: no vote for tasty
	}
	tests := []struct {
		name            string
		e               Example
		noun, predicate bool // whether each baseline is right
	}{
		{"noun rate misleads", worded("dog", "cake", "tasty", Object, false), false, true},
		{"unseen noun counts one half", worded("fox", "cake", "hungry", Agent, false), true, true},
		{"lower rate loses", worded("cat", "cake", "hungry", Agent, false), false, true},
		{"not ignored", worded("dog", "cake", "hungry", Object, true), false, false},
		{"unseen predicate answers first", worded("cake", "dog", "famished", Agent, false), false, true},
	}
	for _, tt := range tests {
		s := Baselines(train, []Example{tt.e})
		if (s.NounIdentity == 1) != tt.noun || (s.PredicateIdentity == 1) != tt.predicate {
			t.Errorf("%s: %q: noun identity %v, predicate identity %v; want %v, %v",
				tt.name, tt.e.Text, s.NounIdentity, s.PredicateIdentity, tt.noun, tt.predicate)
		}
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
