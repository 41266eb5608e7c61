package inference

// Knocking heads out at inference (model/ablation.go): every graph the
// Predictor runs from then on zeroes the named heads' outputs, and its
// Resolutions name them in Ablated. The first Ablate drops the graphs built
// so far; from then on the Predictor builds graphs with head gates, and a
// later Ablate only rewrites the gates of the graphs it keeps: a server
// asked for one set of heads after another builds no graph twice, unless
// the graphs' memory bound had it forgotten (graphcache.go).

import (
	"fmt"

	"itformer/model"
)

// Ablate knocks heads out of every later Resolve, Trace and Attribute
// (none: restore the whole model). It refuses a head the model lacks.
func (p *Predictor) Ablate(heads []model.Head) error {
	c := p.Config()
	for _, h := range heads {
		if h.Layer < 0 || h.Layer >= c.Layers || h.Head < 0 || h.Head >= c.Heads {
			return fmt.Errorf("cannot ablate %s: this model has layers 1-%d and heads 1-%d", h, c.Layers, c.Heads)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.gated {
		p.dropGraphs()
		p.gated = true
	}
	for _, g := range p.cache.owned(p, false, ablatedKinds...) {
		if err := g.SetAblation(heads); err != nil {
			return err
		}
	}
	p.ablate = append([]model.Head(nil), heads...)
	for _, m := range p.members { // the members vote with the same heads knocked out
		if err := m.Ablate(heads); err != nil {
			return err
		}
	}
	return nil
}

// ablatedKinds are the graphs built with p.ablate's heads knocked out; a
// knockout graph has its gates set at every run.
var ablatedKinds = []graphKind{tracedGraph, votingGraph, attributionGraph}

// dropGraphs closes and forgets p's kept graphs built without head gates.
// The caller holds p.mu.
func (p *Predictor) dropGraphs() {
	for _, g := range p.cache.owned(p, true, ablatedKinds...) {
		g.Close()
	}
}

// Ablated names the knocked-out heads ("L2H1"), or nil.
func (p *Predictor) Ablated() []string {
	var names []string
	for _, h := range p.ablate {
		names = append(names, h.String())
	}
	return names
}

// AblationRule is the definition the -json output carries.
const AblationRule = "an ablated head's output z is zeroed before W^O (a gate of 0 on the head, Michel et al. 2019); " +
	"its attention weights are still computed and shown; ablated lists the heads knocked out"
