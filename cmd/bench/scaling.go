package main

// The scaling table: the training step at other sizes than the default's,
// Go beside PyTorch, to see where each spends its time. Every size is the
// default config with max_len (the padded length T of every batch), d_model
// and d_ff = 2·d_model overridden; heads, layers and the batch of 32 stay
// (the validation batch is cut to 32, since the session's memory estimate
// counts its graph).

import (
	"fmt"
	"runtime"

	"itformer/model"
)

// scaleSizes: T at the default d_model, d_model at the default T (24), and
// the corner that the 1.5x goal names.
var scaleSizes = [][2]int{
	{16, 32}, {32, 32}, {64, 32}, {128, 32},
	{24, 64}, {24, 128}, {24, 256},
	{128, 256},
}

func scaling(o options) error {
	fmt.Printf("\nscaling: training step (forward, backward, Adam), batch 32, default config otherwise; Go matrix products: %s\n", model.BLAS())
	fmt.Printf("%5s %8s %12s", "T", "d_model", "Go ms")
	for _, n := range o.threads {
		fmt.Printf(" %12s %9s", fmt.Sprintf("PyTorch %dt", n), "Go/PyT")
	}
	fmt.Println()
	for _, size := range scaleSizes {
		if err := scaleRow(o, size[0], size[1]); err != nil {
			return fmt.Errorf("T %d, d_model %d: %w", size[0], size[1], err)
		}
	}
	fmt.Println("(medians of interleaved rounds; Go/PyT is the median of per-round ratios, above 1 when Go is slower)")
	return nil
}

// scaleRow measures one size. Blocks hold about as much work as -steps
// default-sized steps, and at least 2 steps.
func scaleRow(o options, T, d int) error {
	o.sets = []string{"train.eval_batch_size=32", fmt.Sprintf("model.max_len=%d", T), fmt.Sprintf("model.d_model=%d", d), fmt.Sprintf("model.d_ff=%d", 2*d)}
	s, err := newGoStepper(o)
	if err != nil {
		return err
	}
	defer s.Close()
	goLoss, err := s.check()
	if err != nil {
		return err
	}
	procs, err := startAllTorch(o, s, goLoss, false)
	if err != nil {
		fmt.Printf("(PyTorch side skipped: %v; to run it: %s)\n", err, torchInstall)
	}
	for _, p := range procs {
		defer p.close()
	}
	steps := max(2, o.steps*24*32/(T*d))
	t, err := interleave(s, procs, o.rounds, steps, func() {})
	if err != nil {
		return err
	}
	fmt.Printf("%5d %8d %12.2f", T, d, median(t.goMS))
	for i := range procs {
		fmt.Printf(" %12.2f %9.2f", median(t.torchMS[i]), median(t.ratios[i]))
	}
	fmt.Println()
	runtime.GC() // the next size starts without this one's garbage
	return nil
}
