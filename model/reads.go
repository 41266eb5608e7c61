package model

import (
	G "gorgonia.org/gorgonia"
)

// reads holds the G.Read targets filled by every run.
type reads struct {
	embedded, encoded, logP       G.Value
	resolutionLoss, attentionLoss G.Value
	attention                     []G.Value     // per layer, (B, H, T, T)
	trace                         []layerValues // per layer, only with GraphOptions.Trace
}

type layerValues struct {
	X, Q, K, V, Scores, Scaled, Weights, Z G.Value
}

func (gr *Graph) addReads(embedded, encoded, logP *G.Node, steps []layerSteps) {
	G.Read(logP, &gr.reads.logP)
	if gr.opts.Trace {
		G.Read(embedded, &gr.reads.embedded)
		G.Read(encoded, &gr.reads.encoded)
		gr.reads.trace = make([]layerValues, len(steps))
	}
	if gr.opts.Attention || gr.opts.Trace {
		gr.reads.attention = make([]G.Value, len(steps))
	}
	for l, s := range steps {
		if gr.reads.attention != nil {
			G.Read(s.Weights, &gr.reads.attention[l])
		}
		if gr.reads.trace != nil {
			// A list, not a map keyed by node: unscaled, Scaled is the Scores node.
			t := &gr.reads.trace[l]
			for _, r := range []struct {
				node *G.Node
				into *G.Value
			}{{s.X, &t.X}, {s.Q, &t.Q}, {s.K, &t.K}, {s.V, &t.V},
				{s.Scores, &t.Scores}, {s.Scaled, &t.Scaled}, {s.Weights, &t.Weights}, {s.Z, &t.Z}} {
				G.Read(r.node, r.into)
			}
		}
	}
}
