package train

import (
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// twin makes two identical parameter nodes with random weights, for two optimisers.
func twin(t *testing.T, dt tensor.Dtype, seed int64) (a, b *G.Node, setGrad func(step int)) {
	t.Helper()
	g := G.NewGraph()
	mk := func(name string) *G.Node {
		rng := rand.New(rand.NewSource(seed))
		v := tensor.New(tensor.Of(dt), tensor.WithShape(3, 4))
		for i := 0; i < 12; i++ {
			v.Set(i, cast(dt, rng.NormFloat64()))
		}
		n := G.NewMatrix(g, dt, G.WithShape(3, 4), G.WithName(name), G.WithValue(v))
		G.WithGrad(tensor.New(tensor.Of(dt), tensor.WithShape(3, 4)))(n)
		return n
	}
	a, b = mk("a"), mk("b")
	setGrad = func(step int) {
		rng := rand.New(rand.NewSource(int64(step)))
		for i := 0; i < 12; i++ {
			x := cast(dt, rng.NormFloat64()*3)
			for _, n := range []*G.Node{a, b} {
				d, _ := n.Grad()
				d.(*tensor.Dense).Set(i, x)
			}
		}
	}
	return a, b, setGrad
}

func cast(dt tensor.Dtype, x float64) interface{} {
	if dt == tensor.Float32 {
		return float32(x)
	}
	return x
}

// Our Adam must move weights exactly as Gorgonia's AdamSolver does, so that
// owning the moments (for resume) changes no result.
func TestAdamMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		a, b, setGrad := twin(t, dt, 3)
		theirs := G.NewAdamSolver(G.WithLearnRate(0.01), G.WithBeta1(0.9), G.WithBeta2(0.98), G.WithEps(1e-9))
		ours := &Adam{LearningRate: 0.01, Beta1: 0.9, Beta2: 0.98, Eps: 1e-9}
		for step := 1; step <= 25; step++ {
			setGrad(step)
			if err := theirs.Step(G.NodesToValueGrads(G.Nodes{a})); err != nil {
				t.Fatal(err)
			}
			if err := ours.Step(G.NodesToValueGrads(G.Nodes{b})); err != nil {
				t.Fatal(err)
			}
		}
		wa, wb := a.Value().Data(), b.Value().Data()
		for i := 0; i < 12; i++ {
			x, y := a.Value().(*tensor.Dense).Get(i), b.Value().(*tensor.Dense).Get(i)
			if x != y {
				t.Fatalf("%v: after 25 steps weight %d is %v with AdamSolver, %v with ours\n%v\n%v", dt, i, x, y, wa, wb)
			}
		}
		gb, _ := b.Grad()
		for _, x := range floats(gb.Data()) {
			if x != 0 || math.IsNaN(x) {
				t.Fatalf("%v: gradient not zeroed after a step: %v", dt, gb.Data())
			}
		}
	}
}

// TestAdamDecay: with λ set for the first parameter only and zero gradients
// (so the Adam term is 0), the first shrinks by exactly η·λ·w per step and
// the second does not move, in float64 and float32.
func TestAdamDecay(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		a, b, _ := twin(t, dt, 7)
		before := [2][]float64{values(a), values(b)}
		opt := &Adam{LearningRate: 0.01, Beta1: 0.9, Beta2: 0.98, Eps: 1e-9, Decay: []float64{0.5}}
		if err := opt.Step(G.NodesToValueGrads(G.Nodes{a, b})); err != nil {
			t.Fatal(err)
		}
		got := [2][]float64{values(a), values(b)}
		for j := range before[0] {
			want := before[0][j] * (1 - 0.01*0.5)
			if math.Abs(got[0][j]-want) > 1e-6*math.Abs(want) {
				t.Errorf("%v: decayed weight %d = %v, want %v", dt, j, got[0][j], want)
			}
			if got[1][j] != before[1][j] {
				t.Errorf("%v: undecayed weight %d moved from %v to %v", dt, j, before[1][j], got[1][j])
			}
		}
	}
}

func values(n *G.Node) []float64 {
	var out []float64
	switch d := n.Value().Data().(type) {
	case []float64:
		out = append(out, d...)
	case []float32:
		for _, x := range d {
			out = append(out, float64(x))
		}
	}
	return out
}

// TestDecayRatesHitTheEmbedding: train.embedding_decay lands on the graph's
// token-embedding weight, and on nothing else.
func TestDecayRatesHitTheEmbedding(t *testing.T) {
	cfg := tinyConfig
	cfg.Train.EmbeddingDecay = 0.1
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	vgs := s.Graph.ValueGrads()
	if len(s.Optimiser.Decay) != len(vgs) {
		t.Fatalf("%d decay rates for %d parameters", len(s.Optimiser.Decay), len(vgs))
	}
	for i, vg := range vgs {
		isEmbedding := vg.Value().Uintptr() == s.Params.Weights().Embedding.Uintptr() // the same storage
		if want := map[bool]float64{true: 0.1}[isEmbedding]; s.Optimiser.Decay[i] != want {
			t.Errorf("parameter %d (embedding %v) has decay %v, want %v", i, isEmbedding, s.Optimiser.Decay[i], want)
		}
	}
}

// TestDecayRatesHitTheMatrices: train.weight_decay lands on every weight
// matrix but the embedding, and on no vector (biases, layer-norm gains).
func TestDecayRatesHitTheMatrices(t *testing.T) {
	cfg := tinyConfig
	cfg.Train.EmbeddingDecay, cfg.Train.WeightDecay = 0.1, 0.02
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	vgs := s.Graph.ValueGrads()
	matrices := 0
	for i, vg := range vgs {
		shape := vg.Value().Shape()
		isEmbedding := vg.Value().Uintptr() == s.Params.Weights().Embedding.Uintptr()
		want := 0.0
		switch {
		case isEmbedding:
			want = 0.1
		case len(shape) == 2:
			want, matrices = 0.02, matrices+1
		}
		if s.Optimiser.Decay[i] != want {
			t.Errorf("parameter %d (shape %v, embedding %v) has decay %v, want %v", i, shape, isEmbedding, s.Optimiser.Decay[i], want)
		}
	}
	if matrices == 0 {
		t.Error("no weight matrix besides the embedding: the test checked nothing")
	}
}
