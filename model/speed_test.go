package model

// The speed-ups of internal/gorgoniax promise the same numbers, bit for bit,
// as the plain Gorgonia code they replace. Each op is held to it there; this
// test holds the whole model to it, with exact comparisons (==, not a
// tolerance), across runs that reuse the machine's buffers.

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

// snapshot is everything a run gives back: outputs, every trace value and every gradient.
func snapshot(t *testing.T, gr *Graph, b Batch) []float64 {
	t.Helper()
	out, err := gr.Run(b)
	if err != nil {
		t.Fatal(err)
	}
	s := []float64{out.Loss, out.AttentionLoss, out.Objective}
	s = append(s, out.Probs.Data...)
	s = append(s, out.Embedded.Data...)
	s = append(s, out.Encoded.Data...)
	for l, a := range out.Attention {
		s = append(s, a.Data...)
		if out.Trace != nil {
			for _, step := range out.Trace[l].List() {
				s = append(s, step.Value.Data...)
			}
		}
	}
	if gr.opts.Train {
		for _, vg := range gr.ValueGrads() {
			g, err := vg.Grad()
			if err != nil {
				t.Fatal(err)
			}
			s = append(s, gorgoniax.Float64s(g)...)
			g.(*tensor.Dense).Zero()
		}
	}
	return s
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s: value %d is %v, want %v bit for bit", what, i, got[i], want[i])
		}
	}
}

// A graph that keeps its buffers between runs (internal/gorgoniax/rewind.go)
// gives, on its third run, exactly what a new graph gives on its first.
func TestRerunMatchesFreshGraph(t *testing.T) {
	for _, dtype := range []string{"float64", "float32"} {
		c := tinyConfig
		c.DType = dtype
		p := newTestParams(t, c)
		rng := rand.New(rand.NewSource(5))
		a, b := benchBatch(4, 10, c.VocabSize, rng), benchBatch(4, 10, c.VocabSize, rng)
		a.Lengths[3], a.Pronoun[3], a.Antecedent[3] = 0, 0, 0 // a filler row
		for i := 30; i < 40; i++ {
			a.IDs[i] = 0
		}
		for _, opts := range []GraphOptions{
			{Batch: 4, SeqLen: 10, Train: true, AttentionSupervision: 1, Trace: true},
			{Batch: 4, SeqLen: 10, Attention: true},
		} {
			t.Run(fmt.Sprintf("%s/train=%t", dtype, opts.Train), func(t *testing.T) {
				fresh, err := NewGraph(p, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer fresh.Close()
				want := snapshot(t, fresh, a)
				reused, err := NewGraph(p, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer reused.Close()
				snapshot(t, reused, a)
				snapshot(t, reused, b)
				sameBits(t, "third run", snapshot(t, reused, a), want)
			})
		}
	}
}

// The training and inference graphs run on a tape machine whose registers
// each keep one shape (internal/gorgoniax/registers.go). Run after run, on
// changing batches, it gives exactly what G.NewTapeMachine gives.
func TestStableMachineMatchesStock(t *testing.T) {
	stock := func(g *G.ExprGraph, opts ...G.VMOpt) (G.VM, error) { return G.NewTapeMachine(g, opts...), nil }
	for _, dtype := range []string{"float64", "float32"} {
		c := tinyConfig
		c.DType = dtype
		p := newTestParams(t, c)
		rng := rand.New(rand.NewSource(7))
		a, b := benchBatch(4, 10, c.VocabSize, rng), benchBatch(4, 10, c.VocabSize, rng)
		a.Lengths[2], a.Pronoun[2], a.Antecedent[2] = 0, 0, 0 // a filler row
		for _, opts := range []GraphOptions{
			{Batch: 4, SeqLen: 10, Train: true, AttentionSupervision: 1, Trace: true},
			{Batch: 4, SeqLen: 10, Attention: true},
		} {
			t.Run(fmt.Sprintf("%s/train=%t", dtype, opts.Train), func(t *testing.T) {
				stable, err := NewGraph(p, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer stable.Close()
				newMachine = stock
				plain, err := NewGraph(p, opts)
				newMachine = gorgoniax.NewTapeMachine
				if err != nil {
					t.Fatal(err)
				}
				defer plain.Close()
				for i, batch := range []Batch{a, b, a, b} {
					sameBits(t, fmt.Sprintf("run %d", i), snapshot(t, stable, batch), snapshot(t, plain, batch))
				}
			})
		}
	}
}
