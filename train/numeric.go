package train

import (
	"errors"
	"fmt"
	"math"

	"itformer/model"
)

// ErrNumerical stops training on a NaN or Inf in the loss or a gradient, before
// the optimiser can spread it into the weights; no checkpoint is written, so
// the last good one stays.
var ErrNumerical = errors.New("numerical fault")

// checkFinite looks at the step's loss and every parameter's gradient, and
// returns the gradients' global L2 norm (for the epoch log); g is the graph
// that ran the step.
func (t *trainer) checkFinite(out *model.Output, g *model.Graph) (float64, error) {
	if bad(out.Objective) {
		return 0, fmt.Errorf("%w at step %d: the loss is %v", ErrNumerical, t.step+1, out.Objective)
	}
	specs, squares := t.Params.Specs(), 0.0
	for i, vg := range g.ValueGrads() {
		g, err := vg.Grad()
		if err != nil {
			return 0, err
		}
		j, x := -1, 0.0
		switch d := g.Data().(type) {
		case []float64:
			squares, j, x = addSquares(d, squares)
		case []float32:
			squares, j, x = addSquares(d, squares)
		}
		if j >= 0 {
			return 0, fmt.Errorf("%w at step %d: the gradient of %s has %v at entry %d", ErrNumerical, t.step+1, specs[i].Name, x, j)
		}
	}
	return math.Sqrt(squares), nil
}

// addSquares adds the squares of xs, each widened to float64, to sum in
// order, without copying a float32 gradient (it cost a float32 step about
// 270 kB); at the first NaN or Inf it stops and returns its index and value
// (index -1 if there is none).
func addSquares[F float32 | float64](xs []F, sum float64) (float64, int, float64) {
	for j, v := range xs {
		x := float64(v)
		if bad(x) {
			return sum, j, x
		}
		sum += x * x
	}
	return sum, -1, 0
}

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
