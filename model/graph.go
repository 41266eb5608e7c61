package model

// A Graph is the whole model compiled once for a fixed batch size B and sentence
// length T (Gorgonia's shapes are static). Its weight nodes are bound to the
// tensors of a Params without copying, so a training graph, an evaluation graph
// and an inference graph built from one Params always agree (each graph has
// its own tensor header over the shared numbers: see bindWeights).
//
//	ids -> embed + positional encoding -> N x encoder layer -> resolution -> log P, loss
//
// Values of intermediate nodes are read with G.Read, never node.Value(): the
// tape machine reuses a node's memory for later ops once it is dead, so a value
// read after RunAll may already hold a later op's result (seen with an in-place
// HadamardProd). G.Read copies at its point in the tape.

import (
	"fmt"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

var buildMu sync.Mutex

// GraphOptions fixes a graph's geometry and what it keeps.
type GraphOptions struct {
	Batch, SeqLen int
	Train         bool // differentiate the loss; gradients accumulate until an optimiser step
	Attention     bool // read every layer's attention weights
	Trace         bool // read every layer's AttentionSteps (implies Attention)
	// AttentionSupervision is λ, the weight of the attention-supervision loss
	// (supervision.go); 0 turns it off. It only matters to a training graph.
	AttentionSupervision float64
	// Ablate lists the heads whose output is zeroed (ablation.go).
	Ablate []Head
	// HeadGates gates every layer's heads, even with nothing in Ablate, so
	// that SetAblation can change the knocked-out heads without a new graph.
	HeadGates bool
	// InputGradients makes the input vectors X a fed, differentiable node
	// (Batch.Vectors instead of the embedding of Batch.IDs) and gives back
	// d log P(antecedent) / dX in Output.InputGrad (inputgrad.go). Not with Train.
	InputGradients bool
}

// Graph is a compiled forward (and, for training, backward) pass.
type Graph struct {
	params  *Params
	opts    GraphOptions
	shape   shape
	g       *G.ExprGraph
	vm      G.VM
	w       Weights[*G.Node] // bound to params' tensors
	weights []*G.Node        // the same nodes in ParamSpecs order
	in      inputs
	loss    *G.Node // the objective that training differentiates
	reads   reads
	reuse   bool // the last run succeeded, so the next may keep its buffers (internal/gorgoniax/rewind.go)
}

type inputs struct {
	ids, pe, keyMask, candidates, pronoun, target *G.Node
	supervisedRow                                 *G.Node   // (B) rows of the supervised head's scores; see supervision.go
	vectors                                       *G.Node   // (B·T, d_model) fed input vectors X; only with InputGradients
	gates                                         []*G.Node // per layer, (B, T, H, d_k) head gates; only with Ablate or HeadGates (ablation.go)
}

// NewGraph builds and compiles the model for opts.Batch sentences of opts.SeqLen tokens.
func NewGraph(p *Params, opts GraphOptions) (*Graph, error) {
	c := p.config
	if opts.AttentionSupervision < 0 {
		return nil, fmt.Errorf("attention supervision weight must not be negative, got %g", opts.AttentionSupervision)
	}
	if opts.InputGradients && opts.Train {
		return nil, fmt.Errorf("a graph differentiates either the training loss (Train) or the answer by its inputs (InputGradients), not both")
	}
	if err := checkAblation(opts.Ablate, c); err != nil {
		return nil, err
	}
	if opts.Batch <= 0 || opts.SeqLen <= 0 || opts.SeqLen > c.MaxLen {
		return nil, fmt.Errorf("graph needs batch >= 1 and 1 <= seq_len <= max_len (%d), got batch %d, seq_len %d", c.MaxLen, opts.Batch, opts.SeqLen)
	}
	gr := &Graph{params: p, opts: opts, g: G.NewGraph(),
		shape: shape{B: opts.Batch, T: opts.SeqLen, D: c.DModel, H: c.Heads, divisor: c.scoreDivisor(), trace: opts.Trace}}
	// Gorgonia's Grad races on a shared constant's lazily cached hash when two
	// goroutines build graphs at once (seen with -race); running VMs
	// concurrently is safe. So building is serialised, running is not.
	buildMu.Lock()
	defer buildMu.Unlock()
	if err := gr.bindWeights(); err != nil {
		return nil, err
	}
	gr.makeInputs()
	if err := gr.build(); err != nil {
		return nil, fmt.Errorf("building the model graph: %w", err)
	}
	if err := gr.compile(); err != nil {
		return nil, fmt.Errorf("compiling the model graph: %w", err)
	}
	return gr, nil
}

// bindWeights makes one node per parameter, sharing the parameter's storage.
func (gr *Graph) bindWeights() error {
	var err error
	gr.w, _, err = buildWeights(gr.params.config, func(f paramField) (*G.Node, error) {
		if f.index >= len(gr.params.specs) || gr.params.specs[f.index].Name != f.Name {
			return nil, fmt.Errorf("parameter %q is not in Params at place %d", f.Name, f.index)
		}
		// A header of its own over the parameter's storage: Gorgonia's
		// matmul transposes an operand by flipping its header in place
		// (op_math.go, a.T() ... defer a.T()), so graphs running at once
		// (train.shards) must not share one, or a square weight is silently
		// read transposed. The numbers stay shared: an optimiser step
		// through any graph updates them all.
		n := G.NodeFromAny(gr.g, gr.params.ordered[f.index].ShallowClone(), G.WithName(f.Name))
		gr.weights = append(gr.weights, n)
		return n, nil
	})
	return err
}

func (gr *Graph) makeInputs() {
	s, dt := gr.shape, gr.params.weights.Embedding.Dtype()
	float := func(name string, shape ...int) *G.Node {
		v := gorgoniax.NewDense(dt, shape, make([]float64, tensor.Shape(shape).TotalSize()))
		return G.NewTensor(gr.g, dt, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(v))
	}
	integer := func(name string, n int) *G.Node {
		v := tensor.New(tensor.WithShape(n), tensor.WithBacking(make([]int, n)))
		return G.NewVector(gr.g, tensor.Int, G.WithShape(n), G.WithName(name), G.WithValue(v))
	}
	gr.in = inputs{
		ids:        integer("ids", s.B*s.T),
		pe:         float("positional_encoding", s.B*s.T, s.D),
		keyMask:    float("key_mask", s.B, s.T),
		candidates: float("candidate_mask", s.B, s.T),
		pronoun:    integer("pronoun", s.B),
		target:     float("target", s.B, s.T),
	}
	if gr.opts.AttentionSupervision > 0 {
		gr.in.supervisedRow = integer("supervised_row", s.B)
	}
	if gr.opts.InputGradients {
		gr.in.vectors = float("input_vectors", s.B*s.T, s.D)
	}
	pe := PositionalEncoding(s.T, s.D)
	tiled := make([]float64, 0, s.B*s.T*s.D)
	for b := 0; b < s.B; b++ {
		tiled = append(tiled, pe...)
	}
	gorgoniax.CopyInto(gr.in.pe.Value().(*tensor.Dense), tiled)
}
