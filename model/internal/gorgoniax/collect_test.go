package gorgoniax

import (
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"itformer/internal/memstat"
)

func liveHeapMB() float64 { return float64(memstat.LiveHeap()) / 1e6 }

// heldByRead builds, runs and closes ten machines whose graph reads an 8 MB
// value into the struct that holds the machine, as model.Graph does, and
// returns the megabytes still in use once they are all dropped.
func heldByRead(t *testing.T, machine func(*G.ExprGraph) G.VM) float64 {
	t.Helper()
	before := liveHeapMB()
	for range 10 {
		g := G.NewGraph()
		x := G.NewMatrix(g, tensor.Float64, G.WithShape(1000, 1000), G.WithName("x"), G.WithInit(G.Ones()))
		y, err := G.Add(x, x)
		if err != nil {
			t.Fatal(err)
		}
		holder := &struct {
			vm  G.VM
			sum G.Value
		}{}
		G.Read(y, &holder.sum)
		holder.vm = machine(g)
		if err := holder.vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		if got := holder.sum.Data().([]float64)[0]; got != 2 {
			t.Fatalf("x + x = %v, want 2", got)
		}
		holder.vm.Close()
	}
	return liveHeapMB() - before
}

// A stock machine in a cycle through G.Read is never freed (this fails if
// Gorgonia stops setting the finalizer); a Collectable one is.
func TestCollectableMachineIsFreed(t *testing.T) {
	if G.CUDA {
		t.Skip("with CUDA the finalizer frees the device's contexts and is kept")
	}
	stock := heldByRead(t, func(g *G.ExprGraph) G.VM { return G.NewTapeMachine(g) })
	if stock < 40 {
		t.Errorf("ten stock machines in a cycle keep %.1f MB; the finalizer no longer pins them and Collectable may go", stock)
	}
	ours := heldByRead(t, func(g *G.ExprGraph) G.VM { return Collectable(G.NewTapeMachine(g)) })
	if ours > 8 {
		t.Errorf("ten Collectable machines keep %.1f MB after they are dropped, want under one machine's 8 MB", ours)
	}
}
