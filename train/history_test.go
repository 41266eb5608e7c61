package train

import (
	"math"
	"slices"
	"testing"

	"itformer/checkpoint"
	"itformer/data"
	"itformer/history"
	"itformer/model"
)

// The probes are the mission sentence, its twin, and a twin pair from every
// challenge set: each pair the same nouns with the other answer.
func TestProbeExamples(t *testing.T) {
	c, err := Corpus(tinyConfig.Data)
	if err != nil {
		t.Fatal(err)
	}
	probes, ex, err := ProbeExamples(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(probes) != 2+2*len(c.Challenges) || len(ex) != len(probes) {
		t.Fatalf("%d probes (%d examples), want %d: two, and two per challenge set", len(probes), len(ex), 2+2*len(c.Challenges))
	}
	if probes[0].Text != data.MissionHungry || probes[1].Text != data.MissionTasty || probes[0].Name != "mission" {
		t.Errorf("the first probes are %q and %q, want the mission sentence and its twin", probes[0].Text, probes[1].Text)
	}
	for i := 0; i < len(ex); i += 2 {
		a, b := ex[i], ex[i+1]
		if probes[i].Set != probes[i+1].Set || a.Answer() == b.Answer() || a.Answer() != b.Other() {
			t.Errorf("probes %q and %q are not twins: answers %q and %q", a.Text, b.Text, a.Answer(), b.Answer())
		}
	}
	again, _, _ := ProbeExamples(c)
	if !slices.EqualFunc(probes, again, func(x, y history.Probe) bool { return x.Text == y.Text }) {
		t.Error("the probes differ between two calls on the same corpus")
	}
}

// checkHistory checks a finished run's history.json: one point before the
// first step, three within the first epoch and one at the end of each epoch
// HistoryEpoch names; and the point of the best epoch, when recorded, is
// what the saved checkpoint computes on the probes.
func checkHistory(t *testing.T, r *trainedRun, corpus *data.Corpus) {
	h, err := history.Load(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	per := len(corpus.Train) / r.cfg.Train.BatchSize
	want := []int{0, per / 8, per / 4, per / 2}
	for e := 1; e <= r.cfg.Train.Epochs; e++ {
		if HistoryEpoch(e, r.cfg.Train.Epochs) {
			want = append(want, e*per)
		}
	}
	var steps []int
	for _, p := range h.Points {
		steps = append(steps, p.Step)
	}
	if !slices.Equal(steps, want) || h.StepsPerEpoch != per {
		t.Fatalf("points at steps %v (%d per epoch), want %v (%d)", steps, h.StepsPerEpoch, want, per)
	}
	sl, sh := model.SupervisedHead(model.Config{Layers: r.cfg.Model.Layers})
	if h.Layers != r.cfg.Model.Layers || h.Heads != r.cfg.Model.Heads || h.SupervisedLayer != sl || h.SupervisedHead != sh {
		t.Errorf("history sizes %d x %d, supervised (%d, %d); want %d x %d, (%d, %d)", h.Layers, h.Heads,
			h.SupervisedLayer, h.SupervisedHead, r.cfg.Model.Layers, r.cfg.Model.Heads, sl, sh)
	}
	if i := slices.Index(steps, r.metrics.BestEpoch*per); i < 0 {
		t.Logf("the best epoch, %d, is not a point of the history", r.metrics.BestEpoch)
	} else {
		checkBestPoint(t, r, corpus, h, h.Points[i])
	}
	// The supervised head learns to point: at the end it gives the mission
	// sentence's antecedent more weight than at the start.
	mission, first, last := h.Probes[0], h.Points[0].Readings[0], h.Points[len(h.Points)-1].Readings[0]
	a, b := first.Attention[sl][sh][mission.Antecedent], last.Attention[sl][sh][mission.Antecedent]
	t.Logf("the supervised head's weight on %q went from %.3f to %.3f", mission.Tokens[mission.Antecedent], a, b)
	if b < 0.5 || b <= a {
		t.Errorf("the supervised head's weight on %q went from %.3f to %.3f", mission.Tokens[mission.Antecedent], a, b)
	}
}

// checkBestPoint: the best epoch's point is what the saved checkpoint
// computes on the probes.
func checkBestPoint(t *testing.T, r *trainedRun, corpus *data.Corpus, h *history.History, best history.Point) {
	got := probeReadings(t, r, corpus)
	for i, p := range h.Probes {
		if d := maxDiff(best.Readings[i], got[i]); d > 0.0005+1e-12 {
			t.Errorf("probe %q: the best epoch's point differs from the checkpoint's forward pass by %g", p.Name, d)
		}
	}
}

// probeReadings runs the probes through the run's saved checkpoint.
func probeReadings(t *testing.T, r *trainedRun, corpus *data.Corpus) []history.Reading {
	t.Helper()
	ck, err := checkpoint.Load(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	_, ex, err := ProbeExamples(corpus)
	if err != nil {
		t.Fatal(err)
	}
	b, err := data.Batches(ex, ck.Vocab, len(ex), r.cfg.Model.MaxLen, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	g, err := model.NewGraph(ck.Params, model.GraphOptions{Batch: len(ex), SeqLen: r.cfg.Model.MaxLen, Attention: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	out, err := g.Run(ModelBatch(b[0]))
	if err != nil {
		t.Fatal(err)
	}
	var rs []history.Reading
	for row, e := range ex {
		rs = append(rs, reading(out, row, e))
	}
	return rs
}

func maxDiff(a, b history.Reading) float64 {
	d := 0.0
	for l := range a.Attention {
		for h := range a.Attention[l] {
			for j, w := range a.Attention[l][h] {
				d = max(d, math.Abs(w-b.Attention[l][h][j]))
			}
		}
	}
	for k := range a.CandidateProbabilities {
		d = max(d, math.Abs(a.CandidateProbabilities[k]-b.CandidateProbabilities[k]))
	}
	return d
}

// The history records the end of every epoch through the eighth, then of
// every twentieth, and of the last.
func TestHistoryEpochs(t *testing.T) {
	for _, tc := range []struct {
		epochs int
		want   []int
	}{
		{3, []int{1, 2, 3}},
		{8, []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{10, []int{1, 2, 3, 4, 5, 6, 7, 8, 10}},
		{45, []int{1, 2, 3, 4, 5, 6, 7, 8, 20, 40, 45}},
		{120, []int{1, 2, 3, 4, 5, 6, 7, 8, 20, 40, 60, 80, 100, 120}},
	} {
		var got []int
		for e := 1; e <= tc.epochs; e++ {
			if HistoryEpoch(e, tc.epochs) {
				got = append(got, e)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%d epochs: points after epochs %v, want %v", tc.epochs, got, tc.want)
		}
	}
}
