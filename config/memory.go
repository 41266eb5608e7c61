package config

import "itformer/model"

// ParamCount is the number of learned numbers of a model of these sizes: the
// sum over model.ParamSpecs, in closed form so that absurd sizes cost nothing
// to count, and in float64 so that no size can overflow it.
func ParamCount(m model.Config) float64 {
	d, f, layers, vocab := float64(m.DModel), float64(m.DFF), float64(m.Layers), float64(m.VocabSize)
	// W^Q, W^K, W^V, W^O; the feed-forward's two matrices and two biases; two layer norms' gain and bias.
	perLayer := 4*d*d + 2*d*f + f + d + 4*d
	return vocab*d + layers*perLayer + 2*d*d // the embedding and the resolution head's W_q, W_k
}
