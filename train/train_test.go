package train

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"itformer/checkpoint"
	"itformer/config"
	"itformer/data"
	"itformer/history"
	"itformer/model"
)

// tinyConfig is configs/tiny.json, the config the tests train.
var tinyConfig = func() config.Run {
	c, err := config.Load("../configs/tiny.json")
	if err != nil {
		panic(err)
	}
	return c
}()

// smallCorpus is the override of the tests of how training runs, as opposed
// to how well it learns (TestRun): tiny.json's model on 6,000 sentences, 187
// steps an epoch, a quarter of its corpus and of its time.
//
// The tests that train for seconds call t.Parallel, so that they share the
// cores once the others are done, as they are when this package is the last
// that go test ./... runs. The others must not: TestMemoryStaysFlat measures
// the process's heap, TestRunRefusesBatchLargerThanSplit changes
// config.MaxMemory, and Go starts parallel tests only after every
// sequential one has finished.
const smallCorpus = "data.train_size=6000"

// trainedRun is one finished Run and what it wrote.
type trainedRun struct {
	cfg     config.Run
	dir     string
	metrics *Metrics
	log     string
	epochs  []EpochRecord
}

// readEpochs decodes epochs.jsonl strictly, one record per line.
func readEpochs(t *testing.T, path string) []EpochRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []EpochRecord
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var r EpochRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s line %d: %v: %s", path, n, err, sc.Bytes())
		}
		if dec.More() {
			t.Fatalf("%s line %d holds more than one JSON value", path, n)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// trainConfig trains configs/tiny.json with overrides into dir (which Run creates).
func trainConfig(t *testing.T, dir string, overrides ...string) (*trainedRun, error) {
	t.Helper()
	return trainConfigWith(t, Options{OutDir: dir}, overrides...)
}

// trainConfigWith is trainConfig with options (their OnEpoch is replaced).
func trainConfigWith(t *testing.T, opt Options, overrides ...string) (*trainedRun, error) {
	t.Helper()
	cfg, err := config.Load("../configs/tiny.json", overrides...)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	dir := opt.OutDir
	opt.OnEpoch = func(rec EpochRecord, of int) { fmt.Fprintln(&log, rec.Line(of)) }
	m, err := Run(cfg, opt)
	if err != nil {
		return nil, err
	}
	log.WriteString(m.Summary())
	return &trainedRun{cfg: cfg, dir: dir, metrics: m, log: log.String(), epochs: readEpochs(t, filepath.Join(dir, "epochs.jsonl"))}, nil
}

// TestRun trains configs/tiny.json in full, and its model on the small
// corpus twice for two epochs and once for three (concurrently, one run per
// core), then checks the full run's results and files and that the short
// runs agree bit for bit. The first two-epoch run is referenceRun, which the
// resume tests share; the second records no history, so the comparison also
// shows that recording it changes no weight; the three-epoch run shows that
// the first epochs do not depend on how many follow.
func TestRun(t *testing.T) {
	t.Parallel() // a long test (see smallCorpus)
	var mu sync.Mutex
	runs := map[string]*trainedRun{}
	base := t.TempDir() // the subtests' own would be gone before the checks
	t.Run("train", func(t *testing.T) {
		for _, r := range []struct {
			name                 string
			reference, noHistory bool
			overrides            []string
		}{
			{"tiny", false, false, nil},
			{"short-a", true, false, nil},
			{"short-b", false, true, []string{"train.epochs=2", smallCorpus}},
			{"longer", false, false, []string{"train.epochs=3", smallCorpus}},
		} {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				var run *trainedRun
				var err error
				if r.reference {
					run = referenceRun(t)
				} else if run, err = trainConfigWith(t, Options{OutDir: filepath.Join(base, r.name), NoHistory: r.noHistory}, r.overrides...); err != nil {
					t.Fatalf("Run: %v", err)
				}
				mu.Lock()
				runs[r.name] = run
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		return
	}
	corpus, err := Corpus(runs["tiny"].cfg.Data) // the run's corpus, data.train_size included
	if err != nil {
		t.Fatal(err)
	}
	t.Run("accuracy", func(t *testing.T) { checkAccuracy(t, runs["tiny"]) })
	t.Run("files", func(t *testing.T) { checkRunFolder(t, runs["tiny"]) })
	t.Run("epochs", func(t *testing.T) { checkEpochs(t, runs["tiny"], len(corpus.Train)) })
	t.Run("checkpoint", func(t *testing.T) { checkRunCheckpoint(t, runs["tiny"], corpus) })
	t.Run("history", func(t *testing.T) { checkHistory(t, runs["tiny"], corpus) })
	t.Run("deterministic", func(t *testing.T) {
		a, b, longer := runs["short-a"], runs["short-b"], runs["longer"]
		if len(a.epochs) != 2 || len(b.epochs) != 2 || len(longer.epochs) != 3 {
			t.Fatalf("short runs logged %d, %d and %d epochs, want 2, 2 and 3", len(a.epochs), len(b.epochs), len(longer.epochs))
		}
		for i := range a.epochs {
			// Same config, same seed: every figure but the timings is bit-identical,
			// and the first epochs do not depend on how many follow.
			for _, other := range []*trainedRun{b, longer} {
				x, y := comparable(a.epochs[i]), comparable(other.epochs[i])
				if x != y {
					t.Errorf("epoch %d differs between runs:\n%+v\n%+v", i+1, x, y)
				}
			}
		}
		ca, errA := checkpoint.Load(a.dir)
		cb, errB := checkpoint.Load(b.dir)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if ca.Meta.SHA256 != cb.Meta.SHA256 {
			t.Errorf("the two runs saved different weights: %s, %s", ca.Meta.SHA256, cb.Meta.SHA256)
		}
		ma, mb := *a.metrics, *b.metrics
		ma.TrainSeconds, ma.SentencesPerSecond, mb.TrainSeconds, mb.SentencesPerSecond = 0, 0, 0, 0
		if !reflect.DeepEqual(ma, mb) {
			t.Errorf("the two runs' metrics differ:\n%+v\n%+v", ma, mb)
		}
	})
}

// comparable keeps an epoch record's deterministic fields, as bit patterns.
func comparable(r EpochRecord) [8]uint64 {
	b := uint64(0)
	if r.Best {
		b = 1
	}
	return [8]uint64{uint64(r.Epoch), uint64(r.Steps), math.Float64bits(r.LearningRate),
		math.Float64bits(r.TrainLoss), math.Float64bits(r.TrainAccuracy),
		math.Float64bits(r.ValidationLoss), math.Float64bits(r.ValidationAccuracy), b}
}

func checkAccuracy(t *testing.T, r *trainedRun) {
	m := r.metrics
	best := m.Baselines.Shortcut()
	t.Logf("test accuracy %.4f, best baseline %.4f (first %.4f nearest %.4f majority %.4f), strongest %v",
		m.Test.Accuracy, best, m.Baselines.FirstNoun, m.Baselines.NearestNoun, m.Baselines.Majority, m.Test.Strongest)
	// The tiny config learns the corpus only part of the way (README's
	// figures are the default's): it must still beat every shortcut by far.
	// How it got here, stalls and seeds included, is in docs/results.md
	// ("The tab's tiny config"). On the corpus of 8ef777c (Z's), seeds 1-5:
	// test 0.985, 0.952, 0.994, 0.980, 0.989; two_it 0.969, 0.864, 0.990,
	// 0.961, 0.991. On the corpus of 067b524 (X's): test 0.991, 0.983, 0.991,
	// 0.947, 0.925; two_it 0.990, 0.978, 0.991, 0.900, 0.745; on 48,000
	// sentences seeds 2, 4 and 5 stayed on the plateau (0.703, 0.832, 0.796).
	if m.Test.Accuracy < 0.70 {
		t.Errorf("test accuracy %.4f, want >= 0.70", m.Test.Accuracy)
	}
	if m.Test.Accuracy-best < 0.15 {
		t.Errorf("test accuracy %.4f is %.1f points above the best shortcut %.4f, want >= 15", m.Test.Accuracy, 100*(m.Test.Accuracy-best), best)
	}
	if len(m.Challenges) != 9 {
		t.Errorf("%d challenge sets in metrics, want 9", len(m.Challenges))
	}
	// A test score over the bar can hide a model that learned the nouns and
	// not the words that turn the answer (width 24 on 1361a00's corpus:
	// 0.733 on test, these three at 0.50), or not which of two "it"s is
	// asked (48,000 sentences, a constant rate and λ = 1 on 067b524's
	// corpus: 0.885 on test, two_it 0.500), so their sets have a bar too.
	turns := []string{data.ChallengeNegation, data.ChallengeOutcome, data.ChallengeConcession, data.ChallengeTwoIt}
	for _, c := range m.Challenges {
		if c.Evaluation.N == 0 || len(c.Evaluation.Reliability) != ReliabilityBins {
			t.Errorf("challenge set %s: %d sentences, %d reliability bins", c.Name, c.Evaluation.N, len(c.Evaluation.Reliability))
		}
		if slices.Contains(turns, c.Name) && c.Evaluation.Accuracy < 0.85 {
			t.Errorf("challenge set %s: accuracy %.4f, want >= 0.85", c.Name, c.Evaluation.Accuracy)
		}
	}
	if best < 0.3 || best > 0.7 {
		t.Errorf("best baseline %.4f; the corpus is built to keep baselines near 0.5", best)
	}
	if m.Test.N != 1500 || m.Validation.N != 1000 {
		t.Errorf("evaluated %d test and %d validation sentences, want 1500 and 1000", m.Test.N, m.Validation.N)
	}
	layer, head := model.SupervisedHead(r.cfg.ModelFor(m.VocabSize))
	if len(m.Test.Strongest) != r.cfg.Model.Layers || len(m.Test.Strongest[layer]) != r.cfg.Model.Heads {
		t.Fatalf("attention grid %v is not layers x heads", m.Test.Strongest)
	}
	if s := m.Test.Strongest[layer][head]; s < 0.7 {
		t.Errorf("supervised head (layer %d, head %d) puts its strongest weight on the antecedent for %.4f of test sentences, want >= 0.7", layer+1, head+1, s)
	}
	if ba := m.BestAttention; ba != bestHead(m.Test.Strongest) || ba.Share < m.Test.Strongest[layer][head] {
		t.Errorf("best attention head %+v is not the strongest of %v", ba, m.Test.Strongest)
	}
	if !strings.HasSuffix(r.log, m.Summary()) || !strings.Contains(r.log, "test accuracy") {
		t.Errorf("the log does not end with the summary:\n%s", r.log)
	}
	if got := strings.Count(r.log, "\nepoch ") + btoi(strings.HasPrefix(r.log, "epoch ")); got != r.cfg.Train.Epochs {
		t.Errorf("the log has %d epoch lines, want %d", got, r.cfg.Train.Epochs)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func checkRunFolder(t *testing.T, r *trainedRun) {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names, weights []string
	for _, e := range entries {
		names = append(names, e.Name())
		if strings.HasPrefix(e.Name(), "weights-") && strings.HasSuffix(e.Name(), ".safetensors") {
			weights = append(weights, e.Name())
		}
	}
	if len(weights) != 1 {
		t.Fatalf("run folder holds %d weights files (%q), want 1", len(weights), names)
	}
	want := []string{MarkerName, checkpoint.FileName, "config.json", "epochs.jsonl", history.FileName, "metrics.json", weights[0]}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("run folder holds %q, want %q", names, want)
	}

	cfg, err := config.Load(filepath.Join(r.dir, "config.json"))
	if err != nil {
		t.Fatalf("config.json: %v", err)
	}
	if !reflect.DeepEqual(cfg, r.cfg) {
		t.Errorf("config.json holds %+v, want %+v", cfg, r.cfg)
	}

	raw, err := os.ReadFile(filepath.Join(r.dir, "metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var m Metrics
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("metrics.json: %v", err)
	}
	if m.Test.Accuracy != r.metrics.Test.Accuracy {
		t.Errorf("metrics.json test accuracy %v, Run returned %v", m.Test.Accuracy, r.metrics.Test.Accuracy)
	}
	if !reflect.DeepEqual(m, *r.metrics) {
		t.Errorf("metrics.json differs from what Run returned:\n%+v\n%+v", m, *r.metrics)
	}
}

func checkEpochs(t *testing.T, r *trainedRun, trainSize int) {
	recs := r.epochs
	if len(recs) != r.cfg.Train.Epochs {
		t.Fatalf("epochs.jsonl has %d lines, want %d", len(recs), r.cfg.Train.Epochs)
	}
	bestEpoch, bestAcc := 0, -1.0
	for i, rec := range recs {
		if rec.Epoch != i+1 {
			t.Errorf("line %d is epoch %d", i+1, rec.Epoch)
		}
		if want := trainSize / r.cfg.Train.BatchSize; rec.Steps != want {
			t.Errorf("epoch %d: %d steps, want %d", rec.Epoch, rec.Steps, want)
		}
		for name, v := range map[string]float64{"train_loss": rec.TrainLoss, "validation_loss": rec.ValidationLoss} {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Errorf("epoch %d: %s = %v", rec.Epoch, name, v)
			}
		}
		for name, v := range map[string]float64{"train_accuracy": rec.TrainAccuracy, "validation_accuracy": rec.ValidationAccuracy} {
			if v < 0 || v > 1 {
				t.Errorf("epoch %d: %s = %v outside [0, 1]", rec.Epoch, name, v)
			}
		}
		// The rate of the epoch's last step: the configured one once the
		// warm-up (within the first epoch) is over, until the decay starts.
		want := LearningRateAt(r.cfg.Train, rec.Epoch*rec.Steps-1, rec.Steps)
		if rec.Epoch <= r.cfg.Train.LRDecayAfter && want != r.cfg.Train.LearningRate {
			t.Errorf("epoch %d: LearningRateAt gives %v before the decay, want %v", rec.Epoch, want, r.cfg.Train.LearningRate)
		}
		if rec.LearningRate != want {
			t.Errorf("epoch %d: learning rate %v, want %v", rec.Epoch, rec.LearningRate, want)
		}
		if rec.Seconds <= 0 || rec.SentencesPerSecond <= 0 {
			t.Errorf("epoch %d: %v s, %v sentences/s", rec.Epoch, rec.Seconds, rec.SentencesPerSecond)
		}
		if rec.Best {
			if rec.ValidationAccuracy < bestAcc {
				t.Errorf("epoch %d is marked best with validation accuracy %v below an earlier %v", rec.Epoch, rec.ValidationAccuracy, bestAcc)
			}
			bestEpoch, bestAcc = rec.Epoch, rec.ValidationAccuracy
		}
		bestAcc = max(bestAcc, rec.ValidationAccuracy)
	}
	first, last := recs[0], recs[len(recs)-1]
	if !(last.TrainLoss < first.TrainLoss) {
		t.Errorf("train loss went from %v to %v, want it to fall", first.TrainLoss, last.TrainLoss)
	}
	if !recs[0].Best {
		t.Error("epoch 1 is not marked best")
	}
	m := r.metrics
	if bestEpoch != m.BestEpoch {
		t.Errorf("the last epoch marked best is %d, metrics.json says %d", bestEpoch, m.BestEpoch)
	}
	best := recs[m.BestEpoch-1]
	if best.ValidationAccuracy != bestAcc {
		t.Errorf("best epoch %d has validation accuracy %v, the highest logged is %v", m.BestEpoch, best.ValidationAccuracy, bestAcc)
	}
	// finish restores the best epoch's weights, so validation is scored again exactly.
	if m.Validation.Accuracy != best.ValidationAccuracy || m.Validation.Loss != best.ValidationLoss {
		t.Errorf("final validation %v / %v, best epoch logged %v / %v", m.Validation.Accuracy, m.Validation.Loss, best.ValidationAccuracy, best.ValidationLoss)
	}
}

func checkRunCheckpoint(t *testing.T, r *trainedRun, corpus *data.Corpus) {
	ck, err := checkpoint.Load(r.dir)
	if err != nil {
		t.Fatalf("LoadCheckpoint: %v", err)
	}
	m := r.metrics
	best := r.epochs[m.BestEpoch-1]
	if ck.Meta.Epoch != m.BestEpoch {
		t.Errorf("checkpoint epoch %d, best epoch %d", ck.Meta.Epoch, m.BestEpoch)
	}
	if ck.Meta.ValidationAccuracy != best.ValidationAccuracy {
		t.Errorf("checkpoint validation_accuracy %v, best epoch's %v", ck.Meta.ValidationAccuracy, best.ValidationAccuracy)
	}
	if !reflect.DeepEqual(ck.Meta.Config, r.cfg) {
		t.Errorf("checkpoint config %+v, want %+v", ck.Meta.Config, r.cfg)
	}
	if ck.Vocab.Size() != m.VocabSize || !slices.Equal(ck.Vocab.Words(), data.BuildVocab(corpus.Train).Words()) {
		t.Errorf("checkpoint vocabulary (%d words) is not the training split's (%d)", ck.Vocab.Size(), m.VocabSize)
	}
	n := 0
	for _, s := range ck.Params.Specs() {
		n += len(ck.Params.Values(s.Name))
	}
	if n != m.Parameters {
		t.Errorf("checkpoint has %d parameters, metrics say %d", n, m.Parameters)
	}

	// The checkpoint's weights score the test split exactly as the run reported.
	c := r.cfg
	batches, err := data.Batches(corpus.Test, ck.Vocab, c.Train.EvalBatchSize, c.Model.MaxLen, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	g, err := model.NewGraph(ck.Params, model.GraphOptions{Batch: c.Train.EvalBatchSize, SeqLen: c.Model.MaxLen, Attention: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ev, err := evaluate(g, batches, c.Model.Layers, c.Model.Heads)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ev, m.Test) {
		t.Errorf("checkpoint scores the test split %+v, the run reported %+v", ev, m.Test)
	}
}

func TestRunRefusesBadConfigBeforeWriting(t *testing.T) {
	cfg := tinyConfig
	cfg.Train.BatchSize = 0
	dir := filepath.Join(t.TempDir(), "run")
	_, err := Run(cfg, Options{OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), "train.batch_size must be positive") {
		t.Fatalf("Run with batch_size 0: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Run created %s for an invalid config (stat: %v)", dir, err)
	}
}

func TestLearningRateWarmup(t *testing.T) {
	for _, tc := range []struct {
		warmup, step int
		decay        string
		want         float64
		after        int // lr_decay_after, in epochs of 13 steps
	}{
		{0, 0, "", 0.004, 0},
		{0, 10, "", 0.004, 0},
		{4, 0, "", 0.001, 0},
		{4, 1, "", 0.002, 0},
		{4, 3, "", 0.004, 0},
		{4, 4, "", 0.004, 0},
		{4, 1000, "constant", 0.004, 0},
		{1, 0, "", 0.004, 0},
		// cosine over 104 steps, 4 of warm-up: half-way at step 54, 0 at the end
		{4, 3, "cosine", 0.004, 0},
		{4, 4, "cosine", 0.004, 0},
		{4, 54, "cosine", 0.002, 0},
		{4, 104, "cosine", 0, 0},
		{4, 500, "cosine", 0, 0},
		// cosine after epoch 4 of 8 (step 52): constant before, half-way at step 78
		{4, 51, "cosine", 0.004, 4},
		{4, 52, "cosine", 0.004, 4},
		{4, 78, "cosine", 0.002, 4},
		{4, 104, "cosine", 0, 4},
		{4, 103, "", 0.004, 4},
		// a decay after the run's last epoch never starts
		{4, 103, "cosine", 0.004, 8},
		{4, 103, "cosine", 0.004, 20},
	} {
		c := tinyConfig.Train
		c.LearningRate, c.WarmupSteps, c.LRDecay, c.LRDecayAfter, c.Epochs = 0.004, tc.warmup, tc.decay, tc.after, 8
		if got := LearningRateAt(c, tc.step, 13); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("warm-up %d, %q after epoch %d, step %d: learning rate %v, want %v", tc.warmup, tc.decay, tc.after, tc.step, got, tc.want)
		}
	}
}

func TestBestHead(t *testing.T) {
	for _, tc := range []struct {
		grid [][]float64
		want BestHead
	}{
		{[][]float64{{0.1, 0.2}, {0.9, 0.3}}, BestHead{Layer: 2, Head: 1, Share: 0.9}},
		{[][]float64{{0.4, 0.6}, {0.6, 0.1}}, BestHead{Layer: 1, Head: 2, Share: 0.6}},
		{[][]float64{{0, 0}, {0, 0}}, BestHead{Layer: 1, Head: 1, Share: 0}},
	} {
		if got := bestHead(tc.grid); got != tc.want {
			t.Errorf("bestHead(%v) = %+v, want %+v", tc.grid, got, tc.want)
		}
	}
}

// A batch larger than its split is refused by name before anything is
// written: a training batch would never fill (0 steps, an untrained model),
// an evaluation batch would be all padding beyond the split. The sizes come
// from the corpus, and the memory limit is lifted for the test: a batch of
// a whole split of the tiny config is estimated to need more than the
// default 8 GB, and the refusal under test comes before any allocation.
func TestRunRefusesBatchLargerThanSplit(t *testing.T) {
	cfg, err := config.Load("../configs/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := Corpus(cfg.Data)
	if err != nil {
		t.Fatal(err)
	}
	train, eval, evalSplit := len(corpus.Train), len(corpus.Test), "test"
	if len(corpus.Validation) > eval {
		eval, evalSplit = len(corpus.Validation), "validation"
	}
	if train < 1000 || eval < 1000 {
		t.Fatalf("the corpus has %d training and %d %s sentences; the test's sizes need thousands", train, eval, evalSplit)
	}
	limit := config.MaxMemory
	config.MaxMemory = 1 << 50 // 1 PiB: only the batch check can refuse
	t.Cleanup(func() { config.MaxMemory = limit })
	for set, want := range map[string]string{
		fmt.Sprintf("train.batch_size=%d", train+1): fmt.Sprintf("train.batch_size is %d but the training set has %s sentences", train+1, withCommas(train)),
		fmt.Sprintf("train.eval_batch_size=%d", eval+1): fmt.Sprintf("train.eval_batch_size is %d but the largest evaluation split (%s) has %s sentences",
			eval+1, evalSplit, withCommas(eval)),
	} {
		cfg, err := config.Load("../configs/tiny.json", set)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "run")
		_, err = Run(cfg, Options{OutDir: dir, Context: &stopAfter{Context: context.Background()}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-set %s: %v\nwant %q", set, err, want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("-set %s: Run created %s (stat: %v)", set, dir, err)
		}
		if _, err := NewSession(cfg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewSession with -set %s: %v\nwant %q", set, err, want)
		}
	}
}

// withCommas writes n as the messages do: 6000 as 6,000.
func withCommas(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return withCommas(n/1000) + fmt.Sprintf(",%03d", n%1000)
}

// A model.max_len shorter than the corpus's longest sentence is refused by
// name, with the length needed, before the run folder is made; that length
// itself passes.
func TestRunRefusesMaxLenShorterThanTheCorpus(t *testing.T) {
	corpus, err := Corpus(tinyConfig.Data)
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, e := range slices.Concat(corpus.Train, corpus.Validation, corpus.Test) {
		longest = max(longest, len(e.Tokens))
	}
	for _, ch := range corpus.Challenges {
		for _, e := range ch.Examples {
			longest = max(longest, len(e.Tokens))
		}
	}
	if err := checkMaxLen(longest, corpus); err != nil {
		t.Errorf("max_len %d, the longest sentence's length: %v", longest, err)
	}
	cfg := tinyConfig
	cfg.Model.MaxLen = longest - 1
	dir := filepath.Join(t.TempDir(), "run")
	_, err = Run(cfg, Options{OutDir: dir})
	want := fmt.Sprintf("model.max_len is %d but the corpus's longest sentence has %d tokens", longest-1, longest)
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("Run with max_len %d: %v, want one line saying %q", longest-1, err, want)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Run made %s (stat: %v)", dir, err)
	}
}
