package model

import (
	"math"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// Tensor is a float64 copy of a graph value, row-major.
type Tensor struct {
	Shape []int
	Data  []float64
}

// Row returns the last-axis slice at the leading indices idx (len(Shape)-1 of them).
func (t Tensor) Row(idx ...int) []float64 {
	off := 0
	for i, x := range idx {
		off = off*t.Shape[i] + x
	}
	n := t.Shape[len(t.Shape)-1]
	return t.Data[off*n : (off+1)*n]
}

func tensorOf(v G.Value, shape ...int) Tensor {
	return Tensor{Shape: shape, Data: gorgoniax.Float64s(v)}
}

// Output is what one run of a Graph gives back. Probs is always set; Attention
// needs GraphOptions.Attention or Trace; Embedded, Encoded and Trace need Trace.
type Output struct {
	Loss          float64 // the resolution's cross-entropy, a batch mean
	AttentionLoss float64 // the attention-supervision cross-entropy; 0 when it is off
	Objective     float64 // what training minimises: Loss + λ·AttentionLoss
	Lengths       []int
	Probs         Tensor                   // (B, T): the resolution's P(antecedent = word t)
	Attention     []Tensor                 // per layer (B, H, T, T): row i is word i's weights over the words
	Embedded      Tensor                   // (B, T, d_model): embedding + positional encoding
	Encoded       Tensor                   // (B, T, d_model): the last encoder layer's output
	Trace         []AttentionSteps[Tensor] // per layer; each step's shape is its tag's (attention.go)
	// InputGrad (B, T, d_model) is d log P_b(Antecedent_b) / d X_b, with
	// GraphOptions.InputGradients only (inputgrad.go).
	InputGrad Tensor
}

func (gr *Graph) output(b Batch) (*Output, error) {
	s := gr.shape
	out := &Output{Lengths: append([]int(nil), b.Lengths...),
		Loss: gorgoniax.Float64s(gr.reads.resolutionLoss)[0], Objective: gorgoniax.Float64s(gr.loss.Value())[0]}
	if gr.reads.attentionLoss != nil {
		out.AttentionLoss = gorgoniax.Float64s(gr.reads.attentionLoss)[0]
	}
	out.Probs = tensorOf(gr.reads.logP, s.B, s.T)
	for i, lp := range out.Probs.Data {
		out.Probs.Data[i] = math.Exp(lp)
	}
	for _, a := range gr.reads.attention {
		out.Attention = append(out.Attention, tensorOf(a, s.B, s.H, s.T, s.T))
	}
	if gr.opts.InputGradients {
		out.InputGrad = gr.inputGrad(b)
	}
	if gr.opts.Trace {
		out.Embedded = tensorOf(gr.reads.embedded, s.B, s.T, s.D)
		out.Encoded = tensorOf(gr.reads.encoded, s.B, s.T, s.D)
		for _, l := range gr.reads.trace {
			tr, err := mapSteps(l, gr.shape.tensorOf)
			if err != nil {
				return nil, err
			}
			out.Trace = append(out.Trace, tr)
		}
	}
	return out, nil
}
