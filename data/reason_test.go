package data

import (
	"maps"
	"slices"
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
