package fastexp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// inputs64 is random float64s over the whole range exp cares about, the
// softmax range, tiny values and random bit patterns (NaNs, infinities and
// subnormals among them), plus the edges.
func inputs64(rng *rand.Rand, n int) []float64 {
	x := append([]float64(nil), edges64...)
	for i := range n {
		switch i % 4 {
		case 0:
			x = append(x, -760+rng.Float64()*1480)
		case 1:
			x = append(x, -50*rng.Float64())
		case 2:
			x = append(x, (rng.Float64()-0.5)*math.Ldexp(1, -rng.IntN(60)))
		default:
			x = append(x, math.Float64frombits(rng.Uint64()))
		}
	}
	return x
}

func inputs32(rng *rand.Rand, n int) []float32 {
	x := append([]float32(nil), edges32...)
	for i := range n {
		switch i % 4 {
		case 0:
			x = append(x, -110+rng.Float32()*200)
		case 1:
			x = append(x, -50*rng.Float32())
		case 2:
			x = append(x, (rng.Float32()-0.5)*float32(math.Ldexp(1, -rng.IntN(40))))
		default:
			x = append(x, math.Float32frombits(rng.Uint32()))
		}
	}
	return x
}

var (
	edges64 = []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, -1e9, 1e9, math.Inf(1), math.Inf(-1), math.NaN(),
		overflow64, math.Nextafter(overflow64, 800), underflow64, math.Nextafter(underflow64, -800),
		-708.3964185322641, -708.4, -720, -740, -745, 709, 709.7, -0.5 * math.Ln2, 0.5 * math.Ln2, math.SmallestNonzeroFloat64}
	edges32 = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1e-30, -1e-30, -1e9, 1e9, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		overflow32, math.Nextafter32(overflow32, 100), underflow32, math.Nextafter32(underflow32, -110),
		-87.33655, -87.4, -90, -100, -103.9, 88, 88.7, -0.5 * math.Ln2, 0.5 * math.Ln2}
)

// TestSameBits: Exp64 and Exp32 (AVX2 on a CPU that has it) give exp64's
// and exp32's bits (the portable path, which every other platform runs) for
// every input, on every length 0..67 (the tails) and at every offset 0..3
// into the slice (unaligned), writing nothing past len(x).
func TestSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	t.Logf("path: %s", Name())
	x64, x32 := inputs64(rng, 1<<17), inputs32(rng, 1<<17)
	checkSame64(t, "random", x64)
	checkSame32(t, "random", x32)
	for n := range 68 {
		for off := range 4 {
			name := fmt.Sprintf("len=%d/offset=%d", n, off)
			checkSame64(t, name, x64[off:off+n])
			checkSame32(t, name, x32[off:off+n])
		}
	}
}

func checkSame64(t *testing.T, name string, x []float64) {
	t.Helper()
	out := make([]float64, len(x)+1)
	out[len(x)] = 42
	Exp64(out, x)
	for i, v := range x {
		if want := exp64(v); math.Float64bits(out[i]) != math.Float64bits(want) {
			t.Fatalf("%s: Exp64(%v [%#x]) = %v [%#x], portable %v [%#x]", name, v, math.Float64bits(v), out[i], math.Float64bits(out[i]), want, math.Float64bits(want))
		}
	}
	if out[len(x)] != 42 {
		t.Fatalf("%s: Exp64 wrote past len(x)", name)
	}
	in := append([]float64(nil), x...)
	Exp64(in, in) // in place
	for i := range x {
		if math.Float64bits(in[i]) != math.Float64bits(out[i]) {
			t.Fatalf("%s: in place, Exp64(%v) = %v, not %v", name, x[i], in[i], out[i])
		}
	}
}

func checkSame32(t *testing.T, name string, x []float32) {
	t.Helper()
	out := make([]float32, len(x)+1)
	out[len(x)] = 42
	Exp32(out, x)
	for i, v := range x {
		if want := exp32(v); math.Float32bits(out[i]) != math.Float32bits(want) {
			t.Fatalf("%s: Exp32(%v [%#x]) = %v [%#x], portable %v [%#x]", name, v, math.Float32bits(v), out[i], math.Float32bits(out[i]), want, math.Float32bits(want))
		}
	}
	if out[len(x)] != 42 {
		t.Fatalf("%s: Exp32 wrote past len(x)", name)
	}
}

// TestEdges: exact results where softmax relies on them, and IEEE's
// special cases.
func TestEdges(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		x, want float64 // want NaN: the result must be NaN
	}{
		{0, 1}, {math.Copysign(0, -1), 1}, {-1e9, 0}, {1e9, inf}, {inf, inf}, {math.Inf(-1), 0}, {nan, nan},
		{-746, 0}, {710, inf}, {1e-300, 1}, {-1e-300, 1},
		{-745, 5e-324}, // the smallest subnormal, not flushed to 0
		{-740, math.Exp(-740)}, {1, math.E},
	}
	for _, c := range cases {
		got64 := make([]float64, 8)
		Exp64(got64, []float64{c.x, c.x, c.x, c.x, c.x, c.x, c.x, c.x}[:5]) // AVX2 lanes and the tail
		got32 := make([]float32, 9)
		x32 := float32(c.x)
		Exp32(got32, []float32{x32, x32, x32, x32, x32, x32, x32, x32, x32})
		want32 := float32(c.want)
		if c.x < -104 {
			want32 = 0
		}
		for i := range 9 {
			if i < 5 && !same(got64[i], c.want) {
				t.Errorf("Exp64(%v)[%d] = %v, want %v", c.x, i, got64[i], c.want)
			}
			if !same(float64(got32[i]), float64(want32)) && !(c.x == math.E || c.x == -740) {
				t.Errorf("Exp32(%v)[%d] = %v, want %v", x32, i, got32[i], want32)
			}
		}
	}
	// float32: its smallest subnormal result, not flushed.
	got := make([]float32, 8)
	Exp32(got, []float32{-103.5, -103.5, -103.5, -103.5, -103.5, -103.5, -103.5, -103.5})
	if want := float32(math.Exp(-103.5)); got[0] != want || want == 0 {
		t.Errorf("Exp32(-103.5) = %v, want the subnormal %v", got[0], want)
	}
}

func same(a, b float64) bool { return a == b || (a != a && b != b) }

// TestAccuracy measures the error of Exp64 and Exp32 against exp computed
// to 160 bits (expBig), in units in the last place, on evenly spaced points
// of each range, and demands less than 1 ulp.
func TestAccuracy(t *testing.T) {
	n := 40_000
	if testing.Short() {
		n = 4_000
	}
	for _, s := range accuracySweeps {
		step := (s.hi - s.lo) / float64(n)
		worst, at := 0.0, 0.0
		for i := range n {
			x, got := s.lo+float64(i)*step, 0.0
			if s.mantBits == 23 {
				x32 := float32(x)
				x, got = float64(x32), float64(exp32(x32))
			} else {
				got = exp64(x)
			}
			if e := errorULP(got, x, s.mantBits); e > worst {
				worst, at = e, x
			}
		}
		t.Logf("%s, %d points: max error %.3f ulp (at %v)", s.name, n, worst, at)
		if worst >= 1 {
			t.Errorf("%s: error %.3f ulp at %v", s.name, worst, at)
		}
	}
}

// accuracySweeps: the whole range where exp is normal, and softmax's.
var accuracySweeps = []struct {
	name     string
	lo, hi   float64
	mantBits int
}{
	{"float64 [-708, 709.78]", -708, 709.78, 52},
	{"float64 softmax [-50, 0]", -50, 0, 52},
	{"float32 [-87, 88.72]", -87, 88.72, 23},
	{"float32 softmax [-50, 0]", -50, 0, 23},
}

// TestAgainstMathExp compares Exp64 with math.Exp and Exp32 with
// float32(math.Exp) over dense sweeps (all of [-745, 710] and [-104, 89],
// subnormal results included), counting the results that differ. Both are
// within 1 ulp of exp, from either side, so they may differ by 2. On amd64
// math.Exp overflows to +Inf early (from x ≈ 709.43, where exp is about
// 1.2e308): those points are compared with expBig instead.
func TestAgainstMathExp(t *testing.T) {
	const n = 2_000_000
	for _, s := range []struct {
		name     string
		lo, hi   float64
		float32s bool
	}{
		{"float64 [-745.1, 709.78]", -745.1, 709.78, false},
		{"float64 softmax [-50, 0]", -50, 0, false},
		{"float32 [-103.9, 88.72]", -103.9, 88.72, true},
		{"float32 softmax [-50, 0]", -50, 0, true},
	} {
		var hist [3]int
		var worst uint64
		step := (s.hi - s.lo) / n
		for i := range n {
			x := s.lo + float64(i)*step
			var d uint64
			if s.float32s {
				x32 := float32(x)
				d = ulps(uint64(math.Float32bits(exp32(x32))), uint64(math.Float32bits(float32(math.Exp(float64(x32))))))
			} else {
				want := math.Exp(x)
				if math.IsInf(want, 1) {
					want, _ = expBig(x).Float64()
				}
				d = ulps(math.Float64bits(exp64(x)), math.Float64bits(want))
			}
			hist[min(d, 2)]++
			worst = max(worst, d)
		}
		t.Logf("%s, %d points: same %d, 1 ulp apart %d, 2 or more %d (max %d)", s.name, n, hist[0], hist[1], hist[2], worst)
		if worst > 2 {
			t.Errorf("%s: %d ulp from math.Exp", s.name, worst)
		}
	}
}

// ulps is the distance between two non-negative floats' bit patterns.
func ulps(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}
