package config

// Memory. Sizes are free numbers in a config, a -set flag or a
// checkpoint.json (whose checksum covers only the weights), and a huge one
// used to end minutes later in "fatal error: out of memory" or a makeslice
// panic (layers=1e5 built graphs for 12 minutes at 3.9 GB). So the memory a
// run or a model needs is estimated from its sizes before anything is
// allocated, and one over the limit is refused, naming the sizes that drive
// the estimate.
//
// The estimate is of the peak resident set, in bytes, of a training run:
//
//	base              the runtime, corpus and lexicon: 78 MB measured with every size tiny
//	+ params·240      weights, gradients, Adam's m and v, the best epoch's copy and the
//	                  copies made while saving: 216 bytes a parameter measured (1.76 M
//	                  parameters, d_model 512, batch 1)
//	+ layers·1 MB     the graphs' nodes and tape: 0.35 MB a layer live, doubled, rounded up
//	+ 2·dtype bytes·(training graphs' numbers + evaluation graph's numbers)
//
// with a training graph for max_len and one for each of the next two
// multiples of PadMultiple below it (batches padded to their longest
// sentence, see trainingGraphs), plus, for every other length a batch could
// be padded to, that graph's own gradients and nodes (paddedLengths),
//
// where a graph of batch B over T = max_len tokens holds
//
//	B·T·(layers·(cd·d_model + cf·d_ff + ch·heads·T) + cx·d_model)
//
// numbers: per token and layer, cd for each model dimension (projections,
// residuals, layer norms), cf for each feed-forward unit and ch for each
// attention score (scores, scaled, masked, softmax); cx for the embedding and
// the resolution head. These were counted as the live heap after one run of
// graphs of varied sizes (runtime.ReadMemStats): training (values and
// gradients) 60, 5.3, 16.3 and about 8; evaluation (attention kept) 22.6, 3.0,
// 5.7 and about 4; used rounded up below. The factor 2 is the garbage
// collector's: with GOGC=100 the heap grows to twice what is live before a
// collection, and peak RSS was 1.4 to 2.2 times the graphs' live size.
//
// Against 10 real runs of cmd/train (one epoch, peak RSS by /usr/bin/time,
// with batches padded to their longest sentence) the estimate is 1.1 to 2.3
// times the measurement and never below it; the default config peaked at
// 489 MB and is estimated at 596 MB. The coefficients were fitted when there
// was one training graph; the extra graphs' assumed lengths (just below
// max_len) make it the more cautious the shorter the sentences are.
// With train.shards = n, each padded length has n graphs (trainingBytes):
// the two-shard default run peaked at 576 MB over 20 epochs (one shard: 506
// MB) and is estimated at 616 MB, the closest margin in the table.
// TestEstimateCoversMeasuredRuns keeps that table.
//
// Loading a model for inference needs the base without the corpus (50 MB), its parameters (the
// file, the decoded values, the tensors: 49 bytes a parameter measured with
// cmd/infer, 56 used; a resumable checkpoint's Adam moments add 32) and one
// evaluation graph of batch 1.
//
// Everything is computed in float64: sizes up to 2^63 multiply to at most
// about 1e100 bytes, far inside float64's range, so nothing can overflow.

import (
	"fmt"
	"strings"

	"itformer/model"
)

// DefaultMaxMemory is the limit unless -max-memory says otherwise. The
// development machine has 24 GiB; cmd/experiment trains two runs at once, so
// two runs at the limit, plus the system, still fit. The shipped configs need
// about 0.6 GB, so the limit only stops runs needing 13 times that and more.
const DefaultMaxMemory ByteSize = 8_000_000_000

// MaxMemory is the limit Validate holds runs to, checkpoint loading holds
// models to, and inference holds the graph each sentence needs to. Every
// command's -max-memory sets it.
var MaxMemory = DefaultMaxMemory

const (
	baseBytes     = 80e6 // training: 78 MB measured (corpus v2, every size tiny, batch 1), rounded up
	loadBaseBytes = 50e6 // loading: the runtime and the lexicon, no corpus (42 MB measured before corpus v2, kept)
	trainPerParam = 240  // bytes
	loadPerParam  = 56
	adamPerParam  = 32 // m and v, as read and as decoded
	perLayer      = 1e6
	gcFactor      = 2
	runVocab      = 400 // a run config has no vocab_size; the generated corpus v2 has 315 tokens
)

// coef are a graph's numbers per token: cd, cf and ch per layer, cx once.
type coef struct{ cd, cf, ch, cx float64 }

var (
	trainCoef = coef{cd: 64, cf: 6, ch: 17, cx: 8}
	evalCoef  = coef{cd: 24, cf: 3, ch: 6, cx: 4}
)

// sizes are what an estimate depends on, kept as given for messages.
type sizes struct {
	vocab, dModel, heads, dFF, layers, maxLen, batch, evalBatch int
	shards                                                      int // training graphs per padded length, of batch/shards rows each
	dtypeBytes                                                  float64
	resumable                                                   bool
}

// sizeFields are the sizes by their dotted names, with configs/default.json's
// values (for the vocabulary, runVocab), against which drivers weighs them.
var sizeFields = []struct {
	name string
	ref  int
	get  func(*sizes) *int
}{
	{"model.vocab_size", runVocab, func(s *sizes) *int { return &s.vocab }},
	{"model.d_model", 32, func(s *sizes) *int { return &s.dModel }},
	{"model.heads", 2, func(s *sizes) *int { return &s.heads }},
	{"model.d_ff", 64, func(s *sizes) *int { return &s.dFF }},
	{"model.layers", 3, func(s *sizes) *int { return &s.layers }},
	{"model.max_len", 24, func(s *sizes) *int { return &s.maxLen }},
	{"train.batch_size", 32, func(s *sizes) *int { return &s.batch }},
	{"train.eval_batch_size", 128, func(s *sizes) *int { return &s.evalBatch }},
}

func modelSizes(m model.Config) sizes {
	s := sizes{vocab: m.VocabSize, dModel: m.DModel, heads: m.Heads, dFF: m.DFF, layers: m.Layers, maxLen: m.MaxLen, dtypeBytes: 8}
	if m.DType == "float32" {
		s.dtypeBytes = 4
	}
	return s
}

func (c Run) sizes() sizes {
	s := modelSizes(c.Model)
	if s.vocab == 0 {
		s.vocab = runVocab
	}
	s.batch, s.evalBatch, s.shards = c.Train.BatchSize, c.Train.EvalBatchSize, c.Train.ShardCount()
	return s
}

// ParamCount is the number of learned numbers of a model of these sizes: the
// sum over model.ParamSpecs, in closed form so that absurd sizes cost nothing
// to count, and in float64 so that no size can overflow it.
func ParamCount(m model.Config) float64 { return modelSizes(m).params() }

func (s sizes) params() float64 {
	d, f, layers, vocab := float64(s.dModel), float64(s.dFF), float64(s.layers), float64(s.vocab)
	// W^Q, W^K, W^V, W^O; the feed-forward's two matrices and two biases; two layer norms' gain and bias.
	perLayer := 4*d*d + 2*d*f + f + d + 4*d
	return vocab*d + layers*perLayer + 2*d*d // the embedding and the resolution head's W_q, W_k
}

// graph is the number of values (and, for training, gradients) a graph of
// this batch holds.
func (s sizes) graph(batch int, k coef) float64 {
	t, layers := float64(s.maxLen), float64(s.layers)
	perToken := layers*(k.cd*float64(s.dModel)+k.cf*float64(s.dFF)+k.ch*float64(s.heads)*t) + k.cx*float64(s.dModel)
	return float64(batch) * t * perToken
}

// PadMultiple: a training batch is padded to its longest sentence rounded up
// to a multiple of this (at most max_len), and each such length has its own
// training graph (train.Session.Run). Rounding keeps the graphs few: the
// default corpus's batches need 16, 20 and 24 tokens.
const PadMultiple = 4

// shorterGraphs is how many training graphs below max_len the estimate
// counts: shuffled batches of 32 sentences have their longest sentence in a
// narrow range, so they fall in at most two lower multiples of PadMultiple
// (the default corpus: 15 to 21 tokens).
const shorterGraphs = 2

// trainingGraphs is the numbers of the training graphs: max_len's and the
// shorterGraphs next lengths below it.
func (s sizes) trainingGraphs() float64 {
	total := s.graph(s.batch, trainCoef)
	top := (s.maxLen - 1) / PadMultiple * PadMultiple // the largest multiple below max_len
	for i := 0; i < shorterGraphs && top-i*PadMultiple > 0; i++ {
		shorter := s
		shorter.maxLen = top - i*PadMultiple
		total += shorter.graph(s.batch, trainCoef)
	}
	return total
}

// paddedLengths is how many padded lengths, so training graphs, a run can
// use at most: one per multiple of PadMultiple up to max_len. Each holds its
// own gradient of every parameter and its own nodes. (Small batches use
// many: a batch of one sentence is padded to that sentence's length.)
func (s sizes) paddedLengths() float64 {
	return float64((s.maxLen + PadMultiple - 1) / PadMultiple)
}

// trainingBytes: with train.shards, each padded length has that many
// training graphs of batch/shards rows. Their activations add up to one
// graph of the whole batch (a graph's numbers are linear in its batch), but
// each holds its own gradients and nodes.
func trainingBytes(s sizes) float64 {
	activations := s.trainingGraphs() + s.graph(s.evalBatch, evalCoef)
	perGraph := s.params()*s.dtypeBytes + float64(s.layers)*perLayer // a training graph's gradients and nodes
	graphs := s.paddedLengths() * float64(max(1, s.shards))
	return baseBytes + s.params()*trainPerParam + float64(s.layers)*perLayer + (graphs-1)*perGraph +
		gcFactor*s.dtypeBytes*activations
}

func loadingBytes(s sizes) float64 {
	perParam := loadPerParam
	if s.resumable {
		perParam += adamPerParam
	}
	return loadBaseBytes + s.params()*float64(perParam) + float64(s.layers)*perLayer + gcFactor*s.dtypeBytes*s.graph(1, evalCoef)
}

// MemoryEstimate is the peak memory, in bytes, that training c is estimated
// to take (see above).
func (c Run) MemoryEstimate() float64 { return trainingBytes(c.sizes()) }

// CheckMemory refuses a run estimated to need more than limit.
func (c Run) CheckMemory(limit ByteSize) error {
	return checkMemory(c.sizes(), trainingBytes, limit, "the run would need", "; raise it with -max-memory")
}

// CheckModelMemory refuses a model (from a checkpoint, resumable or not) that
// loading for inference is estimated to need more than limit for.
func CheckModelMemory(m model.Config, resumable bool, limit ByteSize) error {
	s := modelSizes(m)
	s.resumable = resumable
	return checkMemory(s, loadingBytes, limit, "loading the model would need", "; raise it with -max-memory")
}

func checkMemory(s sizes, estimate func(sizes) float64, limit ByteSize, doing, hint string) error {
	need := estimate(s)
	if need <= float64(limit) {
		return nil
	}
	return fmt.Errorf("%s%s about %s (limit %s%s)", drivers(s, estimate, float64(limit)), doing, FormatBytes(need), limit, hint)
}

// drivers names the sizes that take the estimate over limit, as
// "model.layers = 100000: ". Among the sizes above the default config's
// values it repeatedly picks the one whose setting back shrinks the estimate
// most, until setting the picked ones back would fit the limit. A size whose
// setting back would save under 10% is not named, so a limit below what even
// the default sizes need names none.
func drivers(s sizes, estimate func(sizes) float64, limit float64) string {
	var named []string
	for estimate(s) > limit {
		best, bestEst := -1, estimate(s)/1.1
		for i, f := range sizeFields {
			if *f.get(&s) <= f.ref {
				continue
			}
			smaller := s
			*f.get(&smaller) = f.ref
			if e := estimate(smaller); e < bestEst {
				best, bestEst = i, e
			}
		}
		if best < 0 {
			break
		}
		f := sizeFields[best]
		named = append(named, fmt.Sprintf("%s = %d", f.name, *f.get(&s)))
		*f.get(&s) = f.ref
	}
	if len(named) == 0 {
		return ""
	}
	return strings.Join(named, ", ") + ": "
}
