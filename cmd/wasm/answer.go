package main

// Answering sentences on the page's main thread: the resolution, its
// explanation views, and the page viz draws for it (shown in a frame, so the
// site draws attention exactly as `infer -html` and `serve` do).

import (
	"bytes"
	"errors"
	"strings"

	"itformer/checkpoint"
	"itformer/cmd/internal/defaultmodel"
	"itformer/cmd/internal/viz"
	"itformer/history"
	"itformer/inference"
	"itformer/model"
)

// answerer holds the model the page questions and that model's history, if
// any (the default model's, or a tab-trained one's).
type answerer struct {
	p       *inference.Predictor
	hist    *history.History
	ablated string // the heads p has knocked out, as given ("L1H4,L2H1")
	name    string // what the page calls the model
}

// Request is what the page asks about a sentence (JSON from the page).
type Request struct {
	Sentence  string `json:"sentence"`
	Twin      string `json:"twin"`      // a second sentence to compare with, or ""
	Ablate    string `json:"ablate"`    // heads to knock out, "L1H4,L2H1", or ""
	Attribute bool   `json:"attribute"` // compute attribution (slower: integrated gradients)
	Steps     bool   `json:"steps"`     // trace the sentence for explain's numbers
}

// Answer is what the page gets back.
type Answer struct {
	Resolution *inference.Resolution `json:"resolution"`
	Twin       *inference.Twin       `json:"twin,omitempty"`
	Page       string                `json:"page"`            // viz's HTML page for the frame
	Steps      *Steps                `json:"steps,omitempty"` // explain's numbers, if asked
}

// Steps are explain's step-by-step numbers for one word in one head: the
// first "it" in the head trained to point (else the last layer's first
// head), as `explain` shows them by default.
type Steps struct {
	Tokens []string `json:"tokens"`
	// Typed are the words typed, one per token (inference.Traced.Typed):
	// the page labels the rows with them.
	Typed []string `json:"typed_words"`
	Layer int      `json:"layer"` // 0-based, as Head and Word
	Head  int      `json:"head"`
	Word  int      `json:"word"`
	DK    int      `json:"d_k"`
	Steps []Step   `json:"steps"` // in the order they are computed
}

// Step is one intermediate: a vector of the word's, or one number per word.
type Step struct {
	Name    string    `json:"name"`
	Formula string    `json:"formula"`
	About   string    `json:"about"`
	PerWord bool      `json:"per_word"` // one number per word of the sentence
	Values  []float64 `json:"values"`
}

// loadDefault questions the embedded default model.
func loadDefault() (*answerer, error) {
	ck, err := defaultmodel.Load()
	if err != nil {
		return nil, err
	}
	members, err := defaultmodel.Members(ck)
	if err != nil {
		return nil, err
	}
	p := inference.New(ck)
	if err := p.SetMembers(members); err != nil {
		return nil, err
	}
	h, _ := defaultmodel.History() // the page plays back no history when there is none
	return &answerer{p: p, hist: h, name: "the default model"}, nil
}

// loadZip questions a zipped checkpoint, with its history if one is given.
func loadZip(archive, historyJSON []byte, name string) (*answerer, error) {
	ck, err := checkpoint.LoadZip(archive)
	if err != nil {
		return nil, err
	}
	a := &answerer{p: inference.New(ck), name: name}
	if len(historyJSON) > 0 {
		if a.hist, err = history.Parse(historyJSON, history.FileName); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// answer resolves r.Sentence (and r.Twin) with r.Ablate's heads knocked out.
func (a *answerer) answer(r Request) (*Answer, error) {
	if strings.TrimSpace(r.Sentence) == "" {
		return nil, errors.New("type a sentence with \"it\"")
	}
	if err := a.ablate(r.Ablate); err != nil {
		return nil, err
	}
	out := &Answer{}
	var err error
	if strings.TrimSpace(r.Twin) != "" {
		if out.Twin, err = a.p.Twins(r.Sentence, r.Twin); err != nil {
			return nil, err
		}
		out.Resolution = out.Twin.A
	} else if out.Resolution, err = a.resolve(r.Sentence, r.Attribute); err != nil {
		return nil, err
	}
	if err := a.p.KnockOut(&out.Resolution.Predictions[0]); err != nil { // the page draws the first answer's heads
		return nil, err
	}
	if out.Page, err = a.page(out); err != nil {
		return nil, err
	}
	if r.Steps {
		if out.Steps, err = a.steps(r.Sentence); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// steps traces sentence and reads explain's numbers for its first "it".
func (a *answerer) steps(sentence string) (*Steps, error) {
	tr, err := a.p.Trace(sentence)
	if err != nil {
		return nil, err
	}
	layer, head, ok := a.p.SupervisedHead()
	if !ok {
		layer, head = a.p.Config().Layers-1, 0
	}
	word := 0
	if len(tr.Pronouns) > 0 {
		word = tr.Pronouns[0]
	}
	ws, err := tr.Output.Steps(0, layer, head, word)
	if err != nil {
		return nil, err
	}
	out := &Steps{Tokens: tr.Tokens, Typed: tr.Typed, Layer: layer, Head: head, Word: word, DK: ws.DK}
	for _, st := range ws.List() {
		out.Steps = append(out.Steps, Step{Name: st.Name, Formula: st.Formula, About: st.About, PerWord: st.PerKey(), Values: st.Value})
	}
	return out, nil
}

// resolve answers one sentence, with attribution if asked.
func (a *answerer) resolve(sentence string, attribute bool) (*inference.Resolution, error) {
	res, err := a.p.Resolve(sentence)
	if err != nil || !attribute {
		return res, err
	}
	for i := range res.Predictions {
		if err := a.p.Attribute(&res.Predictions[i]); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// ablate knocks out heads (a comma list), rewriting the graphs' head gates only on change.
func (a *answerer) ablate(heads string) error {
	if heads == a.ablated {
		return nil
	}
	var hs []model.Head // none: every head back
	if heads != "" {
		var err error
		if hs, err = model.ParseHeads(heads, a.p.Config()); err != nil {
			return err
		}
	}
	if err := a.p.Ablate(hs); err != nil {
		return err
	}
	a.ablated = heads
	return nil
}

// page draws the answer with viz: its form (hidden by the site's frame
// style) carries the ablation boxes and the twin comparison.
func (a *answerer) page(ans *Answer) (string, error) {
	c := a.p.Config()
	f := viz.Form{Action: "#", Sentence: ans.Resolution.Sentence, Result: ans.Resolution, Twin: ans.Twin,
		ModelLayers: c.Layers, ModelHeads: c.Heads, Ablate: ans.Resolution.Ablated,
		Options: viz.Options{History: a.hist, ModelEpoch: a.p.Checkpoint().Meta.Epoch, Words: a.p.KnownWords()}}
	if ans.Twin != nil {
		f.TwinSentence = ans.Twin.B.Sentence
	}
	var buf bytes.Buffer
	if err := viz.WriteForm(&buf, f); err != nil {
		return "", err
	}
	return buf.String(), nil
}
