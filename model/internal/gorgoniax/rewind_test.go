package gorgoniax

import (
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// A machine rewound after a run on other inputs gives, value for value and
// gradient for gradient, what a Reset machine gives: every op overwrites its
// preallocated output, so nothing of the other run leaks through.
func TestRewindMatchesReset(t *testing.T) {
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(17))
	input := inputMaker(g, tensor.Float64, rng.NormFloat64)
	a, b, w := input("a", 2, 3, 4, 5), input("b", 2, 3, 4, 5), input("w", 2, 4, 3, 5)
	prod := G.Must(BatchedMatMul(a, b, false, true))
	mean := G.Must(G.Mean(prod, 3))
	centred := G.Must(BroadcastAdd(prod, G.Must(G.Neg(mean)), 3))
	heads := G.Must(BatchedMatMulInterleaved(centred, b, false, false, Interleaved{Out: true})) // (2, 4, 3, 5)
	nodes := weightedSumAndGrads(t, heads, w, a, b)
	vals := make([]G.Value, len(nodes))
	for i, n := range nodes {
		G.Read(n, &vals[i])
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(a, b))
	defer vm.Close()
	run := func(reuse bool) []float64 { return runTape(t, vm, vals, reuse) }
	want := run(false)
	saved := Float64s(a.Value())
	CopyInto(a.Value().(*tensor.Dense), Float64s(b.Value())) // other inputs
	run(true)
	CopyInto(a.Value().(*tensor.Dense), saved)
	sameBits(t, "rewound run", run(true), want)
}
