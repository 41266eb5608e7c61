package model

// Head ablation: knock one attention head out at inference and see what the
// answer loses (Michel et al., 2019, "Are Sixteen Heads Really Better than
// One?", gate each head the same way). Every head's output is multiplied by a
// gate ξ before the heads are concatenated:
//
//	MultiHead(X) = Concat(ξ_1·head_1, …, ξ_h·head_h) W^O      ξ_i ∈ {0, 1}
//
// An ablated head has ξ = 0: its z is zeroed, so nothing it computed reaches
// the residual stream. (The other choice, replacing its attention with uniform
// weights, keeps the head's values flowing as a sentence average; zeroing
// removes the head whole, so a drop in accuracy is what the head adds, not
// what its choice of words adds over an average.) The head still computes its
// weights, so views show where it would have looked.
//
// Shapes: Z (B, T, H, d_k); the gate is the same shape, 1 everywhere except
// 0 in an ablated head's slice. A graph built with neither Ablate nor
// HeadGates has no gate at all; one built with either has a gate in every
// layer, fed like an input, which SetAblation rewrites. A gate of 1 changes
// no bit of z.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/gorgoniax"
)

// Head names one attention head, 0-based.
type Head struct{ Layer, Head int }

// String is the 1-based name the commands use: "L2H1".
func (h Head) String() string { return fmt.Sprintf("L%dH%d", h.Layer+1, h.Head+1) }

var headName = regexp.MustCompile(`^[Ll](\d+)[Hh](\d+)$`)

// ParseHeads reads comma-separated 1-based head names ("L2H1,L3H2") and
// checks each against c, naming a bad value and the model's layer and head
// counts. Repeats are dropped; the result is in layer, head order.
func ParseHeads(s string, c Config) ([]Head, error) {
	var heads []Head
	for _, part := range strings.Split(s, ",") {
		h, err := parseHead(strings.TrimSpace(part), c)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(heads, h) {
			heads = append(heads, h)
		}
	}
	slices.SortFunc(heads, func(a, b Head) int { return (a.Layer-b.Layer)*c.Heads + a.Head - b.Head })
	return heads, nil
}

func parseHead(s string, c Config) (Head, error) {
	m := headName.FindStringSubmatch(s)
	if m == nil {
		return Head{}, fmt.Errorf("%q is not a head: write L<layer>H<head>, such as L2H1 (this model has layers 1-%d and heads 1-%d)", s, c.Layers, c.Heads)
	}
	l, errL := strconv.Atoi(m[1])
	h, errH := strconv.Atoi(m[2])
	if errL != nil || errH != nil || l < 1 || l > c.Layers || h < 1 || h > c.Heads {
		return Head{}, fmt.Errorf("%q: this model has layers 1-%d and heads 1-%d", s, c.Layers, c.Heads)
	}
	return Head{Layer: l - 1, Head: h - 1}, nil
}

// checkAblation refuses heads outside the model.
func checkAblation(heads []Head, c Config) error {
	for _, h := range heads {
		if h.Layer < 0 || h.Layer >= c.Layers || h.Head < 0 || h.Head >= c.Heads {
			return fmt.Errorf("cannot ablate layer %d head %d (0-based): the model has %d layers of %d heads", h.Layer, h.Head, c.Layers, c.Heads)
		}
	}
	return nil
}

// gateHeads returns z times layer's gate: a fed (B, T, H, d_k) tensor of 1s,
// 0s in the ablated heads' slices (gateValues). The gate is a value, not a
// constant, so SetAblation can knock other heads out of the same graph.
func (gr *Graph) gateHeads(layer int, z *G.Node) (*G.Node, error) {
	s := gr.shape
	shape := []int{s.B, s.T, s.H, s.dk()}
	v := gorgoniax.NewDense(z.Dtype(), shape, gateValues(s, gr.opts.Ablate, layer))
	g := G.NewTensor(gr.g, z.Dtype(), 4, G.WithShape(shape...), G.WithName(fmt.Sprintf("head_gate_layer_%d", layer)), G.WithValue(tensor.Tensor(v)))
	gr.in.gates = append(gr.in.gates, g)
	return G.HadamardProd(z, g)
}

// gateValues is layer's gate for the knocked-out heads: 1 everywhere but in
// their slices of z, stored (B, T, H, d_k) (multihead.go).
func gateValues(s shape, heads []Head, layer int) []float64 {
	gate := make([]float64, s.B*s.T*s.H*s.dk())
	for i := range gate {
		gate[i] = 1
	}
	for _, h := range heads {
		if h.Layer != layer {
			continue
		}
		for bt := 0; bt < s.B*s.T; bt++ {
			start := (bt*s.H + h.Head) * s.dk()
			clear(gate[start : start+s.dk()])
		}
	}
	return gate
}

// SetAblation knocks heads out of a graph built with HeadGates (none: the
// whole model back) by writing its gates in place, so that a server asked
// for one set of heads after another runs the graph it has instead of
// building a new one. Its outputs are those of a graph built with Ablate:
// heads, bit for bit.
func (gr *Graph) SetAblation(heads []Head) error {
	if len(gr.in.gates) == 0 {
		return fmt.Errorf("the graph was built without head gates (GraphOptions.HeadGates)")
	}
	if err := checkAblation(heads, gr.params.config); err != nil {
		return err
	}
	for layer, g := range gr.in.gates {
		gorgoniax.CopyInto(g.Value().(*tensor.Dense), gateValues(gr.shape, heads, layer))
	}
	gr.opts.Ablate = append([]Head(nil), heads...)
	return nil
}
