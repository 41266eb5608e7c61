package gorgoniax

import (
	"fmt"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Broadcast gives the G.Broadcast* functions' values and gradients, bit for bit.
func TestBroadcastMatchesGorgonia(t *testing.T) {
	type opPair struct {
		name   string
		ours   func(a, b *G.Node) (*G.Node, error)
		theirs func(a, b *G.Node, left, right []byte) (*G.Node, error)
	}
	ops := []opPair{
		{"add", G.Add, G.BroadcastAdd}, {"sub", G.Sub, G.BroadcastSub},
		{"mul", G.HadamardProd, G.BroadcastHadamardProd}, {"div", G.HadamardDiv, G.BroadcastHadamardDiv},
	}
	cases := []struct {
		x, y []int
		axes []int
	}{
		{[]int{6, 4}, []int{6}, []int{1}},             // a row's mean over its features
		{[]int{6, 4}, []int{4}, []int{0}},             // a gain or bias over the rows
		{[]int{2, 3, 4, 5}, []int{2, 3, 4}, []int{3}}, // a softmax row's max or sum
		{[]int{2, 3, 4, 5}, []int{2, 5}, []int{1, 2}}, // the key mask over heads and queries
	}
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, op := range ops {
			for _, c := range cases {
				t.Run(fmt.Sprintf("%v/%s/%v", dt, op.name, c.axes), func(t *testing.T) {
					pattern := make([]byte, len(c.axes))
					for i, a := range c.axes {
						pattern[i] = byte(a)
					}
					ours := broadcastGraph(t, dt, c.x, c.y, func(x, y *G.Node) (*G.Node, error) { return Broadcast(op.ours, x, y, c.axes...) })
					theirs := broadcastGraph(t, dt, c.x, c.y, func(x, y *G.Node) (*G.Node, error) { return op.theirs(x, y, nil, pattern) })
					sameBits(t, "values and gradients", ours, theirs)
				})
			}
		}
	}
}

// broadcastGraph returns f(x, y), sum(w ⊙ f(x, y)) and its gradients with respect to x and y.
func broadcastGraph(t *testing.T, dt tensor.Dtype, xShape, yShape []int, f func(x, y *G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	rng := rand.New(rand.NewSource(13))
	input := inputMaker(g, dt, func() float64 { return 0.5 + rng.Float64() }) // positive: safe to divide by
	x, y, w := input("x", xShape...), input("y", yShape...), input("w", xShape...)
	z, err := f(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return valuesAfterRerun(t, g, weightedSumAndGrads(t, z, w, x, y))
}
