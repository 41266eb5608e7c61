// Package gorgoniax is what the model adds to gorgonia v0.9.18 and tensor
// v0.9.24 to work around them. Every op here computes exactly what a stock op
// computes, bit for bit, values and gradients, and has a test beside it that
// compares the two; they exist because the stock ops allocate or iterate far
// more than the arithmetic needs (docs/performance.md, docs/gorgonia.md).
//
//	batchedmatmul.go  BatchedMatMul   = G.BatchedMatMul, one BLAS call per product
//	                  BatchedMatMulInterleaved = G.Transpose(·, 0, 2, 1, 3) around it, read and written by stride
//	broadcast.go      BroadcastAdd    = G.BroadcastAdd, y read by index, never repeated
//	                  BroadcastMul    = G.BroadcastHadamardProd, likewise
//	max.go            Max             = G.Max along one axis, in its order into a kept buffer, gradient in one op
//	softmax.go        SoftmaxRows     = BroadcastMul(e, inv) ending a softmax, its gradient in one op
//	normalize.go      NormalizeRows   = BroadcastMul(centred, 1/std) in a layer norm, its gradient in one op
//	affine.go         Affine          = BroadcastAdd(BroadcastMul(x, gain), bias) ending a layer norm, one pass
//	sumproducts.go    SumOfProducts   = Sum(HadamardProd(a, b)) along a column axis, the product never made
//	linear.go         Linear          = BroadcastAdd(G.Mul(x, w), b) in one op, the stock product then the bias
//	residual.go       LinearResidual  = G.Add(r, Linear(x, w, b)), or G.Add(r, G.Mul(x, w)): the residual in the product's op
//	sumsquares.go     SumOfSquares    = Sum(Unary(G.Square, x)) along the last axis, the squares never made
//	                  MeanOfSquares   = Mean(Unary(G.Square, x)), a layer norm's variance; gradient in one op
//	scale.go          Scale(x, c)     = G.Mul(x, constant c), no gradient for the constant
//	scaleadd.go       ScaleAddData    = BroadcastAddData(Scale(x, c), y), the attention's scale and mask in one pass
//	rectify.go        Rectify         = G.Rectify, forward and gradient one op each
//	repeat.go         repeatTo        = G.Broadcast's repeat (in Sum's gradient), a copy loop
//	rewind.go         Rewind          = vm.Reset() that keeps the machine's buffers
//	registers.go      NewTapeMachine  = G.NewTapeMachine with one register per shape
//	collect.go        Collectable     = G.NewTapeMachine's machine without its finalizer, so a dropped graph is freed
//	unary.go          Unary(f, x)     = f(x) for G.Exp, G.Square, ..., into a kept buffer
//	byindices.go      ByIndices       = G.ByIndices, rows (axis 0) and its gradient into kept buffers
//	sum.go            Sum, Mean       = G.Sum, G.Mean along one axis, in its order into a kept buffer, gradient by a copy loop
//	reduce.go         (Sum's and Max's loops: tensor's orders of addition and comparison, per axis)
//	dtype.go          float64 / float32 tensors and constants from float64 values
//	elementwise.go    (the Do, result check and dtype dispatch broadcast, rectify and scale share)
//	ophash.go         (every op's Hashcode)
//
// The ops write into the tape machine's preallocated registers
// (UsePreallocDo), which Rewind keeps from one run to the next.
package gorgoniax
