package gorgoniax

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

var unaryFuncs = []struct {
	name string
	f    func(*G.Node) (*G.Node, error)
}{
	{"exp", G.Exp}, {"square", G.Square}, {"sqrt", G.Sqrt}, {"neg", G.Neg}, {"inverse", G.Inverse}, {"log", G.Log},
}

// Unary gives the stock functions' values and gradients, bit for bit, on a
// rerun (UsePreallocDo), whether it overwrites its input (y dies there) or
// not (y is used again).
func TestUnaryMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, u := range unaryFuncs {
			for _, reuseInput := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s/reuse=%t", dt, u.name, reuseInput), func(t *testing.T) {
					ours := unaryGraph(t, dt, reuseInput, func(y *G.Node) (*G.Node, error) { return Unary(u.f, y) })
					theirs := unaryGraph(t, dt, reuseInput, u.f)
					sameBits(t, "values and gradients", ours, theirs)
				})
			}
		}
	}
}

// UsePreallocDo, into a buffer of another shape of the same size, writes
// what the stock op's Do returns.
func TestUnaryUsePreallocDo(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, u := range unaryFuncs {
			rng := rand.New(rand.NewSource(5))
			data := make([]float64, 12)
			for i := range data {
				data[i] = 0.5 + rng.Float64()
			}
			x := G.NewTensor(G.NewGraph(), dt, 2, G.WithShape(3, 4), G.WithValue(NewDense(dt, []int{3, 4}, data)))
			n, err := Unary(u.f, x)
			if err != nil {
				t.Fatal(err)
			}
			op := n.Op().(unaryOp)
			want, err := op.stock.Do(x.Value())
			if err != nil {
				t.Fatal(err)
			}
			buf := NewDense(dt, []int{4, 3}, make([]float64, 12))
			got, err := op.UsePreallocDo(buf, x.Value())
			if err != nil {
				t.Fatal(err)
			}
			if got != G.Value(buf) || !got.Shape().Eq(tensor.Shape{3, 4}) {
				t.Fatalf("%v %s: result %p %v, want the buffer %p shaped (3, 4)", dt, u.name, got, got.Shape(), buf)
			}
			sameBits(t, fmt.Sprintf("%v %s", dt, u.name), Float64s(got), Float64s(want))
			sameBits(t, fmt.Sprintf("%v %s: input", dt, u.name), Float64s(x.Value()), Float64s(NewDense(dt, []int{3, 4}, data)))
		}
	}
}

// unaryGraph returns y = x ⊙ c, z = f(y) (+ y if reuseInput), sum(w ⊙ z) and
// its gradients with respect to x and c, from a rerun.
func unaryGraph(t *testing.T, dt tensor.Dtype, reuseInput bool, f func(*G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(19))
	input := inputMaker(g, dt, func() float64 { return 0.5 + rng.Float64() }) // positive: safe for sqrt, log, 1/x
	x, c, w := input("x", 3, 5), input("c", 3, 5), input("w", 3, 5)
	y := G.Must(G.HadamardProd(x, c))
	z, err := f(y)
	if err != nil {
		t.Fatal(err)
	}
	if reuseInput {
		z = G.Must(G.Add(z, y))
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, z, w, x, c))
}

// UsePreallocDo's direct loops give the stock op's Do bit for bit over the
// whole line, not only the positive numbers of the graph tests: signed zeros,
// negatives, tiny, huge and infinite values, NaN, in a tensor of odd size.
func TestUnaryDirectMatchesStockDo(t *testing.T) {
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 1e-310, -1e-310, 1e-30, 3e38, -3e38, 700, -745.2, 88.7, -103.9,
		1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), 0.5, 2, math.Pi, -math.E}
	rng := rand.New(rand.NewSource(13))
	for len(specials) < 7*13 {
		specials = append(specials, rng.NormFloat64()*math.Pow(10, float64(rng.Intn(9)-4)))
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, u := range unaryFuncs {
			what := fmt.Sprintf("%v %s", dt, u.name)
			x := G.NewTensor(G.NewGraph(), dt, 2, G.WithShape(7, 13), G.WithValue(NewDense(dt, []int{7, 13}, specials)))
			n, err := Unary(u.f, x)
			if err != nil {
				t.Fatal(err)
			}
			op := n.Op().(unaryOp)
			out := NewDense(dt, []int{7, 13}, make([]float64, 7*13))
			if !op.direct(out, x.Value().(*tensor.Dense)) {
				t.Fatalf("%s: no direct loop", what)
			}
			want, err := op.stock.Do(x.Value())
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, what, Float64s(out), Float64s(want))
		}
	}
}
