package inference

// Finite outputs only: weights that load (every value finite) can still
// overflow in the forward pass, and a NaN answer looks like an answer. Every
// output a caller sees is checked first, so every command and the page say
// the model is broken instead of printing NaN%.

import (
	"errors"
	"fmt"
	"math"

	"itformer/model"
)

// ErrBrokenModel marks a forward pass that gave NaN or an infinity: the
// checkpoint loaded, but its weights cannot give a meaningful answer.
var ErrBrokenModel = errors.New("the checkpoint's weights are broken")

// finite returns an error naming what if xs holds a NaN or an infinity.
func finite(what string, xs []float64) error {
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			return fmt.Errorf("the model's output is not a number (NaN in %s): %w", what, ErrBrokenModel)
		case math.IsInf(x, 0):
			return fmt.Errorf("the model's output is not finite (%v in %s): %w", x, what, ErrBrokenModel)
		}
	}
	return nil
}

// checkResolved checks the answer's probabilities and every layer's attention.
func checkResolved(out *model.Output) error {
	if err := finite("the answer's probabilities", out.Probs.Data); err != nil {
		return err
	}
	for l, a := range out.Attention {
		if err := finite(fmt.Sprintf("layer %d's attention", l+1), a.Data); err != nil {
			return err
		}
	}
	return nil
}

// checkTrace checks every traced step in the order the forward pass makes
// them, so the message names the first step that went wrong.
func checkTrace(out *model.Output) error {
	if err := finite("the input vectors", out.Embedded.Data); err != nil {
		return err
	}
	for l, s := range out.Trace {
		if err := checkLayer(l, s); err != nil {
			return err
		}
	}
	if err := finite("the encoder's output", out.Encoded.Data); err != nil {
		return err
	}
	return checkResolved(out)
}

// checkLayer checks every step of one layer's record, in its order.
func checkLayer(l int, s model.AttentionSteps[model.Tensor]) error {
	for _, st := range s.List() {
		if err := finite(fmt.Sprintf("layer %d's %s (%s)", l+1, st.Name, st.Formula), st.Value.Data); err != nil {
			return err
		}
	}
	return nil
}
