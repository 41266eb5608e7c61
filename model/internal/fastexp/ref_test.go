package fastexp

import (
	"math"
	"math/big"
)

const refPrec = 160

// ln2Big is ln 2 to 110 digits.
var ln2Big, _ = new(big.Float).SetPrec(refPrec).SetString("0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754200148102")

// expBig is exp(x) to 160 bits: x = k·ln2 + r in 160-bit arithmetic, then
// the Taylor series of exp(r), |r| <= 0.35, to 40 terms (error < 2^-190).
func expBig(x float64) *big.Float {
	k := math.Round(x / math.Ln2)
	r := new(big.Float).SetPrec(refPrec).SetFloat64(x)
	r.Sub(r, new(big.Float).SetPrec(refPrec).Mul(ln2Big, big.NewFloat(k)))
	sum := new(big.Float).SetPrec(refPrec).SetInt64(1)
	term := new(big.Float).SetPrec(refPrec).SetInt64(1)
	for n := int64(1); n <= 40; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetInt64(n))
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}

// errorULP is |got - exp(x)| in units of the last place (of a float with
// mantBits explicit mantissa bits, 52 or 23) at exp(x), for a normal exp(x).
func errorULP(got, x float64, mantBits int) float64 {
	exact := expBig(x)
	diff := new(big.Float).SetPrec(refPrec).SetFloat64(got)
	diff.Sub(diff, exact)
	ulp := new(big.Float).SetMantExp(big.NewFloat(1), exact.MantExp(nil)-1-mantBits)
	q, _ := new(big.Float).Quo(diff.Abs(diff), ulp).Float64()
	return q
}
