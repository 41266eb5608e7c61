package train

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"itformer/config"
)

// Graphs are built once and reused, so once every training graph has been
// built, the live heap after each epoch (a GC first, logged as heap_mb) must
// not grow: over 5 epochs it may move by less than 1 MiB.
//
// A training graph is built the first time a batch pads to its length
// (PaddedLength: a multiple of config.PadMultiple), and holds megabytes (one
// layer, 16 tokens: about 5 MiB). Which epoch first has a batch of a rarer
// length depends on the corpus's draw: on 6,000 sentences of seed 1 the first
// batch padded to 16 tokens comes in epoch 3, and the heap rises by that
// graph then and stays flat after. So the test replays Run's batch order to
// find the last epoch that builds a graph, and measures the 5 epochs after it.
func TestMemoryStaysFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("trains six epochs or more")
	}
	// Memory, not learning: one layer and a quarter of tiny's sentences keep it quick.
	overrides := []string{"model.layers=1", smallCorpus}
	const flat = 5
	cfg, err := config.Load("../configs/tiny.json", overrides...)
	if err != nil {
		t.Fatal(err)
	}
	built := lastGraphEpoch(t, cfg, flat)
	dir := t.TempDir()
	if _, err := trainConfig(t, dir, append(overrides, fmt.Sprintf("train.epochs=%d", built+flat))...); err != nil {
		t.Fatal(err)
	}
	epochs := readEpochs(t, filepath.Join(dir, "epochs.jsonl"))
	var heap []float64
	for _, e := range epochs {
		heap = append(heap, e.HeapMB)
	}
	t.Logf("live heap after epochs 1-%d: %.2f MiB", len(heap), heap)
	lo, hi := slices.Min(heap[built:]), slices.Max(heap[built:])
	if hi-lo >= 1 {
		t.Fatalf("live heap grew from %.2f to %.2f MiB over epochs %d-%d, after the last graph was built in epoch %d", lo, hi, built+1, built+flat, built)
	}
}

// lastGraphEpoch replays the batches Run trains cfg on, epoch by epoch, and
// returns the last epoch with a batch padded to a length no earlier batch
// had (so the epoch in which Session.Run builds its graph), looking until
// flat epochs have passed without one. There are at most max_len /
// config.PadMultiple lengths, so it ends.
func lastGraphEpoch(t *testing.T, cfg config.Run, flat int) int {
	t.Helper()
	s, err := NewSession(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	order, seen, last := BatchOrder(cfg), map[int]bool{}, 1
	for epoch := 1; epoch <= last+flat; epoch++ {
		batches, err := s.EpochBatches(order, epoch)
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range batches {
			if n := PaddedLength(b, cfg.Model.MaxLen); !seen[n] {
				seen[n], last = true, epoch
				t.Logf("epoch %d, batch %d: the first padded to %d tokens", epoch, i+1, n)
			}
		}
	}
	return last
}
