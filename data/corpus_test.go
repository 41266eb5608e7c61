package data

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestGenerateSizesAndDescribe(t *testing.T) {
	c := testCorpus(t)
	cfg := DefaultConfig()
	if len(c.Train) != cfg.TrainSize || len(c.Validation) != cfg.ValidationSize || len(c.Test) != cfg.TestSize {
		t.Errorf("sizes %d/%d/%d, want %d/%d/%d", len(c.Train), len(c.Validation), len(c.Test), cfg.TrainSize, cfg.ValidationSize, cfg.TestSize)
	}
	t.Log("\n" + c.Describe())
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, testCorpus(t)) {
		t.Fatal("Generate(1) twice gave different corpora")
	}
	b := corpusFor(t, 2)
	if reflect.DeepEqual(texts(a.Train), texts(b.Train)) || reflect.DeepEqual(combinations(a.Test), combinations(b.Test)) {
		t.Error("seeds 1 and 2 gave the same train order or the same test combinations")
	}
}

func TestSplitsAreDisjoint(t *testing.T) {
	c := testCorpus(t)
	splits := map[string][]Example{"train": c.Train, "validation": c.Validation, "test": c.Test}
	for _, pair := range [][2]string{{"train", "validation"}, {"train", "test"}, {"validation", "test"}} {
		a, b := splits[pair[0]], splits[pair[1]]
		if shared := intersect(texts(a), texts(b)); len(shared) > 0 {
			t.Errorf("%s and %s share %d sentences, e.g. %q", pair[0], pair[1], len(shared), shared[0])
		}
		if shared := intersect(combinations(a), combinations(b)); len(shared) > 0 {
			t.Errorf("%s and %s share %d (pair, predicate, negation) combinations, e.g. %s: %q (%s) and %q (%s)",
				pair[0], pair[1], len(shared), shared[0], withCombination(a, shared[0]).Text, withCombination(a, shared[0]).Shape,
				withCombination(b, shared[0]).Text, withCombination(b, shared[0]).Shape)
		}
	}
	for name, ex := range splits {
		if n := len(texts(ex)); n != len(ex) {
			t.Errorf("%s has %d duplicate sentences", name, len(ex)-n)
		}
	}
}

func TestHeldOutShapes(t *testing.T) {
	c := testCorpus(t)
	valShape, testShape := HeldOutShapes()
	tests := []struct {
		split         string
		ex            []Example
		want, without string
	}{
		{"train", c.Train, "", valShape},
		{"train", c.Train, "", testShape},
		{"validation", c.Validation, valShape, testShape},
		{"test", c.Test, testShape, valShape},
	}
	for _, tt := range tests {
		counts := countBy(tt.ex, func(e Example) string { return e.Shape })
		if counts[tt.without] > 0 {
			t.Errorf("%s contains %d sentences of shape %s", tt.split, counts[tt.without], tt.without)
		}
		if tt.want != "" && counts[tt.want] < len(tt.ex)/10 {
			t.Errorf("%s has only %d sentences of its held-out shape %s", tt.split, counts[tt.want], tt.want)
		}
	}
	// The held-out shapes are new arrangements of words train has seen.
	if counts := countBy(c.Train, func(e Example) string { return e.Tokens[0] }); counts["as"] > 0 || counts["because"] == 0 {
		t.Errorf("train sentence openings: %v; \"as\" must only open test sentences", counts)
	}
}

func TestMissionSentencesInTest(t *testing.T) {
	for _, seed := range []int64{1, 2, 3, 42} {
		var c *Corpus
		if slices.Contains(testSeeds, seed) {
			c = corpusFor(t, seed)
		} else {
			var err error
			if c, err = Generate(seed); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range []struct{ text, answer, other string }{
			{MissionHungry, "dog", "food"}, {MissionTasty, "food", "dog"},
		} {
			i := slices.IndexFunc(c.Test, func(e Example) bool { return e.Text == m.text })
			if i < 0 {
				t.Fatalf("seed %d: %q not in test", seed, m.text)
			}
			if e := c.Test[i]; e.Answer() != m.answer || e.Other() != m.other || e.Pronoun != 6 {
				t.Errorf("seed %d: %q answers %q (other %q, pronoun at %d)", seed, m.text, e.Answer(), e.Other(), e.Pronoun)
			}
			for _, e := range append(slices.Clone(c.Train), c.Validation...) {
				if e.Text == m.text || e.Combination() == c.Test[i].Combination() {
					t.Fatalf("seed %d: %q (or its combination) outside test: %q", seed, m.text, e.Text)
				}
			}
		}
	}
}

func TestAntecedentPositionIsBalanced(t *testing.T) {
	c := testCorpus(t)
	for _, split := range [][]Example{c.Train, c.Validation, c.Test} {
		first := countBy(split, func(e Example) string { return shapeName(e) + "/" + boolName(e.AntecedentFirst) })
		share := float64(countFirst(split)) / float64(len(split))
		if share < 0.4 || share > 0.6 {
			t.Errorf("antecedent is the first noun in %.1f%% of a split, want 40-60%%", 100*share)
		}
		for _, name := range append(shapeNames(), byVerb) {
			f, s := first[name+"/first"], first[name+"/second"]
			switch {
			case name == ShapeSoIt && s > 0:
				// "The food was tasty, so the dog ate it.": the answer is named first.
				t.Errorf("shape %s: first %d, second %d: the noun the reason describes must come first", name, f, s)
			case name == ShapeLeadIt && f > 0:
				// "The dog found the food and ate it.": the grammar answers the object, named second.
				t.Errorf("shape %s: first %d, second %d: the object must come second", name, f, s)
			case name != ShapeSoIt && name != ShapeLeadIt && f+s > 0 && (f < s/3 || s < f/3):
				t.Errorf("shape %s: first %d, second %d: position alone would answer it", name, f, s)
			}
		}
	}
}

// byVerb names ByVerb lead-it sentences apart from the rest of their shape:
// the verb, not the grammar, decides, and the object may come first or last.
const byVerb = ShapeLeadIt + " by verb"

func shapeName(e Example) string {
	if e.ByVerb {
		return byVerb
	}
	return e.Shape
}

func shapeNames() []string {
	var out []string
	for _, sh := range allShapes {
		out = append(out, sh.Name)
	}
	return out
}

func TestSentenceLength(t *testing.T) {
	c := testCorpus(t)
	for _, set := range c.allSets() {
		for _, e := range set {
			if len(e.Tokens) > MaxTokens {
				t.Fatalf("%q has %d tokens, more than MaxTokens %d", e.Text, len(e.Tokens), MaxTokens)
			}
		}
	}
	long := c.Longest()
	t.Logf("longest sentence: %d tokens: %q", len(long.Tokens), long.Text)
}

// Every position must point at the right word, the verb must be the
// frame's for the outcome and voice, and the nouns must fit their roles.
// (That the answer follows from the meaning is TestAnswersFollowFromMeaning.)
func TestExamplePositions(t *testing.T) {
	lex := testLexicon(t)
	for _, set := range namedSets(testCorpus(t)) {
		for _, e := range set.examples {
			if err := checkExample(lex, e); err != "" {
				t.Fatalf("%s: %q: %s (%+v)", set.name, e.Text, err, e)
			}
		}
	}
}

func checkExample(lex *Lexicon, e Example) string {
	f, ok := lex.Frame(e.Frame)
	c := e.Candidates
	switch {
	case !ok:
		return "unknown frame"
	case e.word(e.Pronoun) != Pronoun:
		return "pronoun position is not \"it\""
	case c[0] < 0 || c[0] >= c[1] || c[1] >= len(e.Tokens) || (e.Antecedent != c[0] && e.Antecedent != c[1]):
		return "candidates not ordered or antecedent not a candidate"
	case e.AntecedentFirst != (e.Antecedent == c[0]):
		return "AntecedentFirst disagrees with positions"
	case e.Verb != f.Verb(e.Outcome):
		return fmt.Sprintf("verb %q is not the frame's %q for outcome %s", e.Verb, f.Verb(e.Outcome), e.Outcome)
	case !writesVerb(f, e):
		return fmt.Sprintf("no %s verb of frame %s in the shape's voice in the sentence", e.Outcome, f.Name)
	}
	check := checkDeciding
	if f.IsAct(e.Predicate) {
		check = checkActDecides
	}
	if msg := check(e); msg != "" {
		return msg
	}
	agent, object := e.word(e.candidateIn(Agent)), e.word(e.candidateIn(Object))
	if e.ByVerb {
		return checkByVerb(f, e, agent)
	}
	if (agent != Unk && !slices.Contains(f.Agents, agent)) || (object != Unk && !slices.Contains(f.Objects, object)) {
		return fmt.Sprintf("agent %q or object %q is not a noun of its role in frame %s", agent, object, f.Name)
	}
	return checkDistractors(f, e)
}

// checkByVerb: in a ByVerb sentence the subject is an agent of the frame,
// the antecedent one of its objects, and the other candidate a noun its verb
// cannot take.
func checkByVerb(f *Frame, e Example, other string) string {
	subject, object := e.word(e.OtherNouns[0]), e.Answer()
	if !slices.Contains(f.Agents, subject) || !slices.Contains(f.Objects, object) || !slices.Contains(f.NotObjects, other) {
		return fmt.Sprintf("subject %q, object %q or other noun %q is not of its kind in frame %s", subject, object, other, f.Name)
	}
	return ""
}

// writesVerb says whether e's tokens hold one of the frame's verb phrases
// for e's outcome in the voice of e's shape, past or present, written out
// or contracted.
func writesVerb(f *Frame, e Example) bool {
	passive := shapeByName(e.Shape).Passive
	for _, present := range []bool{false, true} {
		for _, v := range f.verbs(e.Outcome, passive, present) {
			if contains(e.Tokens, strings.Fields(v)) || contains(e.Tokens, strings.Fields(contract(v))) {
				return true
			}
		}
	}
	return false
}

// checkVerbDecides: a lead-it sentence has no deciding words, unless it is
// ByVerb, where they are the verb's, just before "it".
func checkVerbDecides(e Example) string {
	switch {
	case !e.ByVerb && len(e.Deciding) > 0:
		return fmt.Sprintf("deciding words at %v, though the grammar decides", e.Deciding)
	case !e.ByVerb:
		return ""
	case len(e.Deciding) == 0 || e.Deciding[len(e.Deciding)-1] != e.Pronoun-1:
		return fmt.Sprintf("deciding words at %v, not the verb just before \"it\" (%d)", e.Deciding, e.Pronoun)
	case slices.Contains(e.Candidates[:], e.OtherNouns[0]) || e.OtherNouns[0] > e.Candidates[0]:
		return fmt.Sprintf("the subject %d is a candidate or follows one (%v)", e.OtherNouns[0], e.Candidates)
	}
	return ""
}

// checkActDecides: an act's one deciding word is its verb, just before "it"
// ("the hen protected it"), after the third noun; an act is never negated.
func checkActDecides(e Example) string {
	if e.Negated || len(e.Deciding) != 1 || e.Deciding[0] != e.Pronoun-1 ||
		(e.Tokens[e.Deciding[0]] != e.Predicate && e.Tokens[e.Deciding[0]] != Unk) ||
		!slices.Contains(e.OtherNouns, e.Pronoun-2) {
		return fmt.Sprintf("act %q: deciding words at %v, third nouns at %v, \"it\" at %d", e.Predicate, e.Deciding, e.OtherNouns, e.Pronoun)
	}
	return ""
}

// checkDeciding: the deciding positions hold "not"/"wasn't"/"isn't" if
// negated, then the predicate's words (all <unk> in an uncertain training
// sentence), in the clause that says them of "it": after the pronoun and
// before any other "it" (none where the grammar decides), or, in "so-it" ("The food was tasty, so the dog
// ate it."), after the noun named first and before the pronoun.
func checkDeciding(e Example) string {
	lo, hi := e.Pronoun, len(e.Tokens)
	switch {
	case e.ByGrammar():
		return checkVerbDecides(e)
	case e.Shape == ShapeSoIt:
		lo, hi = e.Antecedent, e.Pronoun
	}
	var words []string
	for _, p := range e.Deciding {
		if p <= lo || p >= hi || slices.Contains(e.Tokens[lo+1:p], Pronoun) {
			return fmt.Sprintf("deciding position %d outside the clause about \"it\" (%d to %d)", p, lo, hi)
		}
		words = append(words, e.Tokens[p])
	}
	want := strings.Fields(e.Predicate)
	if e.Negated {
		want = append([]string{"not"}, want...)
		if len(words) > 0 && (words[0] == "wasn't" || words[0] == "isn't") {
			want[0] = words[0]
		}
	}
	if slices.Equal(words, want) {
		return ""
	}
	if e.Uncertain && len(words) == len(want) && !slices.ContainsFunc(words, func(w string) bool { return w != Unk }) {
		return ""
	}
	return fmt.Sprintf("deciding words %q, want %q", words, want)
}

// checkDistractors: a place noun is a place of this frame, is neither
// candidate, and follows its preposition and "the".
func checkDistractors(f *Frame, e Example) string {
	for _, p := range e.Distractors {
		if p == e.Candidates[0] || p == e.Candidates[1] || p == e.Antecedent || p < 2 || p >= len(e.Tokens) || e.Tokens[p-1] != "the" {
			return "a distractor is a candidate or not in a place phrase"
		}
		place := Place{e.Tokens[p-2], e.Tokens[p]}
		if !slices.Contains(slices.Concat(f.AgentPlaces, f.ObjectPlaces, f.ScenePlaces, f.GoalPlaces), place) {
			return fmt.Sprintf("place %v is not a place of frame %s", place, f.Name)
		}
	}
	return ""
}

// A passive shape is used only for a frame with passive verbs for both
// outcomes, and the challenge shapes only in their challenge set.
func TestShapesRespectFrames(t *testing.T) {
	lex := testLexicon(t)
	for _, set := range namedSets(testCorpus(t)) {
		for _, e := range set.examples {
			f, _ := lex.Frame(e.Frame)
			if slices.Contains(ChallengeShapes(), e.Shape) != (set.name == ChallengeHeldOutShape) {
				t.Fatalf("%s: %q: shape %s", set.name, e.Text, e.Shape)
			}
			if shapeByName(e.Shape).Passive && !f.hasVoice(true) {
				t.Fatalf("%s: %q: passive shape %s for frame %s, which lacks a passive for an outcome", set.name, e.Text, e.Shape, f.Name)
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	lex := testLexicon(t)
	for _, cfg := range []Config{
		{TrainSize: 0, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1},
		{TrainSize: 1, ValidationSize: 1, TestSize: 1, ValidationShare: 0.1, TestShare: 0.1},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.5, TestShare: 0.5},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0, TestShare: 0.1},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1, UncertainShare: 0.4, UnknownNounShare: 0.2},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1, UncertainShare: -0.1},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1, ChallengeSize: 3},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1, HeldOutNounRoles: -1},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1, HeldOutCellShare: -0.1},
		{TrainSize: 1, ValidationSize: 1, TestSize: 2, ValidationShare: 0.1, TestShare: 0.1, HeldOutCellShare: 0.3},
	} {
		if _, err := GenerateFrom(lex, cfg, 1); err == nil || !strings.HasPrefix(err.Error(), "config:") {
			t.Errorf("GenerateFrom(%+v) error = %v, want a config error", cfg, err)
		}
	}
}

func TestCorpusSplitByName(t *testing.T) {
	c := testCorpus(t)
	for _, name := range []string{"train", "validation", "test"} {
		if ex, err := c.Split(name); err != nil || len(ex) == 0 {
			t.Errorf("Split(%q) = %d examples, %v", name, len(ex), err)
		}
	}
	if _, err := c.Split("dev"); err == nil || !strings.Contains(err.Error(), `"dev"`) {
		t.Errorf("Split(dev) error = %v", err)
	}
}

func texts(ex []Example) []string {
	out := make([]string, len(ex))
	for i, e := range ex {
		out[i] = e.Text
	}
	return uniqueSorted(out)
}

func combinations(ex []Example) []string {
	out := make([]string, len(ex))
	for i, e := range ex {
		out[i] = e.Combination()
	}
	return uniqueSorted(out)
}

// withCombination is the first example of ex with combination k.
func withCombination(ex []Example, k string) Example {
	i := slices.IndexFunc(ex, func(e Example) bool { return e.Combination() == k })
	if i < 0 {
		return Example{}
	}
	return ex[i]
}

func uniqueSorted(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// intersect returns the strings in both sorted, unique lists.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); found {
			out = append(out, x)
		}
	}
	return out
}

func countBy(ex []Example, key func(Example) string) map[string]int {
	counts := map[string]int{}
	for _, e := range ex {
		counts[key(e)]++
	}
	return counts
}

func boolName(first bool) string {
	if first {
		return "first"
	}
	return "second"
}

func TestExampleJSONRoundTrip(t *testing.T) {
	e := testCorpus(t).Test[0]
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var back Example
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, e) {
		t.Fatalf("round trip: %v, %+v != %+v", err, back, e)
	}
	if !strings.Contains(string(b), `"role":"`+e.Role.String()+`"`) {
		t.Errorf("role not written as a word: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"role":"subject"}`), &back); err == nil || !strings.Contains(err.Error(), `"subject"`) {
		t.Errorf("bad role error = %v", err)
	}
	for _, o := range []Outcome{Succeeded, Failed} {
		e.Outcome = o
		b, err := json.Marshal(e)
		if err != nil || !strings.Contains(string(b), `"outcome":"`+o.String()+`"`) {
			t.Fatalf("outcome %s written as %s (%v)", o, b, err)
		}
		if err := json.Unmarshal(b, &back); err != nil || back.Outcome != o {
			t.Errorf("outcome %s read back as %s (%v)", o, back.Outcome, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"outcome":"won"}`), &back); err == nil || !strings.Contains(err.Error(), `"won"`) {
		t.Errorf("bad outcome error = %v", err)
	}
}

func TestContract(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"could not lift", "couldn't lift"},
		{"was not noticed by", "wasn't noticed by"},
		{"is noticed by", "is noticed by"}, // "is no" is not "is not"
		{"cannot be held by", "can't be held by"},
		{"did not break under", "didn't break under"},
	} {
		if got := contract(tt.in); got != tt.want {
			t.Errorf("contract(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Every word of the training vocabulary is one the lexicon or the shapes
// write: a word no list holds is a bug in how sentences are put together.
func TestVocabularyHoldsOnlyWrittenWords(t *testing.T) {
	lex := testLexicon(t)
	written := lex.allWords()
	addAll(written, templateWords, []string{",", "."})
	for _, c := range contractions {
		written[c[1]] = true
	}
	for _, w := range testCorpus(t).Vocab().Words() {
		if w != Unk && w != Pad && !written[w] {
			t.Errorf("vocabulary word %q is written by no lexicon list or shape", w)
		}
	}
}
