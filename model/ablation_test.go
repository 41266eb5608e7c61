package model

import (
	"reflect"
	"strings"
	"testing"
)

// Zeroing a head's z before W^O is the same as zeroing the rows of W^O
// that read it: the test computes the second with plain Params.
func TestAblationEqualsZeroedOutputRows(t *testing.T) {
	for _, h := range []Head{{0, 0}, {1, 1}} {
		p := newTestParams(t, tinyConfig)
		got := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7, Trace: true, Ablate: []Head{h}}, twoSentences())
		plain := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7}, twoSentences())
		name := strings.Replace("encoder.L.attention.w_o", "L", string(rune('0'+h.Layer)), 1)
		wo := p.Values(name)
		dk, d := tinyConfig.DK(), tinyConfig.DModel
		clear(wo[h.Head*dk*d : (h.Head+1)*dk*d])
		if err := p.SetValues(name, wo); err != nil {
			t.Fatal(err)
		}
		want := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7}, twoSentences())
		assertClose(t, h.String()+" probabilities", got.Probs.Data, want.Probs.Data, 1e-12)
		if d := maxAbsDiff(got.Probs.Data, plain.Probs.Data); d < 1e-6 {
			t.Errorf("%s: ablation changed the probabilities by only %g", h, d)
		}
		for _, z := range got.Trace[h.Layer].Z.Row(0, h.Head, 1) {
			if z != 0 {
				t.Fatalf("%s: the ablated head's z is %v, want zeros", h, got.Trace[h.Layer].Z.Row(0, h.Head, 1))
			}
		}
	}
}

func maxAbsDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = max(m, a[i]-b[i], b[i]-a[i])
	}
	return m
}

func TestParseHeads(t *testing.T) {
	c := tinyConfig // 2 layers, 2 heads
	for _, tc := range []struct{ in, want, err string }{
		{in: "L2H1", want: "[L2H1]"},
		{in: "l1h2, L1H1,L1H2", want: "[L1H1 L1H2]"},
		{in: "L3H1", err: `"L3H1": this model has layers 1-2 and heads 1-2`},
		{in: "L1H0", err: `"L1H0": this model has layers 1-2 and heads 1-2`},
		{in: "head1", err: `"head1" is not a head: write L<layer>H<head>, such as L2H1 (this model has layers 1-2 and heads 1-2)`},
		{in: "", err: `"" is not a head`},
	} {
		heads, err := ParseHeads(tc.in, c)
		switch {
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("ParseHeads(%q) = %v, %v; want error %q", tc.in, heads, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("ParseHeads(%q): %v", tc.in, err)
		case tc.err == "" && fmtHeads(heads) != tc.want:
			t.Errorf("ParseHeads(%q) = %s, want %s", tc.in, fmtHeads(heads), tc.want)
		}
	}
	if _, err := NewGraph(newTestParams(t, c), GraphOptions{Batch: 1, SeqLen: 3, Ablate: []Head{{2, 0}}}); err == nil {
		t.Error("a graph ablating layer 3 of 2 was built")
	}
}

func fmtHeads(hs []Head) string {
	var s []string
	for _, h := range hs {
		s = append(s, h.String())
	}
	return "[" + strings.Join(s, " ") + "]"
}

// One graph with head gates, knocked out set after set by SetAblation, gives
// what a graph built for each set gives, bit for bit: every traced step and
// the probabilities, and the input gradients. No heads is the graph built
// without gates, so a gate of 1 changes nothing.
func TestSetAblationMatchesABuiltGraph(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := twoSentences()
	x, _, err := p.InputVectors(b.IDs[:7])
	if err != nil {
		t.Fatal(err)
	}
	y, _, err := p.InputVectors(b.IDs[7:])
	if err != nil {
		t.Fatal(err)
	}
	withVectors := b
	withVectors.Vectors = append(x, y...)
	sets := [][]Head{{{0, 0}}, {{1, 1}}, nil, {{0, 1}, {1, 0}}, {{0, 0}, {0, 1}}, {{0, 0}}}
	for name, tc := range map[string]struct {
		opts  GraphOptions
		batch Batch
	}{
		"traced":          {GraphOptions{Batch: 2, SeqLen: 7, Trace: true}, b},
		"input gradients": {GraphOptions{Batch: 2, SeqLen: 7, InputGradients: true}, withVectors},
	} {
		gated := tc.opts
		gated.HeadGates = true
		gr, err := NewGraph(p, gated)
		if err != nil {
			t.Fatal(err)
		}
		defer gr.Close()
		for _, heads := range sets {
			if err := gr.SetAblation(heads); err != nil {
				t.Fatal(err)
			}
			got, err := gr.Run(tc.batch)
			if err != nil {
				t.Fatal(err)
			}
			built := tc.opts
			built.Ablate = heads
			if want := runGraph(t, p, built, tc.batch); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %v knocked out: the gated graph's output differs from a graph built for them", name, heads)
			}
		}
	}
}

// SetAblation refuses a graph without gates and a head the model lacks.
func TestSetAblationRefuses(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	plain, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if err := plain.SetAblation([]Head{{0, 0}}); err == nil || !strings.Contains(err.Error(), "HeadGates") {
		t.Errorf("a graph without gates: %v, want an error naming HeadGates", err)
	}
	gated, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 4, HeadGates: true})
	if err != nil {
		t.Fatal(err)
	}
	defer gated.Close()
	if err := gated.SetAblation([]Head{{2, 0}}); err == nil || !strings.Contains(err.Error(), "layer 2 head 0") {
		t.Errorf("layer 3 of 2: %v, want an error naming it", err)
	}
}
