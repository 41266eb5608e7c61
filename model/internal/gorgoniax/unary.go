package gorgoniax

// Unary(G.Exp, x) is G.Exp(x), and likewise for G.Square, G.Sqrt, G.Neg,
// G.Inverse and Gorgonia's other element-wise unary functions, with two
// changes: the op can write into a kept buffer (UsePreallocDo), and Exp
// runs fastexp's vectorized exp instead of math.Exp / math32.Exp.
//
// Why not the stock op? Gorgonia v0.9.18's elemUnaryOp has no UsePreallocDo.
// A rewound tape machine finds last run's buffer in the op's register, and an
// op without UsePreallocDo then runs its Do, which clones the input and works
// on the clone: a fresh tensor of x's size every run. The Exp of softmax and
// the Square of layer norm were 2 MB of a training step's allocations.
// And the softmax's exp, element by element through math.Exp, was 5% of a
// float64 training step; fastexp.Exp64 is 3 times faster per element
// (Exp32 8 times) and gives the same bits on every machine.
//
// unaryOp holds the stock op itself (taken from a node built on a stand-in
// for x in a scratch graph) and hands it everything but Do and
// UsePreallocDo. For the functions the model uses, both write f(x) entry by
// entry straight from x into the result (Do into a fresh tensor,
// UsePreallocDo into the buffer). For all but Exp that is the very function
// tensor v0.9.24 applies (internal/execution/generic_unary.go: LogF64 is
// a[i] = math.Log(a[i]), SqrtF64 math.Sqrt, SquareF64 a[i] * a[i], InvF64
// 1 / a[i], NegF64 -a[i], and likewise in float32 with math32), so values
// are bit for bit the stock function's. Exp is fastexp.Exp64 / Exp32:
// under 1 ulp from exp, where the stock ExpF64 / ExpF32 (math.Exp,
// math32.Exp) are also within 1 ulp, so the two may differ by up to 2 ulps
// in the last place (TestUnaryDirectMatchesStockDo; fastexp's TestAccuracy).
// For any other function Do is the stock one, and UsePreallocDo copies x
// into the buffer and runs the stock op's own UnsafeDo (the same arithmetic,
// in place) on it. The gradient is the stock op's SymDiff (Exp's uses the
// output, not exp), or for Neg and Inverse the same expression with Unary's
// Neg, so gradients are bit for bit the stock function's given the same
// values (TestUnaryMatchesGorgonia: Exp within a relative bound, the others
// bit for bit).

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	"github.com/chewxy/math32"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/model/internal/fastexp"
)

// Unary applies the stock unary function f (G.Exp, G.Square, ...) to x
// through an op that can write into a kept buffer.
func Unary(f func(*G.Node) (*G.Node, error), x *G.Node) (*G.Node, error) {
	if x.IsScalar() {
		return f(x) // a scalar result is not a reusable buffer
	}
	standIn := G.NewTensor(G.NewGraph(), x.Dtype(), x.Dims(), G.WithShape(x.Shape()...))
	n, err := f(standIn)
	if err != nil {
		return nil, err
	}
	stock, ok := n.Op().(unaryStock)
	if !ok || stock.Arity() != 1 {
		return nil, fmt.Errorf("Unary: %v is not an element-wise unary op", n.Op())
	}
	return G.ApplyOp(unaryOp{stock}, x)
}

// unaryStock is what unaryOp needs of the stock op.
type unaryStock interface {
	G.Op
	G.SDOp
	UnsafeDo(inputs ...G.Value) (G.Value, error)
}

type unaryOp struct{ stock unaryStock }

func (op unaryOp) Arity() int    { return 1 }
func (op unaryOp) Type() hm.Type { return op.stock.Type() }
func (op unaryOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return op.stock.InferShape(in...)
}
func (op unaryOp) ReturnsPtr() bool     { return op.stock.ReturnsPtr() }
func (op unaryOp) CallsExtern() bool    { return op.stock.CallsExtern() }
func (op unaryOp) OverwritesInput() int { return op.stock.OverwritesInput() }
func (op unaryOp) String() string       { return op.stock.String() + " (into a kept buffer)" }
func (op unaryOp) Hashcode() uint32     { return hashOf(op) }
func (op unaryOp) WriteHash(h hash.Hash) {
	fmt.Fprint(h, "gorgoniax.unary:")
	op.stock.WriteHash(h)
}

func (op unaryOp) DiffWRT(inputs int) []bool { return op.stock.DiffWRT(inputs) }

// SymDiff is the stock op's: its gradient expressions use x, the output and
// its gradient, not the op. Two of them negate, with a stock Neg that
// allocates on every run; for those this builds Gorgonia's expression
// (operatorPointwise_unary.go) node for node, with Unary's Neg.
func (op unaryOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	var d *G.Node
	var err error
	switch op.stock.String() {
	case "neg": // negDiffExpr: -grad
		d, err = Unary(G.Neg, grad)
	case "inv": // inverseDiffExpr: -(y ⊙ y) ⊙ grad
		var sq, neg *G.Node
		if sq, err = G.HadamardProd(output, output); err != nil {
			return nil, err
		}
		if neg, err = Unary(G.Neg, sq); err != nil {
			return nil, err
		}
		d, err = G.HadamardProd(neg, grad)
	default:
		return op.stock.SymDiff(inputs, output, grad)
	}
	return G.Nodes{d}, err
}

// Do writes f(x) into a fresh tensor directly for the functions unaryF64
// and unaryF32 know (so the first run of a tape, which has no buffer yet,
// computes Exp as the reruns do), else runs the stock op's Do.
func (op unaryOp) Do(inputs ...G.Value) (G.Value, error) {
	if len(inputs) == 1 {
		if x, ok := inputs[0].(*tensor.Dense); ok && !x.RequiresIterator() && x.IsNativelyAccessible() {
			out := tensor.New(tensor.Of(x.Dtype()), tensor.WithShape(x.Shape().Clone()...))
			if op.direct(out, x) {
				return out, nil
			}
		}
	}
	return op.stock.Do(inputs...)
}

// UsePreallocDo writes f(x) into prealloc: directly for the functions
// unaryF64 and unaryF32 know, else by copying x into prealloc and running the
// stock op in place on it. prealloc may be x itself (the op overwrites a dead
// input).
func (op unaryOp) UsePreallocDo(prealloc G.Value, inputs ...G.Value) (G.Value, error) {
	x, ok := inputs[0].(*tensor.Dense)
	out, ok2 := prealloc.(*tensor.Dense)
	if !ok || !ok2 || x.RequiresIterator() || out.RequiresIterator() || !x.IsNativelyAccessible() {
		return nil, fmt.Errorf("%v: want contiguous *tensor.Dense values, got %T and %T", op, inputs[0], prealloc)
	}
	if out.Shape().TotalSize() != x.Shape().TotalSize() || out.Dtype() != x.Dtype() {
		return nil, fmt.Errorf("%v: buffer %v %v for %v %v", op, out.Shape(), out.Dtype(), x.Shape(), x.Dtype())
	}
	if out != x {
		// The register may last have held another node's value of the same size.
		if err := out.Reshape(x.Shape()...); err != nil {
			return nil, err
		}
	}
	if op.direct(out, x) {
		return out, nil
	}
	if out != x {
		switch src := x.Data().(type) {
		case []float64:
			copy(out.Data().([]float64), src)
		case []float32:
			copy(out.Data().([]float32), src)
		default:
			return nil, fmt.Errorf("%v: unsupported dtype %v", op, x.Dtype())
		}
	}
	return op.stock.UnsafeDo(out)
}

// direct writes f(x) into out if it knows the stock op's function.
func (op unaryOp) direct(out, x *tensor.Dense) bool {
	name := op.stock.String()
	if x64, ok := floats[float64](x); ok {
		o, ok := floats[float64](out)
		return ok && len(o) == len(x64) && unaryF64(name, o, x64)
	}
	if x32, ok := floats[float32](x); ok {
		o, ok := floats[float32](out)
		return ok && len(o) == len(x32) && unaryF32(name, o, x32)
	}
	return false
}

// unaryF64 sets out[i] = f(x[i]) as tensor's F64 loops compute f (exp with
// fastexp: under 1 ulp from exp, within 2 of math.Exp), or reports false
// for a function it does not know.
func unaryF64(name string, out, x []float64) bool {
	out = out[:len(x)]
	switch name {
	case "exp":
		fastexp.Exp64(out, x)
	case "ln":
		for i, v := range x {
			out[i] = math.Log(v)
		}
	case "sqrt":
		for i, v := range x {
			out[i] = math.Sqrt(v)
		}
	default:
		return elementary(name, out, x)
	}
	return true
}

// unaryF32 is unaryF64 for tensor's F32 loops, which call math32.
func unaryF32(name string, out, x []float32) bool {
	out = out[:len(x)]
	switch name {
	case "exp":
		fastexp.Exp32(out, x)
	case "ln":
		for i, v := range x {
			out[i] = math32.Log(v)
		}
	case "sqrt":
		for i, v := range x {
			out[i] = math32.Sqrt(v)
		}
	default:
		return elementary(name, out, x)
	}
	return true
}

// elementary is the functions of one arithmetic operation, the same in both
// dtypes: NegF64, SquareF64, InvF64 and their F32 twins.
func elementary[F float32 | float64](name string, out, x []F) bool {
	out = out[:len(x)]
	switch name {
	case "neg":
		for i, v := range x {
			out[i] = -v
		}
	case "square":
		for i, v := range x {
			out[i] = v * v
		}
	case "inv":
		for i, v := range x {
			out[i] = 1 / v
		}
	default:
		return false
	}
	return true
}
