package inference

// Attention rollout (Abnar & Zuidema, 2020, "Quantifying Attention Flow in
// Transformers"): how much of each input word reaches a word's vector after
// several layers, following attention through the residual connections.
//
//	Ā_l = mean over the layer's heads of A_l,h          (T, T), rows sum to 1
//	Â_l = (Ā_l + I) / rowsum(Ā_l + I)                   the residual adds the word itself
//	R_1 = Â_1,   R_l = Â_l · R_{l-1}                    rows sum to 1
//
// R_L[p] is the pronoun's row through the whole encoder. Ablated heads
// (ablation.go) pass nothing on, so they are left out of the mean; a layer
// whose heads are all ablated is the identity. Rollout ignores the values,
// W^O, the feed-forward sublayers and layer norm: it is a picture of where
// attention can carry information, not a measure of what the answer used.

import "itformer/model"

// RolloutRule is the definition the -json output carries.
const RolloutRule = "per layer: average the pronoun-independent attention matrices over heads (ablated heads left out), " +
	"add the identity for the residual connection, renormalise rows to sum to 1; " +
	"multiply through the layers, R_l = Â_l · R_(l-1); rollout[l] is the pronoun's row of R after layer l+1"

// rollout returns R_l[pronoun] for every layer l, from att[l][h][i][j].
func rollout(att [][][][]float64, ablated []model.Head, pronoun int) [][]float64 {
	var r [][]float64 // R_l, (T, T)
	var rows [][]float64
	for l, heads := range att {
		a := residualMean(heads, keptHeads(l, len(heads), ablated))
		if r == nil {
			r = a
		} else {
			r = matMul(a, r)
		}
		rows = append(rows, append([]float64(nil), r[pronoun]...))
	}
	return rows
}

// keptHeads lists the heads of layer l that are not ablated.
func keptHeads(l, n int, ablated []model.Head) []int {
	var kept []int
	for h := 0; h < n; h++ {
		off := false
		for _, a := range ablated {
			off = off || a == model.Head{Layer: l, Head: h}
		}
		if !off {
			kept = append(kept, h)
		}
	}
	return kept
}

// residualMean is Â = (mean of heads[kept] + I), rows renormalised.
func residualMean(heads [][][]float64, kept []int) [][]float64 {
	n := len(heads[0])
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		out[i][i] = 1
		for _, h := range kept {
			for j, w := range heads[h][i] {
				out[i][j] += w / float64(len(kept))
			}
		}
		sum := 0.0
		for _, w := range out[i] {
			sum += w
		}
		for j := range out[i] {
			out[i][j] /= sum
		}
	}
	return out
}

// matMul is a·b for square matrices.
func matMul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(b[0]))
		for k, aik := range a[i] {
			for j, bkj := range b[k] {
				out[i][j] += aik * bkj
			}
		}
	}
	return out
}
