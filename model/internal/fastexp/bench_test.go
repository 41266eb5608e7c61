package fastexp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chewxy/math32"
)

// BenchmarkExp64 and BenchmarkExp32: math.Exp / math32.Exp element by
// element (what gorgoniax.Unary ran before), Exp64 / Exp32 on this
// machine's path, and the portable path, on softmax-like inputs (in
// [-20, 0]) of 576 (one head's 24×24 scores) and 36864 elements (a batch).
func BenchmarkExp64(b *testing.B) {
	paths := []struct {
		name string
		f    func(out, x []float64)
	}{
		{"math.Exp", func(out, x []float64) {
			for i, v := range x {
				out[i] = math.Exp(v)
			}
		}},
		{"Exp64", Exp64},
		{"portable", func(out, x []float64) {
			for i, v := range x {
				out[i] = exp64(v)
			}
		}},
	}
	for _, n := range []int{576, 36864} {
		rng := rand.New(rand.NewPCG(3, 4))
		x, out := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = -20 * rng.Float64()
		}
		for _, p := range paths {
			b.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(b *testing.B) {
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					p.f(out, x)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
			})
		}
	}
}

func BenchmarkExp32(b *testing.B) {
	paths := []struct {
		name string
		f    func(out, x []float32)
	}{
		{"math32.Exp", func(out, x []float32) {
			for i, v := range x {
				out[i] = math32.Exp(v)
			}
		}},
		{"Exp32", Exp32},
		{"portable", func(out, x []float32) {
			for i, v := range x {
				out[i] = exp32(v)
			}
		}},
	}
	for _, n := range []int{576, 36864} {
		rng := rand.New(rand.NewPCG(3, 4))
		x, out := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = -20 * rng.Float32()
		}
		for _, p := range paths {
			b.Run(fmt.Sprintf("%s/n=%d", p.name, n), func(b *testing.B) {
				b.SetBytes(int64(4 * n))
				for b.Loop() {
					p.f(out, x)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
			})
		}
	}
}

// BenchmarkExp64Masked: a softmax row with masked entries (x = -1e9 - max,
// which exp sends to 0), one in three.
func BenchmarkExp64Masked(b *testing.B) {
	const n = 36864
	x, out := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = -float64(i%20) / 2
		if i%3 == 0 {
			x[i] = -1e9
		}
	}
	for _, p := range []struct {
		name string
		f    func(out, x []float64)
	}{{"math.Exp", func(out, x []float64) {
		for i, v := range x {
			out[i] = math.Exp(v)
		}
	}}, {"Exp64", Exp64}} {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				p.f(out, x)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
		})
	}
}
