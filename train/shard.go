package train

// Data-parallel training steps (train.shards): a batch's rows split into
// shards, each run forward and backward on its own graph and goroutine, so
// that a step uses more than one core while Gorgonia's ops and the BLAS
// kernels each stay on one. Summing the gradients in a fixed order keeps
// training deterministic. Session.Run says how the pieces fit.

import (
	"errors"
	"fmt"
	"sync"

	"gorgonia.org/tensor"
	"gorgonia.org/vecf32"
	"gorgonia.org/vecf64"

	"itformer/model"
)

// runShards runs shard k of mb (its k-th block of equal rows) on graphs[k]:
// shard 0 on this goroutine, the others each on their own. Each graph
// writes only its own inputs, activations and gradients and reads the
// shared weights, which nothing writes until every shard is done.
func runShards(graphs []*model.Graph, mb model.Batch) ([]*model.Output, error) {
	n := len(graphs)
	rows := len(mb.Lengths) / n
	outs, errs := make([]*model.Output, n), make([]error, n)
	var wg sync.WaitGroup
	for k := n - 1; k >= 0; k-- {
		part, err := mb.Rows(k*rows, (k+1)*rows)
		if err != nil {
			errs[k] = err
			continue
		}
		run := func() { outs[k], errs[k] = graphs[k].Run(part) }
		if k == 0 {
			run()
			continue
		}
		wg.Go(run)
	}
	wg.Wait()
	return outs, errors.Join(errs...)
}

// sumGradients adds every other shard's gradients into shard 0's, shard by
// shard in order ((g0 + g1) + g2 …), so the sum, bit for bit, does not
// depend on which shard finished first; it zeroes the others' as the
// optimiser zeroes shard 0's, since gradients add up over runs.
func sumGradients(graphs []*model.Graph) error {
	into := graphs[0].ValueGrads()
	for k, g := range graphs[1:] {
		for i, vg := range g.ValueGrads() {
			src, err := vg.Grad()
			if err != nil {
				return fmt.Errorf("shard %d, parameter %d: %w", k+1, i, err)
			}
			dst, err := into[i].Grad()
			if err != nil {
				return fmt.Errorf("shard 0, parameter %d: %w", i, err)
			}
			addInto(dst.Data(), src.Data())
			src.(*tensor.Dense).Zero()
		}
	}
	return nil
}

// addInto adds src to dst element by element (float64 or float32), with the
// vector adds Gorgonia's own element-wise ops use.
func addInto(dst, src any) {
	switch d := dst.(type) {
	case []float64:
		vecf64.Add(d, src.([]float64))
	case []float32:
		vecf32.Add(d, src.([]float32))
	}
}

// mergeOutputs is the whole batch's output from its shards': each shard's
// losses are its part of the whole batch's mean (Batch.Normaliser), so they
// add up, in shard order; lengths and probabilities are the shards' rows one
// after the other. Training graphs read no attention, so none is joined.
func mergeOutputs(outs []*model.Output) *model.Output {
	if len(outs) == 1 {
		return outs[0]
	}
	m := &model.Output{Probs: model.Tensor{Shape: []int{0, outs[0].Probs.Shape[1]}}}
	for _, o := range outs {
		m.Loss += o.Loss
		m.AttentionLoss += o.AttentionLoss
		m.Objective += o.Objective
		m.Lengths = append(m.Lengths, o.Lengths...)
		m.Probs.Data = append(m.Probs.Data, o.Probs.Data...)
		m.Probs.Shape[0] += o.Probs.Shape[0]
	}
	return m
}
