package model

// Reusing the tape machine's buffers from one run to the next.
//
// vm.Reset() rewinds the program counter and also drops every register, so
// each run of a gorgonia v0.9.18 tape machine allocated all its intermediate
// tensors afresh: 27 MB per training step at the default sizes, and the
// garbage collector's work with it. rewind only sets the program counter back
// to 0. The registers keep last run's tensors, and the machine's own alloc
// instructions and preallocating ops (those implementing UsePreallocDoer)
// write into them instead of allocating: with the custom ops of swapaxes.go
// and batchedmatmul.go, a step allocates 6 MB. Every op overwrites its
// output, so the values are bit for bit those of a fresh machine:
// TestRerunMatchesFreshGraph checks a graph run on other batches in between
// against a new graph, value for value and gradient for gradient.
//
// The program counter is an unexported field, so this reaches it by
// reflection. If a future Gorgonia renames it, rewind reports false and Run
// falls back to vm.Reset(), which is slower but equally correct.

import (
	"reflect"
	"unsafe"

	G "gorgonia.org/gorgonia"
)

// rewind sets the tape machine's program counter to 0 and keeps its
// registers. It reports false, changing nothing, if vm is not the tape
// machine it knows.
func rewind(vm G.VM) bool {
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
