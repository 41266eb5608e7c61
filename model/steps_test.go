package model

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"testing"
)

// Every field of AttentionSteps is a step: of type T, with a snake_case name,
// a formula, the explainers' words and axes that steps.go knows.
func TestAttentionStepTags(t *testing.T) {
	typ := reflect.TypeFor[AttentionSteps[struct{}]]()
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for i, info := range stepInfos {
		f := typ.Field(i)
		if f.Type != reflect.TypeFor[struct{}]() {
			t.Errorf("field %s is a %v, not the step type T", f.Name, f.Type)
		}
		if !snake.MatchString(info.Name) || info.Formula == "" || info.About == "" {
			t.Errorf("field %s: name %q, formula %q, about %q", f.Name, info.Name, info.Formula, info.About)
		}
		lead, last := info.Axes[:len(info.Axes)-1], info.Axes[len(info.Axes)-1]
		if lead[0] != "B" || !slices.Contains(lead, "T") || !slices.Contains([]string{"T", "d_model", "d_k"}, last) {
			t.Errorf("field %s: axes %v, want (B, [H,] T, T|d_model|d_k)", f.Name, info.Axes)
		}
	}
}

// One word's steps are its rows of the layer's trace, and marshal to JSON by
// their step names.
func TestWordStepsAreTraceRows(t *testing.T) {
	out := runGraph(t, newTestParams(t, tinyConfig), GraphOptions{Batch: 2, SeqLen: 7, Trace: true}, twoSentences())
	const b, layer, head, word = 1, 1, 1, 2
	w, err := out.Steps(b, layer, head, word)
	if err != nil {
		t.Fatal(err)
	}
	tr, n := out.Trace[layer], out.Lengths[b]
	assertClose(t, "x", w.X, tr.X.Row(b, word), 0)
	assertClose(t, "q", w.Q, tr.Q.Row(b, head, word), 0)
	assertClose(t, "scaled", w.Scaled, tr.Scaled.Row(b, head, word)[:n], 0)
	assertClose(t, "z", w.Z, tr.Z.Row(b, head, word), 0)
	assertClose(t, "key of word 3", w.Keys[3], tr.K.Row(b, head, 3), 0)
	if len(w.X) != tinyConfig.DModel || len(w.Q) != w.DK || len(w.Weights) != n {
		t.Errorf("lengths x %d, q %d, weights %d; want %d, %d, %d", len(w.X), len(w.Q), len(w.Weights), tinyConfig.DModel, w.DK, n)
	}
	raw, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"layer", "head", "word", "d_k", "x", "q", "k", "v", "scores", "scaled", "weights", "z", "keys", "values"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON of WordSteps lacks %q: %s", k, raw)
		}
	}
	if _, err := out.Steps(b, layer, head, n); err == nil {
		t.Error("a word in the padding was accepted")
	}
}

// The trace gives q, k, v in the explainers' (B, H, T, d_k) order although the
// graph stores them (B, T, H, d_k): head h's q of a word is its x times
// W^Q's columns [h·d_k, (h+1)·d_k), for every head.
func TestTraceHeadsAreProjectionColumns(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	out := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7, Trace: true}, twoSentences())
	const b, layer, word = 1, 1, 2
	tr := out.Trace[layer]
	w := p.weights.Layers[layer].Attention
	x := tr.X.Row(b, word)
	for _, c := range []struct {
		name   string
		got    Tensor
		weight []float64
	}{{"q", tr.Q, w.WQ.Data().([]float64)}, {"k", tr.K, w.WK.Data().([]float64)}, {"v", tr.V, w.WV.Data().([]float64)}} {
		heads, dk := c.got.Shape[1], c.got.Shape[3]
		for h := 0; h < heads; h++ {
			want := make([]float64, dk)
			for i := range want {
				for j, xj := range x {
					want[i] += xj * c.weight[j*tinyConfig.DModel+h*dk+i]
				}
			}
			assertClose(t, fmt.Sprintf("%s of head %d", c.name, h), c.got.Row(b, h, word), want, 1e-12)
		}
	}
}
