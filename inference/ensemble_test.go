package inference

import (
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/inference/inferencetest"
)

// twinPairs are what the members are asked: an untrained member cannot flip
// with the deciding word, but it can happen to answer one pair as the
// trained one does (X's fresh member of seed 7 did, dog then food), so three
// pairs are asked.
var twinPairs = []string{
	"The dog ate the food because it was hungry.", "The dog ate the food because it was tasty.",
	"The owl could not catch the mouse because it was slow.", "The owl could not catch the mouse because it was fast.",
	"The trophy did not fit into the suitcase because it was too big.", "The trophy did not fit into the suitcase because it was too small.",
}

// Members that give the shown answer leave it as it was; a member that
// gives another makes it a guess whose reason counts the votes.
func TestMembersVote(t *testing.T) {
	p := defaultPredictor(t)
	same, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetMembers([]*checkpoint.Checkpoint{same}); err != nil {
		t.Fatal(err)
	}
	for _, s := range twinPairs {
		c := resolveFirst(t, p, s).Confidence
		if c.Members == nil || c.Members.Members != 2 || c.Members.Agree != 2 || c.Guess {
			t.Errorf("%q with an identical member: %+v, want 2 of 2 agreeing and no guess", s, c)
		}
	}
	fresh, err := checkpoint.Load(inferencetest.FreshWeights(t, same, 7))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetMembers([]*checkpoint.Checkpoint{fresh}); err != nil {
		t.Fatal(err)
	}
	disagreed := 0
	for _, s := range twinPairs {
		pr := resolveFirst(t, p, s)
		if a := pr.Confidence.Members; a.Agree == 1 {
			disagreed++
			if !pr.Confidence.Guess || !strings.Contains(pr.Confidence.Reason, `only 1 of the 2 models trained alike says "`+pr.AnswerWord+`"`) {
				t.Errorf("%q: members disagree but the answer is %+v", s, pr.Confidence)
			}
		}
	}
	if disagreed == 0 {
		t.Error("an untrained member agreed with the trained model on every twin sentence")
	}
}

// A member that reads other words, or has another shape, is refused.
func TestSetMembersRefusesAnotherModel(t *testing.T) {
	p := defaultPredictor(t)
	other := *p.Checkpoint()
	other.Meta.Model.Heads = 4
	err := p.SetMembers([]*checkpoint.Checkpoint{&other})
	if err == nil || !strings.Contains(err.Error(), "member 2") {
		t.Fatalf("SetMembers with a 4-head member: %v, want an error naming member 2", err)
	}
}

func resolveFirst(t *testing.T, p *Predictor, s string) Prediction {
	t.Helper()
	r, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	return r.Predictions[0]
}

// The answer shown is the majority's: when member 1 is outvoted, the first
// member with the majority answers, and explains, in its place.
func TestMajorityMemberIsShown(t *testing.T) {
	trained, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, s := range twinPairs {
		want[s] = resolveFirst(t, New(trained), s).AnswerWord
	}
	fresh, err := checkpoint.Load(inferencetest.FreshWeights(t, trained, 7))
	if err != nil {
		t.Fatal(err)
	}
	p := New(fresh) // an untrained member 1, outvoted by two trained ones
	if err := p.SetMembers([]*checkpoint.Checkpoint{trained, trained}); err != nil {
		t.Fatal(err)
	}
	for _, s := range twinPairs {
		pr := resolveFirst(t, p, s)
		a := pr.Confidence.Members
		if pr.AnswerWord != want[s] || a.Agree < 2 {
			t.Errorf("%q: %q with %d of 3 agreeing, want the trained members' %q", s, pr.AnswerWord, a.Agree, want[s])
		}
		if a.Agree == 2 && a.Shown != 2 {
			t.Errorf("%q: member 1 is outvoted but member %d is shown, want 2", s, a.Shown)
		}
		if err := p.Attribute(&pr); err != nil || pr.Attribution == nil {
			t.Errorf("%q: Attribute of the shown member: %v", s, err)
		}
		tr, err := p.Trace(s)
		if err != nil || tr.Answer == nil || tr.Answer.AnswerWord != want[s] {
			t.Errorf("%q: Trace answered %+v (%v), want %q", s, tr, err, want[s])
		}
	}
}

// vote is member's vote for a word read as itself.
func vote(member int, word string, share float64) Vote {
	return Vote{Member: member, Answer: word, Typed: word, Share: share}
}

// The ensemble's answer is the noun the members' mean share favours: the
// majority's, unless two barely agree against one sure member.
func TestEnsembleAnswer(t *testing.T) {
	puppy := Vote{Member: 2, Answer: "dog", Typed: "puppy", Share: 0.99} // "puppy" read as "dog"
	for _, tc := range []struct {
		votes []Vote
		want  string
	}{
		{[]Vote{vote(1, "dog", 0.9), vote(2, "food", 0.99), vote(3, "dog", 0.6)}, "dog"},
		{[]Vote{vote(1, "dog", 0.9), vote(2, "food", 0.99)}, "food"}, // a tie: the larger share
		{[]Vote{vote(1, "dog", 0.9)}, "dog"},
		{[]Vote{vote(1, "dog", 0.9), puppy, vote(3, "dog", 0.6)}, "dog"},
		{[]Vote{vote(1, "dog", 0.9), puppy}, "puppy"}, // two nouns, one token: two answers
		{[]Vote{vote(1, "dog", 0.55), vote(2, "dog", 0.55), vote(3, "food", 1)}, "food"},
		{[]Vote{vote(1, "dog", 0.7), vote(2, "food", 0.7)}, "dog"}, // equal means: member 1's
	} {
		if got := ensembleAnswer(tc.votes); got != tc.want {
			t.Errorf("ensembleAnswer(%v) = %q, want %q", tc.votes, got, tc.want)
		}
	}
}

// "The dog chased the puppy" is read "the dog chased the dog": members that
// answer the two nouns give one token, but do not agree.
func TestMembersAgreeOnTheWordTyped(t *testing.T) {
	votes := []Vote{vote(1, "dog", 0.9), {Member: 2, Answer: "dog", Typed: "puppy", Share: 0.8}, vote(3, "dog", 0.7)}
	a := newAgreement(votes, withAnswer([][]Vote{votes}, len(votes)))
	if a.Agree != 2 || a.Shown != 1 || a.Unanimous() {
		t.Errorf("agreement %+v, want 2 of 3 with member 1 shown", a)
	}
	if got, want := a.Describe("dog"), `2 of 3 models trained alike say "dog" (1: dog 90.0%, 2: puppy 80.0%, 3: dog 70.0%); what is shown is model 1's`; got != want {
		t.Errorf("Describe = %q\nwant %q", got, want)
	}
	one := newAgreement(votes, 1)
	if got, want := one.Describe("puppy"), `1 of 3 models trained alike says "puppy" (1: dog 90.0%, 2: puppy 80.0%, 3: dog 70.0%); what is shown is model 2's`; got != want {
		t.Errorf("Describe = %q\nwant %q", got, want)
	}
}

// The rule's share for an ensemble is the members' mean share for the
// answer: a member that answers the other noun gives it 1 - its share, so
// members that part ways make the answer a guess, and one member a little
// unsure among sure ones does not.
func TestEnsembleShareIsTheMembersMean(t *testing.T) {
	for _, tc := range []struct {
		name  string
		votes []Vote
		mean  float64
		guess bool
	}{
		{"all sure", []Vote{vote(1, "dog", 1), vote(2, "dog", 0.99), vote(3, "dog", 0.95)}, 0.98, false},
		{"all agree, unsure", []Vote{vote(1, "dog", 0.7), vote(2, "dog", 0.75), vote(3, "dog", 0.8)}, 0.75, true},
		{"one dissents, sure", []Vote{vote(1, "dog", 1), vote(2, "dog", 1), vote(3, "food", 0.9)}, (1 + 1 + 0.1) / 3, true},
		{"one dissents, barely", []Vote{vote(1, "dog", 1), vote(2, "dog", 1), vote(3, "food", 0.55)}, (1 + 1 + 0.45) / 3, false},
		{"member 1 unsure, outweighed", []Vote{vote(1, "dog", 0.6), vote(2, "dog", 1), vote(3, "dog", 1)}, (0.6 + 2) / 3, false},
	} {
		a := newAgreement(tc.votes, 0)
		c := Confidence{TopProbability: tc.votes[0].Share, CandidateMass: 1, Members: a}
		if d := a.Mean - tc.mean; d > 1e-12 || d < -1e-12 || c.Share() != a.Mean {
			t.Errorf("%s: mean share %v (Share %v), want %v", tc.name, a.Mean, c.Share(), tc.mean)
		}
		if c.isGuess() != tc.guess {
			t.Errorf("%s: guess %v, want %v", tc.name, c.isGuess(), tc.guess)
		}
		cands := []Candidate{{Word: "dog", Typed: "dog", Probability: 0.6}, {Word: "food", Typed: "food", Probability: 0.4}}
		c.Guess = c.isGuess()
		if r := reason(c, cands); tc.guess != strings.Contains(r, "on average") {
			t.Errorf("%s: reason %q, want the members' mean named exactly when it makes a guess", tc.name, r)
		}
	}
}
