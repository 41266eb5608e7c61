package gorgoniax

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/fastexp"
)

var unaryFuncs = []struct {
	name string
	f    func(*G.Node) (*G.Node, error)
}{
	{"exp", G.Exp}, {"square", G.Square}, {"sqrt", G.Sqrt}, {"neg", G.Neg}, {"inverse", G.Inverse}, {"log", G.Log},
}

// Unary gives the stock functions' values and gradients on a first run (Do)
// and a rerun (UsePreallocDo), whether it overwrites its input (y dies
// there) or not (y is used again): bit for bit, except Exp (fastexp's, up
// to 2 ulps from math.Exp's), whose values and gradients agree within a few
// units of rounding (expTolerance).
func TestUnaryMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, u := range unaryFuncs {
			for _, reuseInput := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s/reuse=%t", dt, u.name, reuseInput), func(t *testing.T) {
					ours := unaryGraph(t, dt, reuseInput, func(y *G.Node) (*G.Node, error) { return Unary(u.f, y) })
					theirs := unaryGraph(t, dt, reuseInput, u.f)
					if u.name == "exp" {
						closeRel(t, "values and gradients", ours, theirs, expTolerance(dt))
					} else {
						sameBits(t, "values and gradients", ours, theirs)
					}
				})
			}
		}
	}
}

// UsePreallocDo, into a buffer of another shape of the same size, writes
// what the op's Do returns (the stock op's, for all but Exp).
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
			want, err := op.Do(x.Value())
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
// Exp is fastexp's: the same bits as fastexp.Exp64 / Exp32, and within
// 2 ulps of math.Exp (each is within 1 ulp of exp; in float32, of math.Exp
// rounded to float32), with the same zeros, infinities and NaNs. Not the
// stock ExpF32's math32.Exp: on amd64 it gives 0 for 3e38 and other large
// inputs (v1.10.1's assembly), where exp is +Inf.
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
			if u.name != "exp" {
				sameBits(t, what, Float64s(out), Float64s(want))
				continue
			}
			sameBits(t, what+" (fastexp)", Float64s(out), fastExp(dt, specials))
			withinULPs(t, what, dt, Float64s(out), mathExp(dt, specials), 2)
		}
	}
}

// fastExp is fastexp's exp of data in dtype dt, as float64s.
func fastExp(dt tensor.Dtype, data []float64) []float64 {
	if dt == tensor.Float32 {
		x := make([]float32, len(data))
		for i, v := range data {
			x[i] = float32(v)
		}
		fastexp.Exp32(x, x)
		return Float64s(tensor.New(tensor.WithBacking(x)))
	}
	x := append([]float64(nil), data...)
	fastexp.Exp64(x, x)
	return x
}

// mathExp is math.Exp of data in dtype dt (in float32, of float32(v),
// rounded to float32), as float64s.
func mathExp(dt tensor.Dtype, data []float64) []float64 {
	out := make([]float64, len(data))
	for i, v := range data {
		if dt == tensor.Float32 {
			out[i] = float64(float32(math.Exp(float64(float32(v)))))
		} else {
			out[i] = math.Exp(v)
		}
	}
	return out
}

// withinULPs demands got[i] and want[i] at most n units in the last place
// of dtype dt apart (both NaN, or the same infinity, count as equal).
func withinULPs(t *testing.T, what string, dt tensor.Dtype, got, want []float64, n uint64) {
	t.Helper()
	for i := range got {
		g, w := got[i], want[i]
		if g == w || (g != g && w != w) {
			continue
		}
		var d uint64
		if dt == tensor.Float32 {
			d = ulpDistance(uint64(math.Float32bits(float32(g))), uint64(math.Float32bits(float32(w))))
		} else {
			d = ulpDistance(math.Float64bits(g), math.Float64bits(w))
		}
		if d > n || math.Signbit(g) != math.Signbit(w) || math.IsInf(g, 0) || math.IsInf(w, 0) {
			t.Fatalf("%s: value %d is %v, want %v within %d ulps", what, i, g, w, n)
		}
	}
}

func ulpDistance(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// expTolerance bounds the relative difference of the exp graph's values and
// gradients (sums and products of positive terms, so no cancellation): the
// 2 ulps of exp plus a few roundings downstream.
func expTolerance(dt tensor.Dtype) float64 {
	if dt == tensor.Float32 {
		return 8 * 0x1p-24
	}
	return 8 * 0x1p-53
}

// closeRel demands |got[i] - want[i]| <= tol·|want[i]|.
func closeRel(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol*math.Abs(want[i]) {
			t.Fatalf("%s: value %d is %v, want %v within %g relative", what, i, got[i], want[i], tol)
		}
	}
}
