package gorgoniax

// Reusing the tape machine's buffers from one run to the next.
//
// vm.Reset() rewinds the program counter and also drops every register, so
// each run of a gorgonia v0.9.18 tape machine allocated all its intermediate
// tensors afresh: 27 MB per training step at the default sizes, and the
// garbage collector's work with it. Rewind only sets the program counter back
// to 0. The registers keep last run's tensors, and the machine's own alloc
// instructions and preallocating ops (those implementing UsePreallocDoer)
// write into them instead of allocating: with the custom ops of this package
// (then a head swap and batchedmatmul.go), a step allocated 6 MB. Every op overwrites its
// output, so the values are bit for bit those of a fresh machine:
// TestRewindMatchesReset checks that here on a small graph of these ops, and
// the model's TestRerunMatchesFreshGraph checks the whole model run on other
// batches in between against a new graph, value for value and gradient for
// gradient.
//
// The program counter is an unexported field, so this reaches it by
// reflection. If a future Gorgonia renames it, Rewind reports false and the
// model's Run falls back to vm.Reset(), which is slower but equally correct.

import (
	"reflect"
	"unsafe"

	G "gorgonia.org/gorgonia"
)

// Rewind sets the tape machine's program counter to 0 and keeps its
// registers. It reports false, changing nothing, if vm is not the tape
// machine it knows.
func Rewind(vm G.VM) bool {
	v := reflect.ValueOf(vm)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return false
	}
	pc := v.Elem().FieldByName("pc")
	if !pc.IsValid() || pc.Kind() != reflect.Int {
		return false
	}
	*(*int)(unsafe.Pointer(pc.UnsafeAddr())) = 0
	return true
}
