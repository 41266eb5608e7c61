package model

// Gradient checks: Gorgonia's symbolic gradients against central finite
// differences, (L(w + eps) - L(w - eps)) / 2eps, in float64.
//
// Tolerance: |autodiff - numeric| <= 1e-7 + 1e-5·|numeric| for every checked
// entry, with eps = 1e-6. Central differences err by O(eps²) ≈ 1e-12 from
// truncation and by about 1e-16/eps ≈ 1e-10 from rounding the loss, so a
// correct gradient passes with a wide margin and a wrong one (a dropped term,
// a transposed matrix) misses by orders of magnitude.

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

const (
	fdEps    = 1e-6
	fdAbsTol = 1e-7
	fdRelTol = 1e-5
)

// randomNode makes a float64 input node holding N(0, 1) values.
func randomNode(g *G.ExprGraph, rng *rand.Rand, name string, shape ...int) *G.Node {
	data := make([]float64, tensor.Shape(shape).TotalSize())
	fill(data, rng, 1)
	v := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
	return G.NewTensor(g, tensor.Float64, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(v))
}

func valueNode(g *G.ExprGraph, name string, data []float64, shape ...int) *G.Node {
	v := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
	return G.NewTensor(g, tensor.Float64, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(v))
}

// projectToScalar turns a block's output into a loss that weighs every entry
// differently: sum(out ⊙ R), R random. A plain sum would hide some errors
// (the gradient of sum(softmax) is zero whatever the Jacobian).
func projectToScalar(t *testing.T, rng *rand.Rand, out *G.Node) *G.Node {
	t.Helper()
	r := randomNode(out.Graph(), rng, "R", out.Shape()...)
	return G.Must(G.Sum(G.Must(G.HadamardProd(out, r))))
}

// checkGradients compares d loss / d w for every entry of every w in wrt.
func checkGradients(t *testing.T, loss *G.Node, wrt ...*G.Node) {
	t.Helper()
	if _, err := G.Grad(loss, wrt...); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(loss.Graph(), G.BindDualValues(wrt...))
	defer vm.Close()
	run := func() float64 {
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		return loss.Value().Data().(float64)
	}
	run()
	grads := make([][]float64, len(wrt))
	for i, w := range wrt {
		d, err := w.Grad()
		if err != nil {
			t.Fatalf("%s: %v", w.Name(), err)
		}
		grads[i] = gorgoniax.Float64s(d)
	}
	for i, w := range wrt {
		data := w.Value().Data().([]float64)
		for j := range data {
			numeric := centralDifference(data, j, run)
			assertGradient(t, fmt.Sprintf("%s[%d]", w.Name(), j), grads[i][j], numeric)
		}
	}
}

func centralDifference(data []float64, j int, loss func() float64) float64 {
	orig := data[j]
	data[j] = orig + fdEps
	plus := loss()
	data[j] = orig - fdEps
	minus := loss()
	data[j] = orig
	return (plus - minus) / (2 * fdEps)
}

func assertGradient(t *testing.T, what string, autodiff, numeric float64) {
	t.Helper()
	if diff := math.Abs(autodiff - numeric); diff > fdAbsTol+fdRelTol*math.Abs(numeric) || math.IsNaN(autodiff) {
		t.Errorf("d loss / d %s: autodiff %.10g, finite difference %.10g (diff %.3g)", what, autodiff, numeric, diff)
	}
}

func TestGradientSoftmax(t *testing.T) {
	for _, log := range []bool{false, true} {
		rng := rand.New(rand.NewSource(1))
		g := G.NewGraph()
		x := randomNode(g, rng, "x", 2, 3, 5)
		f := softmax
		if log {
			f = logSoftmax
		}
		out, err := f(x, 2)
		if err != nil {
			t.Fatal(err)
		}
		checkGradients(t, projectToScalar(t, rng, out), x)
	}
}

func TestGradientEmbedding(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	g := G.NewGraph()
	table := randomNode(g, rng, "table", 6, 4)
	// Token 3 appears twice: its row's gradient is the sum of both uses.
	ids := G.NewVector(g, tensor.Int, G.WithShape(5), G.WithName("ids"),
		G.WithValue(tensor.New(tensor.WithShape(5), tensor.WithBacking([]int{3, 1, 3, 5, 0}))))
	pe := valueNode(g, "pe", PositionalEncoding(5, 4), 5, 4)
	out, err := embed(table, ids, pe, 4)
	if err != nil {
		t.Fatal(err)
	}
	checkGradients(t, projectToScalar(t, rng, out), table)
}

// keyMask makes a (B, T) additive mask with lengths[b] real keys per row.
func keyMask(g *G.ExprGraph, T int, lengths ...int) *G.Node {
	data := make([]float64, len(lengths)*T)
	for b, n := range lengths {
		for j := n; j < T; j++ {
			data[b*T+j] = maskValue
		}
	}
	return valueNode(g, "mask", data, len(lengths), T)
}

func TestGradientScaledDotProductAttention(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	g := G.NewGraph()
	q, k, v := randomNode(g, rng, "q", 2, 4, 2, 3), randomNode(g, rng, "k", 2, 4, 2, 3), randomNode(g, rng, "v", 2, 4, 2, 3) // (B, T, H, d_k)
	steps, err := scaledDotProductAttention(q, k, v, keyMask(g, 4, 4, 2), math.Sqrt(3), true)
	if err != nil {
		t.Fatal(err)
	}
	checkGradients(t, projectToScalar(t, rng, steps.Z), q, k, v)
}

func TestGradientMultiHeadAttention(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	g := G.NewGraph()
	s := shape{B: 2, T: 3, D: 4, H: 2, divisor: math.Sqrt(2)}
	x := randomNode(g, rng, "x", s.B*s.T, s.D)
	w := MultiHeadWeights[*G.Node]{WQ: randomNode(g, rng, "wq", 4, 4), WK: randomNode(g, rng, "wk", 4, 4),
		WV: randomNode(g, rng, "wv", 4, 4), WO: randomNode(g, rng, "wo", 4, 4)}
	out, _, err := multiHeadAttention(x, keyMask(g, 3, 3, 2), w, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkGradients(t, projectToScalar(t, rng, out), x, w.WQ, w.WK, w.WV, w.WO)
}

func TestGradientLayerNorm(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	g := G.NewGraph()
	x := randomNode(g, rng, "x", 3, 5)
	w := LayerNormWeights[*G.Node]{Gain: randomNode(g, rng, "gain", 5), Bias: randomNode(g, rng, "bias", 5)}
	out, err := layerNorm(x, w)
	if err != nil {
		t.Fatal(err)
	}
	checkGradients(t, projectToScalar(t, rng, out), x, w.Gain, w.Bias)
}

func TestGradientFeedForward(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	g := G.NewGraph()
	x := randomNode(g, rng, "x", 3, 4)
	w := FeedForwardWeights[*G.Node]{W1: randomNode(g, rng, "w1", 4, 6), B1: randomNode(g, rng, "b1", 6),
		W2: randomNode(g, rng, "w2", 6, 4), B2: randomNode(g, rng, "b2", 4)}
	out, err := feedForward(x, w)
	if err != nil {
		t.Fatal(err)
	}
	checkGradients(t, projectToScalar(t, rng, out), x, w.W1, w.B1, w.W2, w.B2)
}

func TestGradientResolutionAndLoss(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	g := G.NewGraph()
	s := shape{B: 2, T: 4, D: 4, H: 1}
	h := randomNode(g, rng, "h", s.B*s.T, s.D)
	w := ResolutionWeights[*G.Node]{WQ: randomNode(g, rng, "wq", 4, 4), WK: randomNode(g, rng, "wk", 4, 4)}
	pronoun := G.NewVector(g, tensor.Int, G.WithShape(2), G.WithName("pronoun"),
		G.WithValue(tensor.New(tensor.WithShape(2), tensor.WithBacking([]int{3, 4 + 1}))))
	// Row 0: 4 words, pronoun at 3. Row 1: 3 words, pronoun at 1.
	candidates := valueNode(g, "candidates", []float64{0, 0, 0, maskValue, 0, maskValue, 0, maskValue}, 2, 4)
	target := valueNode(g, "target", []float64{0, 0.5, 0, 0, 0, 0, 0.5, 0}, 2, 4)
	logP, err := resolve(h, pronoun, candidates, w, s)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := crossEntropy(logP, target)
	if err != nil {
		t.Fatal(err)
	}
	checkGradients(t, loss, h, w.WQ, w.WK)
}

// The whole model: the objective's gradient with respect to every parameter
// tensor, checked on up to 12 sampled entries of each, with attention
// supervision on so that its term is checked too.
func TestGradientWholeModel(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	gr, err := NewGraph(p, GraphOptions{Batch: 2, SeqLen: 7, Train: true, AttentionSupervision: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	defer gr.Close()
	b := twoSentences()
	loss := func() float64 {
		out, err := gr.Run(b)
		if err != nil {
			t.Fatal(err)
		}
		if out.AttentionLoss <= 0 {
			t.Fatalf("attention loss %g: supervision is not in the objective", out.AttentionLoss)
		}
		return out.Objective
	}
	loss()
	grads := map[string][]float64{}
	for i, vg := range gr.ValueGrads() {
		d, err := vg.Grad()
		if err != nil {
			t.Fatal(err)
		}
		grads[p.specs[i].Name] = gorgoniax.Float64s(d)
	}
	rng := rand.New(rand.NewSource(8))
	for _, s := range p.Specs() {
		data := p.Tensor(s.Name).Data().([]float64)
		for _, j := range sampleIndices(rng, len(data), 12) {
			assertGradient(t, fmt.Sprintf("%s[%d]", s.Name, j), grads[s.Name][j], centralDifference(data, j, loss))
		}
	}
}

func sampleIndices(rng *rand.Rand, n, k int) []int {
	if n <= k {
		return rng.Perm(n)
	}
	return rng.Perm(n)[:k]
}
