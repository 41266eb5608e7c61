// Package model is a transformer encoder with a pronoun-resolution head, built
// as Gorgonia computation graphs; every gradient comes from Gorgonia's autodiff.
//
// Where each step of the self-attention explainers lives:
//
//	embedding.go    word -> learned vector (embedding), plus positional encoding
//	multihead.go    X·W^Q, X·W^K, X·W^V; split into heads; concat; ·W^O
//	attention.go    step 1 Q·K^T (scores), step 2 / sqrt(d_k) (scaled),
//	                step 3 softmax (weights), step 4 weights·V (z)
//	softmax.go      a softmax that stays finite for fully masked rows
//	layernorm.go    Add & Norm's normalisation
//	feedforward.go  the position-wise feed-forward sublayer
//	encoder.go      one encoder layer (post-norm) and the stack of N
//	resolution.go   which word does the pronoun mean? (the README's resolution head)
//	graph.go        the whole model compiled for a batch geometry
//	output.go       what a run gives back, down to one word's steps (Output.Steps)
//
// Params holds the weights; a Graph binds them without copying, so training,
// evaluation and inference graphs built from one Params share them.
package model
