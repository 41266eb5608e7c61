package gorgoniax

// ScaleAddData(x, c, y, axes...) is BroadcastAddData(Scale(x, c), y, axes...):
// the attention's scores scaled by 1/sqrt(d_k) and the padding mask added,
//
//	z[i] = F(x[i] · c) + y[j],   j = i without the axes `axes`
//
// in one pass (a broadcastOp of kind scaleAddKind, broadcast.go's kernels).
// The product is converted to F before the addition, so Go cannot fuse the
// two into one FMA (which rounds once): each entry is Scale's product, then
// BroadcastAdd's sum. y is data (the mask), never differentiated, as in
// BroadcastAddData. The gradient, given g = ∂L/∂z, is the node the two ops'
// gradients build: BroadcastAddData passes g on unchanged, and Scale's
// gradient is Scale(g, c). So values and gradients are bit for bit the two
// ops' (TestScaleAddDataMatchesScaleThenAdd).
//
// Why not the stock construction (Scale, then BroadcastAddData)? Two
// instructions with a register each: the scaled scores, (B, H, T, T) per
// layer, are written once and read back once for nothing but the add. The
// explainers' "scaled" step needs them as a node of their own; a graph that
// is traced builds Scale as well, beside this op (model/attention.go).

import (
	G "gorgonia.org/gorgonia"
)

// ScaleAddData returns x · c + y, y repeated along x's axes `axes` (ascending)
// and not differentiated.
func ScaleAddData(x *G.Node, c float64, y *G.Node, axes ...int) (*G.Node, error) {
	return broadcast(broadcastOp{kind: scaleAddKind, axes: axes, c: c}, x, y)
}

// scaleAddDiff is the gradient of ScaleAddData: Scale(g, c) for x, none for y.
func scaleAddDiff(op broadcastOp, grad *G.Node) (G.Nodes, error) {
	dx, err := Scale(grad, op.c)
	return G.Nodes{dx, nil}, err
}
