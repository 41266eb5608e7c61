// Package model is a transformer encoder with a pronoun-resolution step on
// top, built as Gorgonia computation graphs; every gradient comes from
// Gorgonia's autodiff.
//
// Where each step of the self-attention explainers lives, in their order:
//
//	embedding.go      word -> learned vector (embedding), plus positional encoding
//	multihead.go      X·W^Q, X·W^K, X·W^V; split into heads; concat; ·W^O
//	attention.go      step 1 Q·K^T (scores), step 2 / sqrt(d_k) (scaled),
//	                  step 3 softmax (weights), step 4 weights·V (z); and
//	                  AttentionSteps, the one record of those steps
//	softmax.go        step 3's softmax, in the form that stays finite for
//	                  fully masked rows
//	layernorm.go      Add & Norm's normalisation
//	feedforward.go    the position-wise feed-forward sublayer
//	encoder.go        one encoder layer (post-norm) and the stack of N
//	resolution.go     which word does the pronoun mean? (the README's
//	                  "resolution head"; in code "head" is an attention head)
//	supervision.go    the loss that trains one head to point at the antecedent
//	selfattention.go  attention on hand-given vectors, for the worked examples
//	ablation.go       knocking heads out: a gate that zeroes a head's z before W^O
//	inputgrad.go      the input vectors X as a fed node, and d log P(answer)/dX
//	                  by autodiff, for attribution (inference/attribution.go)
//
// The whole model, its parameters and running it:
//
//	build.go          Weights, every parameter as one typed tree, and the wiring
//	                  embedding -> encoder stack -> resolution -> loss
//	layout.go         the Weights tags -> saved names, shapes, init, roles
//	params.go         Params (the weight tensors), ParamSpecs, access by name
//	                  for checkpoints
//	config.go         Config, every size, validated up front
//	blas.go           which matrix-product kernels every graph runs on
//	graph.go          NewGraph: the model compiled for a batch geometry
//	run.go            Graph.Run: feed a batch, run, give back an Output
//	reads.go          which values a run copies out (G.Read)
//	output.go         Output and Tensor
//	argmax.go         ArgMax, the answer read off a row of probabilities
//	steps.go          AttentionSteps from nodes to values to Tensors to one
//	                  word's WordSteps (Output.Steps)
//
// internal/gorgoniax holds the Gorgonia workarounds: ops that compute what a
// stock op computes, bit for bit, with far fewer allocations or passes
// (BatchedMatMul, BatchedMatMulInterleaved, BroadcastAdd, BroadcastMul, Max,
// Rectify, Scale, ScaleAddData, SoftmaxRows, NormalizeRows, Affine,
// SumOfProducts, Linear, LinearResidual, SumOfSquares, MeanOfSquares, Unary,
// ByIndices, Sum, Mean), Rewind, which
// reruns a tape machine on its own buffers, NewTapeMachine, which gives each
// register one shape so those buffers fit, and the float32/float64 helpers.
// Beside each op is its test against the stock op, beside Rewind its test
// against vm.Reset, and beside NewTapeMachine its test against
// G.NewTapeMachine.
//
// softmax.go stays here although it exists because of a Gorgonia bug (G.SoftMax gives NaN for a fully masked row): it is not a
// stand-in op but the textbook max-shifted formula, composed from stock ops,
// and it is step 3 of the explainers' four.
//
// Params holds the weights; a Graph binds them without copying, so training,
// evaluation and inference graphs built from one Params share them.
package model
