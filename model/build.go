package model

// The whole model, its parameters and its wiring:
//
//	X      = embed(ids) + PE                  (B·T, d_model)   Weights.Embedding
//	H      = encoder_N(… encoder_1(X))        (B·T, d_model)   Weights.Layers
//	log P  = resolve(H, pronoun)              (B, T)           Weights.Resolution
//	loss   = crossEntropy(log P, target)  [+ λ · L_attention, supervision.go]

import (
	"fmt"

	G "gorgonia.org/gorgonia"

	"itformer/model/internal/gorgoniax"
)

// Weights is every learned tensor of the model as one typed tree: T is
// *tensor.Dense in Params and *G.Node in a Graph. The tags give each tensor's
// saved name, shape, initialisation and role (layout.go).
type Weights[T any] struct {
	Embedding T                   `param:"embedding" shape:"vocab_size,d_model" init:"normal(1/sqrt(d_model))" role:"token embedding: one learned row per vocabulary word"`
	Layers    []EncoderWeights[T] `param:"encoder"`
	// Saved as head.w_q and head.w_k, names from before "head" came to mean
	// only an attention head in code: renaming them would change the tensor
	// names, and so the weights SHA-256, of every checkpoint.
	Resolution ResolutionWeights[T] `param:"head" role:"resolution head"`
}

// build wires embedding -> encoder stack -> resolution -> loss.
func (gr *Graph) build() error {
	w := gr.w
	pe := gr.in.pe
	if !gr.params.config.usesPositions() {
		pe = nil
	}
	x := gr.in.vectors // InputGradients: X is fed (inputgrad.go)
	if x == nil {
		var err error
		if x, err = embed(w.Embedding, gr.in.ids, pe, gr.shape.D); err != nil {
			return fmt.Errorf("embedding: %w", err)
		}
	}
	var gate headGate
	if len(gr.opts.Ablate) > 0 || gr.opts.HeadGates {
		gate = gr.gateHeads
	}
	h, steps, err := encoderStack(x, gr.in.keyMask, w.Layers, gr.shape, gate)
	if err != nil {
		return fmt.Errorf("encoder: %w", err)
	}
	logP, err := resolve(h, gr.in.pronoun, gr.in.candidates, w.Resolution, gr.shape)
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
func (gr *Graph) addSupervision(steps []attentionNodes) error {
	layer, _ := SupervisedHead(gr.params.config)
	attLoss, err := attentionSupervisionLoss(steps[layer].masked, gr.in.supervisedRow, gr.in.target, gr.shape)
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

// newMachine makes the tape machine of training and inference graphs: one
// whose registers each keep buffers of one shape, so that runs after the
// first allocate little (internal/gorgoniax/registers.go). A variable so that
// TestStableMachineMatchesStock can build the same graph on G.NewTapeMachine.
var newMachine = gorgoniax.NewTapeMachine

// compile differentiates the loss (training graphs only) and makes the VM.
func (gr *Graph) compile() (err error) {
	if gr.opts.InputGradients {
		return gr.compileInputGradients()
	}
	var opts []G.VMOpt
	if gr.opts.Train {
		if _, err := G.Grad(gr.loss, gr.weights...); err != nil {
			return err
		}
		opts = append(opts, G.BindDualValues(gr.weights...))
	}
	gr.vm, err = newMachine(gr.g, opts...)
	return err
}

// ValueGrads pairs every weight with its gradient, for a Gorgonia solver.
// Gradients add up over runs until a solver step zeroes them.
func (gr *Graph) ValueGrads() []G.ValueGrad { return G.NodesToValueGrads(gr.weights) }

// Close releases the VM.
func (gr *Graph) Close() error { return gr.vm.Close() }
