package inference

// Kept graphs, within a memory budget. Building a graph takes a few
// milliseconds, but its first run allocates every buffer (an input-gradient
// graph of 64 tokens: about 0.5 s and 390 MB), so a Predictor keeps the
// graphs it has run. Kept for every sentence length, kind, ensemble member
// and Predictor, they were never freed: a server asked twins of 6 to 62
// words held 20 GB of live heap. Now the graphs of a Predictor, its members
// and the Predictors Another and Each make share one cache, which evicts the
// least recently used graph while their estimated bytes (graphBytes) exceed
// its budget (SetGraphMemory; DefaultGraphMemory). An evicted graph is built
// again when asked for: the same graph, so the same numbers.

import (
	"container/list"
	"fmt"
	"slices"
	"sync"

	"itformer/config"
	"itformer/model"
)

// graphKind says what a kept graph is for.
type graphKind int

const (
	tracedGraph      graphKind = iota // every intermediate (graphFor)
	votingGraph                       // probabilities only, for an ensemble's votes (answerOf)
	knockoutGraph                     // gated from the start, for KnockOut (probsWithout)
	attributionGraph                  // input gradients of AttributionSteps+1 path points (runPath)
)

// graphKey names a kept graph: whose, what for, and for how many tokens.
type graphKey struct {
	owner *Predictor
	kind  graphKind
	n     int
}

// keptGraph is a graph in the cache, with its estimated bytes.
type keptGraph struct {
	key   graphKey
	g     *model.Graph
	bytes int64
}

// graphCache is a least-recently-used cache of graphs, bounded by their
// estimated bytes. Its own lock guards it: its owners run their graphs
// under their own locks, so an eviction only forgets a graph (Close frees
// nothing on the CPU; gorgoniax.Collectable lets the collector free it once
// a run under way is done with it). The graphs of a Predictor no longer used
// (a member replaced by SetMembers) stay until they are the least recent.
type graphCache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	recent  *list.List // of *keptGraph, the most recently used first
	entries map[graphKey]*list.Element
}

func newGraphCache(budget int64) *graphCache {
	return &graphCache{budget: budget, recent: list.New(), entries: map[graphKey]*list.Element{}}
}

// get returns the kept graph for key, or nil, and marks it used.
func (c *graphCache) get(key graphKey) *model.Graph {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[key]
	if e == nil {
		return nil
	}
	c.recent.MoveToFront(e)
	return e.Value.(*keptGraph).g
}

// put keeps g for key and evicts the least recently used others while the
// total is over budget. g itself stays even alone over budget: its caller
// runs it now, attribution up to 16 times.
func (c *graphCache) put(key graphKey, g *model.Graph, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = c.recent.PushFront(&keptGraph{key: key, g: g, bytes: bytes})
	c.used += bytes
	c.evict(1)
}

// evict forgets the least recently used graphs while the total is over
// budget, keeping the keep most recent. The caller holds c.mu.
func (c *graphCache) evict(keep int) {
	for c.used > c.budget && c.recent.Len() > keep {
		c.remove(c.recent.Back())
	}
}

// remove forgets one graph. The caller holds c.mu.
func (c *graphCache) remove(e *list.Element) {
	k := c.recent.Remove(e).(*keptGraph)
	delete(c.entries, k.key)
	c.used -= k.bytes
}

// setBudget changes the budget, evicting what no longer fits.
func (c *graphCache) setBudget(budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
	c.evict(0)
}

// owned returns owner's kept graphs of the kinds given, and with drop also
// forgets them.
func (c *graphCache) owned(owner *Predictor, drop bool, kinds ...graphKind) []*model.Graph {
	c.mu.Lock()
	defer c.mu.Unlock()
	var gs []*model.Graph
	for e := c.recent.Front(); e != nil; {
		next, k := e.Next(), e.Value.(*keptGraph)
		if k.key.owner == owner && slices.Contains(kinds, k.key.kind) {
			gs = append(gs, k.g)
			if drop {
				c.remove(e)
			}
		}
		e = next
	}
	return gs
}

// graph returns p's kept graph of kind for opts.SeqLen tokens, building it
// with opts if there is none. The caller holds p.mu, so no other goroutine
// builds the same key.
func (p *Predictor) graph(kind graphKind, opts model.GraphOptions) (*model.Graph, error) {
	key := graphKey{owner: p, kind: kind, n: opts.SeqLen}
	if g := p.cache.get(key); g != nil {
		return g, nil
	}
	bytes := graphBytes(p.Config(), opts)
	if limit := config.MaxMemory; bytes > int64(limit) { // -max-memory bounds a sentence's graphs too, not only the model
		return nil, fmt.Errorf("a sentence of %d tokens needs a graph of about %s here (limit %s; raise it with -max-memory)",
			opts.SeqLen, config.FormatBytes(float64(bytes)), limit)
	}
	g, err := model.NewGraph(p.ck.Params, opts)
	if err != nil {
		return nil, err
	}
	p.cache.put(key, g, bytes)
	return g, nil
}

// SetGraphMemory bounds the estimated bytes of the graphs this Predictor
// keeps with its members and the Predictors Another and Each made from it
// (default DefaultGraphMemory): past it, the least recently used are
// forgotten and built again when needed. A graph a sentence needs is built
// even alone over the bound, and kept until the next one is.
func (p *Predictor) SetGraphMemory(bytes int64) error {
	if bytes < 0 {
		return fmt.Errorf("graph memory %d bytes: must not be negative", bytes)
	}
	p.cache.setBudget(bytes)
	return nil
}

// GraphMemory is the bound SetGraphMemory set, in bytes.
func (p *Predictor) GraphMemory() int64 {
	p.cache.mu.Lock()
	defer p.cache.mu.Unlock()
	return p.cache.budget
}

// DefaultGraphMemory is the default bound on the graphs a model of config c
// keeps: two input-gradient graphs of max_len tokens (a twin's two
// attributions) and 16 traced graphs of max_len (a twin with heads knocked
// out runs 13 batch-1 graphs with three members, a traced graph being the
// largest), so that the heaviest request cmd/serve answers builds no graph
// twice. For the default model (max_len 64) it is 0.97 GB.
func DefaultGraphMemory(c model.Config) int64 {
	longest := model.GraphOptions{SeqLen: c.MaxLen}
	traced, grads := longest, longest
	traced.Batch, traced.Trace = 1, true
	grads.Batch, grads.InputGradients = AttributionSteps+1, true
	return 2*graphBytes(c, grads) + 16*graphBytes(c, traced)
}

// graphCost is a graph's numbers, as config/memory.go counts a training
// graph's: per token of every sentence of the batch, cd for each model
// dimension and cf for each feed-forward unit of every layer, ch for each
// attention score a layer's heads hold (heads·T), and cx once per model
// dimension; and perLayer and fixed for the nodes and the tape.
type graphCost struct{ cd, cf, ch, cx, perLayer, fixed float64 }

// The coefficients were fitted to the live heap a graph adds after its
// first run (runtime.ReadMemStats after GC), over 63 graphs of 7 models
// (d_model 32 to 128, heads 2 to 8, d_ff 64 to 256, 1 to 3 layers; 8, 24
// and 48 tokens; head gates on), and rounded up: each estimate is 1.02 to
// 1.21 times the measurement (TestGraphBytesCoverMeasured checks the default
// model's).
var (
	tracedCost  = graphCost{cd: 20, cf: 3, ch: 11, cx: 5, perLayer: 12e3, fixed: 5e3}
	forwardCost = graphCost{cd: 15, cf: 3, ch: 6, cx: 3, perLayer: 9e3, fixed: 7e3}
	gradsCost   = graphCost{cd: 28, cf: 5, ch: 10, cx: 8, perLayer: 57e3, fixed: 46e3}
)

// bytesPerNumber is a float64's: the measurements were of float64 models,
// and a float32 model's graphs take less.
const bytesPerNumber = 8

// graphBytes estimates the live bytes of a graph built with opts for a
// model of config c, after its first run.
func graphBytes(c model.Config, opts model.GraphOptions) int64 {
	k := forwardCost
	switch {
	case opts.InputGradients:
		k = gradsCost
	case opts.Trace:
		k = tracedCost
	}
	t, layers := float64(opts.SeqLen), float64(c.Layers)
	perToken := layers*(k.cd*float64(c.DModel)+k.cf*float64(c.DFF)+k.ch*float64(c.Heads)*t) + k.cx*float64(c.DModel)
	numbers := float64(opts.Batch)*t*perToken + layers*k.perLayer + k.fixed
	return int64(bytesPerNumber * numbers)
}
