package model

import (
	"math"
	"testing"
)

var tinyConfig = Config{VocabSize: 11, DModel: 8, Heads: 2, DFF: 12, Layers: 2, MaxLen: 10, DType: "float64"}

func newTestParams(t *testing.T, c Config) *Params {
	t.Helper()
	p, err := NewParams(c, 7)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func runGraph(t *testing.T, p *Params, opts GraphOptions, b Batch) *Output {
	t.Helper()
	gr, err := NewGraph(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	out, err := gr.Run(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// twoSentences: lengths 6 and 4 in T = 7, so both rows have padding.
func twoSentences() Batch {
	return Batch{
		IDs:        []int{2, 3, 4, 5, 6, 7, 0, 8, 9, 10, 3, 0, 0, 0},
		Lengths:    []int{6, 4},
		Pronoun:    []int{4, 2},
		Antecedent: []int{1, 0},
	}
}

func TestAttentionRowsSumToOneAndIgnorePadding(t *testing.T) {
	for _, dtype := range []string{"float64", "float32"} {
		c := tinyConfig
		c.DType = dtype
		out := runGraph(t, newTestParams(t, c), GraphOptions{Batch: 2, SeqLen: 7, Attention: true}, twoSentences())
		tol := map[string]float64{"float64": 1e-12, "float32": 1e-6}[dtype]
		for l, a := range out.Attention {
			for b := 0; b < 2; b++ {
				for h := 0; h < c.Heads; h++ {
					for i := 0; i < 7; i++ {
						checkDistribution(t, a.Row(b, h, i), out.Lengths[b], tol)
					}
				}
			}
			_ = l
		}
		for b := 0; b < 2; b++ {
			row := out.Probs.Row(b)
			checkDistribution(t, row, out.Lengths[b], tol)
			if p := twoSentences().Pronoun[b]; row[p] != 0 {
				t.Errorf("%s: the pronoun itself got probability %g, want exactly 0", dtype, row[p])
			}
		}
	}
}

// checkDistribution: entries >= 0 summing to 1, exactly 0 from position n on.
func checkDistribution(t *testing.T, row []float64, n int, tol float64) {
	t.Helper()
	sum := 0.0
	for j, w := range row {
		if j >= n && w != 0 {
			t.Fatalf("padded position %d got weight %g, want exactly 0 (row %v)", j, w, row)
		}
		if w < 0 || math.IsNaN(w) {
			t.Fatalf("weight %g at %d in row %v", w, j, row)
		}
		sum += w
	}
	if math.Abs(sum-1) > tol {
		t.Fatalf("row sums to %.15f, want 1 ± %g: %v", sum, tol, row)
	}
}

// A sentence's outputs must not depend on how much padding, or which other
// sentences, share its batch.
func TestPaddingDoesNotChangeOutputs(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	alone := runGraph(t, p, GraphOptions{Batch: 1, SeqLen: 4, Trace: true},
		Batch{IDs: []int{8, 9, 10, 3}, Lengths: []int{4}, Pronoun: []int{2}, Antecedent: []int{0}})
	padded := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7, Trace: true}, twoSentences())
	const tol = 1e-12
	for i := 0; i < 4; i++ {
		assertClose(t, "encoded", padded.Encoded.Row(1, i), alone.Encoded.Row(0, i), tol)
		for l := range alone.Attention {
			for h := 0; h < tinyConfig.Heads; h++ {
				assertClose(t, "attention", padded.Attention[l].Row(1, h, i)[:4], alone.Attention[l].Row(0, h, i), tol)
			}
		}
	}
	assertClose(t, "probs", padded.Probs.Row(1)[:4], alone.Probs.Row(0), tol)
	assertClose(t, "loss", []float64{alone.Loss}, []float64{-math.Log(alone.Probs.Row(0)[0])}, tol)
}

func assertClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*math.Max(1, math.Abs(want[i])) || math.IsNaN(got[i]) {
			t.Fatalf("%s[%d] = %.15g, want %.15g (tol %g)\n got %v\nwant %v", what, i, got[i], want[i], tol, got, want)
		}
	}
}

// Attention alone is blind to order; the positional encoding is what makes
// "dog ate food" differ from "food ate dog".
func TestSwappingWordsChangesOutput(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	run := func(ids []int) *Output {
		return runGraph(t, p, GraphOptions{Batch: 1, SeqLen: 5, Trace: true},
			Batch{IDs: ids, Lengths: []int{5}, Pronoun: []int{4}, Antecedent: []int{0}})
	}
	a, b := run([]int{2, 3, 4, 5, 6}), run([]int{4, 3, 2, 5, 6})
	// The pronoun (position 4) is untouched, yet its encoding must change.
	diff := 0.0
	for d, v := range a.Encoded.Row(0, 4) {
		diff = math.Max(diff, math.Abs(v-b.Encoded.Row(0, 4)[d]))
	}
	if diff < 1e-6 {
		t.Fatalf("swapping words 0 and 2 left the pronoun's encoding unchanged (max diff %g)", diff)
	}
}

// A filler row (length 0) masks every key: the stock SoftMax gives NaN there,
// ours must stay finite and must not disturb the real row.
func TestFillerRowStaysFinite(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := Batch{IDs: []int{2, 3, 4, 0, 0, 0}, Lengths: []int{3, 0}, Pronoun: []int{1, 0}, Antecedent: []int{0, 0}}
	out := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 3, Trace: true, Train: true}, b)
	if math.IsNaN(out.Loss) || math.IsInf(out.Loss, 0) {
		t.Fatalf("loss %g", out.Loss)
	}
	for l, a := range out.Attention {
		for _, w := range a.Data {
			if math.IsNaN(w) || math.IsInf(w, 0) {
				t.Fatalf("layer %d attention has %g: %v", l, w, a.Data)
			}
		}
	}
	alone := runGraph(t, p, GraphOptions{Batch: 1, SeqLen: 3}, Batch{IDs: []int{2, 3, 4}, Lengths: []int{3}, Pronoun: []int{1}, Antecedent: []int{0}})
	assertClose(t, "loss with filler row", []float64{out.Loss}, []float64{alone.Loss}, 1e-12)
}

func TestRunRejectsBadBatches(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	gr, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	cases := []struct {
		name string
		b    Batch
	}{
		{"short ids", Batch{IDs: []int{2, 3}, Lengths: []int{4}, Pronoun: []int{1}}},
		{"length too long", Batch{IDs: []int{2, 3, 4, 5}, Lengths: []int{5}, Pronoun: []int{1}}},
		{"id outside vocabulary", Batch{IDs: []int{2, 99, 4, 5}, Lengths: []int{4}, Pronoun: []int{1}}},
		{"negative id", Batch{IDs: []int{2, -1, 4, 5}, Lengths: []int{4}, Pronoun: []int{1}}},
		{"pronoun in padding", Batch{IDs: []int{2, 3, 0, 0}, Lengths: []int{2}, Pronoun: []int{3}}},
		{"antecedent is pronoun", Batch{IDs: []int{2, 3, 4, 5}, Lengths: []int{4}, Pronoun: []int{1}, Antecedent: []int{1}}},
		{"antecedent in padding", Batch{IDs: []int{2, 3, 0, 0}, Lengths: []int{2}, Pronoun: []int{1}, Antecedent: []int{3}}},
	}
	for _, tc := range cases {
		if _, err := gr.Run(tc.b); err == nil {
			t.Errorf("%s: Run accepted %+v", tc.name, tc.b)
		}
	}
}

func TestNewGraphRejectsBadGeometry(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	for _, o := range []GraphOptions{{Batch: 0, SeqLen: 4}, {Batch: 1, SeqLen: 0}, {Batch: 1, SeqLen: tinyConfig.MaxLen + 1}} {
		if _, err := NewGraph(p, o); err == nil {
			t.Errorf("NewGraph accepted %+v", o)
		}
	}
}

func TestWeightsAreSharedWithParams(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := twoSentences()
	gr, err := NewGraph(p, GraphOptions{Batch: 2, SeqLen: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	before, _ := gr.Run(b)
	w := p.Values("head.w_q")
	for i := range w {
		w[i] *= 3
	}
	if err := p.SetValues("head.w_q", w); err != nil {
		t.Fatal(err)
	}
	after, _ := gr.Run(b)
	if before.Loss == after.Loss {
		t.Fatalf("changing Params did not change the graph's loss (%g)", before.Loss)
	}
}

// The supervision loss is -mean_b log A[b, supervised head, pronoun, antecedent],
// checked against the attention weights the same run reports.
func TestAttentionSupervisionLoss(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := twoSentences()
	out := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7, Train: true, Attention: true, AttentionSupervision: 0.5}, b)
	layer, head := SupervisedHead(tinyConfig)
	want := 0.0
	for r := range b.Lengths {
		want -= math.Log(out.Attention[layer].Row(r, head, b.Pronoun[r])[b.Antecedent[r]]) / 2
	}
	assertClose(t, "attention loss", []float64{out.AttentionLoss}, []float64{want}, 1e-12)
	assertClose(t, "objective", []float64{out.Objective}, []float64{out.Loss + 0.5*want}, 1e-12)
	if _, err := NewGraph(p, GraphOptions{Batch: 1, SeqLen: 3, AttentionSupervision: -1}); err == nil {
		t.Error("a negative supervision weight was accepted")
	}
}

// The experiment switches: unscaled attention divides by 1 instead of sqrt(d_k),
// and without positional encoding word order is invisible to the encoder.
func TestExperimentSwitches(t *testing.T) {
	c := tinyConfig
	c.AttentionScaling = "none"
	unscaled := runGraph(t, newTestParams(t, c), GraphOptions{Batch: 2, SeqLen: 7, Trace: true}, twoSentences())
	tr := unscaled.Trace[0]
	assertClose(t, "unscaled", tr.Scaled.Data, tr.Scores.Data, 0)

	c = tinyConfig
	c.PositionalEncoding = "none"
	p := newTestParams(t, c)
	run := func(ids []int) *Output {
		return runGraph(t, p, GraphOptions{Batch: 1, SeqLen: 5, Trace: true},
			Batch{IDs: ids, Lengths: []int{5}, Pronoun: []int{4}, Antecedent: []int{0}})
	}
	a, b := run([]int{2, 3, 4, 5, 6}), run([]int{4, 3, 2, 5, 6})
	assertClose(t, "pronoun without positions", a.Encoded.Row(0, 4), b.Encoded.Row(0, 4), 1e-12)

	for _, bad := range []Config{{AttentionScaling: "half"}, {PositionalEncoding: "learned"}} {
		c := tinyConfig
		c.AttentionScaling, c.PositionalEncoding = bad.AttentionScaling, bad.PositionalEncoding
		if err := c.Validate(); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}

// A spread row's loss is the cross-entropy against an even split of its
// positions: -mean_b sum_j (1/|S_b|) log P_b(j), here for one spread and one
// ordinary row; a bad spread position is refused by name.
func TestSpreadTarget(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := twoSentences()
	b.Spread = [][]int{{1, 3}, nil}
	out := runGraph(t, p, GraphOptions{Batch: 2, SeqLen: 7}, b)
	want := -(0.5*math.Log(out.Probs.Row(0)[1])+0.5*math.Log(out.Probs.Row(0)[3]))/2 - math.Log(out.Probs.Row(1)[0])/2
	if math.Abs(out.Loss-want) > 1e-12 {
		t.Errorf("loss %v, want %v", out.Loss, want)
	}
	gr, err := NewGraph(p, GraphOptions{Batch: 2, SeqLen: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	for _, bad := range [][][]int{{{1, 4}, nil}, {{9}, nil}, {{1}}} {
		b.Spread = bad
		if _, err := gr.Run(b); err == nil {
			t.Errorf("spread %v accepted", bad)
		}
	}
}
