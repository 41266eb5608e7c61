package model

import (
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
