package model

import (
	"fmt"
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
	Probs         Tensor       // (B, T): the resolution's P(antecedent = word t)
	Attention     []Tensor     // per layer (B, H, T, T): row i is word i's weights over the words
	Embedded      Tensor       // (B, T, d_model): embedding + positional encoding
	Encoded       Tensor       // (B, T, d_model): the last encoder layer's output
	Trace         []LayerTrace // per layer
}

// LayerTrace is one layer's attention, step by step. X is (B, T, d_model);
// Q, K, V, Z are (B, H, T, d_k); Scores, Scaled, Weights are (B, H, T, T).
type LayerTrace struct {
	X, Q, K, V, Scores, Scaled, Weights, Z Tensor
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
	if gr.opts.Trace {
		out.Embedded = tensorOf(gr.reads.embedded, s.B, s.T, s.D)
		out.Encoded = tensorOf(gr.reads.encoded, s.B, s.T, s.D)
		for _, l := range gr.reads.trace {
			out.Trace = append(out.Trace, gr.layerTrace(l))
		}
	}
	return out, nil
}

func (gr *Graph) layerTrace(l layerValues) LayerTrace {
	s := gr.shape
	heads := func(v G.Value) Tensor { return tensorOf(v, s.B, s.H, s.T, s.dk()) }
	square := func(v G.Value) Tensor { return tensorOf(v, s.B, s.H, s.T, s.T) }
	return LayerTrace{
		X: tensorOf(l.X, s.B, s.T, s.D), Q: heads(l.Q), K: heads(l.K), V: heads(l.V),
		Scores: square(l.Scores), Scaled: square(l.Scaled), Weights: square(l.Weights), Z: heads(l.Z),
	}
}

// WordSteps are the explainers' steps for one word in one head of one layer,
// over the n real words of its sentence.
type WordSteps struct {
	Layer, Head, Word, DK   int
	X                       []float64   // (d_model) the word's vector entering the layer
	Q, K, V                 []float64   // (d_k) the word's own query, key and value
	Keys, Values            [][]float64 // (n, d_k) every word's key and value
	Scores, Scaled, Weights []float64   // (n) q·k_j, q·k_j/sqrt(d_k), softmax
	Z                       []float64   // (d_k) sum_j Weights_j · Values_j
}

// Steps returns WordSteps for word i of sentence b; it needs a Trace run.
func (o *Output) Steps(b, layer, head, i int) (WordSteps, error) {
	if o.Trace == nil {
		return WordSteps{}, fmt.Errorf("no trace: build the graph with GraphOptions.Trace")
	}
	if b < 0 || b >= len(o.Lengths) || layer < 0 || layer >= len(o.Trace) {
		return WordSteps{}, fmt.Errorf("sentence %d / layer %d out of range (%d sentences, %d layers)", b, layer, len(o.Lengths), len(o.Trace))
	}
	tr, n := o.Trace[layer], o.Lengths[b]
	if head < 0 || head >= tr.Q.Shape[1] || i < 0 || i >= n {
		return WordSteps{}, fmt.Errorf("head %d / word %d out of range (%d heads, %d words)", head, i, tr.Q.Shape[1], n)
	}
	w := WordSteps{Layer: layer, Head: head, Word: i, DK: tr.Q.Shape[3],
		X: tr.X.Row(b, i), Q: tr.Q.Row(b, head, i), K: tr.K.Row(b, head, i), V: tr.V.Row(b, head, i),
		Scores: tr.Scores.Row(b, head, i)[:n], Scaled: tr.Scaled.Row(b, head, i)[:n],
		Weights: tr.Weights.Row(b, head, i)[:n], Z: tr.Z.Row(b, head, i)}
	for j := 0; j < n; j++ {
		w.Keys = append(w.Keys, tr.K.Row(b, head, j))
		w.Values = append(w.Values, tr.V.Row(b, head, j))
	}
	return w, nil
}
