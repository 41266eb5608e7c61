package inference

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/data"
)

// defaultPredictor is a fresh Predictor for the embedded default model.
func defaultPredictor(t *testing.T) *Predictor {
	t.Helper()
	ck, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		t.Fatal(err)
	}
	return New(ck)
}

// Resolve keeps one graph per sentence length and reuses its buffers: the
// answers must not depend on what ran before. Sentences of the same length
// alternate on one checkpoint and are compared with a fresh checkpoint's.
func TestCachedGraphsGiveFreshAnswers(t *testing.T) {
	shared := defaultPredictor(t)
	sentences := []string{
		"A dog ate the food because it was hungry", "A dog ate the food because it was tasty",
		"The cat chased the mouse because it was hungry", "A dog ate the food because it was hungry",
	}
	for _, s := range sentences {
		want, err := defaultPredictor(t).Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := shared.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := shared.Trace(s); err != nil { // a traced run in between
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: the reused graph answered\n%+v\na fresh one\n%+v", s, got.Predictions[0], want.Predictions[0])
		}
	}
}

// A contraction the vocabulary lacks is read as its words: "it's" no longer
// hides the pronoun, and the result says so; "wasn't" and "didn't", which the
// vocabulary has (the corpus writes them), stay one word.
func TestResolveReadsContractions(t *testing.T) {
	p := defaultPredictor(t)
	tests := []struct {
		sentence, tokens string
		read             string // data.ContractionNote of the result
		answer           string
	}{
		{"The dog ate the food because it's hungry", "the dog ate the food because it is hungry .",
			`read "it's" as "it is"`, "dog"},
		{"The dog didn't eat the food because it wasn't hungry", "the dog didn't eat the food because it wasn't hungry .",
			"", "dog"},
		{"It’s tasty, so the dog ate the food", "it is tasty , so the dog ate the food .", `read "it's" as "it is"`, ""},
		{"The dog ate the food because it was hungry", "the dog ate the food because it was hungry .", "", "dog"},
		{"The dog ate the food because it was hungry.", "the dog ate the food because it was hungry .", "", "dog"},
	}
	for _, tc := range tests {
		res, err := p.Resolve(tc.sentence)
		if err != nil {
			t.Fatalf("%q: %v", tc.sentence, err)
		}
		if got := strings.Join(res.Tokens, " "); got != tc.tokens {
			t.Errorf("%q: tokens %q, want %q", tc.sentence, got, tc.tokens)
		}
		if got := data.ContractionNote(res.Contractions); got != tc.read {
			t.Errorf("%q: note %q, want %q", tc.sentence, got, tc.read)
		}
		if len(res.Unknown) > 0 {
			t.Errorf("%q: unknown words %q", tc.sentence, res.Unknown)
		}
		if a := res.Predictions[0]; tc.answer != "" && a.AnswerWord != tc.answer {
			t.Errorf("%q: answered %q, want %q", tc.sentence, a.AnswerWord, tc.answer)
		}
		tr, err := p.Trace(tc.sentence)
		if err != nil {
			t.Fatalf("%q: trace: %v", tc.sentence, err)
		}
		if !reflect.DeepEqual(tr.Tokens, res.Tokens) || !reflect.DeepEqual(tr.Contractions, res.Contractions) {
			t.Errorf("%q: Trace read %q (%v), Resolve %q (%v)", tc.sentence, tr.Tokens, tr.Contractions, res.Tokens, res.Contractions)
		}
	}
}

// A word read as its WordNet relative is shown as typed: Tokens hold what
// the model read, Typed, the answer and the candidates what the user wrote,
// in Resolve and Trace alike. A contraction keeps the words it was read as,
// and -relatives=false changes nothing typed.
func TestResolveShowsTheWordsTyped(t *testing.T) {
	p := defaultPredictor(t)
	tests := []struct {
		sentence, tokens, typed string
		relatives               bool
		answer, read            string // the answer as typed and as read
	}{
		{"The puppy ate the food because it was famished", "the dog ate the food because it was hungry .",
			"the puppy ate the food because it was famished .", true, "puppy", "dog"},
		{"The puppy ate the food because it's famished", "the dog ate the food because it is hungry .",
			"the puppy ate the food because it is famished .", true, "puppy", "dog"},
		{"The puppy ate the food because it was famished", "the puppy ate the food because it was famished .",
			"the puppy ate the food because it was famished .", false, "", ""},
	}
	for _, tc := range tests {
		p.SetRelatives(tc.relatives)
		res, err := p.Resolve(tc.sentence)
		if err != nil {
			t.Fatalf("%q: %v", tc.sentence, err)
		}
		a := res.Predictions[0]
		if got := strings.Join(res.Tokens, " "); got != tc.tokens {
			t.Errorf("%q: tokens %q, want %q", tc.sentence, got, tc.tokens)
		}
		if got := strings.Join(res.Typed, " "); got != tc.typed || !reflect.DeepEqual(a.Typed, res.Typed) {
			t.Errorf("%q: typed %q (the prediction's %q), want %q", tc.sentence, got, a.Typed, tc.typed)
		}
		if tc.answer != "" && (a.TypedAnswer != tc.answer || a.AnswerWord != tc.read || a.Candidates[0].Typed != tc.answer || a.Candidates[0].Word != tc.read) {
			t.Errorf("%q: answer %q read as %q, first candidate %+v; want %q read as %q", tc.sentence, a.TypedAnswer, a.AnswerWord, a.Candidates[0], tc.answer, tc.read)
		}
		tr, err := p.Trace(tc.sentence)
		if err != nil {
			t.Fatalf("%q: trace: %v", tc.sentence, err)
		}
		if !reflect.DeepEqual(tr.Typed, res.Typed) || tr.Answer.TypedAnswer != a.TypedAnswer {
			t.Errorf("%q: Trace typed %q, answer %q; Resolve %q, %q", tc.sentence, tr.Typed, tr.Answer.TypedAnswer, res.Typed, a.TypedAnswer)
		}
	}
}

// A sentence longer than the model reads is refused with the limit and the
// word where it falls, counted as read (contractions expanded, punctuation
// a word of its own).
func TestTooLongNamesTheLimitAndTheWord(t *testing.T) {
	p := defaultPredictor(t)
	max := p.Config().MaxLen
	words := strings.Fields(strings.Repeat("the dog ate ", max))[:max-4]
	sentence := strings.Join(words, " ") + " , because it was hungry and tired"
	_, err := p.Resolve(sentence)
	var tl *TooLongError
	want := fmt.Sprintf(`the sentence has %d tokens; this model reads at most %d (model.max_len), so it stops before word %d, "hungry" (punctuation counts as a word)`, max+3, max, max+1)
	if !errors.As(err, &tl) || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if _, err := p.Resolve(strings.Join(words, " ") + " , because it was"); err != nil {
		t.Errorf("a sentence of max_len tokens: %v", err)
	}
}
