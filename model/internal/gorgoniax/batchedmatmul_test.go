package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// BatchedMatMul gives G.BatchedMatMul's values and gradients, bit for bit,
// for every transposition.
func TestBatchedMatMulMatchesGorgonia(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			t.Run(fmt.Sprintf("%v/transA=%t/transB=%t", dt, tr[0], tr[1]), func(t *testing.T) {
				ours := matMulGraph(t, dt, tr[0], tr[1], BatchedMatMul)
				theirs := matMulGraph(t, dt, tr[0], tr[1], func(a, b *G.Node, transA, transB bool) (*G.Node, error) {
					return G.BatchedMatMul(a, b, transA, transB)
				})
				sameBits(t, "values and gradients", ours, theirs)
			})
		}
	}
}

// matMulGraph computes sum(w ⊙ A·B) for A (2, 3, 4, 5) and B (2, 3, 5, 6),
// stored transposed as the flags ask, and returns A·B, the sum and its gradients.
func matMulGraph(t *testing.T, dt tensor.Dtype, transA, transB bool, mul func(a, b *G.Node, transA, transB bool) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(11))
	input := inputMaker(g, dt, normal(rng))
	aShape, bShape := []int{2, 3, 4, 5}, []int{2, 3, 5, 6}
	if transA {
		aShape = []int{2, 3, 5, 4}
	}
	if transB {
		bShape = []int{2, 3, 6, 5}
	}
	a, b, w := input("a", aShape...), input("b", bShape...), input("w", 2, 3, 4, 6)
	a.Value().(*tensor.Dense).Set(3, ScalarOf(dt, 0)) // gonum skips zero terms; keep one
	prod, err := mul(a, b, transA, transB)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, prod, w, a, b))
}

// BatchedMatMulInterleaved reading (and writing) (B, R, H, C) operands gives
// what G.Transpose(·, 0, 2, 1, 3) around G.BatchedMatMul gives, values and
// gradients, bit for bit, for every transposition and every choice of
// interleaved operands.
func TestInterleavedMatchesSwaps(t *testing.T) {
	swap := func(x *G.Node, on bool) (*G.Node, error) {
		if !on {
			return x, nil
		}
		return G.Transpose(x, 0, 2, 1, 3)
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			for bits := 1; bits < 8; bits++ {
				layout := Interleaved{A: bits&1 != 0, B: bits&2 != 0, Out: bits&4 != 0}
				t.Run(fmt.Sprintf("%v/transA=%t/transB=%t/%+v", dt, tr[0], tr[1], layout), func(t *testing.T) {
					ours := interleavedGraph(t, dt, tr, layout, func(a, b *G.Node) (*G.Node, error) {
						return BatchedMatMulInterleaved(a, b, tr[0], tr[1], layout)
					})
					theirs := interleavedGraph(t, dt, tr, layout, func(a, b *G.Node) (*G.Node, error) {
						prod, err := G.BatchedMatMul(G.Must(swap(a, layout.A)), G.Must(swap(b, layout.B)), tr[0], tr[1])
						if err != nil {
							return nil, err
						}
						return swap(prod, layout.Out)
					})
					sameBits(t, "values and gradients", ours, theirs)
				})
			}
		}
	}
}

// interleavedGraph is matMulGraph with the interleaved operands and result
// stored with their middle axes swapped: A·B is (2, 3, m, n) as read.
//
// In float32, gonum's dot product first steps to a 16-byte boundary, so its
// sums depend on where a row starts; the sizes are then multiples of 4, as
// the model's are (every head's rows start at a multiple of d_k = 16). The
// float64 sizes are odd.
func interleavedGraph(t *testing.T, dt tensor.Dtype, tr [2]bool, layout Interleaved, mul func(a, b *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	m, k, n := 4, 5, 7
	if dt == tensor.Float32 {
		m, k, n = 4, 8, 12
	}
	g := G.NewGraph()
	input := inputMaker(g, dt, normal(rand.New(rand.NewSource(13))))
	stored := func(rows, cols int, trans, interleaved bool) []int {
		if trans {
			rows, cols = cols, rows
		}
		if interleaved {
			return []int{2, rows, 3, cols}
		}
		return []int{2, 3, rows, cols}
	}
	a, b := input("a", stored(m, k, tr[0], layout.A)...), input("b", stored(k, n, tr[1], layout.B)...)
	w := input("w", stored(m, n, false, layout.Out)...)
	prod, err := mul(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, prod, w, a, b))
}
