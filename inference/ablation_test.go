package inference

import (
	"reflect"
	"testing"

	"itformer/model"
)

func TestAblationChangesTheAnswerAndIsUndone(t *testing.T) {
	p := defaultPredictor(t)
	const s = "A dog ate the food because it was hungry"
	whole, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	heads, err := model.ParseHeads("L3H1,L3H2", p.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Ablate(heads); err != nil {
		t.Fatal(err)
	}
	cut, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cut.Ablated, []string{"L3H1", "L3H2"}) {
		t.Errorf("Ablated = %v", cut.Ablated)
	}
	if reflect.DeepEqual(cut.Predictions[0].WordProbs, whole.Predictions[0].WordProbs) {
		t.Error("knocking out both last-layer heads left the probabilities as they were")
	}
	last := cut.Predictions[0].Rollout[2]
	if prev := cut.Predictions[0].Rollout[1]; !reflect.DeepEqual(last, prev) {
		t.Errorf("with layer 3's heads ablated, its rollout %v should equal layer 2's %v", last, prev)
	}
	if err := p.Ablate(nil); err != nil {
		t.Fatal(err)
	}
	again, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, whole) {
		t.Error("Ablate(nil) did not restore the whole model's answer")
	}
	if err := p.Ablate([]model.Head{{Layer: 3, Head: 0}}); err == nil {
		t.Error("ablating layer 4 of 3 was accepted")
	}
}
