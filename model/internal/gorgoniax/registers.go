package gorgoniax

// A tape machine whose registers each hold values of one shape.
//
// Why not G.NewTapeMachine alone? Its register allocator (gorgonia v0.9.18,
// regalloc.go) hands a register on to the next value as soon as the last one
// dies, whatever its shape. With Rewind keeping buffers from one run to the
// next, an op then finds in its register the buffer of a value of another
// shape. The tape's alloc instruction allocates a new one (vm_tape.go,
// alloc.exec); an element-wise op's UsePreallocDo fails (with an error that
// records a stack trace), and its Do clones the input and works on the
// clone. The next op of the other shape to use that register does the same,
// so those buffers were allocated afresh on every run: about 6 of the 8 MB a
// training step allocated.
//
// NewTapeMachine compiles the graph with G.Compile, as G.NewTapeMachine does,
// and renames registers so that each register of the compiled program becomes
// one register per shape written to it: the writes to register r of nodes of
// shape s all go to register (r, s), and every read of r goes to the register
// of the value last written to r, exactly as before. Every instruction runs
// the same op on the same inputs in the same order, so every value is bit for
// bit what the stock machine computes: TestStableRegistersMatchStock compares
// a graph of element-wise ops, reshapes and sums run on both machines, values
// and gradients with ==, and the model's TestStableMachineMatchesStock does the
// same for a whole training graph over several batches.
//
// Why is the buffer in register (r, s) free when the next node of shape s
// writes to it? Its value was written to r by an earlier instruction, and the
// allocator gave r to a later value only after that value died. One caveat,
// which the stock machine shares in a narrower form: a Reshape returns a view
// of its input's memory, and if that view outlives the viewed value, a later
// value of the viewed shape written to r overwrites it (in the stock machine,
// only the next value written to r can). The model's graphs are checked
// against the stock machine run by run; a new kind of graph needs that test.
//
// The program's fields are unexported, so this reaches them by reflection, as
// Rewind does. If a future Gorgonia changes them (or the program holds an
// instruction this does not know, such as a device transport), the program is
// left as compiled, which is slower but equally correct.

import (
	"fmt"
	"reflect"
	"unsafe"

	G "gorgonia.org/gorgonia"
)

// NewTapeMachine is G.NewTapeMachine(g, opts...) with one register per shape
// (see above), returning the compiler's error where G.NewTapeMachine panics.
// It is Collectable (collect.go).
func NewTapeMachine(g *G.ExprGraph, opts ...G.VMOpt) (G.VM, error) {
	prog, locMap, err := G.Compile(g)
	if err != nil {
		return nil, err
	}
	splitRegistersByShape(reflect.ValueOf(prog), reflect.ValueOf(locMap), g)
	return Collectable(G.NewTapeMachine(g, append(opts, G.WithPrecompiled(prog, locMap))...)), nil
}

// renamer assigns the new register numbers.
type renamer struct {
	nodes   map[int64]*G.Node
	ids     map[regKey]int
	current map[int]int // old register -> new register holding its latest value
	edits   []func()    // applied once every instruction has been renamed
}

// regKey is a register of the compiled program and the type and shape of a
// value written to it.
type regKey struct {
	id   int
	kind string
}

func kindOf(n *G.Node) string { return fmt.Sprintf("%v %v", n.Type(), n.Shape()) }

func (rn *renamer) write(old int, n *G.Node) int {
	k := regKey{old, kindOf(n)}
	id, ok := rn.ids[k]
	if !ok {
		id = len(rn.ids)
		rn.ids[k] = id
	}
	rn.current[old] = id
	return id
}

func (rn *renamer) read(old int) (int, error) {
	id, ok := rn.current[old]
	if !ok {
		return 0, fmt.Errorf("register %d read before any write", old)
	}
	return id, nil
}

// splitRegistersByShape renames the registers of prog (a *program) and locMap
// (its map[*Node]register), or changes nothing and reports false.
func splitRegistersByShape(prog, locMap reflect.Value, g *G.ExprGraph) bool {
	if prog.Kind() != reflect.Pointer || prog.IsNil() || prog.Elem().Kind() != reflect.Struct || locMap.Kind() != reflect.Map {
		return false
	}
	p := prog.Elem()
	instrs, cpulocs := p.FieldByName("instructions"), p.FieldByName("cpulocs")
	if instrs.Kind() != reflect.Slice || cpulocs.Kind() != reflect.Int {
		return false
	}
	rn := &renamer{nodes: map[int64]*G.Node{}, ids: map[regKey]int{}, current: map[int]int{}}
	for _, n := range g.AllNodes() {
		rn.nodes[n.ID()] = n
	}
	instrs = settable(instrs)
	for i := 0; i < instrs.Len(); i++ {
		if err := rn.instruction(instrs.Index(i)); err != nil {
			return false
		}
	}
	if err := rn.locations(locMap); err != nil {
		return false
	}
	for _, apply := range rn.edits {
		apply()
	}
	settable(cpulocs).SetInt(int64(len(rn.ids)))
	return true
}

// instruction plans the renaming of one instruction's registers: its reads
// first, then its write. v is the settable interface in the program's slice.
func (rn *renamer) instruction(v reflect.Value) error {
	e := v.Elem()
	switch {
	case e.Kind() == reflect.Pointer && e.Elem().Kind() == reflect.Struct:
		return rn.fields(settable(e.Elem()))
	case e.Kind() == reflect.Struct: // held by value: edit a copy, then store it
		s := reflect.New(e.Type()).Elem()
		s.Set(e)
		err := rn.fields(s)
		rn.edits = append(rn.edits, func() { v.Set(s) })
		return err
	}
	return fmt.Errorf("instruction %v", e.Type())
}

// fields plans the renaming of the registers in instruction s, by its type.
func (rn *renamer) fields(s reflect.Value) error {
	switch s.Type().Name() {
	case "flushInstr":
		return nil
	case "free":
		return rn.reads(s, "readsFrom")
	case "readInstr":
		return rn.reads(s, "readFrom")
	case "loadArg":
		return rn.writes(s, "index")
	case "alloc", "execOp":
		if err := rn.reads(s, "readFrom"); err != nil {
			return err
		}
		return rn.writes(s, "id")
	}
	return fmt.Errorf("instruction %v", s.Type())
}

// reads renames the register, or slice of registers, in field name.
func (rn *renamer) reads(s reflect.Value, name string) error {
	f := s.FieldByName(name)
	switch {
	case f.Kind() == reflect.Struct:
		return rn.readRegister(settable(f))
	case f.Kind() == reflect.Slice:
		regs := reflect.MakeSlice(f.Type(), f.Len(), f.Len())
		reflect.Copy(regs, settable(f))
		for i := 0; i < regs.Len(); i++ {
			if err := rn.readRegister(regs.Index(i)); err != nil {
				return err
			}
		}
		rn.edits = append(rn.edits, func() { settable(f).Set(regs) })
		return nil
	}
	return fmt.Errorf("field %s of %v", name, s.Type())
}

func (rn *renamer) readRegister(r reflect.Value) error {
	old, err := cpuRegister(r)
	if err != nil {
		return err
	}
	id, err := rn.read(old)
	if err != nil {
		return err
	}
	rn.edits = append(rn.edits, func() { setRegister(r, id) })
	return nil
}

// writes renames field writeTo, for the node whose ID is in field idField.
func (rn *renamer) writes(s reflect.Value, idField string) error {
	id, r := s.FieldByName(idField), s.FieldByName("writeTo")
	if id.Kind() != reflect.Int64 || r.Kind() != reflect.Struct {
		return fmt.Errorf("fields %s, writeTo of %v", idField, s.Type())
	}
	n, ok := rn.nodes[id.Int()]
	if !ok {
		return fmt.Errorf("no node %d", id.Int())
	}
	r = settable(r)
	old, err := cpuRegister(r)
	if err != nil {
		return err
	}
	nid := rn.write(old, n)
	rn.edits = append(rn.edits, func() { setRegister(r, nid) })
	return nil
}

// locations plans the renaming of locMap: each node's register is the one
// its own writes went to.
func (rn *renamer) locations(locMap reflect.Value) error {
	it := locMap.MapRange()
	for it.Next() {
		n, ok := it.Key().Interface().(*G.Node)
		if !ok {
			return fmt.Errorf("locMap key %T", it.Key().Interface())
		}
		r := reflect.New(it.Value().Type()).Elem()
		r.Set(it.Value())
		old, err := cpuRegister(r)
		if err != nil {
			return err
		}
		id, ok := rn.ids[regKey{old, kindOf(n)}]
		if !ok {
			return fmt.Errorf("node %v: no write to register %d", n, old)
		}
		key := it.Key()
		rn.edits = append(rn.edits, func() { setRegister(r, id); locMap.SetMapIndex(key, r) })
	}
	return nil
}

// cpuRegister returns the number of register r, a CPU register.
func cpuRegister(r reflect.Value) (int, error) {
	id, dev := r.FieldByName("id"), r.FieldByName("device")
	if id.Kind() != reflect.Int || dev.Kind() != reflect.Int || G.Device(dev.Int()) != G.CPU {
		return 0, fmt.Errorf("register %v", r)
	}
	return int(id.Int()), nil
}

func setRegister(r reflect.Value, id int) { settable(r.FieldByName("id")).SetInt(int64(id)) }

// settable returns v, addressable, with write access to unexported fields.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}
