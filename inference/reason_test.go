package inference

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"itformer/data"
)

// TestCorpusReasonsArePaired looks up every sentence of the corpus the
// default model learns from as infer does (but lead-it ones, which have no
// reason clause): each must be found paired, with one of its own frame's
// verb phrases (either outcome, any voice and tense,
// written out or contracted) and its own predicate. So the unpaired rule can
// only fire on a sentence the corpus does not write, and reads it as the
// generator wrote it.
func TestCorpusReasonsArePaired(t *testing.T) {
	c, err := data.Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	lex, err := data.DefaultLexicon()
	if err != nil {
		t.Fatal(err)
	}
	sets := []data.ChallengeSet{{Name: "train", Examples: c.Train}, {Name: "validation", Examples: c.Validation}, {Name: "test", Examples: c.Test}}
	sets = append(sets, c.Challenges...)
	checked := 0
	wrong := map[string]int{} // by shape
	first := map[string]string{}
	for _, set := range sets {
		for _, e := range set.Examples {
			if e.Uncertain || e.ByGrammar() {
				continue // the predicate is not a word of the lexicon, or there is no reason clause
			}
			checked++
			if msg := checkPaired(lex, e); msg != "" {
				if wrong[e.Shape]++; wrong[e.Shape] == 1 {
					first[e.Shape] = set.Name + ": " + msg
				}
			}
		}
	}
	for _, shape := range slices.Sorted(maps.Keys(wrong)) {
		t.Errorf("%d %s sentences are not looked up as paired with their frame's verb and predicate, e.g. %s", wrong[shape], shape, first[shape])
	}
	if checked < 1000 {
		t.Fatalf("only %d sentences checked", checked)
	}
}

// checkPaired says how e's lookup differs from its frame's verb and
// predicate, or "".
func checkPaired(lex *data.Lexicon, e data.Example) string {
	r := lookUpReason(e.Tokens, e.Pronoun)
	want := e.Predicate
	if e.Negated {
		want = "not " + want
	}
	f, _ := lex.Frame(e.Frame)
	if r.Paired && r.Predicate == want && slices.ContainsFunc(r.Verbs, func(v string) bool { return isVerbOf(f, v) }) {
		return ""
	}
	return fmt.Sprintf("%q (frame %s): looked up as %+v, want %q paired with the frame's verb", e.Text, e.Frame, r, want)
}

// isVerbOf says whether v is one of f's verb phrases, for either outcome,
// in any voice and tense, written out or contracted as the corpus does.
func isVerbOf(f *data.Frame, v string) bool {
	for _, c := range [][2]string{{"couldn't", "could not"}, {"didn't", "did not"}, {"doesn't", "does not"},
		{"can't", "cannot"}, {"wasn't", "was not"}, {"isn't", "is not"}} {
		v = strings.ReplaceAll(v, c[0], c[1])
	}
	for _, forms := range f.Verbs {
		if slices.Contains(slices.Concat(forms.Active, forms.Passive, forms.Present, forms.PresentPassive), v) {
			return true
		}
	}
	return false
}

// TestUnpairedReasonIsAGuess checks the rule on sentences the corpus does
// not write, whatever the model answers.
func TestUnpairedReasonIsAGuess(t *testing.T) {
	cases := []struct {
		sentence string
		unpaired bool
		reason   []string // substrings of the reason
	}{
		{"The dog chased the cat because it was thirsty.", true,
			[]string{`never gives "thirsty" as a reason for "chased"`, `for "drank" and "drank from" it describes the agent; for "tempted" it describes the object`}},
		{"Because it was thirsty, the dog chased the cat.", true, []string{`"thirsty"`, `"chased"`}},
		{"The dog ate the food because it was scared.", true, []string{`"scared" as a reason for "ate"`, "describes the agent"}},
		{"The dog chased the cat because it wasn't thirsty.", true, []string{`"not thirsty" as a reason for "chased"`}},
		{"The dog chased the cat because it was not kind.", true, []string{`"not kind"`, `for "fed" and "helped" it describes the agent; for "followed" it describes the object`}},
		{"The fox hid from the wolf because it was fast.", true, []string{`"fast"`, `"beat", "caught", "chased" and 3 more it describes the agent`, "describes the object"}},
		{"The dog ate the food. It was so strong.", true, []string{`"strong" as a reason for "ate"`, `"attacked", "carried", "climbed" and 7 more`}},
		{"The dog chased the cat because it was angry.", false, nil}, // chase: an angry chaser chases
		{"The dog chased the cat because it was hungry.", false, nil},
		{"The dog ate the food because it was hungry.", false, nil},
		{"The dog ate the food because it was famished.", false, nil}, // no lexicon predicate: another rule's case
	}
	p := defaultPredictor(t)
	for _, tc := range cases {
		c := confidenceOf(t, p, tc.sentence)
		if (c.Unpaired != nil) != tc.unpaired || (tc.unpaired && !c.Guess) {
			t.Errorf("%q: unpaired %+v, guess %v; want unpaired %v and then a guess", tc.sentence, c.Unpaired, c.Guess, tc.unpaired)
		}
		for _, want := range tc.reason {
			if !strings.Contains(c.Reason, want) {
				t.Errorf("%q: reason %q lacks %q", tc.sentence, c.Reason, want)
			}
		}
	}
}

// TestNoBasisIsAGuess: two conditions of the rule for sentences that leave
// the model nothing to decide by. With no verb phrase of the corpus in the
// sentence (an unknown word may be the verb, or a known verb stands in a
// phrase the corpus never writes), nothing says whom the predicate describes
// (no_known_verb); a sentence that says nothing of "it" the corpus gives as
// a reason, where "it" is not the object of a corpus verb, leaves the model
// only the nouns and their places (no_reason).
func TestNoBasisIsAGuess(t *testing.T) {
	noKnownVerb := func(c Confidence) bool { return c.NoKnownVerb }
	noReason := func(c Confidence) bool { return c.NoReason }
	cases := []struct {
		sentence  string
		condition func(Confidence) bool
		want      bool
		reason    string // in the reason when want
	}{
		{"The horse kicked the fence because it was angry.", noKnownVerb, true, "none of the verb phrases of the corpus"},
		{"The dog swallowed the food because it was hungry.", noKnownVerb, true, "none of the verb phrases of the corpus"},
		{"The dog devoured the food because it was hungry.", noKnownVerb, false, ""},                                    // a synonym eat writes since corpus-37
		{"The lamp fit the box because it was so little.", noKnownVerb, true, "none of the verb phrases of the corpus"}, // "fit", but not "fit in" or "fit into"
		{"The dog ate the food quickly because it was hungry.", noKnownVerb, false, ""},                                 // the verb is known
		{"The dog ate the food because it was famished.", noKnownVerb, false, ""},                                       // read as "hungry"
		{"I put the butterfly wing on the table and it broke.", noReason, true, `says nothing of "it"`},
		{"I put the heavy book on the table and it broke.", noReason, true, `says nothing of "it"`},         // "heavy" is said of no "it"
		{"The tractor pushed the boulder although it was striped.", noReason, true, `says nothing of "it"`}, // "striped" decides nothing
		{"The dog saw the cat and it escaped.", noReason, true, `says nothing of "it"`},                     // a deed after "and" is what happened next, not a reason
		{"The terrier chased the rat, so it hid under the floor.", noReason, true, `says nothing of "it"`},  // nor after "so"
		{"The fox could not catch the rabbit because it hid.", noReason, false, ""},                         // a deed of "it" as the reason (deeds.txt)
		{"The monkey found the banana and ate it.", noReason, false, ""},                                    // the object of "ate": grammar
		{"The box was heavy, so the dog couldn't carry it.", noReason, false, ""},                           // said of the box, before "it"
		{"The dog ate the food because it was hungry.", noReason, false, ""},
		{"The dog ate the food because it was famished.", noReason, false, ""},
		{"The wolf attacked the sheep, but the dog protected it.", noReason, false, ""},                           // an act: the hen's deed done to "it"
		{"The goat couldn't carry the basket, so the donkey carried it.", noReason, true, `says nothing of "it"`}, // "carried" has a subject of its own
	}
	p := defaultPredictor(t)
	for _, tc := range cases {
		c := confidenceOf(t, p, tc.sentence)
		if tc.condition(c) != tc.want || (tc.want && (!c.Guess || !strings.Contains(c.Reason, tc.reason))) {
			t.Errorf("%q: condition %v, guess %v, reason %q; want the condition %v", tc.sentence, tc.condition(c), c.Guess, c.Reason, tc.want)
		}
	}
}

// TestCorpusSentencesHaveAReason: every sentence the corpus writes (but
// those whose deciding word is meant to be unknown) says something of "it"
// the lexicon gives as a reason, or has "it" as a corpus verb's object, so
// the no-reason rule only fires on sentences the corpus does not write.
func TestCorpusSentencesHaveAReason(t *testing.T) {
	c, err := data.Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	sets := append([]data.ChallengeSet{{Name: "train", Examples: c.Train}, {Name: "test", Examples: c.Test}}, c.Challenges...)
	for _, set := range sets {
		for _, e := range set.Examples {
			if !e.Uncertain && lookUpReason(e.Tokens, e.Pronoun).Predicate == "" && !data.ObjectOfVerb(e.Tokens, e.Pronoun) {
				t.Fatalf("%s: %q (pronoun at %d) says nothing of \"it\" that is a reason", set.Name, e.Text, e.Pronoun)
			}
		}
	}
}

func confidenceOf(t *testing.T, p *Predictor, sentence string) Confidence {
	t.Helper()
	res, err := p.Resolve(sentence)
	if err != nil {
		t.Fatal(err)
	}
	return res.Predictions[0].Confidence
}

func BenchmarkLookUpReason(b *testing.B) {
	tokens := strings.Fields("because it was not really very hungry , the dog in the barn chased the cat .")
	for b.Loop() {
		lookUpReason(tokens, 1)
	}
}
