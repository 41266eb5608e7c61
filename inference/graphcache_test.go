package inference

import (
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/internal/memstat"
	"itformer/model"
)

// kept is p's kept graph of kind for n tokens, or nil.
func kept(p *Predictor, kind graphKind, n int) *model.Graph {
	return p.cache.get(graphKey{owner: p, kind: kind, n: n})
}

// step puts a graph for n tokens of the bytes given, or, with no bytes,
// uses the graph kept for n.
type step struct {
	n     int
	bytes int64
}

// The cache forgets the least recently used graphs while their bytes exceed
// the budget, and keeps the newest even alone over it.
func TestGraphCacheEvictsLeastRecentlyUsed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int64
		steps  []step
		want   []int // the lengths kept, the most recently used first
	}{
		{"under budget", 100, []step{{1, 30}, {2, 30}, {3, 30}}, []int{3, 2, 1}},
		{"oldest out", 100, []step{{1, 40}, {2, 40}, {3, 40}}, []int{3, 2}},
		{"a use keeps it", 100, []step{{1, 40}, {2, 40}, {1, 0}, {3, 40}}, []int{3, 1}},
		{"several out", 100, []step{{1, 30}, {2, 30}, {3, 30}, {4, 90}}, []int{4}},
		{"alone over budget", 100, []step{{1, 30}, {2, 150}}, []int{2}},
		{"no budget", 0, []step{{1, 10}, {2, 10}}, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, owner := newGraphCache(tc.budget), &Predictor{}
			graphs := map[int]*model.Graph{}
			for _, s := range tc.steps {
				key := graphKey{owner: owner, n: s.n}
				if s.bytes > 0 {
					graphs[s.n] = new(model.Graph)
					c.put(key, graphs[s.n], s.bytes)
				} else if c.get(key) != graphs[s.n] {
					t.Fatalf("the graph for %d tokens is not kept", s.n)
				}
			}
			var got []int
			var used int64
			for e := c.recent.Front(); e != nil; e = e.Next() {
				k := e.Value.(*keptGraph)
				got, used = append(got, k.key.n), used+k.bytes
			}
			if !reflect.DeepEqual(got, tc.want) || used != c.used || len(c.entries) != len(got) {
				t.Errorf("kept %v (%d bytes, counted %d, %d entries), want %v", got, used, c.used, len(c.entries), tc.want)
			}
		})
	}
}

// ensemblePredictor is the embedded model with its members, as the
// commands load it.
func ensemblePredictor(t *testing.T) *Predictor {
	t.Helper()
	const dir = "../cmd/internal/defaultmodel/model"
	p := defaultPredictor(t)
	others, err := checkpoint.LoadMembers(os.DirFS(dir), ".", p.ck)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetMembers(others); err != nil {
		t.Fatal(err)
	}
	return p
}

// sentenceOf is a sentence of n words, 9 or more, whose answer is "dog".
func sentenceOf(n int) string {
	return "the " + strings.Repeat("big ", n-9) + "dog ate the food because it was hungry"
}

// explained is everything a Predictor says of s: its attributed answer with
// the supervised head knocked out, its trace, and its twin.
type explained struct {
	Resolution *Resolution
	Trace      *Traced
	Twin       *Twin
}

// explain is what p says of s (tryExplain); an error ends the test.
func explain(t *testing.T, p *Predictor, s string) explained {
	t.Helper()
	e, err := tryExplain(p, s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return e
}

// tryExplain is explain for a goroutine other than the test's.
func tryExplain(p *Predictor, s string) (explained, error) {
	res, err := p.Resolve(s)
	if err == nil {
		err = p.Attribute(&res.Predictions[0])
	}
	if err == nil {
		err = p.KnockOut(&res.Predictions[0])
	}
	e := explained{Resolution: res}
	if err == nil {
		e.Trace, err = p.Trace(s)
	}
	if err == nil {
		e.Twin, err = p.Twins(s, strings.Replace(s, "hungry", "tasty", 1))
	}
	return e, err
}

// A Predictor that keeps no graph but the one it runs (every graph built
// again when asked for) answers as one that keeps them all, bit for bit:
// an ensemble, sentences of several lengths, heads knocked out and put back.
func TestEvictedGraphsGiveTheSameAnswers(t *testing.T) {
	tight, roomy := ensemblePredictor(t), ensemblePredictor(t)
	if err := tight.SetGraphMemory(0); err != nil {
		t.Fatal(err)
	}
	heads := [][]model.Head{nil, {{Layer: 1, Head: 0}}, {{Layer: 0, Head: 1}, {Layer: 1, Head: 2}}, nil}
	for i, n := range []int{9, 14, 9, 20} {
		for _, p := range []*Predictor{tight, roomy} {
			if err := p.Ablate(heads[i]); err != nil {
				t.Fatal(err)
			}
		}
		s := sentenceOf(n)
		if got, want := explain(t, tight, s), explain(t, roomy, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%q with %v knocked out: rebuilt graphs answer otherwise than kept ones", s, heads[i])
		}
		if tight.cache.recent.Len() != 1 {
			t.Errorf("%q: a cache of 0 bytes keeps %d graphs, want the last one", s, tight.cache.recent.Len())
		}
	}
}

// The estimate of a graph's bytes is at least the live heap it adds, and
// not far above it, for every kind of graph the default model keeps.
func TestGraphBytesCoverMeasured(t *testing.T) {
	p := defaultPredictor(t)
	for _, n := range []int{8, 32} {
		for _, tc := range []struct {
			kind string
			opts model.GraphOptions
		}{
			{"traced", model.GraphOptions{Batch: 1, SeqLen: n, Trace: true}},
			{"traced, gated", model.GraphOptions{Batch: 1, SeqLen: n, Trace: true, HeadGates: true}},
			{"voting", model.GraphOptions{Batch: 1, SeqLen: n}},
			{"knockout", model.GraphOptions{Batch: 1, SeqLen: n, HeadGates: true}},
			{"attribution", model.GraphOptions{Batch: AttributionSteps + 1, SeqLen: n, InputGradients: true}},
			{"attribution, gated", model.GraphOptions{Batch: AttributionSteps + 1, SeqLen: n, InputGradients: true, HeadGates: true}},
		} {
			before := memstat.LiveHeap()
			g := runOnce(t, p, tc.opts)
			measured := memstat.LiveHeap() - before
			runtime.KeepAlive(g)
			est := graphBytes(p.Config(), tc.opts)
			r := float64(est) / float64(measured)
			t.Logf("%s graph of %d tokens: estimated %s, measured %s (x%.2f)", tc.kind, n, memstat.MB(est), memstat.MB(measured), r)
			if r < 1 || r > 1.5 {
				t.Errorf("%s graph of %d tokens: estimated %s, measured %s (x%.2f), want 1 to 1.5 times", tc.kind, n, memstat.MB(est), memstat.MB(measured), r)
			}
		}
	}
}

// runOnce builds a graph with opts and runs it once on a sentence of one
// word repeated, which allocates all its buffers.
func runOnce(t *testing.T, p *Predictor, opts model.GraphOptions) *model.Graph {
	t.Helper()
	g, err := model.NewGraph(p.ck.Params, opts)
	if err != nil {
		t.Fatal(err)
	}
	n, b := opts.SeqLen, model.Batch{}
	ids := make([]int, n)
	for i := range ids {
		ids[i] = 2
	}
	x, _, err := p.ck.Params.InputVectors(ids)
	if err != nil {
		t.Fatal(err)
	}
	for range opts.Batch {
		b.IDs, b.Lengths, b.Pronoun = append(b.IDs, ids...), append(b.Lengths, n), append(b.Pronoun, 0)
		if opts.InputGradients {
			b.Vectors, b.Antecedent = append(b.Vectors, x...), append(b.Antecedent, n-1)
		}
	}
	if _, err := g.Run(b); err != nil {
		t.Fatal(err)
	}
	return g
}

// Two Predictors that share a cache too small for both, used at once,
// forget each other's graphs mid-use and still answer as one alone does.
func TestSharedCacheUnderConcurrentUse(t *testing.T) {
	p := defaultPredictor(t)
	q := p.Another()
	if err := p.SetGraphMemory(0); err != nil {
		t.Fatal(err)
	}
	if err := q.Ablate([]model.Head{{Layer: 1, Head: 0}}); err != nil {
		t.Fatal(err)
	}
	want := map[*Predictor]explained{p: explain(t, defaultPredictor(t), sentenceOf(12))}
	alone := defaultPredictor(t)
	if err := alone.Ablate([]model.Head{{Layer: 1, Head: 0}}); err != nil {
		t.Fatal(err)
	}
	want[q] = explain(t, alone, sentenceOf(12))
	got := map[*Predictor]explained{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range []*Predictor{p, q} {
		wg.Go(func() {
			for _, n := range []int{9, 15, 12} {
				e, err := tryExplain(r, sentenceOf(n))
				if err != nil {
					t.Errorf("%d words: %v", n, err)
					return
				}
				mu.Lock()
				got[r] = e
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for r, name := range map[*Predictor]string{p: "the whole model", q: "with L2H1 knocked out"} {
		if !reflect.DeepEqual(got[r], want[r]) {
			t.Errorf("%s, sharing a cache in use: the answer differs from a Predictor's alone", name)
		}
	}
}

// -max-memory (config.MaxMemory) bounds the graph a sentence needs, not only
// the model loaded: a long sentence's attribution graph had taken 580 MB
// under a limit of 70 MB. The limit is checked before the graph is built.
func TestAGraphOverTheMemoryLimitIsRefused(t *testing.T) {
	p := defaultPredictor(t)
	old := config.MaxMemory
	t.Cleanup(func() { config.MaxMemory = old })
	config.MaxMemory = 70_000_000
	if _, err := p.Resolve("A dog ate the food because it was hungry"); err != nil {
		t.Fatalf("a short sentence under 70 MB: %v", err)
	}
	long := strings.Repeat("the big dog near the barn ", 9) + "ate the food because it was hungry"
	r, err := p.Resolve(long) // batch 1: a few MB
	if err != nil {
		t.Fatalf("resolving a long sentence under 70 MB: %v", err)
	}
	err = p.Attribute(&r.Predictions[0]) // 65 rows: about 300 MB
	want := "needs a graph of about "
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "(limit 70 MB; raise it with -max-memory)") {
		t.Errorf("a %d-word sentence under 70 MB: %v, want a refusal saying %q and the limit", len(strings.Fields(long)), err, want)
	}
}
