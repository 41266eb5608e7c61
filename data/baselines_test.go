package data

import "testing"

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
	// the first noun; every one has the same (empty) predicate, verb,
	// polarity and connective, which went with its antecedent, the agent,
	// in train, so the one-feature baselines are always right.
	want := BaselineScores{N: 5, FirstNoun: 3.0 / 5, NearestNoun: 2.0 / 5, Majority: 2.0 / 5, MajorityChoice: "second",
		NounIdentity: 3.0 / 5, PredicateIdentity: 1, VerbIdentity: 1, Polarity: 1, Connective: 1}
	if got != want {
		t.Errorf("Baselines = %+v, want %+v", got, want)
	}
	if got.Shortcut() != 1 {
		t.Errorf("Shortcut = %v, want the best baseline, 1", got.Shortcut())
	}
}

// worded writes "The AGENT <verb> the OBJECT because it was [not]
// PREDICATE" in frame f with the given meaning, answering role (which the
// baselines read; it need not be the role the meaning derives).
func worded(f *Frame, agent, object string, m Meaning, role Role) Example {
	tu := tuple{frame: f, agent: agent, object: object, Meaning: m, role: role}
	return realise(tu, shapeByName(ShapeActive), surface{agentArticle: "the", objectArticle: "the"})
}

func TestOneFeatureBaselines(t *testing.T) {
	lex := testLexicon(t)
	eat, _ := lex.Frame("eat")
	tempt, _ := lex.Frame("tempt")
	ate := func(p string) Meaning { return Meaning{Predicate: p} }
	train := []Example{
		worded(eat, "dog", "cake", ate("hungry"), Agent),                                               // dog: antecedent 2 of 2
		worded(eat, "dog", "cake", ate("hungry"), Agent),                                               // cake: 1 of 3
		worded(eat, "cat", "cake", ate("tasty"), Object),                                               // cat: 0 of 1
		worded(eat, "fox", "pie", Meaning{Outcome: Failed, Negated: true, Predicate: "stale"}, Object), // the only "did not eat" and "not"
		worded(eat, "fox", "pie", Meaning{Concessive: true, Predicate: "full"}, Agent),                 // the only "although"
		maskDeciding(worded(eat, "owl", "pie", ate("tasty"), Agent)),                                   // uncertain: no vote for tasty, ate, ...
	}
	// In train: hungry, full -> agent; tasty, stale -> object; ate 3 agent
	// to 1 object, did not eat -> object; not negated 3 to 1, negated ->
	// object; because 2 to 2 (a tie answers the agent), although -> agent.
	tests := []struct {
		name                                        string
		e                                           Example
		noun, predicate, verb, polarity, connective bool // whether each baseline is right
	}{
		{"noun rate misleads", worded(eat, "dog", "cake", ate("tasty"), Object), false, true, false, false, false},
		{"unseen noun counts one half", worded(eat, "zebra", "cake", ate("hungry"), Agent), true, true, true, true, true},
		{"lower rate loses", worded(eat, "cat", "cake", ate("hungry"), Agent), false, true, true, true, true},
		{"not is the polarity's, not the predicate's", worded(eat, "dog", "cake", Meaning{Outcome: Failed, Negated: true, Predicate: "hungry"}, Agent),
			true, true, false, false, true},
		{"unseen predicate answers first", worded(eat, "cake", "dog", ate("famished"), Agent), false, true, true, true, true},
		{"although", worded(eat, "dog", "cake", Meaning{Concessive: true, Predicate: "stale"}, Object), false, true, false, false, false},
		{"unseen verb answers first; hungry is the object of tempt", worded(tempt, "cake", "dog", Meaning{Predicate: "hungry"}, Object),
			true, false, false, false, false},
	}
	for _, tt := range tests {
		s := Baselines(train, []Example{tt.e})
		got := [5]bool{s.NounIdentity == 1, s.PredicateIdentity == 1, s.VerbIdentity == 1, s.Polarity == 1, s.Connective == 1}
		want := [5]bool{tt.noun, tt.predicate, tt.verb, tt.polarity, tt.connective}
		if got != want {
			t.Errorf("%s: %q (answer %s): right (noun, predicate, verb, polarity, connective) %v, want %v",
				tt.name, tt.e.Text, tt.e.Answer(), got, want)
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

// In every split of seeds 1-3, no baseline that looks at one feature (a
// position, the noun, the predicate, the verb, "not", "although") answers
// much better than chance: the corpus is balanced so that only their
// combination, the meaning, tells which noun "it" is. On train itself the
// baselines learn from what they are scored on, their best case. Position
// baselines must not fall far below chance either: their opposite would
// then be the shortcut.
func TestShortcutsOnTrainingData(t *testing.T) {
	for _, seed := range testSeeds {
		c := corpusFor(t, seed)
		for _, set := range namedSets(c)[:3] {
			s := Baselines(c.Train, set.examples)
			t.Logf("seed %d %s: %s", seed, set.name, s)
			for name, acc := range baselineScores(s) {
				if acc > 0.60 {
					t.Errorf("seed %d %s: %s baseline scores %.3f, want <= 0.60", seed, set.name, name, acc)
				}
			}
			for name, acc := range map[string]float64{"first noun": s.FirstNoun, "nearest noun": s.NearestNoun} {
				if acc < 0.40 {
					t.Errorf("seed %d %s: %s baseline scores %.3f, want >= 0.40", seed, set.name, name, acc)
				}
			}
		}
	}
}

// baselineScores names every one-feature baseline of s.
func baselineScores(s BaselineScores) map[string]float64 {
	return map[string]float64{"first noun": s.FirstNoun, "nearest noun": s.NearestNoun, "majority": s.Majority,
		"noun": s.NounIdentity, "predicate": s.PredicateIdentity, "verb": s.VerbIdentity,
		"polarity": s.Polarity, "connective": s.Connective}
}
