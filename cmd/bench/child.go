package main

// Inference, checkpoint loading and a whole training run. Peak memory is the
// peak resident set size (VmHWM) of a child process (this binary again, with
// -child), which the child reads from /proc/self/status as it ends, so that the
// parent's own memory is not counted. (The rusage of wait4 would not do: Linux
// carries the parent's high-water mark into a vforked child's ru_maxrss.)

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"itformer/checkpoint"
	"itformer/cmd/internal/cli"
	"itformer/cmd/internal/defaultmodel"
	"itformer/data"
	"itformer/inference"
	"itformer/model"
	"itformer/train"
)

// timeEach returns the median duration of f over rounds blocks of n calls.
func timeEach(rounds, n int, f func() error) (time.Duration, error) {
	if err := f(); err != nil { // warm-up
		return 0, err
	}
	var per []float64
	for r := 0; r < rounds; r++ {
		start := time.Now()
		for i := 0; i < n; i++ {
			if err := f(); err != nil {
				return 0, err
			}
		}
		per = append(per, float64(time.Since(start))/float64(n))
	}
	return time.Duration(median(per)), nil
}

// inferenceSection times the forward pass, graph building and Resolve with
// the embedded model (infer), and loading that model (load).
func inferenceSection(o options) error {
	ck, err := defaultmodel.Load()
	if err != nil {
		return err
	}
	fmt.Printf("\ninference with the embedded default model, %q\n", o.sentence)
	if o.only["infer"] {
		if err := timeInference(o, ck); err != nil {
			return err
		}
	}
	if o.only["load"] {
		embedded, err := timeEach(o.rounds, 20, func() error { _, err := defaultmodel.Load(); return err })
		if err != nil {
			return err
		}
		fmt.Printf("  loading and verifying the embedded checkpoint %.3f ms\n", ms(embedded))
	}
	return nil
}

// timeInference prints the infer section: -sentence's forward pass and
// graph building, Predictor.Resolve, and a child process's peak memory.
func timeInference(o options, ck *checkpoint.Checkpoint) error {
	p := inference.New(ck)
	b, err := sentenceBatch(p, o.sentence)
	if err != nil {
		return err
	}
	fwd, build, err := timeGraph(o.rounds, ck.Params, b)
	if err != nil {
		return err
	}
	resolve, err := timeEach(o.rounds, 5, func() error { _, err := p.Resolve(o.sentence); return err })
	if err != nil {
		return err
	}
	answer, rss, err := childPeakMemory(o.sentence)
	if err != nil {
		return err
	}
	fmt.Printf("  forward pass of a built graph        %7.3f ms\n", ms(fwd))
	fmt.Printf("  building that graph                  %7.3f ms\n", ms(build))
	fmt.Printf("  Predictor.Resolve (graph kept)       %7.3f ms   %.0f sentences/s\n", ms(resolve), float64(time.Second)/float64(resolve))
	fmt.Printf("  peak memory of a process that loads the model and resolves one sentence: %.1f MB (answer: %s)\n", rss, answer)
	return nil
}

// sentenceBatch is sentence as Resolve reads it, a batch of one on its
// first "it".
func sentenceBatch(p *inference.Predictor, sentence string) (model.Batch, error) {
	enc, err := p.Encode(sentence) // the tokens Resolve reads
	if err != nil {
		return model.Batch{}, err
	}
	pronouns := data.Pronouns(enc.Tokens)
	if len(pronouns) == 0 {
		return model.Batch{}, fmt.Errorf("-sentence %q has no \"it\"", sentence)
	}
	return model.Batch{IDs: enc.IDs, Lengths: []int{len(enc.IDs)}, Pronoun: pronouns[:1]}, nil
}

// timeGraph is the median time of b's forward pass through a built graph,
// and of building (and closing) that graph.
func timeGraph(rounds int, params *model.Params, b model.Batch) (forward, build time.Duration, err error) {
	opts := model.GraphOptions{Batch: 1, SeqLen: len(b.IDs), Attention: true}
	g, err := model.NewGraph(params, opts)
	if err != nil {
		return 0, 0, err
	}
	defer g.Close()
	if forward, err = timeEach(rounds, 50, func() error { _, err := g.Run(b); return err }); err != nil {
		return 0, 0, err
	}
	build, err = timeEach(rounds, 5, func() error {
		g, err := model.NewGraph(params, opts)
		if err == nil {
			g.Close()
		}
		return err
	})
	return forward, build, err
}

// childPeakMemory resolves sentence in a fresh child process and returns
// its answer and the child's peak memory in MB.
func childPeakMemory(sentence string) (answer string, rss float64, err error) {
	out, err := runChild("infer", sentence)
	if err != nil {
		return "", 0, err
	}
	if _, err := fmt.Sscan(out, &answer, &rss); err != nil {
		return "", 0, fmt.Errorf("infer child said %q: %w", out, err)
	}
	return answer, rss, nil
}

// trainReport is what the train child prints.
type trainReport struct {
	Epochs          []train.EpochRecord `json:"epochs"`
	EpochEnd        []float64           `json:"epoch_end_seconds"` // since the child started, after each epoch was logged
	Total           float64             `json:"total_seconds"`
	PeakMB          float64             `json:"peak_rss_mb"`
	WeightsSHA256   string              `json:"weights_sha256"`
	TestAccuracy    float64             `json:"test_accuracy"`
	SentencesPerSec float64             `json:"train_sentences_per_second"`
}

// trainingRun times a whole training run of -config in a child process,
// then the same run in PyTorch to the same validation accuracy.
func trainingRun(o options) error {
	fmt.Printf("\na whole training run of %s (train.Run in a child process; progress dots per epoch)\n", cli.ConfigName(o.config))
	out, err := runChild("train", o.config)
	if err != nil {
		return err
	}
	var r trainReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return fmt.Errorf("train child: %w", err)
	}
	printGoRun(r)
	fmt.Printf("the same run in PyTorch (same initial weights, batches, noun dropout, learning rates and embedding decay), to %.0f%% validation accuracy\n", 100*accuracyTarget)
	if err := torchToAccuracy(o); err != nil {
		fmt.Printf("  PyTorch side skipped: %v\n  to run it: %s\n", err, torchInstall)
	}
	return nil
}

// printGoRun prints the Go run's validation accuracy per epoch up to the
// first at accuracyTarget (95%) or more, when that was reached and how long
// the run took.
func printGoRun(r trainReport) {
	to95 := firstEpochReaching(r.Epochs, accuracyTarget)
	fmt.Print("  Go, validation accuracy per epoch:")
	shown := r.Epochs
	if to95 >= 0 {
		shown = r.Epochs[:to95+1]
	}
	for _, e := range shown {
		fmt.Printf(" %.1f%%", 100*e.ValidationAccuracy)
	}
	fmt.Println()
	if to95 >= 0 {
		fmt.Printf("  validation accuracy first >= 95%%: epoch %d (%.1f%%), %.1f s after the process started (corpus and graphs included)\n",
			r.Epochs[to95].Epoch, 100*r.Epochs[to95].ValidationAccuracy, r.EpochEnd[to95])
	} else {
		fmt.Printf("  validation accuracy never reached 95%%\n")
	}
	var speeds []float64
	for _, e := range r.Epochs {
		speeds = append(speeds, e.SentencesPerSecond)
	}
	fmt.Printf("  %d epochs in %.1f s wall clock, %.0f training sentences/s (median epoch), test accuracy %.1f%%\n",
		len(r.Epochs), r.Total, median(speeds), 100*r.TestAccuracy)
	fmt.Printf("  peak memory (VmHWM) %.1f MB; weights SHA-256 %s\n", r.PeakMB, r.WeightsSHA256)
}

// firstEpochReaching is the index of the first epoch whose validation
// accuracy is at least target, or -1.
func firstEpochReaching(epochs []train.EpochRecord, target float64) int {
	for i, e := range epochs {
		if e.ValidationAccuracy >= target {
			return i
		}
	}
	return -1
}

// runChild runs this binary with -child what and returns its stdout.
func runChild(what string, args ...string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(self, append([]string{"-child", what}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	err = cleanup.start(cmd)
	if err == nil {
		err = cleanup.wait(cmd)
	}
	if err != nil {
		return "", fmt.Errorf("child %s: %w", what, err)
	}
	return out.String(), nil
}

// peakRSSMB is this process's peak resident set size, VmHWM, in MB (10^6 bytes).
func peakRSSMB() (float64, error) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err != nil {
				return 0, err
			}
			return kb * 1024 / 1e6, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

func child(what string, args []string) error {
	switch what {
	case "infer":
		ck, err := defaultmodel.Load()
		if err != nil {
			return err
		}
		res, err := inference.New(ck).Resolve(strings.Join(args, " "))
		if err != nil {
			return err
		}
		peak, err := peakRSSMB()
		if err != nil {
			return err
		}
		fmt.Println(res.Predictions[0].AnswerWord, peak)
		return nil
	case "train":
		return childTrain(args[0])
	}
	return fmt.Errorf("unknown child %q", what)
}

func childTrain(configPath string) error {
	start := time.Now()
	cfg, err := cli.LoadConfig(configPath)
	if err != nil {
		return err
	}
	dir, remove, err := cleanup.tempDir("itformer-bench-run-")
	if err != nil {
		return err
	}
	defer remove()
	var r trainReport
	m, err := train.Run(cfg, train.Options{OutDir: dir, OnEpoch: func(rec train.EpochRecord, _ int) {
		r.Epochs = append(r.Epochs, rec)
		r.EpochEnd = append(r.EpochEnd, time.Since(start).Seconds())
		fmt.Fprint(os.Stderr, ".")
	}})
	if err != nil {
		return err
	}
	r.Total, r.TestAccuracy, r.SentencesPerSec = time.Since(start).Seconds(), m.Test.Accuracy, m.SentencesPerSecond
	fmt.Fprintln(os.Stderr)
	ck, err := checkpoint.Load(dir)
	if err != nil {
		return err
	}
	r.WeightsSHA256 = ck.Meta.SHA256
	if r.PeakMB, err = peakRSSMB(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}
