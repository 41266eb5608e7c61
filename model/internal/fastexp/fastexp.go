// Package fastexp computes out[i] = exp(x[i]) over slices of float64 or
// float32, with AVX2 assembly where the CPU has it and a portable Go path
// elsewhere (wasm, arm64, -tags purego) that gives the same bits for every
// input, so a model trains to the same weights on every machine.
//
// The algorithm is FreeBSD's e_exp.c / e_expf.c (Go's pure-Go math.Exp is
// the same float64 one), with every operation a single IEEE rounding and no
// fused multiply-add, in this order:
//
//	k  = roundToEven(x·log2e)             (VROUNDPD $0 = math.RoundToEven)
//	hi = x - k·ln2hi                      (ln2hi has trailing zeros: k·ln2hi is exact)
//	lo = k·ln2lo
//	r  = hi - lo,  t = r·r
//	c  = r - t·(P1 + t·(P2 + ...))        (Remez; P1..P5 float64, P1..P2 float32)
//	y  = 1 - ((lo - r·c/(2 - c)) - hi)    (exp(r), < 1 ulp)
//	exp(x) = y · 2^(k>>1) · 2^(k - k>>1)  (two exact powers of two: the first
//	                                       product is exact, the second rounds
//	                                       once, also to a subnormal)
//
// Inputs above ln(MaxFloat) give +Inf, below the subnormal underflow 0,
// NaN gives the same NaN. Results that are subnormal are computed, not
// flushed. Against exp computed to 160 bits (TestAccuracy, 40,000 evenly
// spaced points a range) the largest error measured is 0.88 ulp in float64
// (over [-708, 709.78] and over softmax's [-50, 0]) and 0.83 ulp in float32;
// against math.Exp, which is also under 1 ulp from the other side at times,
// 0.01% of float64 results differ by 2 ulps (TestAgainstMathExp).
//
// Speed (BenchmarkExp64, BenchmarkExp32, one core of an AVX-512 Xeon):
// about 1.6 ns an element in float64 against 4.9 for math.Exp, 0.6 in
// float32 against 5.1 for math32.Exp. An AVX-512 kernel was not tried: the
// float64 kernel is largely bound by VDIVPD, whose throughput per element
// Intel cores do not raise on ZMM registers, and after this the exp is
// about 2% of a float64 training step.
//
// Why the same bits everywhere: the portable Go path writes each product as
// float64(a*b) so no compiler fuses it into an FMA (arm64, ppc64, s390x and
// amd64 with GOAMD64=v3 would), and the assembly uses separate VMULPD and
// VADDPD. Without FMA the portable path stays fast in WebAssembly, where
// math.FMA is emulated in software.
//
// Why not a library: github.com/viterin/vek (MIT, pure Go assembly) has a
// SIMD exp only for float32, finishes the tail of a slice with math32.Exp
// and falls back to math.Exp/math32.Exp without AVX2, so its results differ
// between machines and between positions in a slice; there is no float64
// SIMD exp in it nor in gonum. Note that math.Exp itself is not the same
// bits everywhere: amd64, arm64 and s390x have their own assembly.
package fastexp

import "math"

// Exp64 sets out[i] = exp(x[i]) for i < len(x); out must be at least as
// long as x. out and x may be the same slice.
func Exp64(out, x []float64) {
	out = out[:len(x)]
	n := 0
	if hasAVX2 {
		n = len(x) &^ 3
		if n > 0 {
			exp64AVX2(&out[0], &x[0], n)
		}
	}
	for i := n; i < len(x); i++ {
		out[i] = exp64(x[i])
	}
}

// Exp32 is Exp64 in float32 (with float32 arithmetic throughout).
func Exp32(out, x []float32) {
	out = out[:len(x)]
	n := 0
	if hasAVX2 {
		n = len(x) &^ 7
		if n > 0 {
			exp32AVX2(&out[0], &x[0], n)
		}
	}
	for i := n; i < len(x); i++ {
		out[i] = exp32(x[i])
	}
}

// Name says which path Exp64 and Exp32 take on this machine.
func Name() string {
	if hasAVX2 {
		return "AVX2 exp (model/internal/fastexp)"
	}
	return "portable Go exp (model/internal/fastexp)"
}

// The float64 constants: FreeBSD e_exp.c's, which Go's math.Exp also uses.
const (
	ln2Hi64     = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
	ln2Lo64     = 1.90821492927058770002e-10
	log2e64     = 1.44269504088896338700e+00
	overflow64  = 7.09782712893383973096e+02  // exp above it is +Inf
	underflow64 = -7.45133219101941108420e+02 // exp below it is 0
	p1f64       = 1.66666666666666657415e-01
	p2f64       = -2.77777777770155933842e-03
	p3f64       = 6.61375632143793436117e-05
	p4f64       = -1.65339022054652515390e-06
	p5f64       = 4.13813679705723846039e-08
)

// exp64 is one lane of exp64AVX2, operation for operation.
func exp64(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > overflow64:
		return math.Inf(1)
	case x < underflow64:
		return 0
	}
	k := math.RoundToEven(float64(x * log2e64))
	hi := x - float64(k*ln2Hi64)
	lo := float64(k * ln2Lo64)
	r := hi - lo
	t := float64(r * r)
	p := p4f64 + float64(t*p5f64)
	p = p3f64 + float64(t*p)
	p = p2f64 + float64(t*p)
	p = p1f64 + float64(t*p)
	c := r - float64(t*p)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	ki := int64(k)
	k1 := ki >> 1
	s1 := math.Float64frombits(uint64(k1+1023) << 52)
	s2 := math.Float64frombits(uint64(ki-k1+1023) << 52)
	return float64(y*s1) * s2
}

// The float32 constants: FreeBSD e_expf.c's.
const (
	ln2Hi32     = float32(6.9314575195e-01) // 0x3f317200
	ln2Lo32     = float32(1.4286067653e-06) // 0x35bfbe8e
	log2e32     = float32(1.4426950216e+00)
	overflow32  = float32(8.872283172607421875e+01) // 0x42b17217, ln(MaxFloat32) rounded down: exp above it is +Inf
	underflow32 = float32(-1.0397208405e+02)        // exp below it is 0
	p1f32       = float32(1.6666625440e-1)
	p2f32       = float32(-2.7667332906e-3)
)

// exp32 is one lane of exp32AVX2, operation for operation.
func exp32(x float32) float32 {
	switch {
	case x != x:
		return x
	case x > overflow32:
		return float32(math.Inf(1))
	case x < underflow32:
		return 0
	}
	k := float32(math.RoundToEven(float64(float32(x * log2e32))))
	hi := x - float32(k*ln2Hi32)
	lo := float32(k * ln2Lo32)
	r := hi - lo
	t := float32(r * r)
	c := r - float32(t*(p1f32+float32(t*p2f32)))
	y := 1 - ((lo - float32(r*c)/(2-c)) - hi)
	ki := int32(k)
	k1 := ki >> 1
	s1 := math.Float32frombits(uint32(k1+127) << 23)
	s2 := math.Float32frombits(uint32(ki-k1+127) << 23)
	return float32(y*s1) * s2
}
