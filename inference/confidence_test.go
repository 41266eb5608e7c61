package inference

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"itformer/data"
)

// The rule, on probabilities made up for each case: whether the answer is a
// guess, and the exact reason a user reads.
func TestGuessRule(t *testing.T) {
	vocab := map[string]bool{}
	for _, w := range data.Tokenize("a the dog food cat ate because was hungry it . , so") {
		vocab[w] = true
	}
	known := func(w string) bool { return vocab[w] }
	cases := []struct {
		name, sentence string
		probs          map[string]float64 // by word; every other word gets 0
		guess          bool
		top, mass      float64
		unknown, cands string // the unknown words outside the candidates, and the unknown candidates
		about          string // the unknown words said of "it"; "[]" if left out
		reason         string
	}{
		{name: "confident", sentence: "a dog ate the food because it was hungry",
			probs: map[string]float64{"dog": 0.97, "food": 0.02, "hungry": 0.01},
			top:   0.97 / 0.99, mass: 0.99, unknown: "[]", cands: "[]"},
		{name: "confident, an unknown word outside the pronoun's clause", sentence: "a dog ate the food greedily because it was hungry",
			probs: map[string]float64{"dog": 0.95, "food": 0.05},
			top:   0.95, mass: 1, unknown: "[greedily]", cands: "[]",
			reason: `"greedily" is not a word this model knows, so the answer cannot rest on it`},
		{name: "confident, the unknown word after the pronoun's clause", sentence: "because it was hungry , the dog ate the food greedily",
			probs: map[string]float64{"dog": 0.95, "food": 0.05},
			top:   0.95, mass: 1, unknown: "[greedily]", cands: "[]",
			reason: `"greedily" is not a word this model knows, so the answer cannot rest on it`},
		{name: "sure, but a guess: the word said of it is unknown", sentence: "a dog ate the food because it was famished",
			probs: map[string]float64{"dog": 0.95, "food": 0.05}, guess: true,
			top: 0.95, mass: 1, unknown: "[famished]", cands: "[]", about: "[famished]",
			reason: `"famished" is not a word this model knows, and it is what the sentence says of "it", so the model cannot know the answer`},
		{name: "a guess, the word said of it unknown, in a sentence of its own", sentence: "the dog ate the food . it was really famished .",
			probs: map[string]float64{"dog": 0.55, "food": 0.45}, guess: true,
			top: 0.55, mass: 1, unknown: "[really famished]", cands: "[]", about: "[really famished]",
			reason: `"really" and "famished" are not words this model knows, and they are what the sentence says of "it", so the model cannot know the answer; ` +
				`the model is unsure between "dog" (55.0%) and "food" (45.0%)`},
		{name: "a guess, fronted: the clause ends at the comma", sentence: "it was famished , so the dog ate the food greedily",
			probs: map[string]float64{"dog": 0.99, "food": 0.01}, guess: true,
			top: 0.99, mass: 1, unknown: "[famished greedily]", cands: "[]", about: "[famished]",
			reason: `"famished" is not a word this model knows, and it is what the sentence says of "it", so the model cannot know the answer; nor is "greedily"`},
		{name: "a guess, every word known", sentence: "a dog ate the food because it was hungry",
			probs: map[string]float64{"food": 0.6, "dog": 0.4}, guess: true,
			top: 0.6, mass: 1, unknown: "[]", cands: "[]",
			reason: `the model is unsure between "food" (60.0%) and "dog" (40.0%)`},
		{name: "a guess, a candidate unknown", sentence: "a dog ate the zorblax because it was hungry",
			probs: map[string]float64{"zorblax": 0.3, "dog": 0.7}, guess: true,
			top: 0.7, mass: 1, unknown: "[]", cands: "[zorblax]",
			reason: `the candidate "zorblax" is not a word this model knows; the model is unsure between "dog" (70.0%) and "zorblax" (30.0%)`},
		// An unknown answer had been stated as a fact ("dóg" 100%, no note).
		{name: "sure, but a guess: the answer is unknown", sentence: "a zorblax ate the food because it was hungry",
			probs: map[string]float64{"zorblax": 0.99, "food": 0.01}, guess: true,
			top: 0.99, mass: 1, unknown: "[]", cands: "[zorblax]",
			reason: `the answer "zorblax" is not a word this model knows: it can tell where the word stands, not what it is`},
		{name: "confident, the other candidate unknown", sentence: "a dog ate the zorblax because it was hungry",
			probs: map[string]float64{"dog": 0.99, "zorblax": 0.01},
			top:   0.99, mass: 1, unknown: "[]", cands: "[zorblax]"},
		{name: "a guess, both kinds unknown", sentence: "the man ate the boy because it was strong",
			probs: map[string]float64{"boy": 0.5, "man": 0.4, "strong": 0.1}, guess: true,
			top: 0.5 / 0.9, mass: 0.9, unknown: "[strong]", cands: "[man boy]", about: "[strong]",
			reason: `"strong" is not a word this model knows, and it is what the sentence says of "it", so the model cannot know the answer; ` +
				`nor are the candidates "man" and "boy"; the model is unsure between "boy" (50.0%) and "man" (40.0%)`},
		{name: "a guess, little probability on the candidates", sentence: "a dog ate the food because it was hungry",
			probs: map[string]float64{"dog": 0.2, "food": 0.01, "hungry": 0.79}, guess: true,
			top: 0.2 / 0.21, mass: 0.21, unknown: "[]", cands: "[]",
			reason: `only 21.0% of the model's probability is on the candidates`},
		{name: "a guess, two unknown words, no probability on the only candidate", sentence: "a dog glorped because it was famished",
			probs: map[string]float64{"famished": 1}, guess: true,
			top: 1, mass: 0, unknown: "[glorped famished]", cands: "[]",
			about: "[famished]",
			reason: `"famished" is not a word this model knows, and it is what the sentence says of "it", so the model cannot know the answer; nor is "glorped"; ` +
				`almost none of the model's probability (less than 0.1%) is on the candidates`},
	}
	for _, tc := range cases {
		tokens := data.Tokenize(tc.sentence)
		probs := make([]float64, len(tokens))
		for i, w := range tokens {
			probs[i] = tc.probs[w]
		}
		heads := nounHeads(tokens, known)
		c := judge(tokens, nil, data.Pronouns(tokens)[0], heads, candidates(tokens, tokens, heads, probs), known)
		if tc.about == "" {
			tc.about = "[]"
		}
		if fmt.Sprint(c.UnknownAboutIt) != tc.about {
			t.Errorf("%s: unknown words about it %v, want %s", tc.name, c.UnknownAboutIt, tc.about)
		}
		if c.Guess != tc.guess || fmt.Sprintf("%.6f %.6f", c.TopProbability, c.CandidateMass) != fmt.Sprintf("%.6f %.6f", tc.top, tc.mass) ||
			fmt.Sprint(c.UnknownWords) != tc.unknown || fmt.Sprint(c.UnknownCandidates) != tc.cands {
			t.Errorf("%s: %+v\nwant guess %v, top %.4f, mass %.4f, unknown words %s, unknown candidates %s",
				tc.name, c, tc.guess, tc.top, tc.mass, tc.unknown, tc.cands)
		}
		if c.Reason != tc.reason {
			t.Errorf("%s: reason\n%q\nwant\n%q", tc.name, c.Reason, tc.reason)
		}
	}
}

// The threshold is a bound, not a neighbourhood: just below it is a guess,
// at it is not.
func TestGuessThreshold(t *testing.T) {
	tokens := data.Tokenize("a dog ate the food because it was hungry")
	known := func(string) bool { return true }
	heads := nounHeads(tokens, known)
	for _, tc := range []struct {
		top   float64
		guess bool
	}{{GuessBelow - 1e-9, true}, {GuessBelow, false}} {
		probs := make([]float64, len(tokens))
		probs[1], probs[4] = tc.top, 1-tc.top
		if c := judge(tokens, nil, 6, heads, candidates(tokens, tokens, heads, probs), known); c.Guess != tc.guess {
			t.Errorf("top %v: guess %v, want %v", tc.top, c.Guess, tc.guess)
		}
	}
}

// Every Prediction carries its confidence, under the names the JSON
// documents, even when nothing is unknown (empty lists, not null).
func TestConfidenceInJSON(t *testing.T) {
	res, err := defaultPredictor(t).Resolve(mission)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Predictions[0])
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Confidence map[string]any `json:"confidence"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"guess", "reason", "top_probability", "candidate_mass", "unknown_words", "unknown_candidates", "unknown_about_it"} {
		if _, ok := got.Confidence[key]; !ok {
			t.Errorf("no %q in the prediction's confidence: %s", key, b)
		}
	}
	if !strings.Contains(string(b), `"guess":false,"reason":"","top_probability":`) || !strings.Contains(string(b), `"unknown_words":[],"unknown_candidates":[]`) {
		t.Errorf("the mission sentence's confidence: %v", got.Confidence)
	}
}

// With the embedded model, Resolve and Trace judge alike, and the mission
// sentence is no guess (the other sentence is one for today's model, but a
// retrained model may know its words).
func TestResolveAndTraceJudge(t *testing.T) {
	p := defaultPredictor(t)
	for _, s := range []string{mission, "The man lifted the boy because it was strong"} {
		res, err := p.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := p.Trace(s)
		if err != nil {
			t.Fatal(err)
		}
		c := res.Predictions[0].Confidence
		if (s == mission && c.Guess) || (c.Reason == "") == c.Guess || fmt.Sprint(tr.Answer.Confidence) != fmt.Sprint(c) {
			t.Errorf("%q: Resolve %+v, Trace %+v", s, c, tr.Answer.Confidence)
		}
	}
	tr, err := p.Trace("The dog ate the food")
	if err != nil || tr.Answer != nil {
		t.Errorf("no pronoun: Trace %v, answer %+v; want no answer and no error", err, tr.Answer)
	}
}

// A word read as its WordNet relative is no unknown word for the rule, but
// the reason names it, and says when the answer rests on it: what the
// sentence says of "it", or the answer itself.
func TestGuessRuleWithRelatives(t *testing.T) {
	known := func(w string) bool { return w != "greedily" }
	famished := data.Relative{Word: "famished", ReadAs: "hungry", Relation: "similar", Position: 8}
	puppy := data.Relative{Word: "puppy", ReadAs: "dog", Relation: "kind", Position: 1}
	cases := []struct {
		name      string
		relatives []data.Relative
		probs     map[string]float64
		guess     bool
		reason    string
	}{
		{"the deciding word", []data.Relative{famished}, map[string]float64{"dog": 0.97, "food": 0.03}, false,
			`the answer rests on reading "famished" as "hungry" (WordNet: similar to)`},
		{"the answer, and the deciding word", []data.Relative{puppy, famished}, map[string]float64{"dog": 0.97, "food": 0.03}, false,
			`the answer rests on reading "puppy" as "dog" (WordNet: a kind of) and "famished" as "hungry" (WordNet: similar to)`},
		{"a noun that is not the answer", []data.Relative{puppy}, map[string]float64{"dog": 0.1, "food": 0.9}, false,
			`the model read "puppy" as "dog" (WordNet: a kind of), words it does not know`},
		{"a guess still says so", []data.Relative{famished}, map[string]float64{"dog": 0.6, "food": 0.4}, true,
			`the model is unsure between "dog" (60.0%) and "food" (40.0%); the answer rests on reading "famished" as "hungry" (WordNet: similar to)`},
		{"a guess names the words typed", []data.Relative{puppy}, map[string]float64{"dog": 0.6, "food": 0.4}, true,
			`the model is unsure between "puppy" (60.0%) and "food" (40.0%); the answer rests on reading "puppy" as "dog" (WordNet: a kind of)`},
	}
	for _, tc := range cases {
		tokens := data.Tokenize("a dog ate the food because it was hungry")
		probs := make([]float64, len(tokens))
		for i, w := range tokens {
			probs[i] = tc.probs[w]
		}
		heads := nounHeads(tokens, known)
		c := judge(tokens, tc.relatives, 6, heads, candidates(tokens, typedWords(tokens, tc.relatives), heads, probs), known)
		if c.Guess != tc.guess || c.Reason != tc.reason || len(c.UnknownAboutIt) != 0 {
			t.Errorf("%s: guess %v, reason\n%q\nwant %v,\n%q", tc.name, c.Guess, c.Reason, tc.guess, tc.reason)
		}
	}
}
