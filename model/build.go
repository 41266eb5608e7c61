package model

import (
	"fmt"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// build wires embedding -> encoder stack -> resolution -> loss.
func (gr *Graph) build() error {
	w := gr.weightsByName()
	pe := gr.in.pe
	if !gr.params.config.usesPositions() {
		pe = nil
	}
	x, err := embed(w["embedding"], gr.in.ids, pe, gr.shape.D)
	if err != nil {
		return fmt.Errorf("embedding: %w", err)
	}
	h, steps, err := encoderStack(x, gr.in.keyMask, gr.encoderWeights(w), gr.shape)
	if err != nil {
		return fmt.Errorf("encoder: %w", err)
	}
	logP, err := resolve(h, gr.in.pronoun, gr.in.candidates, resolutionWeights{w["head.w_q"], w["head.w_k"]}, gr.shape)
	if err != nil {
		return fmt.Errorf("resolution: %w", err)
	}
	resolutionLoss, err := crossEntropy(logP, gr.in.target)
	if err != nil {
		return fmt.Errorf("loss: %w", err)
	}
	gr.loss = resolutionLoss
	if gr.opts.AttentionSupervision > 0 {
		if err := gr.addSupervision(steps); err != nil {
			return fmt.Errorf("attention supervision: %w", err)
		}
	}
	gr.addReads(x, h, logP, steps)
	G.Read(resolutionLoss, &gr.reads.resolutionLoss)
	return nil
}

// addSupervision makes the objective L_resolution + λ·L_attention.
func (gr *Graph) addSupervision(steps []layerSteps) error {
	layer, _ := SupervisedHead(gr.params.config)
	attLoss, err := attentionSupervisionLoss(steps[layer].Masked, gr.in.supervisedRow, gr.in.target, gr.shape)
	if err != nil {
		return err
	}
	G.Read(attLoss, &gr.reads.attentionLoss)
	lambda := G.NewConstant(gorgoniax.ScalarOf(gr.loss.Dtype(), gr.opts.AttentionSupervision), G.WithName(fmt.Sprintf("lambda=%g", gr.opts.AttentionSupervision)))
	weighted, err := G.Mul(attLoss, lambda)
	if err != nil {
		return err
	}
	gr.loss, err = G.Add(gr.loss, weighted)
	return err
}

func (gr *Graph) weightsByName() map[string]*G.Node {
	m := make(map[string]*G.Node, len(gr.weights))
	for i, s := range gr.params.specs {
		m[s.Name] = gr.weights[i]
	}
	return m
}

func (gr *Graph) encoderWeights(w map[string]*G.Node) []encoderWeights {
	layers := make([]encoderWeights, gr.params.config.Layers)
	for l := range layers {
		p := func(name string) *G.Node { return w[fmt.Sprintf("encoder.%d.%s", l, name)] }
		layers[l] = encoderWeights{
			Attention: multiHeadWeights{WQ: p("attention.w_q"), WK: p("attention.w_k"), WV: p("attention.w_v"), WO: p("attention.w_o")},
			Norm1:     layerNormWeights{Gain: p("norm1.gain"), Bias: p("norm1.bias")},
			FFN:       feedForwardWeights{W1: p("ffn.w1"), B1: p("ffn.b1"), W2: p("ffn.w2"), B2: p("ffn.b2")},
			Norm2:     layerNormWeights{Gain: p("norm2.gain"), Bias: p("norm2.bias")},
		}
	}
	return layers
}

// compile differentiates the loss (training graphs only) and makes the VM.
func (gr *Graph) compile() error {
	if !gr.opts.Train {
		gr.vm = G.NewTapeMachine(gr.g)
		return nil
	}
	if _, err := G.Grad(gr.loss, gr.weights...); err != nil {
		return err
	}
	gr.vm = G.NewTapeMachine(gr.g, G.BindDualValues(gr.weights...))
	return nil
}

// ValueGrads pairs every weight with its gradient, for a Gorgonia solver.
// Gradients add up over runs until a solver step zeroes them.
func (gr *Graph) ValueGrads() []G.ValueGrad { return G.NodesToValueGrads(gr.weights) }

// Close releases the VM.
func (gr *Graph) Close() error { return gr.vm.Close() }
