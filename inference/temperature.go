package inference

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Temperature scaling (Guo et al. 2017) is the other source of doubt the
// selective command measures beside the deep ensemble: one model's shares,
// sharpened or softened by a single temperature T fitted on held-out data.
//
// For the shown answer's share s of the two candidates' probability, the
// logit is l = log(s / (1 - s)) and the scaled share is σ(l / T). T is the
// one that minimises the negative log-likelihood of right and wrong answers:
//
//	NLL(a) = mean_i [ y_i · softplus(-a·l_i) + (1 - y_i) · softplus(a·l_i) ],  a = 1/T
//
// NLL is convex in a, so its derivative, which Gorgonia's autodiff gives,
// rises with a, and bisection on its sign finds the minimum.

// Temperature bounds: a fit that reaches one says the data ask for more
// (every answer right: sharpen without end; none right: flatten).
const (
	MinTemperature = 1e-3
	MaxTemperature = 1e3
)

// maxLogit bounds |l|: a share of exactly 1 (or 0) in float64 has no logit.
const maxLogit = 36.0 // log((1 - 1e-16) / 1e-16)

// ScaleShare is share at temperature t: σ(l / t) for the share's logit l.
func ScaleShare(share, t float64) float64 {
	return 1 / (1 + math.Exp(-shareLogit(share)/t))
}

// shareLogit is log(s / (1 - s)), bounded by ±maxLogit.
func shareLogit(s float64) float64 {
	l := math.Log(s) - math.Log1p(-s)
	return math.Max(-maxLogit, math.Min(maxLogit, l))
}

// FitTemperature returns the temperature that makes the shares of answers
// most likely to be right as often as they were (right[i] for shares[i]).
func FitTemperature(shares []float64, right []bool) (float64, error) {
	if len(shares) == 0 || len(shares) != len(right) {
		return 0, fmt.Errorf("fitting a temperature: %d shares and %d right-or-wrong answers; want as many, at least one", len(shares), len(right))
	}
	slope, err := newNLLSlope(shares, right)
	if err != nil {
		return 0, err
	}
	lo, hi := math.Log(1/MaxTemperature), math.Log(1/MinTemperature) // in log a
	for range 80 {
		mid := (lo + hi) / 2
		g, err := slope(math.Exp(mid))
		if err != nil {
			return 0, err
		}
		if g > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return 1 / math.Exp((lo+hi)/2), nil
}

// newNLLSlope builds NLL(a) as a Gorgonia graph over the answers and returns
// a function that gives dNLL/da at a.
func newNLLSlope(shares []float64, right []bool) (func(a float64) (float64, error), error) {
	n := len(shares)
	logits, labels := make([]float64, n), make([]float64, n)
	for i, s := range shares {
		logits[i] = shareLogit(s)
		if right[i] {
			labels[i] = 1
		}
	}
	g := gorgonia.NewGraph()
	a := gorgonia.NewScalar(g, tensor.Float64, gorgonia.WithName("a"), gorgonia.WithValue(1.0))
	l := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("l"), gorgonia.WithValue(tensor.New(tensor.WithBacking(logits))))
	y := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithName("y"), gorgonia.WithValue(tensor.New(tensor.WithBacking(labels))))
	loss, err := nll(a, l, y)
	if err != nil {
		return nil, fmt.Errorf("building the temperature's likelihood: %w", err)
	}
	if _, err := gorgonia.Grad(loss, a); err != nil {
		return nil, fmt.Errorf("differentiating the temperature's likelihood: %w", err)
	}
	vm := gorgonia.NewTapeMachine(g)
	return func(at float64) (float64, error) {
		defer vm.Reset()
		if err := gorgonia.Let(a, at); err != nil {
			return 0, err
		}
		if err := vm.RunAll(); err != nil {
			return 0, fmt.Errorf("the temperature's likelihood at 1/T = %g: %w", at, err)
		}
		grad, err := a.Grad()
		if err != nil {
			return 0, err
		}
		v, ok := grad.Data().(float64)
		if !ok {
			return 0, errors.New("the temperature's gradient is not a float64 scalar")
		}
		return v, nil
	}, nil
}

// nll is mean(y · softplus(-a·l) + (1 - y) · softplus(a·l)), shapes: a
// scalar, l and y (n).
func nll(a, l, y *gorgonia.Node) (*gorgonia.Node, error) {
	z, err := gorgonia.Mul(l, a) // (n)
	if err != nil {
		return nil, err
	}
	wrongIfRight, err := gorgonia.Softplus(gorgonia.Must(gorgonia.Neg(z))) // -log σ(z)
	if err != nil {
		return nil, err
	}
	wrongIfWrong, err := gorgonia.Softplus(z) // -log(1 - σ(z))
	if err != nil {
		return nil, err
	}
	notY, err := gorgonia.Sub(gorgonia.NewConstant(1.0), y)
	if err != nil {
		return nil, err
	}
	terms, err := gorgonia.Add(gorgonia.Must(gorgonia.HadamardProd(y, wrongIfRight)), gorgonia.Must(gorgonia.HadamardProd(notY, wrongIfWrong)))
	if err != nil {
		return nil, err
	}
	return gorgonia.Mean(terms)
}
