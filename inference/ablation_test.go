package inference

import (
	"fmt"
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
	c := p.Config()
	var heads []model.Head // every head of the last layer
	for h := range c.Heads {
		heads = append(heads, model.Head{Layer: c.Layers - 1, Head: h})
	}
	if err := p.Ablate(heads); err != nil {
		t.Fatal(err)
	}
	cut, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("L%dH1", c.Layers); len(cut.Ablated) != c.Heads || cut.Ablated[0] != want {
		t.Errorf("Ablated = %v, want the %d heads of layer %d", cut.Ablated, c.Heads, c.Layers)
	}
	if reflect.DeepEqual(cut.Predictions[0].WordProbs, whole.Predictions[0].WordProbs) {
		t.Error("knocking out every last-layer head left the probabilities as they were")
	}
	last := cut.Predictions[0].Rollout[c.Layers-1]
	if prev := cut.Predictions[0].Rollout[c.Layers-2]; !reflect.DeepEqual(last, prev) {
		t.Errorf("with the last layer's heads ablated, its rollout %v should equal the layer below's %v", last, prev)
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
	if err := p.Ablate([]model.Head{{Layer: c.Layers, Head: 0}}); err == nil {
		t.Errorf("ablating layer %d of %d was accepted", c.Layers+1, c.Layers)
	}
}

// Knocking out one set of heads after another keeps the graphs it has: the
// answers are those of a Predictor that knocked each set out first, bit for
// bit, and the same graphs serve every set.
func TestAblationReusesItsGraphs(t *testing.T) {
	p := defaultPredictor(t)
	const s = "A dog ate the food because it was hungry"
	sets := [][]model.Head{{{Layer: 0, Head: 0}}, {{Layer: 1, Head: 1}}, nil, {{Layer: 1, Head: 2}, {Layer: 0, Head: 0}}, {{Layer: 0, Head: 0}}}
	var graph, path *model.Graph
	for i, heads := range sets {
		got, want := attributedWith(t, p, heads, s), attributedWith(t, defaultPredictor(t), heads, s)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v knocked out after %v: the answer differs from a fresh Predictor's", heads, sets[:i])
		}
		n := len(got.Tokens)
		if i == 0 {
			graph, path = kept(p, tracedGraph, n), kept(p, attributionGraph, n)
		} else if kept(p, tracedGraph, n) != graph || kept(p, attributionGraph, n) != path {
			t.Errorf("%v knocked out: a new graph was built", heads)
		}
	}
}

// attributedWith is p's attributed answer for s with heads knocked out.
func attributedWith(t *testing.T, p *Predictor, heads []model.Head, s string) *Resolution {
	t.Helper()
	if err := p.Ablate(heads); err != nil {
		t.Fatal(err)
	}
	res, err := p.Resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Attribute(&res.Predictions[0]); err != nil {
		t.Fatal(err)
	}
	return res
}
