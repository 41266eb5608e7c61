package inference

import (
	"strings"
	"testing"

	"itformer/checkpoint"
	"itformer/inference/inferencetest"
)

// Members that give the shown answer leave it as it was; a member that
// gives another makes it a guess whose reason counts the votes.
func TestMembersVote(t *testing.T) {
	p := defaultPredictor(t)
	same, err := checkpoint.Load("../cmd/internal/defaultmodel/model")
	if err != nil {
		t.Fatal(err)
	}
	twins := []string{"The dog ate the food because it was hungry.", "The dog ate the food because it was tasty."}
	if err := p.SetMembers([]*checkpoint.Checkpoint{same}); err != nil {
		t.Fatal(err)
	}
	for _, s := range twins {
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
	for _, s := range twins { // the untrained member cannot flip with the deciding word
		pr := resolveFirst(t, p, s)
		if a := pr.Confidence.Members; a.Agree == 1 {
			disagreed++
			if !pr.Confidence.Guess || !strings.Contains(pr.Confidence.Reason, `only 1 of the 2 models trained alike say "`+pr.AnswerWord+`"`) {
				t.Errorf("%q: members disagree but the answer is %+v", s, pr.Confidence)
			}
		}
	}
	if disagreed == 0 {
		t.Error("an untrained member agreed with the trained model on both twins")
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
