// Package viz draws a resolved sentence as one self-contained HTML page: the
// answer, a notice when it is a guess, the candidates' probabilities, a head view of every layer and head
// (the sentence twice, with a line from the chosen word to every word, as thick
// and as opaque as its attention weight) and a words-by-words heatmap of the
// selected head. Controls pick the layer, the head and the chosen word.
//
// Everything is inline: the page loads nothing from the network, so the file
// written by `infer -html` opens anywhere, and `serve` sends one response per
// sentence. A little plain JavaScript redraws the pictures from the attention
// matrices embedded in the page as JSON; without it the page still shows the
// initial selection.
package viz

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"unicode/utf8"

	itdata "itformer/data" // named apart from the type data below
	"itformer/history"
	"itformer/inference"
)

var (
	//go:embed page.html.tmpl
	pageTemplate string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
	//go:embed history.js
	historyJS string

	tmpl = template.Must(template.New("page").Parse(pageTemplate))
)

// ContentSecurityPolicy allows the page's inline style and script and nothing
// from anywhere else. The page carries it in a meta tag; a server may also send
// it as a header.
// connect-src 'self' lets a served page fetch its model's history (Form.HistoryURL).
const ContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'"

// Options choose what the page shows first. Numbers are 1-based, as on the
// command line; 0 (or out of range) means the default.
type Options struct {
	Title string // the page title; default "itformer: what does "it" refer to?"
	// Layer and Head select the head shown in the heatmap; the default is the
	// head trained to point from the pronoun to its antecedent, else layer 1, head 1.
	Layer, Head int
	// Word is the chosen word, whose lines the head views draw; default the first pronoun.
	Word int
	// History, if not nil, is embedded in the page for its playback of
	// attention as it was learned (package history).
	History *history.History
}

// Form is the page of a server: a text input, and below it an error or the
// result of the last sentence.
type Form struct {
	Action   string                // where the form is sent (GET); default "/"
	Sentence string                // the input's value
	Error    string                // shown above the result if not empty
	MaxBytes int                   // the input's maxlength, if > 0
	Result   *inference.Resolution // nil before the first sentence, or on error
	// HistoryURL, if not empty, is where the page fetches the model's
	// history.json for its playback (instead of Options.History).
	HistoryURL string
	// TwinSentence is the second input's value; Twin, if not nil, compares
	// the two sentences (and Result is its first).
	TwinSentence string
	Twin         *inference.Twin
	// ModelLayers and ModelHeads size the ablation checkboxes; Ablate names
	// the heads checked ("L2H1"), and Whole says what the whole model
	// answers when some are knocked out.
	ModelLayers, ModelHeads int
	Ablate                  []string
	Whole                   string
	Options
}

// WritePage writes a standalone page for res.
func WritePage(w io.Writer, res *inference.Resolution, opts Options) error {
	if res == nil {
		return fmt.Errorf("viz: no resolution to draw")
	}
	return write(w, res, nil, "", opts, newHistoryView(opts.History, ""), nil)
}

// WriteForm writes a server's page: the form, then f.Error or f.Result.
func WriteForm(w io.Writer, f Form) error {
	action := f.Action
	if action == "" {
		action = "/"
	}
	fv := &formView{Action: action, Sentence: f.Sentence, TwinSentence: f.TwinSentence, MaxBytes: f.MaxBytes}
	if f.Layer > 0 && f.Head > 0 {
		fv.Layer, fv.Head = f.Layer, f.Head // until a result says which head is shown
	}
	if f.ModelLayers > 0 && f.ModelHeads > 0 {
		fv.Ablation = newAblationView(f.ModelLayers, f.ModelHeads, f.Ablate, f.Whole)
	}
	opts := f.Options
	hv := newHistoryView(opts.History, f.HistoryURL)
	opts.History = nil
	res := f.Result
	if f.Twin != nil {
		res = f.Twin.A
	}
	return write(w, res, fv, f.Error, opts, hv, f.Twin)
}

func write(w io.Writer, res *inference.Resolution, form *formView, errMsg string, opts Options, hv *historyView, twin *inference.Twin) error {
	p := page{
		Title:   opts.Title,
		CSP:     ContentSecurityPolicy,
		Style:   template.CSS(pageCSS),
		Script:  template.JS(pageJS + historyJS),
		Form:    form,
		Error:   errMsg,
		History: hv,
	}
	if p.Title == "" {
		p.Title = `itformer: what does "it" refer to?`
	}
	if res != nil {
		r, err := newResult(res, opts)
		if err != nil {
			return err
		}
		p.R = r
		if form != nil {
			form.Layer, form.Head = r.Layer+1, r.Head+1
		}
		if twin != nil && len(twin.A.Predictions) > 0 && len(twin.B.Predictions) > 0 {
			p.Twin = newTwinView(twin, r.Layer, r.Head)
		}
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("viz: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// page is what the template reads.
type page struct {
	Title, CSP string
	Style      template.CSS
	Script     template.JS
	Form       *formView
	Error      string
	R          *result
	History    *historyView // nil: no playback section
	Twin       *twinView    // nil: no second sentence
}

// historyView is the playback section: the history itself, or where to
// fetch it, and the head colours of the other pictures.
type historyView struct {
	Config historyConfig
	Data   *history.History // nil when fetched from Config.Src
}

type historyConfig struct {
	Src    string   `json:"src,omitempty"`
	Colors []string `json:"colors"`
}

func newHistoryView(h *history.History, url string) *historyView {
	if h == nil && url == "" {
		return nil
	}
	hv := &historyView{Config: historyConfig{Colors: headColors}}
	if h != nil {
		hv.Data = h
	} else {
		hv.Config.Src = url
	}
	return hv
}

type formView struct {
	Action, Sentence string
	TwinSentence     string
	Ablation         *ablationView // nil: no ablation control
	MaxBytes         int
	Layer, Head      int // 1-based; kept in hidden inputs so a new sentence keeps the selection
}

// result is a Resolution laid out for drawing.
type result struct {
	Sentence string
	reading
	Answers  []answer
	Tokens   []token
	Layers   []int // 1-based numbers, for the layer control
	HeadNums []int // 1-based numbers, for the head control
	Heads    []*head
	// Layer, Head and Word are the initial selection, 0-based; LayerNum and
	// HeadNum the same, 1-based.
	Layer, Head, Word int
	LayerNum, HeadNum int
	GridStyle         template.CSS // the head views' grid: one column per head
	Summary           string
	Data              data
	// The explanation views of the first prediction (explain.go), and the
	// heads knocked out.
	Rollout      *rolloutView
	Attribution  *attributionView
	Ablated      []string
	AblationRule string
}

// reading is how the model read a sentence where it differs from what was
// written: contractions read as their words, and words read as <unk>.
type reading struct {
	Unknown      []string
	Contractions []itdata.Contraction
}

func readingOf(res *inference.Resolution) reading {
	return reading{Unknown: res.Unknown, Contractions: res.Contractions}
}

type token struct {
	I             int // 0-based
	Text, Short   string
	Pronoun       bool
	Chosen        bool
	Y, BoxY, BoxH float64
}

type answer struct {
	Index             int
	Pronoun           int // 1-based position
	PronounWord, Word string
	Percent           string
	Candidates        []bar
	// Guess marks an answer that is a guess (inference.Confidence), and
	// Reason says why; for a confident answer, Reason is a softer note on its
	// unknown words, or empty.
	Guess  bool
	Reason string
}

type bar struct {
	Word, Percent string
	Position      int // 1-based
	Width         template.CSS
	Answer        bool
}

// head is one layer's head: its head view and its heatmap.
type head struct {
	L, H                int // 0-based
	LNum, HNum          int // 1-based
	Supervised          bool
	Selected            bool
	Color               string
	W, Ht               float64 // the head view's size
	XLeft, XRight, XPct float64
	X1, X2              float64 // where lines start and end
	BoxX, BoxW          float64 // the right column's weight boxes
	Lines               []line
	Right               []weightLabel
	Rows                []row
}

type line struct {
	J                         int
	Y2                        float64
	Y1, Width, Opacity, Title string
}

type weightLabel struct {
	J                int
	Percent, Opacity string
}

type row struct {
	Token token
	Cells []cell
}

type cell struct {
	Style       template.CSS
	Title, Text string
	Dark        bool
}

// data is the JSON the page's script redraws from. Geometry must match the
// template's.
type data struct {
	Tokens     []string        `json:"tokens"`
	Attention  [][][][]float64 `json:"attention"`
	Layer      int             `json:"layer"`
	Head       int             `json:"head"`
	Word       int             `json:"word"`
	Top        float64         `json:"top"`
	RowH       float64         `json:"row_h"`
	MinWidth   float64         `json:"min_width"`
	MaxWidth   float64         `json:"max_width"`
	MinOpacity float64         `json:"min_opacity"`
}

// Geometry of a head view, in pixels.
const (
	top      = 8.0  // space above the first word
	rowH     = 24.0 // one word per row
	charW    = 8.4  // a generous width of one character of the label font
	gap      = 110  // room for the lines between the two columns
	pctW     = 44   // the percentage column after the right words
	maxRunes = 14   // longer words are cut, with "…", in labels

	// A line's width and opacity grow in proportion to the weight, from a
	// hairline for 0 (so every line is there to see) to maxWidth for 1.
	minWidth   = 0.4
	maxWidth   = 9.0
	minOpacity = 0.06
)

// headColors are the heads' colours (r,g,b), by head index: the same head
// number has the same colour in every layer.
var headColors = []string{"31,119,180", "214,39,40", "44,160,44", "255,127,14", "148,103,189", "140,86,75", "227,119,194", "23,190,207"}

func newResult(res *inference.Resolution, opts Options) (*result, error) {
	n := len(res.Tokens)
	if n == 0 || len(res.Attention) == 0 || len(res.Attention[0]) == 0 {
		return nil, fmt.Errorf("viz: the resolution has no tokens or no attention")
	}
	for l, heads := range res.Attention {
		if len(heads) != len(res.Attention[0]) {
			return nil, fmt.Errorf("viz: layer %d has %d heads, layer 1 has %d", l+1, len(heads), len(res.Attention[0]))
		}
		for h, m := range heads {
			if len(m) != n {
				return nil, fmt.Errorf("viz: layer %d head %d has %d rows for %d tokens", l+1, h+1, len(m), n)
			}
			for _, r := range m {
				if len(r) != n {
					return nil, fmt.Errorf("viz: layer %d head %d has a row of %d weights for %d tokens", l+1, h+1, len(r), n)
				}
			}
		}
	}
	nl, nh := len(res.Attention), len(res.Attention[0])
	r := &result{Sentence: res.Sentence, reading: readingOf(res)}
	supL, supH := -1, -1
	var pronouns []int
	for i, p := range res.Predictions {
		pronouns = append(pronouns, p.Pronoun)
		if i == 0 {
			supL, supH = p.SupervisedLayer, p.SupervisedHead
		}
		r.Answers = append(r.Answers, newAnswer(i, p))
	}

	// The initial selection.
	r.Layer, r.Head = 0, 0
	if supL >= 0 && supL < nl && supH >= 0 && supH < nh {
		r.Layer, r.Head = supL, supH
	}
	if opts.Layer >= 1 && opts.Layer <= nl {
		r.Layer = opts.Layer - 1
	}
	if opts.Head >= 1 && opts.Head <= nh {
		r.Head = opts.Head - 1
	}
	r.Word = 0
	if len(pronouns) > 0 {
		r.Word = pronouns[0]
	}
	if opts.Word >= 1 && opts.Word <= n {
		r.Word = opts.Word - 1
	}

	isPronoun := map[int]bool{}
	for _, p := range pronouns {
		isPronoun[p] = true
	}
	longest := 1
	for i, t := range res.Tokens {
		s := shorten(t)
		longest = max(longest, utf8.RuneCountInString(s))
		y := top + (float64(i)+0.5)*rowH
		r.Tokens = append(r.Tokens, token{I: i, Text: t, Short: s, Pronoun: isPronoun[i], Chosen: i == r.Word,
			Y: y, BoxY: top + float64(i)*rowH + 2, BoxH: rowH - 4})
	}
	for l := range nl {
		r.Layers = append(r.Layers, l+1)
	}
	for h := range nh {
		r.HeadNums = append(r.HeadNums, h+1)
	}

	r.LayerNum, r.HeadNum = r.Layer+1, r.Head+1
	r.GridStyle = template.CSS(fmt.Sprintf("grid-template-columns:repeat(%d,max-content)", nh))

	colW := float64(longest)*charW + 8
	for l := range nl {
		for h := range nh {
			hd := &head{L: l, H: h, LNum: l + 1, HNum: h + 1, Supervised: l == supL && h == supH, Selected: l == r.Layer && h == r.Head,
				Color: headColors[h%len(headColors)]}
			hd.XLeft = colW
			hd.X1 = colW + 6
			hd.X2 = colW + gap - 6
			hd.XRight = colW + gap
			hd.BoxX = hd.XRight - 4
			hd.BoxW = colW + 4
			hd.XPct = hd.XRight + colW + 4 + pctW
			hd.W = hd.XPct + 4
			hd.Ht = top*2 + float64(n)*rowH
			m := res.Attention[l][h]
			y1 := fmt.Sprintf("%.1f", r.Tokens[r.Word].Y)
			for j := range n {
				w := m[r.Word][j]
				hd.Lines = append(hd.Lines, line{J: j, Y1: y1, Y2: r.Tokens[j].Y,
					Width: fmt.Sprintf("%.2f", minWidth+(maxWidth-minWidth)*w), Opacity: fmt.Sprintf("%.3f", minOpacity+(1-minOpacity)*w),
					Title: fmt.Sprintf("%s → %s: %s", res.Tokens[r.Word], res.Tokens[j], percent(w))})
				hd.Right = append(hd.Right, weightLabel{J: j, Percent: shortPercent(w), Opacity: fmt.Sprintf("%.3f", 0.55*w)})
			}
			for i := range n {
				rw := row{Token: r.Tokens[i]}
				for j := range n {
					w := m[i][j]
					rw.Cells = append(rw.Cells, cell{Dark: w > 0.55,
						Style: template.CSS(fmt.Sprintf("background-color:rgba(%s,%.3f)", hd.Color, w)),
						Title: fmt.Sprintf("%s → %s: %s", res.Tokens[i], res.Tokens[j], percent(w)), Text: cellText(w)})
				}
				hd.Rows = append(hd.Rows, rw)
			}
			r.Heads = append(r.Heads, hd)
		}
	}
	r.Summary = summary(res.Tokens, res.Attention[r.Layer][r.Head][r.Word], r.Layer, r.Head)
	if len(res.Predictions) > 0 {
		r.Rollout = newRolloutView(res.Predictions[0])
		r.Attribution = newAttributionView(res.Predictions[0])
	}
	r.Ablated, r.AblationRule = res.Ablated, AblationRule

	r.Data = data{Tokens: res.Tokens, Attention: rounded(res.Attention),
		Layer: r.Layer, Head: r.Head, Word: r.Word, Top: top, RowH: rowH,
		MinWidth: minWidth, MaxWidth: maxWidth, MinOpacity: minOpacity}
	return r, nil
}

func newAnswer(i int, p inference.Prediction) answer {
	a := answer{Index: i, Pronoun: p.Pronoun + 1, PronounWord: p.Tokens[p.Pronoun], Word: p.AnswerWord,
		Guess: p.Confidence.Guess, Reason: p.Confidence.Reason}
	if p.Answer >= 0 && p.Answer < len(p.WordProbs) {
		a.Percent = percent(p.WordProbs[p.Answer])
	}
	for _, c := range p.Candidates {
		a.Candidates = append(a.Candidates, bar{Word: c.Word, Position: c.Position + 1, Percent: percent(c.Probability),
			Width:  template.CSS(fmt.Sprintf("width:%.2f%%", 100*min(max(c.Probability, 0), 1))),
			Answer: c.Position == p.Answer})
	}
	return a
}

// summary is the sentence above the pictures: where the chosen word looks most
// in the selected head. The page's script writes the same sentence.
func summary(tokens []string, row []float64, l, h int) string {
	best := 0
	for j, w := range row {
		if w > row[best] {
			best = j
		}
	}
	return fmt.Sprintf("In layer %d, head %d, the strongest attention goes to %q (%s).", l+1, h+1, tokens[best], percent(row[best]))
}

// rounded copies the weights to 6 decimals, enough for the page's 0.1%, to
// keep the embedded JSON short.
func rounded(a [][][][]float64) [][][][]float64 {
	out := make([][][][]float64, len(a))
	for l, heads := range a {
		out[l] = make([][][]float64, len(heads))
		for h, m := range heads {
			out[l][h] = make([][]float64, len(m))
			for i, row := range m {
				out[l][h][i] = make([]float64, len(row))
				for j, w := range row {
					out[l][h][i][j] = math.Round(w*1e6) / 1e6
				}
			}
		}
	}
	return out
}

func shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxRunes {
		return s
	}
	return string([]rune(s)[:maxRunes-1]) + "…"
}

func percent(w float64) string { return fmt.Sprintf("%.1f%%", 100*w) }

// shortPercent labels a head view's right column: whole percents, nothing under 0.5%.
func shortPercent(w float64) string {
	if w < 0.005 {
		return ""
	}
	return fmt.Sprintf("%.0f%%", 100*w)
}

// cellText is a heatmap cell's number: whole percents, nothing under 0.5%.
func cellText(w float64) string {
	if w < 0.005 {
		return ""
	}
	return fmt.Sprintf("%.0f", 100*w)
}
