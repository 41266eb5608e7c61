package gorgoniax

// Every op in this package promises the same numbers, bit for bit, as the
// stock Gorgonia op it replaces. The tests hold them to it with exact
// comparisons (==, not a tolerance), on values and on gradients, after a
// second, rewound run so that the preallocated buffers are reused too.

import (
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

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

// inputMaker makes input nodes of dtype dt in g whose entries draw() gives.
func inputMaker(g *G.ExprGraph, dt tensor.Dtype, draw func() float64) func(name string, shape ...int) *G.Node {
	return func(name string, shape ...int) *G.Node {
		data := make([]float64, tensor.Shape(shape).TotalSize())
		for i := range data {
			data[i] = draw()
		}
		return G.NewTensor(g, dt, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(NewDense(dt, shape, data)))
	}
}

// weightedSumAndGrads returns out, loss = sum(w ⊙ out) for a random w, and
// the loss's gradients with respect to wrt, all as nodes to read.
func weightedSumAndGrads(t *testing.T, out *G.Node, w *G.Node, wrt ...*G.Node) []*G.Node {
	t.Helper()
	loss := G.Must(G.Sum(G.Must(G.HadamardProd(out, w))))
	grads, err := G.Grad(loss, wrt...)
	if err != nil {
		t.Fatal(err)
	}
	return append([]*G.Node{out, loss}, grads...)
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
	runTape(t, vm, vals, false)
	return runTape(t, vm, vals, true)
}

func normal(rng *rand.Rand) func() float64 { return rng.NormFloat64 }

// runTape runs vm from a Reset (rewound false) or rewound to its start
// (keeping last run's buffers, as the model's graphs run) and returns the
// read values vals, flattened in order.
func runTape(t *testing.T, vm G.VM, vals []G.Value, rewound bool) []float64 {
	t.Helper()
	if !rewound {
		vm.Reset()
	} else if !Rewind(vm) {
		t.Fatal("Rewind does not recognise the tape machine")
	}
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, v := range vals {
		out = append(out, Float64s(v)...)
	}
	return out
}

// benchRewound runs graph g b.N times on one tape machine, rewound between
// runs as a training step's is, reading nodes after each run.
func benchRewound(b *testing.B, g *G.ExprGraph, nodes ...*G.Node) {
	b.Helper()
	vals := make([]G.Value, len(nodes))
	for i, n := range nodes {
		G.Read(n, &vals[i])
	}
	vm, err := NewTapeMachine(g)
	if err != nil {
		b.Fatal(err)
	}
	defer vm.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if i > 0 && !Rewind(vm) {
			b.Fatal("Rewind does not recognise the tape machine")
		}
		if err := vm.RunAll(); err != nil {
			b.Fatal(err)
		}
	}
}
