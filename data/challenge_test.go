package data

import (
	"slices"
	"testing"
)

func TestChallengeSetsExist(t *testing.T) {
	c := testCorpus(t)
	var names []string
	for _, ch := range c.Challenges {
		names = append(names, ch.Name)
		if len(ch.Examples) != DefaultConfig().ChallengeSize || ch.Description == "" {
			t.Errorf("%s: %d examples (want %d), description %q", ch.Name, len(ch.Examples), DefaultConfig().ChallengeSize, ch.Description)
		}
		if n := len(texts(ch.Examples)); n != len(ch.Examples) {
			t.Errorf("%s has %d duplicate sentences", ch.Name, len(ch.Examples)-n)
		}
		if shared := intersect(texts(ch.Examples), texts(allExamples(c))); len(shared) > 0 {
			t.Errorf("%s shares %d sentences with the splits, e.g. %q", ch.Name, len(shared), shared[0])
		}
	}
	want := []string{ChallengeHeldOutNounRole, ChallengeDistractor, ChallengeNegation, ChallengeHeldOutShape, ChallengeUnknownWord}
	if !slices.Equal(names, want) {
		t.Errorf("challenge sets %v, want %v", names, want)
	}
	if _, ok := c.Challenge("nonsense"); ok {
		t.Error("Challenge(nonsense) found a set")
	}
}

// No shortcut beats chance on a challenge set: the position and noun
// baselines everywhere, predicate identity (ignoring "not", or meeting an
// unseen word) where the set is about exactly that.
func TestChallengeBaselinesAtChance(t *testing.T) {
	for _, seed := range []int64{1, 2} {
		c, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range c.Challenges {
			s := Baselines(c.Train, ch.Examples)
			t.Logf("seed %d %s: %s", seed, ch.Name, s)
			scores := map[string]float64{"first noun": s.FirstNoun, "nearest noun": s.NearestNoun, "majority": s.Majority, "noun identity": s.NounIdentity}
			if ch.Name == ChallengeNegation || ch.Name == ChallengeUnknownWord {
				scores["predicate identity"] = s.PredicateIdentity
			}
			for name, acc := range scores {
				if acc > 0.55 {
					t.Errorf("seed %d %s: %s scores %.3f, want <= 0.55", seed, ch.Name, name, acc)
				}
			}
		}
	}
}

// Challenge sentences use only training words, but for the one unknown
// deciding word of unknown_deciding_word.
func TestChallengeVocabulary(t *testing.T) {
	c := testCorpus(t)
	v := c.Vocab()
	lex, _ := DefaultLexicon()
	unknownWords := map[string]bool{}
	for _, u := range lex.UnknownWords() {
		unknownWords[u.Word] = true
	}
	for _, ch := range c.Challenges {
		for _, e := range ch.Examples {
			_, unknown := v.Encode(e.Tokens)
			if ch.Name != ChallengeUnknownWord && len(unknown) > 0 {
				t.Fatalf("%s: %q uses %q, not in train", ch.Name, e.Text, unknown)
			}
			if ch.Name == ChallengeUnknownWord && (len(unknown) != 1 || !unknownWords[unknown[0]] || !e.Uncertain ||
				e.Tokens[e.Deciding[0]] != unknown[0]) {
				t.Fatalf("%s: %q: unknown %q, uncertain %v, deciding %v", ch.Name, e.Text, unknown, e.Uncertain, e.Deciding)
			}
		}
	}
}

// Each set tests what its name says.
func TestChallengeContents(t *testing.T) {
	c := testCorpus(t)
	tests := []struct {
		name string
		ok   func(Example) bool
		want string
	}{
		{ChallengeDistractor, func(e Example) bool { return len(e.Distractors) == 1 }, "exactly one place noun"},
		{ChallengeHeldOutShape, func(e Example) bool { return slices.Contains(ChallengeShapes(), e.Shape) }, "a held-out shape"},
		{ChallengeNegation, func(e Example) bool { return len(e.Distractors) == 0 }, "no place noun"},
		{ChallengeUnknownWord, func(e Example) bool { return e.Uncertain && !e.Negated }, "uncertain and not negated"},
	}
	for _, tt := range tests {
		ch, _ := c.Challenge(tt.name)
		for _, e := range ch.Examples {
			if !tt.ok(e) {
				t.Fatalf("%s: %q should have %s", tt.name, e.Text, tt.want)
			}
		}
	}
	neg, _ := c.Challenge(ChallengeNegation)
	if n := countBy(neg.Examples, func(e Example) string { return boolName(e.Negated) }); n["first"] != n["second"] {
		t.Errorf("negation set: %d negated, %d not; want half each", n["first"], n["second"])
	}
	place, _ := c.Challenge(ChallengeDistractor)
	slots := countBy(place.Examples, func(e Example) string { return placeSlot(e, e.Distractors[0]) })
	for _, slot := range []string{"before", "between", "after"} {
		if slots[slot] < len(place.Examples)/6 {
			t.Errorf("distractor set place nouns by slot %v: too few %s", slots, slot)
		}
	}
}

// A lexicon with little to offer gives smaller challenge sets, never a
// panic or an endless search: here one frame, no places, no negation, no
// unknown words.
func TestChallengesFromASmallLexicon(t *testing.T) {
	frame := `# eat, small
active: ate
passive: was eaten by
agents: dog, cat, fox, owl, pig, cow
objects: food, cake, pie, bun, jam, egg, dog, cat, fox
agent predicates: hungry, greedy
object predicates: tasty, fresh
`
	lex, err := LoadLexicon(lexiconFS(frame, "food\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{TrainSize: 200, ValidationSize: 30, TestSize: 50, ValidationShare: 0.15, TestShare: 0.2,
		UncertainShare: 0.08, UnknownNounShare: 0.05, HeldOutNounRoles: 2, ChallengeSize: 40}
	c, err := GenerateFrom(lex, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range c.Challenges {
		t.Logf("%s: %d sentences", ch.Name, len(ch.Examples))
		if len(ch.Examples)%2 != 0 || len(ch.Examples) > cfg.ChallengeSize {
			t.Errorf("%s: %d sentences", ch.Name, len(ch.Examples))
		}
	}
	if ch, _ := c.Challenge(ChallengeHeldOutNounRole); len(ch.Examples) == 0 || len(c.HeldOutNounRoles) != 2 {
		t.Errorf("held-out pairs %v gave %d sentences", c.HeldOutNounRoles, len(ch.Examples))
	}
	for _, name := range []string{ChallengeDistractor, ChallengeNegation, ChallengeUnknownWord} {
		if ch, _ := c.Challenge(name); len(ch.Examples) != 0 {
			t.Errorf("%s has %d sentences from a lexicon that cannot make any", name, len(ch.Examples))
		}
	}
}
