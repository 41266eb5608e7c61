package data

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// A predicate's uses name each (verb, role) once, though two frames may
// share a verb ("tempted" is tempt's and tempt_drink's): the guess message
// lists them ("for "tempted" it describes the object"), and a verb named
// twice there read as a mistake.
func TestUsesNameEachVerbAndRoleOnce(t *testing.T) {
	lex, err := DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	shared := false
	for _, p := range slices.Sorted(maps.Keys(lex.predicateSet())) {
		uses := lex.uses(p)
		for i, u := range uses {
			if slices.Contains(uses[:i], u) {
				t.Errorf("%q: %v names (%q, %v) twice", p, uses, u.Verb, u.Role)
			}
		}
		shared = shared || p == "tasty" && slices.Contains(uses, Use{Verb: "tempted", Role: Agent})
	}
	if !shared {
		t.Error(`"tasty" is no reason of "tempted" for its agent: the case this test is about is gone; pick another shared verb`)
	}
}

// TestCopulaBeforeIsANounsNotAnotherIts: what a clause before "it" says with
// a copula is said of "it" when that copula's subject is a noun ("The box was
// heavy, so the horse could not carry it"), not when it is another "it"
// ("... because it was hungry, and it ran away": "hungry" is the first's).
func TestCopulaBeforeIsANounsNotAnotherIts(t *testing.T) {
	cases := []struct {
		sentence  string
		pronoun   int
		predicate string
	}{
		{"the box was heavy , so the horse could not carry it .", 11, "heavy"},
		{"the cat chased the mouse because it was hungry , and it ran away because it was scared .", 11, ""},
		{"the cat chased the mouse because it was hungry , and it ran away because it was scared .", 6, "hungry"},
	}
	for _, c := range cases {
		tokens := strings.Fields(c.sentence)
		if tokens[c.pronoun] != Pronoun {
			t.Fatalf("%q: word %d is %q, not %q", c.sentence, c.pronoun, tokens[c.pronoun], Pronoun)
		}
		if got := LookUpReason(tokens, c.pronoun, len(tokens)).Predicate; got != c.predicate {
			t.Errorf("%q, \"it\" at %d: predicate %q, want %q", c.sentence, c.pronoun, got, c.predicate)
		}
	}
}

// Fleeing is hiding's frame and scaring intimidating's, so the corpus pairs
// what writers say of them with the meaning those frames give: the verbs are
// found, and "fierce" is a reason of fleeing, "timid" one of being scared.
func TestFleeingAndScaringAreFramesVerbs(t *testing.T) {
	cases := []struct {
		sentence string
		verb     string
		paired   bool
	}{
		{"the mouse fled from the cat because it was fierce .", "fled from", true},
		{"the mouse ran away from the cat because it was scared .", "ran away from", true},
		{"the cat was scared by the dog because it was timid .", "was scared by", true},
		{"the dog frightened the cat because it was big .", "frightened", true},
		{"the mouse fled from the cat because it was heavy .", "fled from", false},
	}
	for _, c := range cases {
		tokens := strings.Fields(c.sentence)
		r := LookUpReason(tokens, slices.Index(tokens, Pronoun), len(tokens))
		if !slices.Contains(r.Verbs, c.verb) || r.Paired != c.paired {
			t.Errorf("%q: verbs %q, paired %v; want %q among them, paired %v", c.sentence, r.Verbs, r.Paired, c.verb, c.paired)
		}
	}
}
