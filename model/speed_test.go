package model

// The speed-ups of rewind.go, swapaxes.go and batchedmatmul.go promise the
// same numbers, bit for bit, as the plain Gorgonia code they replace. These
// tests hold them to it with exact comparisons (==, not a tolerance).

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// snapshot is everything a run gives back: outputs, every trace value and every gradient.
func snapshot(t *testing.T, gr *Graph, b Batch) []float64 {
	t.Helper()
	out, err := gr.Run(b)
	if err != nil {
		t.Fatal(err)
	}
	s := []float64{out.Loss, out.AttentionLoss, out.Objective}
	s = append(s, out.Probs.Data...)
	s = append(s, out.Embedded.Data...)
	s = append(s, out.Encoded.Data...)
	for l, a := range out.Attention {
		s = append(s, a.Data...)
		if out.Trace != nil {
			tr := out.Trace[l]
			for _, x := range []Tensor{tr.X, tr.Q, tr.K, tr.V, tr.Scores, tr.Scaled, tr.Weights, tr.Z} {
				s = append(s, x.Data...)
			}
		}
	}
	if gr.opts.Train {
		for _, vg := range gr.ValueGrads() {
			g, err := vg.Grad()
			if err != nil {
				t.Fatal(err)
			}
			s = append(s, float64s(g)...)
			g.(*tensor.Dense).Zero()
		}
	}
	return s
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s: value %d is %v, want %v bit for bit", what, i, got[i], want[i])
		}
	}
}

// A graph that keeps its buffers between runs (rewind.go) gives, on its third
// run, exactly what a new graph gives on its first.
func TestRerunMatchesFreshGraph(t *testing.T) {
	for _, dtype := range []string{"float64", "float32"} {
		c := tinyConfig
		c.DType = dtype
		p := newTestParams(t, c)
		rng := rand.New(rand.NewSource(5))
		a, b := benchBatch(4, 10, c.VocabSize, rng), benchBatch(4, 10, c.VocabSize, rng)
		a.Lengths[3], a.Pronoun[3], a.Antecedent[3] = 0, 0, 0 // a filler row
		for i := 30; i < 40; i++ {
			a.IDs[i] = 0
		}
		for _, opts := range []GraphOptions{
			{Batch: 4, SeqLen: 10, Train: true, AttentionSupervision: 1, Trace: true},
			{Batch: 4, SeqLen: 10, Attention: true},
		} {
			t.Run(fmt.Sprintf("%s/train=%t", dtype, opts.Train), func(t *testing.T) {
				fresh, err := NewGraph(p, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer fresh.Close()
				want := snapshot(t, fresh, a)
				reused, err := NewGraph(p, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer reused.Close()
				snapshot(t, reused, a)
				snapshot(t, reused, b)
				sameBits(t, "third run", snapshot(t, reused, a), want)
			})
		}
	}
}

// swapMiddleAxes and batchedMatMul give G.Transpose's and G.BatchedMatMul's
// values and gradients, bit for bit, for every transposition.
func TestCustomOpsMatchGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			t.Run(fmt.Sprintf("%v/transA=%t/transB=%t", dt, tr[0], tr[1]), func(t *testing.T) {
				ours := opsGraph(t, dt, tr[0], tr[1], true)
				theirs := opsGraph(t, dt, tr[0], tr[1], false)
				sameBits(t, "values and gradients", ours, theirs)
			})
		}
	}
}

// opsGraph computes sum(w ⊙ swap(A·B)) for A (2, 3, 4, 5) and B (2, 3, 5, 6),
// stored transposed as the flags ask, and returns the result and its gradients.
func opsGraph(t *testing.T, dt tensor.Dtype, transA, transB, custom bool) []float64 {
	t.Helper()
	rng := rand.New(rand.NewSource(11))
	g := G.NewGraph()
	input := func(name string, shape ...int) *G.Node {
		data := make([]float64, product(shape))
		for i := range data {
			data[i] = rng.NormFloat64()
		}
		data[3] = 0 // gonum skips zero terms; keep one
		return G.NewTensor(g, dt, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(newDense(dt, shape, data)))
	}
	aShape, bShape := []int{2, 3, 4, 5}, []int{2, 3, 5, 6}
	if transA {
		aShape = []int{2, 3, 5, 4}
	}
	if transB {
		bShape = []int{2, 3, 6, 5}
	}
	a, b, w := input("a", aShape...), input("b", bShape...), input("w", 2, 4, 3, 6)
	var prod, swapped *G.Node
	var err error
	if custom {
		if prod, err = batchedMatMul(a, b, transA, transB); err == nil {
			swapped, err = swapMiddleAxes(prod)
		}
	} else {
		if prod, err = G.BatchedMatMul(a, b, transA, transB); err == nil {
			swapped, err = G.Transpose(prod, 0, 2, 1, 3)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(swapped, w))))
	grads, err := G.Grad(loss, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, append([]*G.Node{swapped, loss}, grads...))
}

// broadcast gives the G.Broadcast* functions' values and gradients, bit for bit.
func TestBroadcastMatchesGorgonia(t *testing.T) {
	type opPair struct {
		name   string
		ours   func(a, b *G.Node) (*G.Node, error)
		theirs func(a, b *G.Node, left, right []byte) (*G.Node, error)
	}
	ops := []opPair{
		{"add", G.Add, G.BroadcastAdd}, {"sub", G.Sub, G.BroadcastSub},
		{"mul", G.HadamardProd, G.BroadcastHadamardProd}, {"div", G.HadamardDiv, G.BroadcastHadamardDiv},
	}
	cases := []struct {
		x, y []int
		axes []int
	}{
		{[]int{6, 4}, []int{6}, []int{1}},             // a row's mean over its features
		{[]int{6, 4}, []int{4}, []int{0}},             // a gain or bias over the rows
		{[]int{2, 3, 4, 5}, []int{2, 3, 4}, []int{3}}, // a softmax row's max or sum
		{[]int{2, 3, 4, 5}, []int{2, 5}, []int{1, 2}}, // the key mask over heads and queries
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, op := range ops {
			for _, c := range cases {
				t.Run(fmt.Sprintf("%v/%s/%v", dt, op.name, c.axes), func(t *testing.T) {
					pattern := make([]byte, len(c.axes))
					for i, a := range c.axes {
						pattern[i] = byte(a)
					}
					ours := broadcastGraph(t, dt, c.x, c.y, func(x, y *G.Node) (*G.Node, error) { return broadcast(op.ours, x, y, c.axes...) })
					theirs := broadcastGraph(t, dt, c.x, c.y, func(x, y *G.Node) (*G.Node, error) { return op.theirs(x, y, nil, pattern) })
					sameBits(t, "values and gradients", ours, theirs)
				})
			}
		}
	}
}

// broadcastGraph returns f(x, y), sum(w ⊙ f(x, y)) and its gradients with respect to x and y.
func broadcastGraph(t *testing.T, dt tensor.Dtype, xShape, yShape []int, f func(x, y *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	rng := rand.New(rand.NewSource(13))
	g := G.NewGraph()
	input := func(name string, shape ...int) *G.Node {
		data := make([]float64, product(shape))
		for i := range data {
			data[i] = 0.5 + rng.Float64() // positive: safe to divide by
		}
		return G.NewTensor(g, dt, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(newDense(dt, shape, data)))
	}
	x, y, w := input("x", xShape...), input("y", yShape...), input("w", xShape...)
	z, err := f(x, y)
	if err != nil {
		t.Fatal(err)
	}
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(z, w))))
	grads, err := G.Grad(loss, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, append([]*G.Node{z, loss}, grads...))
}

// valuesAfterRerun runs g twice, the second time rewound so that it reuses
// the first run's buffers, and returns the nodes' values from the second run.
func valuesAfterRerun(t *testing.T, g *G.ExprGraph, nodes []*G.Node) []float64 {
	t.Helper()
	vals := make([]G.Value, len(nodes))
	for i, n := range nodes {
		G.Read(n, &vals[i])
	}
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	for run := 0; run < 2; run++ {
		if run == 0 {
			vm.Reset()
		} else if !rewind(vm) {
			t.Fatal("rewind does not recognise the tape machine")
		}
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
	}
	var out []float64
	for _, v := range vals {
		out = append(out, float64s(v)...)
	}
	return out
}
