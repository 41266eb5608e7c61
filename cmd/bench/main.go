// Command bench measures what a user of itformer waits for, on this machine,
// and sets a training step beside the same step in PyTorch:
//
//	go run ./cmd/bench                      # everything below, about 2 minutes on 2 cores
//	go run ./cmd/bench -only step,pytorch   # the side-by-side alone
//
// It prints
//   - step:    a training step of the default config (forward, backward, Adam) on
//     real batches of 32 sentences, each padded as train.Session.Run pads it (to
//     its longest sentence, rounded up to a multiple of 4): the matrix-product
//     kernels in use, ms per step, sentences per second, allocations per step;
//   - infer:   one sentence: the forward pass of a built graph, and Checkpoint.Resolve
//     as cmd/infer calls it (graph built per sentence), in ms, and the peak memory of
//     a process that loads the embedded model and resolves one sentence;
//   - load:    loading and verifying the embedded checkpoint, in ms;
//   - pytorch: the same step in PyTorch on the CPU (cmd/bench/pytorch_step.py,
//     Debian's python3-torch), measured in alternating blocks with the Go step in
//     one run, with 2 threads and with 1, and the ratio of step times; it says
//     which BLAS PyTorch loaded and warns unless it is OpenBLAS, and without
//     PyTorch it runs the Go side and says how to install the rest (but -only
//     naming pytorch refuses a -python that cannot be run, at once);
//   - train:   a whole default training run (train.Run, as go run ./cmd/train does)
//     in a child process: seconds until validation accuracy first reaches 95%,
//     total seconds, sentences per second, peak memory (max RSS) and the weights'
//     SHA-256 (the embedded model's, on a CPU of the kind that trained it); then
//     the same run in PyTorch (same initial weights, batches with their noun
//     dropout, learning rates and embedding decay, pytorch_step.py --train)
//     until it reaches 95%, timed the same way;
//   - scaling (only with -only scaling): the step against the padded length T
//     (16, 24, 32, 64, 128) and against d_model (32, 64, 128, 256, d_ff = 2·d_model),
//     Go beside PyTorch, and the largest of both (d_model 256, 128 tokens, batch
//     8); -plot DIR draws both sweeps as PNGs.
//
// Figures are medians over -rounds blocks; the machine is shared, so compare
// ratios taken in one run rather than figures from different runs.
// docs/performance.md records the figures and the method.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"

	"itformer/cmd/internal/cli"
	"itformer/config"
)

type options struct {
	only          map[string]bool
	config        string
	dtype         string
	rounds, steps int
	python        string
	torchAsked    bool // -only was given and names pytorch
	script        string
	threads       []int
	sentence      string
	sets          []string // config overrides of the scaling section
	plotDir       string   // where the scaling section draws its plots ("" for none)
}

func main() {
	if len(os.Args) > 2 && os.Args[1] == "-child" {
		cleanup.exitOnSignal("bench child")
		if err := child(os.Args[2], os.Args[3:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench child:", err)
			os.Exit(1)
		}
		return
	}
	cleanup.exitOnSignal("bench")
	cli.Exit("bench", run(os.Args[1:]))
}

// sections: all but the last run by default.
var sections = []string{"step", "infer", "load", "pytorch", "train", "scaling"}

func run(args []string) error {
	o, err := parseOptions(args)
	if err != nil {
		return err
	}
	if _, err := cli.LoadConfig(o.config); err != nil { // read whatever the sections, so a bad file is refused at once
		return fmt.Errorf("-config: %w", err)
	}
	if err := checkScript(o.script); err != nil {
		return err
	}
	if err := checkPython(o); err != nil {
		return err
	}
	printMachine()
	return runSections(o)
}

// parseOptions reads the flags and refuses a mistake in any of them before
// anything is measured.
func parseOptions(args []string) (options, error) {
	fs := cli.NewFlagSet("bench", "bench [-only SECTIONS] [-config FILE] [-dtype float64|float32] [-rounds N] [-steps N] ...")
	only := fs.String("only", strings.Join(sections[:len(sections)-1], ","), "sections to run, comma-separated: "+strings.Join(sections, ", "))
	config := fs.String("config", "", "run config for the training step and the training run (default: the shipped configs/default.json, built in)")
	dtype := fs.String("dtype", "", "override model.dtype for the step and pytorch sections (float64 or float32)")
	rounds := fs.Int("rounds", 15, "measured blocks per figure (a first, warm-up block is not counted)")
	steps := fs.Int("steps", 30, "training steps per block")
	python := fs.String("python", "/usr/bin/python3", "Python with Debian's python3-torch")
	script := fs.String("script", "", "the PyTorch step script (default: cmd/bench/pytorch_step.py, built in)")
	threads := fs.String("torch-threads", "2,1", "torch.set_num_threads values to compare, comma-separated")
	plotDir := fs.String("plot", "", "scaling: also draw scaling-seqlen.png and scaling-dmodel.png into this folder (e.g. docs)")
	sentence := fs.String("sentence", "A dog ate the food because it was hungry", "the sentence for the infer section")
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, os.Stdout); err != nil {
		return options{}, err
	}
	if err := fs.NoArguments(); err != nil {
		return options{}, err
	}
	o := options{config: *config, dtype: *dtype, rounds: *rounds, steps: *steps,
		python: *python, script: *script, sentence: *sentence, plotDir: *plotDir}
	var err error
	if o.only, err = parseSections(fs, *only); err != nil {
		return o, err
	}
	o.torchAsked = fs.Given("only") && o.only["pytorch"]
	if o.threads, err = parseThreads(fs, *threads); err != nil {
		return o, err
	}
	return o, checkOptions(fs, o)
}

// parseSections reads -only: a set of the known section names.
func parseSections(fs *cli.FlagSet, only string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, s := range strings.Split(only, ",") {
		if s = strings.TrimSpace(s); !slices.Contains(sections, s) {
			return nil, fs.Mistake("-only: unknown section %q (want %s)", s, strings.Join(sections, ", "))
		}
		set[s] = true
	}
	return set, nil
}

// parseThreads reads -torch-threads: positive thread counts, in order.
func parseThreads(fs *cli.FlagSet, threads string) ([]int, error) {
	var counts []int
	for _, s := range strings.Split(threads, ",") {
		var n int
		if _, err := fmt.Sscan(strings.TrimSpace(s), &n); err != nil || n < 1 {
			return nil, fs.Mistake("-torch-threads: %q is not a positive integer", s)
		}
		counts = append(counts, n)
	}
	return counts, nil
}

// checkOptions refuses the numeric, -plot and -dtype mistakes.
func checkOptions(fs *cli.FlagSet, o options) error {
	if o.rounds < 1 || o.steps < 1 {
		return fs.Mistake("-rounds and -steps must be positive")
	}
	if err := checkPlotDir(o); err != nil {
		return fs.Mistake("%v", err)
	}
	if o.dtype != "" && o.dtype != "float64" && o.dtype != "float32" {
		return fs.Mistake("-dtype: %q is neither float64 nor float32", o.dtype)
	}
	return nil
}

// runSections runs the sections -only names, in the order of sections
// (step and pytorch share one side-by-side, infer and load one section).
func runSections(o options) error {
	if o.only["step"] || o.only["pytorch"] {
		if err := sideBySide(o); err != nil {
			return err
		}
	}
	if o.only["infer"] || o.only["load"] {
		if err := inferenceSection(o); err != nil {
			return err
		}
	}
	if o.only["train"] {
		if err := trainingRun(o); err != nil {
			return err
		}
	}
	if o.only["scaling"] {
		return scaling(o)
	}
	return nil
}

// checkPlotDir refuses a -plot folder the scaling section could not write
// into, before it spends minutes measuring.
func checkPlotDir(o options) error {
	if o.plotDir == "" {
		return nil
	}
	if !o.only["scaling"] {
		return fmt.Errorf("-plot draws the scaling section's sweeps: add scaling to -only")
	}
	probe, err := os.CreateTemp(o.plotDir, ".bench-plot-*")
	if err != nil {
		return fmt.Errorf("-plot %s: cannot write there: %w", o.plotDir, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// maxScript bounds -script: pytorch_step.py is 20 kB.
const maxScript = 10_000_000

// checkScript refuses a -script that is not a regular file, as the other
// readers refuse one (config.OpenFile), before Python is started on it: a
// FIFO would block Python's open, and bench with it, for ever.
func checkScript(script string) error {
	if script == "" {
		return nil // the built-in one
	}
	f, _, err := config.OpenFile(script, maxScript)
	if err != nil {
		return fmt.Errorf("-script: %w", err)
	}
	return f.Close()
}

// checkPython refuses a -python that cannot be run when -only asks for the
// PyTorch side by name: the Go side alone, then "PyTorch side skipped" and
// status 0, is not what was asked for. The default -only still runs the Go
// side without Python and says how to install it.
func checkPython(o options) error {
	if !o.torchAsked {
		return nil
	}
	if _, err := exec.LookPath(o.python); err != nil {
		if e := (*exec.Error)(nil); errors.As(err, &e) {
			err = e.Err // without exec's repeating the name
		}
		return fmt.Errorf("-python %s: %w; -only names pytorch, which needs a Python with PyTorch (%s)", o.python, err, torchInstall)
	}
	return nil
}

func printMachine() {
	fmt.Printf("machine: %s, %d cores, GOMAXPROCS %d, %s %s/%s\n",
		cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func cpuModel() string {
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
