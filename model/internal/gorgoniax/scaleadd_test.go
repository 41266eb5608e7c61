package gorgoniax

import (
	"fmt"
	"math"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ScaleAddData gives the values and gradients of Scale then BroadcastAddData
// (model/attention.go's construction before it) and of the stock G.Mul by a
// constant then G.BroadcastAdd, bit for bit, on a rerun: every axis pattern
// of broadcastCases, the model's factors and a negative one.
func TestScaleAddDataMatchesScaleThenAdd(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float64, tensor.Float32} {
		for _, c := range []float64{0.25, 1 / math.Sqrt(8), -3} {
			for _, bc := range broadcastCases {
				t.Run(fmt.Sprintf("%v/%v/%v%v", dt, c, bc.x, bc.axes), func(t *testing.T) {
					pattern := make([]byte, len(bc.axes))
					for i, a := range bc.axes {
						pattern[i] = byte(a)
					}
					ours := func(x, y *G.Node) (*G.Node, error) { return ScaleAddData(x, c, y, bc.axes...) }
					twoOps := func(x, y *G.Node) (*G.Node, error) {
						return BroadcastAddData(G.Must(Scale(x, c)), y, bc.axes...)
					}
					stock := func(x, y *G.Node) (*G.Node, error) {
						scaled := G.Must(G.Mul(x, G.NewConstant(ScalarOf(dt, c), G.WithName(fmt.Sprint(c)))))
						return G.BroadcastAdd(scaled, y, nil, pattern)
					}
					got := broadcastGraph(t, dt, bc.x, bc.y, false, ours)
					sameBits(t, "against Scale and BroadcastAddData", got, broadcastGraph(t, dt, bc.x, bc.y, false, twoOps))
					sameBits(t, "against G.Mul and G.BroadcastAdd", got, broadcastGraph(t, dt, bc.x, bc.y, false, stock))
				})
			}
		}
	}
}
