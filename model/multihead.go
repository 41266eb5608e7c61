package model

// Multi-head attention: h heads attend independently, each in its own d_k
// slice of the projected vectors, and W^O mixes their concatenated outputs.
//
//	Q = X W^Q,  K = X W^K,  V = X W^V                  (B·T, d_model) each
//	head_i = Attention(Q_i, K_i, V_i)                  Q_i = columns [i·d_k, (i+1)·d_k)
//	MultiHead(X) = Concat(head_1, ..., head_h) W^O      (B·T, d_model)
//	result       = X + MultiHead(X)                    the residual, added in W^O's op
//
// One (d_model, d_model) W^Q holds all heads' (d_model, d_k) query matrices side
// by side, so a single matrix product projects every head at once; the split is
// a reshape (B·T, d_model) -> (B, T, H, d_k), each word's heads side by side.
// The attention's products read head h of that by stride, as the (B, H, T, d_k)
// a transpose would make of it, and write Z in the same (B, T, H, d_k) order,
// so joining the heads is a reshape back (gorgoniax.BatchedMatMulInterleaved:
// no copy either way). Gorgonia's Mul is 2-D only and BatchedMatMul does not
// broadcast a weight, hence the flat (B·T, d_model) layout between sublayers.

import (
	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// MultiHeadWeights are one layer's projections (tags: layout.go).
type MultiHeadWeights[T any] struct {
	WQ T `param:"w_q" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"W^Q: word vector -> queries of all heads"`
	WK T `param:"w_k" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"W^K: word vector -> keys of all heads"`
	WV T `param:"w_v" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"W^V: word vector -> values of all heads"`
	WO T `param:"w_o" shape:"d_model,d_model" init:"normal(1/sqrt(fan_in))" role:"W^O: concatenated heads -> sublayer output"`
}

// shape carries the batch geometry every sublayer needs.
type shape struct {
	B, T, D, H int
	divisor    float64 // attention scores are divided by this: sqrt(d_k), or 1
	trace      bool    // build every explainer step as a node (GraphOptions.Trace)
}

func (s shape) dk() int { return s.D / s.H }

// multiHeadAttention returns x + MultiHead(x), the residual connection's sum.
// gate, if not nil, may zero some heads' z before W^O (ablation.go).
func multiHeadAttention(x, mask *G.Node, w MultiHeadWeights[*G.Node], s shape, gate func(z *G.Node) (*G.Node, error)) (*G.Node, attentionNodes, error) {
	q, err := projectHeads(x, w.WQ, s)
	if err != nil {
		return nil, attentionNodes{}, err
	}
	k, err := projectHeads(x, w.WK, s)
	if err != nil {
		return nil, attentionNodes{}, err
	}
	v, err := projectHeads(x, w.WV, s)
	if err != nil {
		return nil, attentionNodes{}, err
	}
	steps, err := scaledDotProductAttention(q, k, v, mask, s.divisor, s.trace)
	if err != nil {
		return nil, steps, err
	}
	steps.X = x
	if gate != nil {
		if steps.Z, err = gate(steps.Z); err != nil {
			return nil, steps, err
		}
	}
	concat, err := concatHeads(steps.Z, s)
	if err != nil {
		return nil, steps, err
	}
	out, err := gorgoniax.LinearResidual(concat, w.WO, nil, x) // x + concat·W^O, G.Add's sum
	return out, steps, err
}

// projectHeads computes x·W and splits it into heads: (B·T, D) -> (B, T, H, d_k).
func projectHeads(x, w *G.Node, s shape) (*G.Node, error) {
	p, err := G.Mul(x, w)
	if err != nil {
		return nil, err
	}
	return G.Reshape(p, []int{s.B, s.T, s.H, s.dk()})
}

// concatHeads undoes projectHeads' split: (B, T, H, d_k) -> (B·T, D), heads side by side.
func concatHeads(z *G.Node, s shape) (*G.Node, error) {
	return G.Reshape(z, []int{s.B * s.T, s.D})
}
