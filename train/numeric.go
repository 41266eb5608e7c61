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
		for j, x := range floats(g.Data()) {
			if bad(x) {
				return 0, fmt.Errorf("%w at step %d: the gradient of %s has %v at entry %d", ErrNumerical, t.step+1, specs[i].Name, x, j)
			}
			squares += x * x
		}
	}
	return math.Sqrt(squares), nil
}

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// floats widens a float32 or float64 slice for inspection.
func floats(d interface{}) []float64 {
	switch x := d.(type) {
	case []float64:
		return x
	case []float32:
		out := make([]float64, len(x))
		for i, v := range x {
			out[i] = float64(v)
		}
		return out
	}
	return nil
}
