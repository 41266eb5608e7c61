package data

import (
	"fmt"
	"maps"
	"runtime/debug"
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
		if n := len(questions(ch.Examples)); n != len(ch.Examples) {
			t.Errorf("%s asks %d questions twice (the same sentence and \"it\")", ch.Name, len(ch.Examples)-n)
		}
		if shared := intersect(texts(ch.Examples), texts(allExamples(c))); len(shared) > 0 {
			t.Errorf("%s shares %d sentences with the splits, e.g. %q", ch.Name, len(shared), shared[0])
		}
	}
	want := []string{ChallengeHeldOutNounRole, ChallengeHeldOutCell, ChallengeDistractor, ChallengeNegation, ChallengeOutcome,
		ChallengeConcession, ChallengeHeldOutShape, ChallengeTwoIt, ChallengeUnknownWord}
	if !slices.Equal(names, want) {
		t.Errorf("challenge sets %v, want %v", names, want)
	}
	if _, ok := c.Challenge("nonsense"); ok {
		t.Error("Challenge(nonsense) found a set")
	}
}

// questions are the distinct (sentence, pronoun) pairs of ex, sorted: a
// two-it sentence asks about each of its "it"s.
func questions(ex []Example) []string {
	out := make([]string, len(ex))
	for i, e := range ex {
		out[i] = fmt.Sprintf("%s @%d", e.Text, e.Pronoun)
	}
	return uniqueSorted(out)
}

// No shortcut beats chance on a challenge set: every sentence has a twin
// (or, in held_out_cell, a sentence of the other role) that any one
// feature but the one that changed reads the same way. Asserted for seed
// 1; seeds 2 and 3 are logged, since held_out_cell, which has no twins,
// draws its 800 sentences from a few dozen cells, so the predicate
// baseline there swings a few points either way with the seed.
func TestChallengeBaselinesAtChance(t *testing.T) {
	for _, seed := range testSeeds {
		c := corpusFor(t, seed)
		for _, ch := range c.Challenges {
			s := Baselines(c.Train, ch.Examples)
			t.Logf("seed %d %s: %s", seed, ch.Name, s)
			for name, acc := range baselineScores(s) {
				switch {
				case acc <= 0.55:
				case seed == 1:
					t.Errorf("seed %d %s: %s baseline scores %.3f, want <= 0.55", seed, ch.Name, name, acc)
				default:
					t.Logf("note: seed %d %s: %s baseline scores %.3f, above 0.55", seed, ch.Name, name, acc)
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
	lex := testLexicon(t)
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
				len(e.Deciding) == 0 || e.Tokens[e.Deciding[len(e.Deciding)-1]] != unknown[0] || e.Predicate != unknown[0]) {
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
		{ChallengeDistractor, func(e Example) bool {
			return adjectiveBefore(e, e.Candidates[0]) && adjectiveBefore(e, e.Candidates[1])
		},
			"an adjective before both nouns"},
		{ChallengeHeldOutShape, func(e Example) bool { return slices.Contains(ChallengeShapes(), e.Shape) }, "a held-out shape"},
		{ChallengeTwoIt, func(e Example) bool { return e.Shape == ShapeTwoIt && len(Pronouns(e.Tokens)) == 2 }, "two \"it\"s"},
		{ChallengeUnknownWord, func(e Example) bool { return e.Uncertain }, "Uncertain set"},
		{ChallengeUnknownWord, func(e Example) bool {
			return !adjectiveBefore(e, e.Candidates[0]) && !adjectiveBefore(e, e.Candidates[1])
		}, "no adjective before a noun"},
	}
	for _, tt := range tests {
		ch, _ := c.Challenge(tt.name)
		for _, e := range ch.Examples {
			if !tt.ok(e) {
				t.Fatalf("%s: %q should have %s", tt.name, e.Text, tt.want)
			}
		}
	}
	// Only the distractor set has place nouns, so the others test one thing.
	for _, ch := range c.Challenges {
		for _, e := range ch.Examples {
			if ch.Name != ChallengeDistractor && len(e.Distractors) > 0 {
				t.Fatalf("%s: %q has a place noun", ch.Name, e.Text)
			}
		}
	}
	// Each twin set has as many of one side of its feature as of the other.
	for _, tt := range []struct {
		name    string
		feature func(Example) bool
	}{
		{ChallengeNegation, func(e Example) bool { return e.Negated }},
		{ChallengeOutcome, func(e Example) bool { return e.Outcome == Failed }},
		{ChallengeConcession, func(e Example) bool { return e.Concessive }},
	} {
		ch, _ := c.Challenge(tt.name)
		if n := countBy(ch.Examples, func(e Example) string { return fmt.Sprint(tt.feature(e)) }); n["true"] != n["false"] {
			t.Errorf("%s set: %d with the feature, %d without; want half each", tt.name, n["true"], n["false"])
		}
	}
	place, _ := c.Challenge(ChallengeDistractor)
	slots := countBy(place.Examples, func(e Example) string { return placeSlot(e, e.Distractors[0]) })
	for _, slot := range []string{"before", "between", "after"} {
		if slots[slot] < len(place.Examples)/6 {
			t.Errorf("distractor set place nouns by slot %v: too few %s", slots, slot)
		}
	}
}

// adjectiveBefore says whether the noun at pos has a word between it and
// its article ("the brown dog").
func adjectiveBefore(e Example, pos int) bool {
	opener := append([]string{"the", "a", "an"}, determiners...)
	return pos >= 2 && !slices.Contains(opener, e.Tokens[pos-1]) && slices.Contains(opener, e.Tokens[pos-2])
}

// An adjective before a noun never decides: it is an attribute (a colour,
// an age) or a property of the frame for that noun's role, but never of
// the dimension a reason clause of the sentence speaks of.
func TestAdjectivesNeverDecide(t *testing.T) {
	lex := testLexicon(t)
	with := 0
	for _, set := range namedSets(testCorpus(t)) {
		for _, e := range set.examples {
			f, _ := lex.Frame(e.Frame)
			said := []string{e.Predicate}
			if _, _, p, ok := otherReason(e); ok {
				said = append(said, p)
			}
			var saidDims []string
			for _, p := range said {
				if d, ok := f.DimensionOf(p); ok {
					saidDims = append(saidDims, d)
				}
			}
			for _, r := range []Role{Agent, Object} {
				pos := e.candidateIn(r)
				if !adjectiveBefore(e, pos) {
					continue
				}
				with++
				adj := e.Tokens[pos-1]
				dim, isProperty := f.DimensionOf(adj)
				switch {
				case slices.Contains(lex.Attributes, adj):
				case !isProperty || !f.describes(adj)[r]:
					t.Fatalf("%s: %q: %q before the %s is neither an attribute nor a property of it in %s", set.name, e.Text, adj, r, f.Name)
				case slices.Contains(saidDims, dim):
					t.Fatalf("%s: %q: %q before the %s is of %s, which the reason clause speaks of", set.name, e.Text, adj, r, dim)
				}
			}
		}
	}
	if with == 0 {
		t.Error("no sentence has an adjective before a noun")
	}
}

// A lexicon with little to offer gives smaller challenge sets, never a
// panic or an endless search: here eat and tempt, in which every dimension
// describes one role only (so no "not", outcome or "although" moves the
// answer to the other noun), no places and no unknown words.
func TestChallengesFromASmallLexicon(t *testing.T) {
	fsys := editedLexicon(t, remove("frames/catch.txt"), remove("unknown.txt"),
		replace("frames/eat.txt", "agent places: @farm\nobject places: @dishes\nscene places: @farm\n", ""))
	lex, err := LoadLexicon(fsys)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{TrainSize: 200, ValidationSize: 30, TestSize: 50, ValidationShare: 0.15, TestShare: 0.2,
		UncertainShare: 0.08, UnknownNounShare: 0.05, HeldOutNounRoles: 2, ChallengeSize: 40}
	c, err := generateWithoutPanic(lex, cfg, 1)
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
	for _, name := range []string{ChallengeDistractor, ChallengeNegation, ChallengeOutcome, ChallengeConcession, ChallengeUnknownWord} {
		if ch, _ := c.Challenge(name); len(ch.Examples) != 0 {
			t.Errorf("%s has %d sentences from a lexicon that cannot make any, e.g. %q", name, len(ch.Examples), ch.Examples[0].Text)
		}
	}
}

// generateWithoutPanic is GenerateFrom with a panic reported as an error,
// so that it fails one test, not the whole test binary.
func generateWithoutPanic(lex *Lexicon, cfg Config, seed int64) (c *Corpus, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("GenerateFrom panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return GenerateFrom(lex, cfg, seed)
}

// Every challenge sentence but held_out_cell's has a twin in its set: the
// same nouns in the same order and shape, the other answer. In the
// negation, outcome and concession sets the twin also has the other value
// of the feature the set is about, so that that feature moves the answer.
// Twins are paired by their candidate nouns and shape: in each such group,
// there must be as many sentences of each (answer, feature) as of its twin's.
func TestTwins(t *testing.T) {
	for _, seed := range testSeeds {
		c := corpusFor(t, seed)
		for _, tt := range []struct {
			set     string
			feature func(Example) bool // nil: the twin differs in something else
		}{
			{ChallengeNegation, func(e Example) bool { return e.Negated }},
			{ChallengeOutcome, func(e Example) bool { return e.Outcome == Failed }},
			{ChallengeConcession, func(e Example) bool { return e.Concessive }},
			{ChallengeHeldOutNounRole, nil},
			{ChallengeDistractor, nil},
			{ChallengeHeldOutShape, nil},
			{ChallengeTwoIt, nil},
			{ChallengeUnknownWord, nil},
		} {
			ch, _ := c.Challenge(tt.set)
			if len(ch.Examples) == 0 {
				t.Errorf("seed %d: %s is empty", seed, tt.set)
				continue
			}
			side := func(e Example, flip bool) string {
				f := tt.feature != nil && tt.feature(e)
				return fmt.Sprint(e.AntecedentFirst != flip, f != (flip && tt.feature != nil))
			}
			groups := map[string][]Example{}
			for _, e := range ch.Examples {
				k := fmt.Sprintf("%s, %s, %s", e.word(e.Candidates[0]), e.word(e.Candidates[1]), e.Shape)
				groups[k] = append(groups[k], e)
			}
			bad, first := 0, ""
			for _, k := range slices.Sorted(maps.Keys(groups)) {
				g := groups[k]
				count := countBy(g, func(e Example) string { return side(e, false) })
				if i := slices.IndexFunc(g, func(e Example) bool { return count[side(e, false)] != count[side(e, true)] }); i >= 0 {
					if bad++; bad == 1 {
						first = fmt.Sprintf("%q (answer %s) has none among %q", g[i].Text, g[i].Answer(), texts(g))
					}
				}
			}
			if bad > 0 {
				t.Errorf("seed %d %s: %d of %d groups of the same nouns and shape lack a twin with the other answer and feature, e.g. %s",
					seed, tt.set, bad, len(groups), first)
			}
		}
	}
}
