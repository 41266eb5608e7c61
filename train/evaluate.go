package train

// Evaluation of a split: loss, accuracy, and where the pronoun's attention goes.
//
// Attention alignment, per layer and head, over the split's sentences:
//   - strongest: the pronoun's largest attention weight (over every word, itself
//     included) falls on its antecedent;
//   - preference: the antecedent gets more of the pronoun's attention than the
//     other candidate noun (50% is chance).

import (
	"math"

	"itformer/data"
	"itformer/model"
)

// Evaluation is one split's figures.
type Evaluation struct {
	N          int         `json:"sentences"`
	Loss       float64     `json:"loss"`
	Accuracy   float64     `json:"accuracy"`
	Strongest  [][]float64 `json:"attention_strongest_on_antecedent"` // [layer][head]
	Preference [][]float64 `json:"attention_prefers_antecedent_noun"` // [layer][head]
	// AttentionEntropy is the mean, over every layer, head and real word, of
	// the entropy of its attention row divided by log(n): 0 when each word
	// attends to one word only (a saturated softmax), 1 when it attends evenly.
	AttentionEntropy float64 `json:"attention_entropy"`
	// Calibration (calibration.go): the model's confidence in its answer, the
	// more probable candidate's share of the two, against how often it is right.
	ECE                float64 `json:"expected_calibration_error"`
	MeanTopProbability float64 `json:"mean_top_probability"` // mean confidence; 0.5 is "cannot tell"
	Reliability        []Bin   `json:"reliability"`
}

// evaluate runs every batch of a split through a forward-only graph.
func evaluate(g *model.Graph, batches []data.Batch, layers, heads int) (Evaluation, error) {
	e := Evaluation{Strongest: grid(layers, heads), Preference: grid(layers, heads)}
	correct, entropySum, rows := 0, 0.0, 0
	var cal calibration
	for _, b := range batches {
		out, err := g.Run(ModelBatch(b))
		if err != nil {
			return e, err
		}
		n := len(b.Examples)
		e.Loss += out.Loss * float64(n)
		for r := range b.Examples {
			if model.ArgMax(out.Probs.Row(r)[:b.Lengths[r]]) == b.Antecedent[r] {
				correct++
			}
			cal.add(out.Probs.Row(r), b.Examples[r])
		}
		countAlignment(&e, out, b)
		s, r := attentionEntropy(out, b)
		entropySum, rows = entropySum+s, rows+r
		e.N += n
	}
	if rows > 0 {
		e.AttentionEntropy = entropySum / float64(rows)
	}
	e.Reliability, e.ECE, e.MeanTopProbability = cal.result()
	if e.N > 0 {
		e.Loss /= float64(e.N)
		e.Accuracy = float64(correct) / float64(e.N)
		scale(e.Strongest, 1/float64(e.N))
		scale(e.Preference, 1/float64(e.N))
	}
	return e, nil
}

func countAlignment(e *Evaluation, out *model.Output, b data.Batch) {
	for l, att := range out.Attention {
		for h := range e.Strongest[l] {
			for r, ex := range b.Examples {
				row := att.Row(r, h, ex.Pronoun)[:b.Lengths[r]]
				if model.ArgMax(row) == ex.Antecedent {
					e.Strongest[l][h]++
				}
				other := ex.Candidates[0] + ex.Candidates[1] - ex.Antecedent
				if row[ex.Antecedent] > row[other] {
					e.Preference[l][h]++
				}
			}
		}
	}
}

// attentionEntropy sums the normalised entropy of every real attention row.
func attentionEntropy(out *model.Output, b data.Batch) (sum float64, rows int) {
	for _, att := range out.Attention {
		for r := range b.Examples {
			n := b.Lengths[r]
			if n < 2 {
				continue
			}
			for h := 0; h < att.Shape[1]; h++ {
				for i := 0; i < n; i++ {
					sum += entropy(att.Row(r, h, i)[:n]) / math.Log(float64(n))
					rows++
				}
			}
		}
	}
	return sum, rows
}

func entropy(p []float64) float64 {
	h := 0.0
	for _, x := range p {
		if x > 0 {
			h -= x * math.Log(x)
		}
	}
	return h
}

// ModelBatch hands a data batch to the model; the two packages stay independent.
// A row whose deciding word was hidden (Uncertain) spreads its target over
// both candidates: the sentence cannot say which it is.
func ModelBatch(b data.Batch) model.Batch {
	mb := model.Batch{IDs: b.IDs, Lengths: b.Lengths, Pronoun: b.Pronoun, Antecedent: b.Antecedent}
	for r, ex := range b.Examples {
		if ex.Uncertain {
			if mb.Spread == nil {
				mb.Spread = make([][]int, len(b.Lengths))
			}
			mb.Spread[r] = []int{ex.Candidates[0], ex.Candidates[1]}
		}
	}
	return mb
}

func grid(rows, cols int) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
	}
	return g
}

func scale(g [][]float64, f float64) {
	for _, row := range g {
		for i := range row {
			row[i] *= f
		}
	}
}

// BestHead is the layer and head whose attention most often picks the antecedent.
type BestHead struct {
	Layer, Head int // 1-based, as printed
	Share       float64
}

func bestHead(g [][]float64) BestHead {
	var b BestHead
	for l, row := range g {
		for h, v := range row {
			if v > b.Share || b.Layer == 0 {
				b = BestHead{Layer: l + 1, Head: h + 1, Share: v}
			}
		}
	}
	return b
}
