package model

import (
	"testing"

	"itformer/internal/memstat"
)

// A graph that is closed and dropped gives its memory back: ten of them in
// turn keep less than two graphs' worth, also when each is built on
// parameters of its own, as a test suite's models are. Gorgonia's machine
// finalizer had pinned every graph, through the values it reads into the
// Graph, for the life of the process (internal/gorgoniax/collect.go): the
// live heap of a test binary that trained models grew to gigabytes.
func TestClosedGraphsAreFreed(t *testing.T) {
	p := newTestParams(t, tinyConfig)
	b := twoSentences()
	wide := Batch{}
	for range 32 { // 64 rows, so that a graph's buffers outweigh the heap's noise
		wide.IDs, wide.Lengths = append(wide.IDs, b.IDs...), append(wide.Lengths, b.Lengths...)
		wide.Pronoun, wide.Antecedent = append(wide.Pronoun, b.Pronoun...), append(wide.Antecedent, b.Antecedent...)
	}
	for _, c := range []struct {
		name      string
		opts      GraphOptions
		ownParams bool // each graph on a Params of its own
	}{
		{"traced", GraphOptions{Batch: 64, SeqLen: 7, Trace: true}, false},
		{"training", GraphOptions{Batch: 64, SeqLen: 7, Train: true, AttentionSupervision: 1}, false},
		{"input gradients", GraphOptions{Batch: 64, SeqLen: 7, InputGradients: true}, false},
		{"training, own parameters", GraphOptions{Batch: 64, SeqLen: 7, Train: true, AttentionSupervision: 1}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := wide
			if c.opts.InputGradients {
				x, _, err := p.InputVectors(b.IDs[:7])
				if err != nil {
					t.Fatal(err)
				}
				for range 64 {
					run.Vectors = append(run.Vectors, x...)
				}
			}
			before := memstat.LiveHeap()
			var one int64
			for i := range 10 {
				params := p
				if c.ownParams {
					params = newTestParams(t, tinyConfig)
				}
				gr, err := NewGraph(params, c.opts)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := gr.Run(run); err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					one = memstat.LiveHeap() - before
				}
				gr.Close()
			}
			if kept := memstat.LiveHeap() - before; kept > 2*one {
				t.Errorf("ten closed graphs keep %s; one open graph holds %s", memstat.MB(kept), memstat.MB(one))
			}
		})
	}
}
