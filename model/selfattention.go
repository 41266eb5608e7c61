package model

// SelfAttention runs the model's own scaled dot-product attention code on
// vectors given by hand, with identity W^Q, W^K, W^V (so Q = K = V = X), as the
// explainers' worked examples do:
//
//	Z = softmax(X X^T / sqrt(d_k)) X     (scale = true)
//	Z = softmax(X X^T) X                 (scale = false, the "pool beats badminton" example)
//
// Shapes: x (n, d); every result row-major (n, n) or (n, d).

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

// AttentionTable holds every step for every word of a hand-given sentence.
type AttentionTable struct {
	DK                      int
	Divisor                 float64     // sqrt(d_k), or 1 without scaling
	Scores, Scaled, Weights [][]float64 // (n, n)
	Z                       [][]float64 // (n, d)
}

// SelfAttention computes an AttentionTable through a Gorgonia graph.
func SelfAttention(x [][]float64, scale bool) (*AttentionTable, error) {
	n, d, flat, err := flatten(x)
	if err != nil {
		return nil, err
	}
	g := G.NewGraph()
	node := func(name string) *G.Node { // (B, T, H, d_k) = (1, n, 1, d), as multihead.go stores them
		v := tensor.New(tensor.WithShape(1, n, 1, d), tensor.WithBacking(append([]float64(nil), flat...)))
		return G.NewTensor(g, tensor.Float64, 4, G.WithShape(1, n, 1, d), G.WithName(name), G.WithValue(v))
	}
	mask := G.NewMatrix(g, tensor.Float64, G.WithShape(1, n), G.WithName("mask"),
		G.WithValue(tensor.New(tensor.WithShape(1, n), tensor.WithBacking(make([]float64, n)))))
	divisor := 1.0
	if scale {
		divisor = math.Sqrt(float64(d))
	}
	steps, err := scaledDotProductAttention(node("q"), node("k"), node("v"), mask, divisor, true)
	if err != nil {
		return nil, err
	}
	return runTable(g, steps, n, d, divisor)
}

func runTable(g *G.ExprGraph, s attentionNodes, n, d int, divisor float64) (*AttentionTable, error) {
	var scores, scaled, weights, z G.Value
	G.Read(s.Scores, &scores)
	G.Read(s.Scaled, &scaled)
	G.Read(s.Weights, &weights)
	G.Read(s.Z, &z)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		return nil, err
	}
	t := &AttentionTable{DK: d, Divisor: divisor}
	t.Scores, t.Scaled, t.Weights = rows(gorgoniax.Float64s(scores), n), rows(gorgoniax.Float64s(scaled), n), rows(gorgoniax.Float64s(weights), n)
	t.Z = rows(gorgoniax.Float64s(z), d)
	return t, nil
}

func flatten(x [][]float64) (n, d int, flat []float64, err error) {
	if len(x) == 0 || len(x[0]) == 0 {
		return 0, 0, nil, fmt.Errorf("self-attention needs at least one vector of at least one number")
	}
	d = len(x[0])
	for i, row := range x {
		if len(row) != d {
			return 0, 0, nil, fmt.Errorf("vector %d has %d numbers, vector 0 has %d", i, len(row), d)
		}
		flat = append(flat, row...)
	}
	return len(x), d, flat, nil
}

func rows(flat []float64, width int) [][]float64 {
	var out [][]float64
	for i := 0; i+width <= len(flat); i += width {
		out = append(out, flat[i:i+width])
	}
	return out
}
