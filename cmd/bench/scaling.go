package main

// The scaling table: the training step at other sizes than the default's,
// Go beside PyTorch, to see where each spends its time. Every size is the
// default config with max_len (the padded length T of every batch), d_model
// and d_ff = 2·d_model overridden; heads, layers and the batch of 32 stay
// (the validation batch is cut to 32, since the session's memory estimate
// counts its graph). Batches are padded to T, on both sides: the corpus's
// sentences have at most 24 tokens, so T 32-128 time padding that a real run
// would trim, which is the point of the sweep (attention's cost grows as T²).

import (
	"fmt"
	"path/filepath"
	"runtime"

	"itformer/experiment"
	"itformer/model"
)

// scaleSizes (T, d_model): T at the default d_model, d_model at the default
// max_len (24), and the largest of both.
var scaleSizes = [][2]int{
	{16, 32}, {24, 32}, {32, 32}, {64, 32}, {128, 32},
	{24, 64}, {24, 128}, {24, 256},
	{128, 256},
}

// cornerBatch is the batch of the largest size: at 32 sentences its training
// graph alone would hold about 5 GB, too much beside other work on a shared
// machine, so both sides take 8 (and the table says so).
const cornerBatch = 8

func scaling(o options) error {
	fmt.Printf("\nscaling: training step (forward, backward, Adam), batch 32, default config otherwise; Go matrix products: %s\n", model.BLAS())
	fmt.Printf("%5s %8s %12s", "T", "d_model", "Go ms")
	for _, n := range o.threads {
		fmt.Printf(" %12s %9s", fmt.Sprintf("PyTorch %dt", n), "Go/PyT")
	}
	fmt.Println()
	var rows []scaleResult
	for _, size := range scaleSizes {
		r, err := scaleRow(o, size[0], size[1])
		if err != nil { // one size too big for this machine should not cost the others
			fmt.Printf("%5d %8d  skipped: %v\n", size[0], size[1], err)
			continue
		}
		rows = append(rows, r)
	}
	fmt.Println("(medians of interleaved rounds; Go/PyT is the median of per-round ratios, above 1 when Go is slower)")
	if o.plotDir == "" {
		return nil
	}
	return plotScaling(o, rows)
}

// scaleResult is one size's medians: Go's step and each PyTorch thread count's, in ms.
type scaleResult struct {
	T, d    int
	goMS    float64
	torchMS []float64
}

// plotScaling draws the T sweep and the d_model sweep, each Go beside every
// PyTorch thread count, into -plot's folder.
func plotScaling(o options, rows []scaleResult) error {
	sweeps := []struct {
		file, title, x string
		pick           func(r scaleResult) (float64, bool)
	}{
		{"scaling-seqlen.png", "training step against the padded length T (d_model 32)", "T (tokens per sentence)",
			func(r scaleResult) (float64, bool) { return float64(r.T), r.d == 32 }},
		{"scaling-dmodel.png", "training step against d_model (T 24, d_ff = 2 d_model)", "d_model",
			func(r scaleResult) (float64, bool) { return float64(r.d), r.T == 24 }},
	}
	for _, sw := range sweeps {
		curves := []experiment.Curve{{Name: "Go"}}
		for _, n := range o.threads {
			curves = append(curves, experiment.Curve{Name: fmt.Sprintf("PyTorch, %d thread%s", n, map[bool]string{true: "s"}[n > 1])})
		}
		for _, r := range rows {
			x, ok := sw.pick(r)
			if !ok {
				continue
			}
			curves[0].X, curves[0].Y = append(curves[0].X, x), append(curves[0].Y, r.goMS)
			for i, t := range r.torchMS {
				curves[i+1].X, curves[i+1].Y = append(curves[i+1].X, x), append(curves[i+1].Y, t)
			}
		}
		if len(curves[1].X) == 0 { // no PyTorch side
			curves = curves[:1]
		}
		path := filepath.Join(o.plotDir, sw.file)
		if err := experiment.PlotScaling(path, sw.title, sw.x, "ms per step (median)", curves...); err != nil {
			return err
		}
		fmt.Println("wrote", path)
	}
	return nil
}

// scaleRow measures one size. Blocks hold about as much work as -steps
// default-sized steps, and at least 2 steps.
func scaleRow(o options, T, d int) (scaleResult, error) {
	r := scaleResult{T: T, d: d}
	var batch int
	o.sets, batch = scaleSets(T, d)
	s, err := newGoStepper(o)
	if err != nil {
		return r, err
	}
	defer s.Close()
	s.padded = true // T is the size under test: no trimming to the batch's longest sentence
	goLoss, err := s.check()
	if err != nil {
		return r, err
	}
	procs, err := startAllTorch(o, s, goLoss, false)
	if err != nil {
		fmt.Printf("(PyTorch side skipped: %v; to run it: %s)\n", err, torchInstall)
	}
	for _, p := range procs {
		defer p.close()
	}
	steps := max(2, o.steps*24*32*32/(T*d*batch))
	t, err := interleave(s, procs, o.rounds, steps, func() {})
	if err != nil {
		return r, err
	}
	r.goMS = median(t.goMS)
	for i := range procs {
		r.torchMS = append(r.torchMS, median(t.torchMS[i]))
	}
	printScaleRow(r, t, batch)
	runtime.GC() // the next size starts without this one's garbage
	return r, nil
}

// scaleSets are the config overrides of size (T, d) and its batch: 32
// sentences, but cornerBatch for the largest size.
func scaleSets(T, d int) (sets []string, batch int) {
	sets = []string{"train.eval_batch_size=32", fmt.Sprintf("model.max_len=%d", T), fmt.Sprintf("model.d_model=%d", d), fmt.Sprintf("model.d_ff=%d", 2*d)}
	batch = 32
	if T == 128 && d == 256 {
		batch = cornerBatch
		sets = append(sets, fmt.Sprintf("train.batch_size=%d", batch), fmt.Sprintf("train.eval_batch_size=%d", batch))
	}
	return sets, batch
}

// printScaleRow prints one line of the table: the size, Go's median ms,
// each PyTorch's and the median ratio, and the batch where it is not 32.
func printScaleRow(r scaleResult, t timings, batch int) {
	fmt.Printf("%5d %8d %12.2f", r.T, r.d, r.goMS)
	for i, torch := range r.torchMS {
		fmt.Printf(" %12.2f %9.2f", torch, median(t.ratios[i]))
	}
	if batch != 32 {
		fmt.Printf("   (batch %d)", batch)
	}
	fmt.Println()
}
