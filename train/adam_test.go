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
