package inference

import (
	"strings"
	"testing"

	"itformer/model"
)

// KnockOut's answer is the one Ablate gives with the supervised head out,
// bit for bit, and it leaves the prediction it describes as it was.
func TestKnockOutIsAblatingTheSupervisedHead(t *testing.T) {
	p := defaultPredictor(t)
	const s = "A dog ate the food because it was hungry"
	res, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	pr := &res.Predictions[0]
	before := append([]float64(nil), pr.WordProbs...)
	if err := p.KnockOut(pr); err != nil {
		t.Fatal(err)
	}
	k := pr.Knockout
	l, h, _ := p.SupervisedHead()
	if k == nil || k.Head != (model.Head{Layer: l, Head: h}).String() {
		t.Fatalf("knockout %+v, want one of the supervised head L%dH%d", k, l+1, h+1)
	}
	if err := p.Ablate([]model.Head{{Layer: l, Head: h}}); err != nil {
		t.Fatal(err)
	}
	cut, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	want := cut.Predictions[0]
	if k.AnswerWord != want.AnswerWord || k.Answer != want.Answer || k.Probability != want.WordProbs[want.Answer] {
		t.Errorf("knockout says %s %v at %d; ablating gives %s %v at %d", k.AnswerWord, k.Probability, k.Answer,
			want.AnswerWord, want.WordProbs[want.Answer], want.Answer)
	}
	if k.Before != before[pr.Answer] || pr.WordProbs[pr.Answer] != before[pr.Answer] {
		t.Errorf("before %v, prediction now %v; want both %v", k.Before, pr.WordProbs[pr.Answer], before[pr.Answer])
	}
	if got := k.Describe(pr.AnswerWord); !strings.HasPrefix(got, "knocking out L") || !strings.Contains(got, " → "+k.AnswerWord+" ") {
		t.Errorf("Describe = %q", got)
	}
}

// With the supervised head already knocked out (-ablate), or a model
// trained without one, there is nothing more to knock out.
func TestKnockOutNeedsASupervisedHeadStillIn(t *testing.T) {
	p := defaultPredictor(t)
	l, h, _ := p.SupervisedHead()
	if err := p.Ablate([]model.Head{{Layer: l, Head: h}}); err != nil {
		t.Fatal(err)
	}
	res, err := p.Resolve("A dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.KnockOut(&res.Predictions[0]); err != nil || res.Predictions[0].Knockout != nil {
		t.Errorf("with the head already out: %v, %+v; want no knockout", err, res.Predictions[0].Knockout)
	}

	ck := *p.Checkpoint()
	ck.Meta.Config.Train.AttentionSupervision = 0
	plain := New(&ck)
	res, err = plain.Resolve("A dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.KnockOut(&res.Predictions[0]); err != nil || res.Predictions[0].Knockout != nil {
		t.Errorf("without a supervised head: %v, %+v; want no knockout", err, res.Predictions[0].Knockout)
	}
}

func TestRests(t *testing.T) {
	for _, tc := range []struct {
		answer, newAnswer int
		before, after     float64
		want              string
	}{
		{1, 4, 0.9, 0.3, "changes"},
		{1, 1, 0.99, 0.85, "weakens"},
		{1, 1, 0.99, 0.90, "holds"},
		{1, 1, 0.6, 0.95, "holds"},
	} {
		if got := rests(tc.answer, tc.before, tc.newAnswer, tc.after); got != tc.want {
			t.Errorf("rests(%d, %v, %d, %v) = %q, want %q", tc.answer, tc.before, tc.newAnswer, tc.after, got, tc.want)
		}
	}
}
