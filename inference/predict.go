// Package inference answers questions about free text with a trained model:
// which word each "it" refers to (Resolve), with every head's attention and
// the attention rollout (rollout.go) to show why, and every intermediate of
// a forward pass for the explain view (Trace). Beyond attention: which words
// decided the answer (Attribute: gradient × input and integrated gradients,
// attribution.go), the answer with heads knocked out (Ablate, ablation.go),
// two sentences side by side (Twins, twin.go), and all of it measured on
// labelled sets (ExplainSet, evaluate.go). It links neither the training
// loop nor plotting code.
package inference

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"itformer/checkpoint"
	"itformer/data"
	"itformer/model"
)

// Predictor runs a checkpoint's model on sentences. It keeps the graphs it
// runs, by kind and sentence length (a graph's first run costs several times
// what a later one does), within a memory bound (graphcache.go), and is safe
// for concurrent use: one sentence runs at a time.
type Predictor struct {
	ck      *checkpoint.Checkpoint
	mu      sync.Mutex   // a Graph runs one batch at a time
	cache   *graphCache  // the graphs kept, by kind and sentence length, shared with the members (graphcache.go)
	ablate  []model.Head // heads knocked out in every graph (ablation.go)
	gated   bool         // graphs are built with head gates, since the first Ablate
	members []*Predictor // members 2..K of a deep ensemble (ensemble.go); none for one model
	unk     bool         // read every unknown word as <unk>, none as its WordNet relative (SetRelatives)
}

// SetRelatives says whether Encode reads a word the model does not know as
// its nearest relative in WordNet that the model knows ("famished" as
// "hungry", data.ReadRelatives), as it does by default, or as <unk>. An
// ensemble's members read alike: they are set too.
func (p *Predictor) SetRelatives(on bool) {
	for _, m := range p.all() {
		m.unk = !on
	}
}

// Relatives reports whether Encode reads unknown words as their relatives.
func (p *Predictor) Relatives() bool { return !p.unk }

// New makes a Predictor for a loaded checkpoint, whose graphs are bounded by
// DefaultGraphMemory.
func New(ck *checkpoint.Checkpoint) *Predictor {
	return &Predictor{ck: ck, cache: newGraphCache(DefaultGraphMemory(ck.Meta.Model))}
}

// sharing is a Predictor for ck whose graphs go in p's cache, under p's
// bound, and which reads words as p does: a member, or a copy of one.
func (p *Predictor) sharing(ck *checkpoint.Checkpoint) *Predictor {
	return &Predictor{ck: ck, cache: p.cache, unk: p.unk}
}

// Config is the model's config.
func (p *Predictor) Config() model.Config { return p.ck.Meta.Model }

// Checkpoint is the checkpoint the predictor runs.
func (p *Predictor) Checkpoint() *checkpoint.Checkpoint { return p.ck }

// SupervisedHead names the (layer, head), 0-based, trained to point from the
// pronoun to its antecedent; ok is false if the model was trained without it.
func (p *Predictor) SupervisedHead() (layer, head int, ok bool) {
	if p.ck.Meta.Config.Train.AttentionSupervision <= 0 {
		return -1, -1, false
	}
	layer, head = model.SupervisedHead(p.ck.Meta.Model)
	return layer, head, true
}

// graphFor returns the traced forward graph for one sentence of n tokens,
// kept (graph): every intermediate of the record model.AttentionSteps is
// read, for explain, -json and the page alike. The caller holds p.mu.
func (p *Predictor) graphFor(n int) (*model.Graph, error) {
	return p.graph(tracedGraph, model.GraphOptions{Batch: 1, SeqLen: n, Trace: true, Ablate: p.ablate, HeadGates: p.gated})
}

// Prediction is the answer for one pronoun of a sentence.
type Prediction struct {
	Tokens []string `json:"tokens"`
	// Typed are the words as the user typed them, one per token
	// (Encoded.Typed): what a page or a table shows at each position.
	Typed       []string    `json:"typed_words"`
	Pronoun     int         `json:"pronoun"`      // token position of "it"
	Answer      int         `json:"answer"`       // token position of the most probable candidate
	AnswerWord  string      `json:"answer_word"`  // Tokens[Answer]: the word the model read
	TypedAnswer string      `json:"typed_answer"` // Typed[Answer]: the word to show
	Candidates  []Candidate `json:"candidates"`   // the words that may head a noun phrase, most probable first
	// Confidence says whether the answer is a guess, and why (see GuessBelow).
	Confidence Confidence `json:"confidence"`
	// WordProbs is the model's softmax over every word of the sentence,
	// punctuation and all; the answer is chosen among Candidates only.
	WordProbs []float64 `json:"word_probabilities"`
	// Attention[l][h][j] is the weight the pronoun gives word j in layer l,
	// head h: Steps[l][h].Weights, kept apart for pictures that need no more.
	Attention [][][]float64 `json:"attention"`
	// Steps[l][h] are the explainers' steps of the pronoun in layer l, head
	// h (model.AttentionSteps: x, q, k, v, scores, scaled, weights, z, with
	// every word's keys and values), the record cmd/explain prints.
	Steps [][]model.WordSteps `json:"steps"`
	// SupervisedLayer and SupervisedHead (0-based) name the head trained to
	// point at the antecedent, or -1 if the model was trained without it.
	SupervisedLayer int `json:"supervised_layer"`
	SupervisedHead  int `json:"supervised_head"`
	// Rollout[l][j] is the attention rollout (rollout.go) from the pronoun to
	// word j through layers 1..l+1; Rollout[last] is the whole encoder's.
	Rollout [][]float64 `json:"rollout"`
	// Attribution is each word's share of the answer (attribution.go); set
	// by Predictor.Attribute only, as it costs a batch of path points.
	Attribution *Attribution `json:"attribution,omitempty"`
	// Knockout is the answer with the supervised head knocked out
	// (knockout.go); set by Predictor.KnockOut only, as it costs a forward pass.
	Knockout *Knockout `json:"knockout,omitempty"`
}

// Candidate is one possible antecedent and the model's probability for it.
type Candidate struct {
	Word        string  `json:"word"`       // the token, as the model read it
	Typed       string  `json:"typed_word"` // the word typed there (Encoded.Typed)
	Position    int     `json:"position"`
	Probability float64 `json:"probability"`
}

// Resolution is a whole sentence's result.
type Resolution struct {
	Sentence string   `json:"sentence"`
	Tokens   []string `json:"tokens"`
	// Typed are the words as typed, one per token (Encoded.Typed).
	Typed   []string `json:"typed_words"`
	Unknown []string `json:"unknown_words,omitempty"` // read as <unk>
	// Contractions are the contractions the vocabulary lacks that were read
	// as their words ("didn't" as "did" "not"), with their positions in Tokens.
	Contractions []data.Contraction `json:"contractions,omitempty"`
	// Relatives are the words the vocabulary lacks that were read as their
	// nearest relative in WordNet that it has ("famished" as "hungry"), with
	// their positions in Tokens, which hold the relatives (Typed holds the
	// words).
	Relatives []data.Relative `json:"relatives,omitempty"`
	// Ablated names the heads knocked out ("L2H1"; ablation.go), if any.
	Ablated     []string     `json:"ablated,omitempty"`
	Predictions []Prediction `json:"predictions"`
	// Attention[l][h][i][j] is the weight word i gives word j in layer l, head h.
	// The encoder does not know which word is the pronoun, so this is the same
	// for every prediction; Prediction.Attention holds the pronoun's rows.
	Attention [][][][]float64 `json:"attention"`
}

// MaxInputBytes bounds the text Resolve and Trace read: far more than any
// sentence of max_len tokens, small enough that huge input costs nothing.
const MaxInputBytes = 4096

// TooLongError refuses a sentence of more tokens than the model reads
// (model.max_len): it names the limit and the word where it falls.
type TooLongError struct {
	Tokens []string // the sentence as read (Encoded.Tokens)
	MaxLen int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("the sentence has %d tokens; this model reads at most %d (model.max_len), so it stops before word %d, %q (punctuation counts as a word)",
		len(e.Tokens), e.MaxLen, e.MaxLen+1, e.Tokens[e.MaxLen])
}

// Errors a caller may want to tell apart.
var (
	ErrEmpty       = errors.New("the sentence is empty")
	ErrNoPronoun   = errors.New(`no pronoun "it" to resolve`)
	ErrNoCandidate = errors.New(`no noun for "it" to refer to`)
)

// Resolve tokenises sentence and resolves each "it" in it to the most
// probable of the words that may head a noun phrase (see nounHeads). A
// sentence with none is an error (ErrNoCandidate), as is a model whose
// output is not finite (ErrBrokenModel).
//
// A Predictor with members (ensemble.go) answers with a member that gives
// the ensemble's answer (the noun the members' mean share favours), and says
// how many agree.
func (p *Predictor) Resolve(sentence string) (*Resolution, error) {
	if len(p.members) == 0 {
		return p.resolveOne(sentence)
	}
	enc, pronouns, heads, err := p.read(sentence)
	if err != nil {
		return nil, err
	}
	shown, agreements, err := p.voteOn(enc, pronouns, heads)
	if err != nil {
		return nil, err
	}
	res, err := shown.resolveRead(sentence, enc, pronouns, heads)
	if err != nil {
		return nil, err
	}
	for i := range res.Predictions {
		agreements[i].apply(&res.Predictions[i])
	}
	return res, nil
}

// resolveOne is Resolve by this model alone.
func (p *Predictor) resolveOne(sentence string) (*Resolution, error) {
	enc, pronouns, heads, err := p.read(sentence)
	if err != nil {
		return nil, err
	}
	return p.resolveRead(sentence, enc, pronouns, heads)
}

// read encodes sentence and finds its pronouns and the candidate positions.
func (p *Predictor) read(sentence string) (enc *Encoded, pronouns, heads []int, err error) {
	if enc, err = p.Encode(sentence); err != nil {
		return nil, nil, nil, err
	}
	pronouns, heads, err = p.roles(sentence, enc.Tokens)
	return enc, pronouns, heads, err
}

// resolveRead answers every pronoun of the sentence read (read) with this
// model.
func (p *Predictor) resolveRead(sentence string, enc *Encoded, pronouns, heads []int) (*Resolution, error) {
	tokens := enc.Tokens
	p.mu.Lock()
	defer p.mu.Unlock()
	res := &Resolution{Sentence: sentence, Tokens: tokens, Typed: enc.Typed, Unknown: enc.Unknown,
		Contractions: enc.Contractions, Relatives: enc.Relatives, Ablated: p.Ablated()}
	g, err := p.graphFor(len(tokens))
	if err != nil {
		return nil, err
	}
	for _, pronoun := range pronouns {
		out, err := g.Run(model.Batch{IDs: enc.IDs, Lengths: []int{len(tokens)}, Pronoun: []int{pronoun}})
		if err == nil {
			err = checkTrace(out)
		}
		if err != nil {
			return nil, err
		}
		pr, err := p.prediction(enc, pronoun, out, heads)
		if err != nil {
			return nil, err
		}
		res.Predictions = append(res.Predictions, pr)
		res.Attention = attentionMatrices(out)
	}
	return res, nil
}

// roles finds the pronouns to resolve and the words they may refer to, and
// refuses a sentence that lacks either.
func (p *Predictor) roles(sentence string, tokens []string) (pronouns, heads []int, err error) {
	pronouns = data.Pronouns(tokens)
	if len(pronouns) == 0 {
		return nil, nil, fmt.Errorf("%w in %q", ErrNoPronoun, sentence)
	}
	if len(tokens) < 2 {
		return nil, nil, fmt.Errorf("%q has no word besides the pronoun for it to refer to", sentence)
	}
	heads = nounHeads(tokens, p.known)
	if len(heads) == 0 {
		return nil, nil, fmt.Errorf("%w in %q", ErrNoCandidate, sentence)
	}
	return pronouns, heads, nil
}

// KnownWords are the words the model knows, in its vocabulary's order,
// without <pad> and <unk>: what a learner may type and have read.
func (p *Predictor) KnownWords() []string {
	words := p.ck.Vocab.Words()
	return slices.DeleteFunc(slices.Clone(words), func(w string) bool { return w == data.Pad || w == data.Unk })
}

// known says whether the model's vocabulary has word.
func (p *Predictor) known(word string) bool {
	_, ok := p.ck.Vocab.ID(word)
	return ok
}

// attentionMatrices copies every layer's and head's (T, T) weights of
// sentence 0, from the traced record's weights step.
func attentionMatrices(out *model.Output) [][][][]float64 {
	var layers [][][][]float64
	for _, l := range out.Trace {
		a := l.Weights
		heads := make([][][]float64, a.Shape[1])
		for h := range heads {
			for i := 0; i < a.Shape[2]; i++ {
				heads[h] = append(heads[h], append([]float64(nil), a.Row(0, h, i)...))
			}
		}
		layers = append(layers, heads)
	}
	return layers
}

// Encoded is a sentence as the model reads it.
type Encoded struct {
	Tokens []string // Tokenize's tokens, contractions expanded, relatives read
	// Typed are the words to show for the tokens, one each (typedWords).
	Typed        []string
	IDs          []int              // the tokens' vocabulary ids
	Unknown      []string           // tokens read as <unk>
	Contractions []data.Contraction // contractions read as their words
	Relatives    []data.Relative    // unknown words read as their WordNet relatives
}

// Encode tokenises a sentence (in NFC, terminal escapes removed, a full
// stop after a last word: text.go), reads each contraction the vocabulary lacks
// as its words where the vocabulary has them all (data.ExpandContractions),
// reads each other word it lacks as its nearest WordNet relative it has,
// unless SetRelatives(false) (data.ReadRelatives: "famished" as "hungry"),
// and maps the tokens to ids, refusing what the model cannot read.
func (p *Predictor) Encode(sentence string) (*Encoded, error) {
	if len(sentence) > MaxInputBytes {
		return nil, fmt.Errorf("the text is %d bytes; give one sentence (at most %d bytes, %d tokens)", len(sentence), MaxInputBytes, p.ck.Meta.Model.MaxLen)
	}
	e := &Encoded{}
	e.Tokens, e.Contractions = data.ExpandContractions(data.Tokenize(readable(sentence)), p.known)
	if !p.unk {
		e.Tokens, e.Relatives = data.ReadRelatives(e.Tokens, p.known)
	}
	if len(e.Tokens) == 0 {
		return nil, ErrEmpty
	}
	e.Tokens = withFinalStop(e.Tokens, p.ck.Meta.Model.MaxLen)
	e.Typed = typedWords(e.Tokens, e.Relatives)
	if max := p.ck.Meta.Model.MaxLen; len(e.Tokens) > max {
		return nil, &TooLongError{Tokens: e.Tokens, MaxLen: max}
	}
	e.IDs, e.Unknown = p.ck.Vocab.Encode(e.Tokens)
	return e, nil
}

// typedWords are the words to show for tokens, one per token: the token,
// except where a word the model does not know was read as its relative
// (relatives): there the word typed ("puppy", where the token is "dog").
// A user asked about the words they wrote, so answers and tables name
// those; the model's tokens stay in Tokens. A contraction keeps the words
// it was read as ("did" "not"), as its note says: one word typed became
// several positions, and no one of them is the word typed.
func typedWords(tokens []string, relatives []data.Relative) []string {
	typed := slices.Clone(tokens)
	for _, r := range relatives {
		typed[r.Position] = r.Word
	}
	return typed
}

// prediction is one pronoun's answer: the most probable of the candidate
// positions heads, with the model's softmax over every word beside it.
func (p *Predictor) prediction(enc *Encoded, pronoun int, out *model.Output, heads []int) (Prediction, error) {
	tokens := enc.Tokens
	probs := append([]float64(nil), out.Probs.Row(0)...)
	pr := Prediction{Tokens: tokens, Typed: enc.Typed, Pronoun: pronoun, WordProbs: probs}
	pr.Candidates = candidates(tokens, enc.Typed, heads, probs)
	pr.Answer = pr.Candidates[0].Position
	pr.AnswerWord, pr.TypedAnswer = tokens[pr.Answer], enc.Typed[pr.Answer]
	pr.Confidence = judge(tokens, enc.Relatives, pronoun, heads, pr.Candidates, p.known)
	for l := range out.Trace {
		var steps []model.WordSteps
		var rows [][]float64
		for h := 0; h < p.ck.Meta.Model.Heads; h++ {
			s, err := out.Steps(0, l, h, pronoun)
			if err != nil {
				return pr, err
			}
			steps, rows = append(steps, s), append(rows, s.Weights)
		}
		pr.Steps, pr.Attention = append(pr.Steps, steps), append(pr.Attention, rows)
	}
	pr.SupervisedLayer, pr.SupervisedHead, _ = p.SupervisedHead()
	pr.Rollout = rollout(attentionMatrices(out), p.ablate, pronoun)
	return pr, nil
}

// candidates are the words at positions, most probable first (ties keep
// sentence order), each as read (tokens) and as typed (typed).
func candidates(tokens, typed []string, positions []int, probs []float64) []Candidate {
	var out []Candidate
	for _, i := range positions {
		out = append(out, Candidate{Word: tokens[i], Typed: typed[i], Position: i, Probability: probs[i]})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Probability > out[b].Probability })
	return out
}
