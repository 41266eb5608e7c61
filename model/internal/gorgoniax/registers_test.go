package gorgoniax

import (
	"math/rand"
	"reflect"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The machine of NewTapeMachine, rewound between runs on changing inputs,
// gives value for value and gradient for gradient what G.NewTapeMachine
// gives. The graph mixes the shapes that made the stock machine reallocate:
// element-wise ops in place, reshapes, sums and a matrix product (which the
// tape preallocates), with registers passed between values of other shapes.
func TestStableRegistersMatchStock(t *testing.T) {
	stock := func(g *G.ExprGraph, opts ...G.VMOpt) (G.VM, error) { return G.NewTapeMachine(g, opts...), nil }
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		want := registerGraphRuns(t, dt, stock)
		got := registerGraphRuns(t, dt, NewTapeMachine)
		for i := range want {
			sameBits(t, dt.String(), got[i], want[i])
		}
	}
}

// The rename does happen: the program gets more registers than it was compiled with.
func TestSplitRegistersByShapeRenames(t *testing.T) {
	g, _, _ := registerGraph(t, tensor.Float64)
	prog, locMap, err := G.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	before := reflect.ValueOf(prog).Elem().FieldByName("cpulocs").Int()
	if !splitRegistersByShape(reflect.ValueOf(prog), reflect.ValueOf(locMap), g) {
		t.Fatal("splitRegistersByShape does not recognise the compiled program")
	}
	if after := reflect.ValueOf(prog).Elem().FieldByName("cpulocs").Int(); after <= before {
		t.Fatalf("%d registers after the rename, %d before", after, before)
	}
}

// registerGraphRuns runs the graph of registerGraph four times on one machine
// (the inputs change between runs) and returns each run's values and gradients.
func registerGraphRuns(t *testing.T, dt tensor.Dtype, newVM func(*G.ExprGraph, ...G.VMOpt) (G.VM, error)) [][]float64 {
	t.Helper()
	g, inputs, nodes := registerGraph(t, dt)
	vals := make([]G.Value, len(nodes))
	for i, n := range nodes {
		G.Read(n, &vals[i])
	}
	vm, err := newVM(g, G.BindDualValues(inputs...))
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	rng := rand.New(rand.NewSource(3))
	var runs [][]float64
	for run := 0; run < 4; run++ {
		out := runTape(t, vm, vals, run > 0)
		for _, in := range inputs {
			grad, err := in.Grad()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, Float64s(grad)...)
			grad.(*tensor.Dense).Zero()
			x := in.Value().(*tensor.Dense)
			next := make([]float64, x.Shape().TotalSize())
			for i := range next {
				next[i] = rng.NormFloat64()
			}
			CopyInto(x, next)
		}
		runs = append(runs, out)
	}
	return runs
}

// registerGraph builds out = sum_rows(exp(x - mean(x))²)ᵀ-ish mixtures of
// shapes (see the code), loss = sum(w ⊙ out), and the gradients of the loss.
func registerGraph(t *testing.T, dt tensor.Dtype) (*G.ExprGraph, []*G.Node, []*G.Node) {
	t.Helper()
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(11))))
	x, m, w := input("x", 6, 4), input("m", 4, 6), input("w", 6, 6)
	mean := G.Must(G.Mean(x, 1))                                     // (6)
	centred := G.Must(BroadcastAdd(x, G.Must(G.Neg(mean)), 1))       // (6, 4)
	e := G.Must(G.Exp(centred))                                      // (6, 4)
	sq := G.Must(G.Square(G.Must(G.Reshape(e, tensor.Shape{4, 6})))) // (4, 6)
	both := G.Must(G.HadamardProd(sq, m))                            // (4, 6)
	prod := G.Must(G.Mul(x, both))                                   // (6, 6), preallocated
	neg := G.Must(G.Neg(G.Must(G.Sum(prod, 0))))                     // (6)
	out := G.Must(BroadcastMul(prod, neg, 0))                        // (6, 6)
	nodes := weightedSumAndGrads(t, out, w, x, m)
	return g, []*G.Node{x, m}, nodes
}
