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
