package inference

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"itformer/data"
)

// Only a word that can head a noun phrase is a candidate: the lexicon's
// nouns, and an unknown word where a noun could stand. Punctuation,
// pronouns, function words and known non-nouns never are.
func TestNounHeads(t *testing.T) {
	vocab := map[string]bool{}
	for _, w := range data.Tokenize("a the dog food ate because was hungry very it . ,") {
		vocab[w] = true
	}
	known := func(w string) bool { return vocab[w] }
	cases := map[string][]int{
		"it it":                     nil,
		". , it . ,":                nil,
		"🐶 ate it because it was 🍖": nil,
		"A dog ate the food because it was hungry":           {1, 4},
		"The zorblax ate it":                                 {1},    // after a determiner
		"Zorblax ate it":                                     {0},    // a name needs none
		"She ate it":                                         nil,    // a pronoun
		"They zorbled it":                                    nil,    // a verb after a pronoun
		"The dog ate the food because it was glorp":          {1, 4}, // a predicate after "was"
		"It was very glorpy , the dog":                       {6},    // after a degree adverb
		"The zorbly dog ate it":                              {2},    // a modifier before a noun
		"The dog of the neighbour ate it":                    {1, 4},
		"Of and with it":                                     nil,    // function words
		"The dog chased the zorblax because it was hungry":   {1, 4}, // a verb after a noun
		"The zorblax glorped the food because it was hungry": {1, 4},
		"It could glorp the dog":                             {4}, // a verb after a modal
	}
	for sentence, want := range cases {
		got := nounHeads(data.Tokenize(sentence), known)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: candidates at %v, want %v", sentence, got, want)
		}
	}
}

// An unknown word is a candidate only if WordNet does not know it or knows
// it as a noun, read through its lemma: never a verb ("anchored", through
// anchor), an adverb ("away"), a person's name ("mary"), or a word that is
// a noun only now and then ("working", "bad", "clean") unless a determiner
// makes it one ("the saw").
func TestNounHeadsReadWordNet(t *testing.T) {
	vocab := map[string]bool{}
	for _, w := range data.Tokenize("a the dog food ate because was wasn't hungry very it so and . , to") {
		vocab[w] = true
	}
	known := func(w string) bool { return vocab[w] }
	for sentence, want := range map[string][]int{
		"The boat wasn't anchored , so it drifted":             {1},    // a verb, through anchor, after "wasn't"
		"The engine stopped working because it was old":        {1},    // working: 228 verb uses of work, no noun use
		"The cat ran away because it was scared":               {1},    // an adverb
		"It tasted bad to the dog":                             {5},    // bad: 2 noun uses of 62
		"The dog said it was clean":                            {1},    // after "was"
		"It smelled clean to the dog":                          {5},    // clean: 1 noun use of 46
		"It was clean , the room":                              {5},    // not before a noun either
		"Mary gave the dog food because it was hungry":         {3, 4}, // a person's name
		"The giraffes ate it":                                  {1},    // a noun, through giraffe
		"The saw cut the plank because it was sharp":           {1, 4}, // a noun now and then, after "the"
		"The big rusty saw cut the plank because it was sharp": {3, 6}, // after "the" and adjectives
		"The sand castle fell because it was old":              {2},    // one noun, headed by its last word
		"The dog barks at it":                                  {1},    // "barks", mostly a noun, is the verb of a lexicon noun
		"Sam's drawing fell because it was old":                {1},    // after a possessive
		"It was bigger than Sam's":                             {4},    // a possessive may stand alone
		"Zorblax ate it":                                       {0},    // WordNet does not know it
		"I'm sure the map shows it":                            {3},    // a contraction is never a noun
		"They'd seen the dog before it ran":                    {3},    // nor is "'d", had or would
	} {
		got := nounHeads(data.Tokenize(sentence), known)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: candidates at %v, want %v", sentence, got, want)
		}
	}
}

// With no word that could be its antecedent, there is no answer to give.
func TestNoCandidateIsAnError(t *testing.T) {
	p := defaultPredictor(t)
	for _, s := range []string{"it it", ". , it . ,", "she ate it", "it was very hungry"} {
		res, err := p.Resolve(s)
		want := fmt.Sprintf(`no noun for "it" to refer to in %q`, s)
		if !errors.Is(err, ErrNoCandidate) || err.Error() != want {
			t.Errorf("%q: %v (answer %v), want %q", s, err, res, want)
		}
	}
}

// The answer is the most probable candidate, even where the model's softmax
// over all words puts its weight elsewhere ("fresh", the other "it"), and
// that softmax stays whole in WordProbs.
func TestAnswerIsTheMostProbableCandidate(t *testing.T) {
	p := defaultPredictor(t)
	for s, want := range map[string]string{
		"truck it fresh buried":                    "truck",
		"afraid boulder it nervous":                "boulder",
		"hare wide it it":                          "hare",
		"A dog ate the food because it was hungry": "dog",
		"A dog ate the food because it was tasty":  "food",
	} {
		res, err := p.Resolve(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		for _, pr := range res.Predictions {
			top := pr.Candidates[0]
			total := 0.0
			for _, q := range pr.WordProbs {
				total += q
			}
			if pr.AnswerWord != want || pr.Answer != top.Position || pr.WordProbs[pr.Answer] != top.Probability || math.Abs(total-1) > 1e-9 {
				t.Errorf("%q: answer %q (word %d), top candidate %+v, probabilities sum to %v; want %q",
					s, pr.AnswerWord, pr.Answer, top, total, want)
			}
		}
	}
}
