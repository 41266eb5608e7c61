package gorgoniax

// SwapMiddleAxes is G.Transpose(x, 0, 2, 1, 3) for a 4-D tensor,
// (A, B, C, D) -> (A, C, B, D), written as a plain copy loop: the split into
// heads in the model's projectHeads and its undoing in concatHeads. It moves
// numbers and computes none, so its results are bit for bit those of
// G.Transpose (TestSwapMiddleAxesMatchesTranspose); it is its own inverse, so
// its gradient is itself applied to the output's gradient.
//
// Why not G.Transpose? tensor v0.9.24 transposes through a generic strided
// iterator into a freshly allocated tensor. The four head splits and joins of
// each layer, forward and backward, took about a seventh of a training step
// and 6 MB of allocations per step (docs/performance.md). This op writes into
// the tape machine's preallocated register instead.

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

type swapMiddleAxesOp struct{}

func SwapMiddleAxes(x *G.Node) (*G.Node, error) {
	if x.Dims() != 4 {
		return nil, fmt.Errorf("SwapMiddleAxes needs a 4-D tensor, got shape %v", x.Shape())
	}
	return G.ApplyOp(swapMiddleAxesOp{}, x)
}

func (swapMiddleAxesOp) Arity() int { return 1 }

func (swapMiddleAxesOp) Type() hm.Type {
	t := G.TensorType{Dims: 4, Of: hm.TypeVariable('a')}
	return hm.NewFnType(t, t)
}

func (swapMiddleAxesOp) InferShape(inputs ...G.DimSizer) (tensor.Shape, error) {
	s, ok := inputs[0].(tensor.Shape)
	if !ok || len(s) != 4 {
		return nil, fmt.Errorf("SwapMiddleAxes needs a 4-D shape, got %v", inputs[0])
	}
	return tensor.Shape{s[0], s[2], s[1], s[3]}, nil
}

func (op swapMiddleAxesOp) Do(inputs ...G.Value) (G.Value, error) {
	x, ok := inputs[0].(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("swapMiddleAxes: want a *tensor.Dense, got %T", inputs[0])
	}
	s := x.Shape()
	out := tensor.New(tensor.Of(x.Dtype()), tensor.WithShape(s[0], s[2], s[1], s[3]))
	return op.UsePreallocDo(out, x)
}

// UsePreallocDo writes into prealloc, which the tape machine keeps across runs.
func (swapMiddleAxesOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	x, ok := inputs[0].(*tensor.Dense)
	out, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || !x.IsNativelyAccessible() || x.RequiresIterator() {
		return nil, fmt.Errorf("swapMiddleAxes: want contiguous *tensor.Dense values, got %T and %T", inputs[0], prealloc)
	}
	s := x.Shape()
	if len(s) != 4 || out.Shape().TotalSize() != s.TotalSize() || out.Dtype() != x.Dtype() {
		return nil, fmt.Errorf("swapMiddleAxes: shapes %v -> %v (%v -> %v)", s, out.Shape(), x.Dtype(), out.Dtype())
	}
	// The register may last have held another node's value of the same size.
	if err := out.Reshape(s[0], s[2], s[1], s[3]); err != nil {
		return nil, err
	}
	switch src := x.Data().(type) {
	case []float64:
		swap(out.Data().([]float64), src, s[0], s[1], s[2], s[3])
	case []float32:
		swap(out.Data().([]float32), src, s[0], s[1], s[2], s[3])
	default:
		return nil, fmt.Errorf("swapMiddleAxes: unsupported dtype %v", x.Dtype())
	}
	return out, nil
}

// swap copies src (a, b, c, d) into dst (a, c, b, d), row of d by row of d.
func swap[F float32 | float64](dst, src []F, a, b, c, d int) {
	for i := 0; i < a; i++ {
		for j := 0; j < b; j++ {
			for k := 0; k < c; k++ {
				from := ((i*b+j)*c + k) * d
				to := ((i*c+k)*b + j) * d
				copy(dst[to:to+d], src[from:from+d])
			}
		}
	}
}

func (swapMiddleAxesOp) ReturnsPtr() bool      { return false }
func (swapMiddleAxesOp) CallsExtern() bool     { return true } // makes the tape machine preallocate the output
func (swapMiddleAxesOp) OverwritesInput() int  { return -1 }
func (swapMiddleAxesOp) WriteHash(h hash.Hash) { h.Write([]byte("swapMiddleAxes")) }
func (op swapMiddleAxesOp) Hashcode() uint32   { return hashOf(op) }
func (swapMiddleAxesOp) String() string        { return "swapMiddleAxes" }

func (swapMiddleAxesOp) DiffWRT(inputs int) []bool { return []bool{true} }

// SymDiff: the op is a permutation that is its own inverse.
func (swapMiddleAxesOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	g, err := SwapMiddleAxes(grad)
	return G.Nodes{g}, err
}

func hashOf(op interface{ WriteHash(hash.Hash) }) uint32 {
	h := fnv.New32a()
	op.WriteHash(h)
	return h.Sum32()
}
