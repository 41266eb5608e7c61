package model

import (
	G "gorgonia.org/gorgonia"
)

// reads holds the G.Read targets filled by every run.
type reads struct {
	embedded, encoded, logP       G.Value
	inputGrad                     G.Value // with InputGradients: d loss / d X (inputgrad.go)
	resolutionLoss, attentionLoss G.Value
	attention                     []G.Value                  // per layer, (B, H, T, T)
	trace                         []AttentionSteps[*G.Value] // per layer, only with GraphOptions.Trace
}

func (gr *Graph) addReads(embedded, encoded, logP *G.Node, steps []attentionNodes) {
	G.Read(logP, &gr.reads.logP)
	if gr.opts.Trace {
		G.Read(embedded, &gr.reads.embedded)
		G.Read(encoded, &gr.reads.encoded)
		gr.reads.trace = make([]AttentionSteps[*G.Value], len(steps))
	}
	if gr.opts.Attention || gr.opts.Trace {
		gr.reads.attention = make([]G.Value, len(steps))
	}
	for l, s := range steps {
		if gr.reads.attention != nil {
			G.Read(s.Weights, &gr.reads.attention[l])
		}
		if gr.reads.trace != nil {
			// Field by field, not by node: unscaled, Scaled is the Scores node.
			gr.reads.trace[l], _ = mapSteps(s.AttentionSteps, readStep)
		}
	}
}

// readStep asks for a node's value after each run. G.Read copies it at its
// point in the tape, before the machine reuses the node's memory.
func readStep(_ StepInfo, n *G.Node) (*G.Value, error) {
	v := new(G.Value)
	G.Read(n, v)
	return v, nil
}
