package train

import (
	"path/filepath"
	"testing"
)

// Graphs are built once and reused, so the live heap after each epoch (a GC
// first, logged as heap_mb) must not grow: over 6 epochs, after the first,
// it may move by less than 1 MiB.
func TestMemoryStaysFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("trains six epochs")
	}
	dir := t.TempDir()
	if _, err := trainConfig(t, dir, "train.epochs=6", "model.layers=1"); err != nil {
		t.Fatal(err)
	}
	epochs := readEpochs(t, filepath.Join(dir, "epochs.jsonl"))
	lo, hi := epochs[1].HeapMB, epochs[1].HeapMB
	for _, e := range epochs[1:] {
		lo, hi = min(lo, e.HeapMB), max(hi, e.HeapMB)
	}
	t.Logf("live heap after epochs 2-6: %.2f to %.2f MiB", lo, hi)
	if hi-lo >= 1 {
		t.Fatalf("live heap grew from %.2f to %.2f MiB over epochs 2-6", lo, hi)
	}
}
