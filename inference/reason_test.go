package inference

import (
	"slices"
	"strings"
	"testing"

	"itformer/data"
)

// TestCorpusReasonsArePaired looks up every sentence of the corpus the
// default model learns from as infer does: each must be found paired, with
// its own frame's verb and its own predicate. So the unpaired rule can only
// fire on a sentence the corpus does not write, and reads it as the
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
	sets := [][]data.Example{c.Train, c.Validation, c.Test}
	for _, ch := range c.Challenges {
		sets = append(sets, ch.Examples)
	}
	checked := 0
	for _, set := range sets {
		for _, e := range set {
			if e.Uncertain {
				continue // the predicate is not a word of the lexicon
			}
			checkPaired(t, lex, e)
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d sentences checked", checked)
	}
}

func checkPaired(t *testing.T, lex *data.Lexicon, e data.Example) {
	t.Helper()
	r := lookUpReason(e.Tokens, e.Pronoun)
	want := e.Predicate
	if e.Negated {
		want = "not " + want
	}
	f, _ := lex.Frame(e.Frame)
	if !r.Paired || r.Predicate != want || !slices.ContainsFunc(r.Verbs, func(v string) bool {
		return v == f.Active || v == f.Passive || v == f.Present || v == f.PresentPassive
	}) {
		t.Errorf("%q (frame %s): looked up as %+v, want %q paired with the frame's verb", e.Text, e.Frame, r, want)
	}
}

// TestUnpairedReasonIsAGuess checks the rule on sentences the corpus does
// not write, whatever the model answers.
func TestUnpairedReasonIsAGuess(t *testing.T) {
	cases := []struct {
		sentence string
		unpaired bool
		reason   []string // substrings of the reason
	}{
		{"The dog chased the cat because it was angry.", true,
			[]string{`never gives "angry" as a reason for "chased"`, `for "avoided" and "hid from" it describes the object`}},
		{"Because it was angry, the dog chased the cat.", true, []string{`"angry"`, `"chased"`}},
		{"The dog ate the food because it was scared.", true, []string{`"scared" as a reason for "ate"`, "describes the agent"}},
		{"The dog chased the cat because it wasn't hungry.", true, []string{`"not hungry" as a reason for "chased"`}},
		{"The dog chased the cat because it was not angry.", true, []string{`"not angry"`, "nor for any other verb"}},
		{"The fox hid from the wolf because it was fast.", true, []string{`"fast"`, `"escaped" and "overtook" it describes the agent`, "describes the object"}},
		{"The dog ate the food. It was so slow.", true, []string{`"slow" as a reason for "ate"`, `"beat", "caught", "escaped" and 2 more`}},
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

// TestNoKnownVerbIsAGuess: with no verb of the corpus and an unknown word
// that may be the verb, nothing says whom the predicate describes.
func TestNoKnownVerbIsAGuess(t *testing.T) {
	cases := []struct {
		sentence string
		want     bool
	}{
		{"The horse kicked the fence because it was angry.", true},
		{"The dog devoured the food because it was hungry.", true},
		{"The dog ate the food quickly because it was hungry.", false}, // the verb is known
		{"The dog ate the food because it was famished.", false},       // the unknown word rule's case
	}
	p := defaultPredictor(t)
	for _, tc := range cases {
		c := confidenceOf(t, p, tc.sentence)
		if c.NoKnownVerb != tc.want || (tc.want && (!c.Guess || !strings.Contains(c.Reason, "no verb of the corpus"))) {
			t.Errorf("%q: no_known_verb %v, guess %v, reason %q; want no_known_verb %v", tc.sentence, c.NoKnownVerb, c.Guess, c.Reason, tc.want)
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
