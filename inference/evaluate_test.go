package inference

import (
	"math"
	"strings"
	"testing"

	"itformer/data"
	"itformer/model"
)

// The batched figures agree with answering the sentences one by one.
func TestExplainSetAgreesWithResolve(t *testing.T) {
	corpus, err := data.Generate(1)
	if err != nil {
		t.Fatal(err)
	}
	neg, _ := corpus.Challenge("negation")
	set := append(append([]data.Example(nil), corpus.Test[:20]...), neg.Examples[:20]...)
	p := defaultPredictor(t)
	e, err := p.ExplainSet("mixed", set, 4)
	if err != nil {
		t.Fatal(err)
	}
	last := p.Config().Layers - 1 // the supervised head is the last layer's first
	oneByOne := func(ablate []model.Head) (acc, supervised float64) {
		if err := p.Ablate(ablate); err != nil {
			t.Fatal(err)
		}
		for _, ex := range set {
			res, err := p.Resolve(strings.Join(ex.Tokens, " "))
			if err != nil {
				t.Fatal(err)
			}
			pr := res.Predictions[0] // the example's own "it": a two-it sentence asks about one of two
			for _, q := range res.Predictions {
				if q.Pronoun == ex.Pronoun {
					pr = q
				}
			}
			if model.ArgMax(pr.WordProbs) == ex.Antecedent {
				acc++
			}
			if strongestOther(pr.Attention[last][0], ex.Pronoun) == ex.Antecedent {
				supervised++
			}
		}
		return acc / float64(len(set)), supervised / float64(len(set))
	}
	acc, sup := oneByOne(nil)
	if math.Abs(e.Accuracy-acc) > 1e-12 || math.Abs(e.HeadOnAntecedent[last][0]-sup) > 1e-12 {
		t.Errorf("batched accuracy %v, supervised head on antecedent %v; one by one %v, %v", e.Accuracy, e.HeadOnAntecedent[last][0], acc, sup)
	}
	if cut, _ := oneByOne([]model.Head{{Layer: last, Head: 0}}); math.Abs(e.AblatedAccuracy[last][0]-cut) > 1e-12 {
		t.Errorf("accuracy without the supervised head: batched %v, one by one %v", e.AblatedAccuracy[last][0], cut)
	}
	f := e.Attribution
	if f.N != 4 || f.Complete < 0.5 || f.IGOnDeciding+f.IGOnCandidate > 1 || f.MeanAbsGap > f.MaxAbsGap {
		t.Errorf("attribution figures %+v", f)
	}
}
