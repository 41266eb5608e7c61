package data

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Which noun it is must not tell the answer: in train every noun is the
// antecedent about as often as not, so the noun-identity baseline is near
// chance on validation and test.
func TestNoNounIdentityShortcut(t *testing.T) {
	c := testCorpus(t)
	for name, split := range map[string][]Example{"validation": c.Validation, "test": c.Test} {
		if s := Baselines(c.Train, split); s.NounIdentity > 0.55 {
			t.Errorf("%s: noun identity scores %.3f, want <= 0.55", name, s.NounIdentity)
		}
	}
}

// Wherever the lexicon lets a noun play both roles, train shows it in both
// (but for the held-out pairs), so no noun is tied to being the one acting.
func TestNounsPlayBothRolesInTrain(t *testing.T) {
	c := testCorpus(t)
	lex := testLexicon(t)
	seen := map[NounRole]bool{}
	for _, e := range c.Train {
		for _, r := range []Role{Agent, Object} {
			seen[NounRole{e.word(e.candidateIn(r)), r}] = true
		}
	}
	for _, noun := range lex.nounsInBothRoles() {
		for _, r := range []Role{Agent, Object} {
			nr := NounRole{noun, r}
			if !seen[nr] && !slices.Contains(c.HeldOutNounRoles, nr) {
				t.Errorf("train never has %s", nr)
			}
		}
	}
}

// The held-out (noun, role) pairs occur in no ordinary split, each held-out
// noun is still in train in its other role, and every held_out_noun_role
// sentence uses one of them.
func TestHeldOutNounRoles(t *testing.T) {
	c := testCorpus(t)
	if len(c.HeldOutNounRoles) != DefaultConfig().HeldOutNounRoles {
		t.Fatalf("held-out pairs %v, want %d", c.HeldOutNounRoles, DefaultConfig().HeldOutNounRoles)
	}
	if n := countRole(c.HeldOutNounRoles, Agent); 2*n != len(c.HeldOutNounRoles) {
		t.Errorf("%d of %d held-out pairs are agents, want half", n, len(c.HeldOutNounRoles))
	}
	held := newHeldOutSet(c.HeldOutNounRoles)
	for _, e := range allExamples(c) {
		if nr, ok := usesHeldOut(e, held); ok {
			t.Fatalf("%q uses held-out %s", e.Text, nr)
		}
	}
	v := c.Vocab()
	for _, nr := range c.HeldOutNounRoles {
		if _, ok := v.ID(nr.Noun); !ok || slices.Contains(missionRoles, nr) {
			t.Errorf("held-out %s: noun missing from train or a mission pair", nr)
		}
	}
	ch, _ := c.Challenge(ChallengeHeldOutNounRole)
	for _, e := range ch.Examples {
		if _, ok := usesHeldOut(e, held); !ok {
			t.Fatalf("%s sentence %q uses no held-out pair", ch.Name, e.Text)
		}
	}
}

func countRole(pairs []NounRole, r Role) int {
	n := 0
	for _, p := range pairs {
		if p.Role == r {
			n++
		}
	}
	return n
}

func usesHeldOut(e Example, held heldOutSet) (NounRole, bool) {
	for _, r := range []Role{Agent, Object} {
		if e.ByVerb && r == Agent {
			continue // the other candidate is no agent, the agent no candidate
		}
		if nr := (NounRole{e.word(e.candidateIn(r)), r}); held[nr] {
			return nr, true
		}
	}
	return NounRole{}, false
}

// Negated reasons are a good share of every split, and the derivation of
// their answers is TestAnswersFollowFromMeaning's.
func TestNegatedShare(t *testing.T) {
	c := testCorpus(t)
	for _, set := range namedSets(c)[:3] {
		n := countBy(set.examples, func(e Example) string { return fmt.Sprint(e.Negated) })
		if share := float64(n["true"]) / float64(len(set.examples)); share < 0.08 {
			t.Errorf("%s: only %.1f%% of sentences are negated", set.name, 100*share)
		}
	}
}

// Place nouns are never the answer, never a candidate, and sit before,
// between and after the candidates.
func TestDistractors(t *testing.T) {
	c := testCorpus(t)
	where := map[string]int{}
	with := 0
	for _, e := range allExamples(c) {
		if len(e.Distractors) > 0 {
			with++
		}
		for _, d := range e.Distractors {
			if d == e.Antecedent || d == e.Candidates[0] || d == e.Candidates[1] {
				t.Fatalf("%q: distractor at %d is a candidate or the answer", e.Text, d)
			}
			where[placeSlot(e, d)]++
		}
	}
	// 15.1% on corpus-35, 14.97% with two-it (which has fewer place phrases) drawn twice as often.
	if share := float64(with) / float64(len(allExamples(c))); share < 0.14 {
		t.Errorf("only %.1f%% of sentences have a place noun", 100*share)
	}
	for _, slot := range []string{"before", "between", "after"} {
		if where[slot] < with/10 {
			t.Errorf("place nouns by slot %v: too few %s the candidates", where, slot)
		}
	}
}

func placeSlot(e Example, d int) string {
	switch {
	case d < e.Candidates[0]:
		return "before"
	case d < e.Candidates[1]:
		return "between"
	}
	return "after"
}

// A share of train hides the deciding words behind <unk> (Uncertain) and a
// share hides one candidate; neither happens outside train.
func TestUncertainTrainingExamples(t *testing.T) {
	c := testCorpus(t)
	cfg := DefaultConfig()
	var uncertain, maskedNoun int
	for _, e := range c.Train {
		switch {
		case e.Uncertain:
			uncertain++
		case e.word(e.Candidates[0]) == Unk || e.word(e.Candidates[1]) == Unk:
			maskedNoun++
		case slices.Contains(e.Tokens, Unk):
			t.Fatalf("%q has <unk> outside the deciding words and the nouns", e.Text)
		}
	}
	if want := int(math.Round(cfg.UncertainShare * float64(cfg.TrainSize))); uncertain != want {
		t.Errorf("%d uncertain training sentences, want %d", uncertain, want)
	}
	if want := int(math.Round(cfg.UnknownNounShare * float64(cfg.TrainSize))); maskedNoun != want {
		t.Errorf("%d training sentences with a masked noun, want %d", maskedNoun, want)
	}
	for _, e := range slices.Concat(c.Validation, c.Test) {
		if e.Uncertain || slices.Contains(e.Tokens, Unk) {
			t.Fatalf("held-out sentence %q is uncertain or has <unk>", e.Text)
		}
	}
}

// The unknown deciding words never reach the training vocabulary.
func TestUnknownWordsStayUnknown(t *testing.T) {
	lex := testLexicon(t)
	v := testCorpus(t).Vocab()
	if len(lex.UnknownWords()) < 10 {
		t.Fatalf("only %d unknown words", len(lex.UnknownWords()))
	}
	for _, u := range lex.UnknownWords() {
		if _, ok := v.ID(u.Word); ok {
			t.Errorf("unknown word %q is in the training vocabulary", u.Word)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(1); err != nil {
			b.Fatal(err)
		}
	}
}

// The held-out (verb, predicate, polarity) cells occur in no split and no
// other challenge set, in neither reason of a two-it sentence, and every
// held_out_cell sentence asks about one. The mission's cells are never held
// out.
func TestHeldOutCells(t *testing.T) {
	lex := testLexicon(t)
	means := map[string]string{}
	for _, u := range lex.UnknownWords() {
		means[u.Word] = u.Means
	}
	for _, seed := range testSeeds {
		c := corpusFor(t, seed)
		held := map[string]bool{}
		for _, name := range c.HeldOutCells {
			held[name] = true
		}
		if len(held) == 0 || held["ate / hungry"] || held["ate / tasty"] {
			t.Fatalf("seed %d: held-out cells %v: none, or a mission cell", seed, c.HeldOutCells)
		}
		for _, set := range namedSets(c) {
			for _, e := range set.examples {
				cells := reasonCells(e, means)
				used := slices.DeleteFunc(slices.Clone(cells), func(k string) bool { return !held[k] })
				msg := ""
				switch {
				case set.name == ChallengeHeldOutCell && !held[cells[0]]:
					msg = fmt.Sprintf("asks about %s, which is not held out", cells[0])
				case set.name != ChallengeHeldOutCell && len(used) > 0:
					msg = fmt.Sprintf("(asking about %s) uses held-out %q", cells[0], used)
				}
				if msg != "" {
					t.Errorf("seed %d %s: %q %s", seed, set.name, e.Text, msg)
					break // one example per set
				}
			}
		}
	}
}

// reasonCells names the cell of what e asks about ("could not lift / not
// heavy", with an unknown word's known meaning), then, in a two-it
// sentence, the cell of the other "it".
func reasonCells(e Example, means map[string]string) []string {
	name := func(negated bool, p string) string {
		if known, ok := means[p]; ok {
			p = known
		}
		if negated {
			p = "not " + p
		}
		return e.Verb + " / " + p
	}
	out := []string{name(e.Negated, e.Predicate)}
	if _, negated, p, ok := otherReason(e); ok {
		out = append(out, name(negated, p))
	}
	return out
}
