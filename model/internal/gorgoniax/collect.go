package gorgoniax

// Letting the garbage collector free a tape machine.
//
// Why not the stock machine as it is? G.NewTapeMachine sets a finalizer on
// the machine (vm_tape.go), which frees CUDA contexts in a build with the
// cuda tag and does nothing without it. The Go runtime never frees a cycle
// of objects that holds one with a finalizer (see runtime.SetFinalizer), and
// G.Read gives the machine a pointer to where it copies a value: a
// model.Graph keeps those values beside its machine, so every graph was such
// a cycle. A graph closed or dropped kept all its buffers for the life of the
// process: about 20 MB for each attribution graph a server built when it was
// asked to knock out other heads. Vm.Close does not help; it runs the
// finalizer's function but leaves the finalizer set.

import (
	"runtime"

	G "gorgonia.org/gorgonia"
)

// Collectable removes the finalizer G.NewTapeMachine set on vm, where it has
// nothing to free (a build without CUDA), and returns vm. The machine runs
// as before; only its memory can now be freed once nothing refers to it.
func Collectable(vm G.VM) G.VM {
	if !G.CUDA && vm != nil {
		runtime.SetFinalizer(vm, nil)
	}
	return vm
}
