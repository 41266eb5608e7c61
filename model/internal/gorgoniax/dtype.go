package gorgoniax

// The model runs in float64 or float32. Gorgonia refuses to mix them
// ("Unification Fail: float64 ~ float32"), so every tensor and constant is
// made through these helpers from float64 values, and every value is read
// back as float64.

import (
	"fmt"

	"gorgonia.org/tensor"
)

// NewDense makes a tensor of dtype dt (Float64 or Float32) holding a copy of data.
func NewDense(dt tensor.Dtype, shape []int, data []float64) *tensor.Dense {
	if dt == tensor.Float32 {
		f := make([]float32, len(data))
		for i, v := range data {
			f[i] = float32(v)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(f))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(append([]float64(nil), data...)))
}

// Float64s copies a float32 or float64 tensor's entries, row-major.
func Float64s(v interface{ Data() interface{} }) []float64 {
	switch d := v.Data().(type) {
	case []float64:
		return append([]float64(nil), d...)
	case []float32:
		out := make([]float64, len(d))
		for i, x := range d {
			out[i] = float64(x)
		}
		return out
	case float64:
		return []float64{d}
	case float32:
		return []float64{float64(d)}
	}
	panic(fmt.Sprintf("gorgoniax: unexpected tensor data %T", v.Data()))
}

// CopyInto overwrites a float tensor in place with data (len must match).
func CopyInto(t *tensor.Dense, data []float64) {
	switch d := t.Data().(type) {
	case []float64:
		copy(d, data)
	case []float32:
		for i, v := range data {
			d[i] = float32(v)
		}
	}
}

// ScalarOf returns v as a Go value of the dtype, for Gorgonia constants.
func ScalarOf(dt tensor.Dtype, v float64) interface{} {
	if dt == tensor.Float32 {
		return float32(v)
	}
	return v
}
