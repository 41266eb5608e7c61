package model

// Token embedding and positional encoding ("Attention Is All You Need", 3.4-3.5):
//
//	X[b,t] = E[id(b,t)] · sqrt(d_model) + PE[t]
//	PE[t, 2i]   = sin(t / 10000^(2i/d_model))
//	PE[t, 2i+1] = cos(t / 10000^(2i/d_model))
//
// Shapes: E (vocab, d_model); ids (B·T) of tensor.Int; pe (B·T, d_model), the
// (T, d_model) table repeated for every sentence of the batch; X (B·T, d_model).
//
// The embedding is a learned lookup (G.ByIndices, whose gradient scatter-adds
// into the looked-up rows). The positional encoding is fixed, so it is fed as an
// input node rather than a constant: Gorgonia merges constants by printed name,
// and prints of large tensors elide their middle.

import (
	"math"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

func embed(table, ids, pe *G.Node, dModel int) (*G.Node, error) {
	rows, err := gorgoniax.ByIndices(table, ids, 0)
	if err != nil {
		return nil, err
	}
	scaled, err := gorgoniax.Scale(rows, math.Sqrt(float64(dModel)))
	if err != nil || pe == nil { // pe == nil: the no-positions experiment
		return scaled, err
	}
	return G.Add(scaled, pe)
}

// PositionalEncoding returns the sinusoidal table PE as (seqLen, dModel), row-major.
func PositionalEncoding(seqLen, dModel int) []float64 {
	pe := make([]float64, seqLen*dModel)
	for t := 0; t < seqLen; t++ {
		for i := 0; i < dModel; i += 2 {
			angle := float64(t) / math.Pow(10000, float64(i)/float64(dModel))
			pe[t*dModel+i] = math.Sin(angle)
			if i+1 < dModel {
				pe[t*dModel+i+1] = math.Cos(angle)
			}
		}
	}
	return pe
}
