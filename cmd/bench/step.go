package main

// The training step, in Go and in PyTorch, measured in alternating blocks.
//
// Go: train.Session.Run on training graphs padded to the batch's longest
// sentence (forward and backward, attention supervision included, the batch
// split into train.shards shards run at once) and an Adam update of every weight, the loop of
// train/adam.go, which takes 0.2 ms of a step. PyTorch: pytorch_step.py with the
// same initial weights and the same batches, one process per thread count,
// kept alive and told to run a block of steps at a time. A round runs one Go
// block and one block of each PyTorch process, in an order that rotates from
// round to round, so that the machine's slow and fast moments fall on both.

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gorgonia.org/tensor"

	"itformer/cmd/internal/cli"
	"itformer/config"
	"itformer/data"
	"itformer/model"
	"itformer/train"
)

// goStepper is the Go side: a training session, as train.Run prepares it, and its batches.
type goStepper struct {
	*train.Session
	batches []data.Batch
	next    int
	padded  bool // run every batch padded to max_len (the scaling section) instead of to its longest sentence
}

func newGoStepper(o options) (*goStepper, error) {
	sets := slices.Clone(o.sets)
	if o.dtype != "" {
		sets = append(sets, "model.dtype="+o.dtype)
	}
	cfg, err := cli.LoadConfig(o.config, sets...)
	if err != nil {
		return nil, err
	}
	s, err := train.NewSession(cfg)
	if err != nil {
		return nil, err
	}
	// A max_len below the corpus's longest sentence (the scaling section's T = 16) keeps the sentences that fit.
	fit := slices.DeleteFunc(slices.Clone(s.Corpus.Train), func(e data.Example) bool { return len(e.Tokens) > cfg.Model.MaxLen })
	batches, err := data.Batches(fit, s.Vocab, cfg.Train.BatchSize, cfg.Model.MaxLen, rand.New(rand.NewSource(cfg.Seed)), true)
	if err != nil {
		return nil, err
	}
	if len(batches) == 0 {
		s.Close()
		return nil, fmt.Errorf("no training batch of sentences up to %d tokens", cfg.Model.MaxLen)
	}
	return &goStepper{Session: s, batches: batches[:min(32, len(batches))]}, nil
}

// run runs batch b forward and backward, sharded as the config says
// (train.shards), and returns the graph holding its gradients.
func (s *goStepper) run(b data.Batch) (*model.Output, *model.Graph, error) {
	if s.padded {
		return s.RunPadded(b, s.Config.Model.MaxLen)
	}
	return s.Run(b)
}

// check runs batch 0 forward and backward, discards the gradients and returns the objective and its parts.
func (s *goStepper) check() ([3]float64, error) {
	out, g, err := s.run(s.batches[0])
	if err != nil {
		return [3]float64{}, err
	}
	for _, vg := range g.ValueGrads() {
		g, _ := vg.Grad()
		g.(*tensor.Dense).Zero()
	}
	return [3]float64{out.Objective, out.Loss, out.AttentionLoss}, nil
}

// steps runs n training steps (forward, backward, Adam at a constant learning
// rate: the schedule costs nothing) and returns their mean duration.
func (s *goStepper) steps(n int) (time.Duration, error) {
	start := time.Now()
	for i := 0; i < n; i++ {
		_, g, err := s.run(s.batches[s.next%len(s.batches)])
		if err != nil {
			return 0, err
		}
		s.next++
		if err := s.Optimiser.Step(g.ValueGrads()); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(n), nil
}

// torchProc is one pytorch_step.py process in --serve mode.
type torchProc struct {
	threads int
	cmd     *exec.Cmd
	in      *json.Encoder
	out     *bufio.Scanner
	hello   map[string]any
}

// spec is what pytorch_step.py --input reads.
type spec struct {
	Config  map[string]int             `json:"config"`
	SeqLen  int                        `json:"seq_len"`
	Params  map[string]json.RawMessage `json:"params"`
	Batches []map[string][]int         `json:"batches"`
	Train   map[string]float64         `json:"train"`
	// Decay is λ of decoupled weight decay per parameter name, those above 0
	// only: the rates train.Session gives its Adam (train.embedding_decay).
	Decay map[string]float64 `json:"decay"`
}

// spreadPartner is, per row, the other candidate a hidden-word row spreads
// its target over (train.ModelBatch), or -1 for a row with one answer.
func spreadPartner(b data.Batch) []int {
	spread := train.ModelBatch(b).Spread
	other := make([]int, len(b.Antecedent))
	for r := range other {
		other[r] = -1
		if r < len(spread) && len(spread[r]) == 2 {
			other[r] = spread[r][0] + spread[r][1] - b.Antecedent[r]
		}
	}
	return other
}

func writeSpec(s *goStepper, path string) error {
	sp, err := newSpec(s.Session, s.batches, !s.padded)
	if err != nil {
		return err
	}
	return writeJSON(path, sp)
}

// newSpec holds the session's config, its initial weights and the batches,
// with trim each padded to its longest sentence as Session.Run pads it.
func newSpec(s *train.Session, batches []data.Batch, trim bool) (spec, error) {
	c := s.Config
	sp := spec{Config: map[string]int{"d_model": c.Model.DModel, "heads": c.Model.Heads, "layers": c.Model.Layers},
		SeqLen: c.Model.MaxLen, Params: map[string]json.RawMessage{},
		Train: map[string]float64{"learning_rate": c.Train.LearningRate, "beta1": c.Train.Beta1, "beta2": c.Train.Beta2,
			"adam_eps": c.Train.AdamEps, "attention_supervision": c.Train.AttentionSupervision, "warmup_steps": float64(c.Train.WarmupSteps)},
		Decay: map[string]float64{}}
	for i, ps := range s.Params.Specs() {
		if i < len(s.Optimiser.Decay) && s.Optimiser.Decay[i] > 0 { // Adam.Decay is in the parameters' order
			sp.Decay[ps.Name] = s.Optimiser.Decay[i]
		}
		raw, err := json.Marshal(map[string]any{"shape": ps.Shape, "data": s.Params.Values(ps.Name)})
		if err != nil {
			return sp, err
		}
		sp.Params[ps.Name] = raw
	}
	for _, b := range batches {
		sp.Batches = append(sp.Batches, batchJSON(b, trim))
	}
	return sp, nil
}

// batchJSON is one batch as pytorch_step.py reads it, with trim padded
// as Session.Run pads it.
func batchJSON(b data.Batch, trim bool) map[string][]int {
	if trim {
		b = b.Repadded(train.PaddedLength(b, b.SeqLen))
	}
	return map[string][]int{"ids": b.IDs, "lengths": b.Lengths, "pronoun": b.Pronoun,
		"antecedent": b.Antecedent, "other": spreadPartner(b)}
}

func writeJSON(path string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, raw, 0o644)
}

// pytorchStep is pytorch_step.py, built in so that bench runs from any directory.
//
//go:embed pytorch_step.py
var pytorchStep []byte

// scriptFile is the -script path, or, when none was given, the built-in
// script written into dir (Python runs a file).
func scriptFile(script, dir string) (string, error) {
	if script != "" {
		return script, nil
	}
	path := filepath.Join(dir, "pytorch_step.py")
	return path, os.WriteFile(path, pytorchStep, 0o644)
}

func startTorch(o options, threads int, specPath, dtype string) (*torchProc, error) {
	return startTorchWith(o, threads, "--serve", "--dtype", dtype, "--input", specPath)
}

// startTorchWith starts pytorch_step.py on threads threads with the mode's
// arguments and reads its first line, which says what it runs on.
func startTorchWith(o options, threads int, mode ...string) (*torchProc, error) {
	cmd := exec.Command(o.python, append([]string{o.script, "--threads", fmt.Sprint(threads)}, mode...)...)
	// OpenBLAS and OpenMP keep their own thread pools: pin them to the same count.
	cmd.Env = append(os.Environ(), fmt.Sprintf("OMP_NUM_THREADS=%d", threads), fmt.Sprintf("OPENBLAS_NUM_THREADS=%d", threads))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cleanup.start(cmd); err != nil {
		return nil, fmt.Errorf("starting %s %s: %w", o.python, o.script, err)
	}
	p := &torchProc{threads: threads, cmd: cmd, in: json.NewEncoder(stdin), out: bufio.NewScanner(stdout)}
	p.out.Buffer(make([]byte, 1<<20), 1<<20)
	if err := p.read(&p.hello); err != nil {
		p.close()
		return nil, fmt.Errorf("%s %s did not start (%w)", o.python, o.script, err)
	}
	return p, nil
}

func (p *torchProc) read(into any) error {
	if !p.out.Scan() {
		if err := p.out.Err(); err != nil {
			return err
		}
		return fmt.Errorf("the PyTorch process ended")
	}
	return json.Unmarshal(p.out.Bytes(), into)
}

func (p *torchProc) check() ([3]float64, error) {
	var r struct{ Objective, Loss, Attention_loss float64 }
	if err := p.in.Encode(map[string]string{"cmd": "check"}); err != nil {
		return [3]float64{}, err
	}
	err := p.read(&r)
	return [3]float64{r.Objective, r.Loss, r.Attention_loss}, err
}

// steps runs n steps and returns their mean duration, timed inside Python.
func (p *torchProc) steps(n int) (time.Duration, error) {
	var r struct{ Seconds []float64 }
	if err := p.in.Encode(map[string]any{"cmd": "steps", "n": n}); err != nil {
		return 0, err
	}
	if err := p.read(&r); err != nil {
		return 0, err
	}
	sum := 0.0
	for _, s := range r.Seconds {
		sum += s
	}
	return time.Duration(sum / float64(len(r.Seconds)) * float64(time.Second)), nil
}

func (p *torchProc) close() {
	p.in.Encode(map[string]string{"cmd": "quit"})
	cleanup.wait(p.cmd)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// torchInstall says how to get the PyTorch side on Debian or Ubuntu.
const torchInstall = "apt-get install -y python3-torch python3-numpy libopenblas0 (Debian's PyTorch on OpenBLAS), then -python /usr/bin/python3"

// startAllTorch starts one pytorch_step.py per -torch-threads value and
// checks that it computes Go's objective; it prints which BLAS PyTorch
// loaded and warns unless it is OpenBLAS, the BLAS the figures assume.
func startAllTorch(o options, s *goStepper, goLoss [3]float64, report bool) ([]*torchProc, error) {
	dir, remove, err := cleanup.tempDir("itformer-bench-")
	if err != nil {
		return nil, err
	}
	defer remove() // the processes have read both files by the time check returns
	specPath := filepath.Join(dir, "spec.json")
	if err := writeSpec(s, specPath); err != nil {
		return nil, err
	}
	if o.script, err = scriptFile(o.script, dir); err != nil {
		return nil, err
	}
	var procs []*torchProc
	for _, n := range o.threads {
		p, err := startTorch(o, n, specPath, s.Config.Model.DType)
		if err == nil {
			procs = append(procs, p)
			var tl [3]float64
			if tl, err = p.check(); err == nil && report && n == o.threads[0] {
				reportTorch(p, goLoss, tl)
			}
		}
		if err != nil {
			for _, p := range procs {
				p.close()
			}
			return nil, err
		}
	}
	return procs, nil
}

func reportTorch(p *torchProc, goLoss, tl [3]float64) {
	blas := fmt.Sprint(p.hello["blas"])
	fmt.Printf("PyTorch %v, BLAS %s\n", p.hello["torch"], blas)
	if !strings.Contains(strings.ToLower(blas), "openblas") {
		fmt.Printf("WARNING: PyTorch is not on OpenBLAS, so its figures are not the ones docs/performance.md compares with (the reference BLAS is about 4x slower); install libopenblas0\n")
	}
	fmt.Printf("same model: objective on batch 0 before any step: Go %.12g, PyTorch %.12g (relative difference %.1e)\n",
		goLoss[0], tl[0], math.Abs(goLoss[0]-tl[0])/math.Abs(tl[0]))
}

// sideBySide is the step and pytorch sections: the Go training step's
// allocations, then its time beside each PyTorch process's, measured in
// interleaved rounds.
func sideBySide(o options) error {
	s, err := newGoStepper(o)
	if err != nil {
		return err
	}
	defer s.Close()
	printStepConfig(o, s.Config)
	goLoss, err := s.check()
	if err != nil {
		return err
	}
	var procs []*torchProc
	if o.only["pytorch"] {
		if procs, err = startAllTorch(o, s, goLoss, true); err != nil {
			// The Go figures still stand on their own.
			fmt.Printf("PyTorch side skipped: %v\n  to run it: %s\n", err, torchInstall)
		}
		for _, p := range procs {
			defer p.close()
		}
	}
	if err := printAllocations(s, o.steps); err != nil {
		return err
	}
	fmt.Printf("%d rounds of %d steps each", o.rounds, o.steps)
	t, err := interleave(s, procs, o.rounds, o.steps, func() { fmt.Print(".") })
	if err != nil {
		return err
	}
	fmt.Println()
	printStepTimes(float64(s.Config.Train.BatchSize), procs, t)
	return nil
}

// printStepConfig says which kernels and which model the step runs.
func printStepConfig(o options, c config.Run) {
	fmt.Printf("\nGo matrix products: %s; exp: %s\n", model.BLAS(), model.Exp())
	fmt.Printf("training step: %s, dtype %s, batch %d sentences padded to the longest (max_len %d) in %d shard(s) run at once, d_model %d, %d heads, d_ff %d, %d layers, attention supervision %g, Adam\n",
		cli.ConfigName(o.config), c.Model.DType, c.Train.BatchSize, c.Model.MaxLen, c.Train.ShardCount(), c.Model.DModel, c.Model.Heads, c.Model.DFF, c.Model.Layers, c.Train.AttentionSupervision)
}

// printAllocations prints the Go step's allocations, per step over one
// block of steps, once every batch length has its graph (the first pass
// over the batches builds them).
func printAllocations(s *goStepper, steps int) error {
	if _, err := s.steps(len(s.batches)); err != nil {
		return err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := s.steps(steps); err != nil {
		return err
	}
	runtime.ReadMemStats(&after)
	fmt.Printf("Go step allocates %.1f MB in %.0f allocations\n",
		float64(after.TotalAlloc-before.TotalAlloc)/float64(steps)/1e6, float64(after.Mallocs-before.Mallocs)/float64(steps))
	return nil
}

// printStepTimes prints the median step time and sentences per second of
// Go and of each PyTorch process, and Go's time over PyTorch's.
func printStepTimes(sentences float64, procs []*torchProc, t timings) {
	fmt.Printf("  %-28s %8.2f ms/step  %6.0f sentences/s\n", "Go (GOMAXPROCS "+fmt.Sprint(runtime.GOMAXPROCS(0))+")", median(t.goMS), sentences/median(t.goMS)*1e3)
	for i, p := range procs {
		fmt.Printf("  %-28s %8.2f ms/step  %6.0f sentences/s   Go/PyTorch step time %.2f (median of per-round ratios; range %.2f-%.2f)\n",
			fmt.Sprintf("PyTorch (%d thread%s)", p.threads, map[bool]string{true: "s"}[p.threads > 1]),
			median(t.torchMS[i]), sentences/median(t.torchMS[i])*1e3, median(t.ratios[i]), slices.Min(t.ratios[i]), slices.Max(t.ratios[i]))
	}
	if len(procs) > 0 {
		fmt.Println("  (a ratio above 1 means the Go step is slower)")
	}
}

// timings are per-round mean step times in ms, and Go's over each PyTorch's.
type timings struct {
	goMS            []float64
	torchMS, ratios [][]float64
}

// interleave runs rounds+1 rounds (the first warms up and is not counted) of
// one block of steps in Go and in each PyTorch process, in an order that
// rotates from round to round.
func interleave(s *goStepper, procs []*torchProc, rounds, steps int, tick func()) (timings, error) {
	t := timings{torchMS: make([][]float64, len(procs)), ratios: make([][]float64, len(procs))}
	for round := 0; round <= rounds; round++ {
		tick()
		var goT time.Duration
		tT := make([]time.Duration, len(procs))
		for turn := 0; turn <= len(procs); turn++ {
			who := (turn + round) % (len(procs) + 1)
			var err error
			if who == len(procs) {
				goT, err = s.steps(steps)
			} else {
				tT[who], err = procs[who].steps(steps)
			}
			if err != nil {
				return t, err
			}
		}
		if round == 0 {
			continue
		}
		t.goMS = append(t.goMS, ms(goT))
		for i := range procs {
			t.torchMS[i] = append(t.torchMS[i], ms(tT[i]))
			t.ratios[i] = append(t.ratios[i], float64(goT)/float64(tT[i]))
		}
	}
	return t, nil
}
