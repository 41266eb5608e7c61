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
	"strings"
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
	// ModelEpoch is the epoch of the weights answering (a run keeps its
	// best epoch, which may come before its last): the playback opens at
	// that epoch's end and marks it. 0 opens at the history's last point.
	ModelEpoch int
	// Words, if not empty, are the words the model knows, listed at the
	// page's foot so that a learner can see what it can read.
	Words []string
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
	return write(w, res, nil, "", opts, newHistoryView(opts.History, "", opts.ModelEpoch), nil)
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
	hv := newHistoryView(opts.History, f.HistoryURL, opts.ModelEpoch)
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
		Words:   opts.Words,
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
	_, err := bidiControls.WriteString(w, buf.String())
	return err
}

// bidiControls replaces the characters that reorder the text around them
// (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) with their names in
// plain ASCII, "[U+202E]", wherever a typed sentence put them: in the page's
// text, attributes and script data alike. html/template escapes markup but
// leaves them, and "it was hungry \u202e evil" had displayed reversed.
// infer's text output quotes such words the same way (cli.visible).
var bidiControls = func() *strings.Replacer {
	var pairs []string
	for _, r := range []rune{0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069} {
		pairs = append(pairs, string(r), fmt.Sprintf("[U+%04X]", r))
	}
	return strings.NewReplacer(pairs...)
}()

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
	Words      []string     // Options.Words
}

// historyView is the playback section: the history itself, or where to
// fetch it, and the head colours of the other pictures.
type historyView struct {
	Config historyConfig
	Data   *history.History // nil when fetched from Config.Src
}

type historyConfig struct {
	Src        string   `json:"src,omitempty"`
	Colors     []string `json:"colors"`
	ModelEpoch int      `json:"model_epoch,omitempty"` // Options.ModelEpoch
}

func newHistoryView(h *history.History, url string, modelEpoch int) *historyView {
	if h == nil && url == "" {
		return nil
	}
	hv := &historyView{Config: historyConfig{Colors: headColors, ModelEpoch: modelEpoch}}
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
	GridStyle         template.CSS // the head views' grid (gridStyle)
	Summary           string
	Data              data
	// The explanation views of the first prediction (explain.go), and the
	// heads knocked out.
	Rollout      *rolloutView
	Attribution  *attributionView
	Ablated      []string
	AblationRule string
	// Knockout says what knocking out the ★ head does to the first answer,
	// or is empty when it was not run (inference.Predictor.KnockOut).
	Knockout string
}

// reading is how the model read a sentence where it differs from what was
// written: contractions read as their words, words read as their WordNet
// relatives, and words read as <unk>.
type reading struct {
	Unknown      []string
	Contractions []itdata.Contraction
	Relatives    []itdata.Relative
}

func readingOf(res *inference.Resolution) reading {
	return reading{Unknown: res.Unknown, Contractions: res.Contractions, Relatives: res.Relatives}
}

// token is one position of the sentence, labelled with the word typed
// there (Resolution.Typed): Text, and Short to fit a label; Title, its
// tooltip, also says what the model read it as, where that differs.
type token struct {
	I                  int // 0-based
	Text, Short, Title string
	Pronoun            bool
	Chosen             bool
	Y, BoxY, BoxH      float64
}

type answer struct {
	Index             int
	Pronoun           int    // 1-based position
	PronounWord, Word string // as typed (Prediction.Typed)
	// ReadAs is the word the model read the answer as, when it is not Word
	// ("dog" for "puppy"); else empty.
	ReadAs     string
	Percent    string
	Candidates []bar
	// Guess marks an answer that is a guess (inference.Confidence), and
	// Reason says why; for a confident answer, Reason is a softer note on its
	// unknown words, or empty.
	Guess  bool
	Reason string
	// Members says how the models of an ensemble answer, or is empty for
	// one model (inference.Agreement.Describe).
	Members string
}

type bar struct {
	Word, Percent string // Word as typed (Candidate.Typed)
	Position      int    // 1-based
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
	Words      []string        `json:"words"` // as typed (Resolution.Typed), the labels of every view
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

// newResult lays out the page for res: the answers, the initial selection,
// the words, a head view and heatmap per head, and the data the script
// redraws from.
func newResult(res *inference.Resolution, opts Options) (*result, error) {
	if err := checkAttention(res); err != nil {
		return nil, err
	}
	nl, nh := len(res.Attention), len(res.Attention[0])
	r := &result{Sentence: res.Sentence, reading: readingOf(res)}
	var pronouns []int
	r.Answers, pronouns = newAnswers(res.Predictions)
	supL, supH := supervisedHead(res.Predictions)
	r.Layer, r.Head, r.Word = initialSelection(opts, nl, nh, len(res.Tokens), supL, supH, pronouns)
	var longest int
	r.Tokens, longest = newTokens(res.Typed, res.Tokens, pronouns, r.Word)
	r.Layers, r.HeadNums = oneTo(nl), oneTo(nh)
	r.LayerNum, r.HeadNum = r.Layer+1, r.Head+1
	r.GridStyle = gridStyle(nl, nh)

	r.Heads = r.newHeads(res, float64(longest)*charW+8, supL, supH)
	r.Summary = summary(res.Typed, res.Attention[r.Layer][r.Head][r.Word], r.Layer, r.Head)
	if len(res.Predictions) > 0 {
		r.Rollout = newRolloutView(res.Predictions[0])
		r.Attribution = newAttributionView(res.Predictions[0])
		r.Knockout = knockoutText(res.Predictions[0])
	}
	r.Ablated, r.AblationRule = res.Ablated, AblationRule

	r.Data = data{Words: res.Typed, Attention: rounded(res.Attention),
		Layer: r.Layer, Head: r.Head, Word: r.Word, Top: top, RowH: rowH,
		MinWidth: minWidth, MaxWidth: maxWidth, MinOpacity: minOpacity}
	return r, nil
}

// checkAttention refuses attention that is not layers × heads × n × n for
// the resolution's n tokens, or words typed that are not one per token,
// naming the first layer and head that is not: the pictures index it freely.
func checkAttention(res *inference.Resolution) error {
	n := len(res.Tokens)
	if n == 0 || len(res.Attention) == 0 || len(res.Attention[0]) == 0 {
		return fmt.Errorf("viz: the resolution has no tokens or no attention")
	}
	if len(res.Typed) != n {
		return fmt.Errorf("viz: the resolution has %d words typed for %d tokens", len(res.Typed), n)
	}
	for l, heads := range res.Attention {
		if len(heads) != len(res.Attention[0]) {
			return fmt.Errorf("viz: layer %d has %d heads, layer 1 has %d", l+1, len(heads), len(res.Attention[0]))
		}
		for h, m := range heads {
			if len(m) != n {
				return fmt.Errorf("viz: layer %d head %d has %d rows for %d tokens", l+1, h+1, len(m), n)
			}
			for _, r := range m {
				if len(r) != n {
					return fmt.Errorf("viz: layer %d head %d has a row of %d weights for %d tokens", l+1, h+1, len(r), n)
				}
			}
		}
	}
	return nil
}

// newAnswers is an answer per prediction, and the pronouns they answer.
func newAnswers(preds []inference.Prediction) (answers []answer, pronouns []int) {
	for i, p := range preds {
		pronouns = append(pronouns, p.Pronoun)
		answers = append(answers, newAnswer(i, p))
	}
	return answers, pronouns
}

// supervisedHead is the head trained to point at the antecedent, 0-based,
// as the first prediction names it; -1, -1 without predictions.
func supervisedHead(preds []inference.Prediction) (layer, head int) {
	if len(preds) == 0 {
		return -1, -1
	}
	return preds[0].SupervisedLayer, preds[0].SupervisedHead
}

// initialSelection is the layer, head and word (0-based) the page shows
// first: the supervised head where this model has it, else the first, and
// the first pronoun, else the first word; opts' 1-based choices override
// each where they are in range.
func initialSelection(opts Options, nl, nh, n, supL, supH int, pronouns []int) (layer, head, word int) {
	if supL >= 0 && supL < nl && supH >= 0 && supH < nh {
		layer, head = supL, supH
	}
	if opts.Layer >= 1 && opts.Layer <= nl {
		layer = opts.Layer - 1
	}
	if opts.Head >= 1 && opts.Head <= nh {
		head = opts.Head - 1
	}
	if len(pronouns) > 0 {
		word = pronouns[0]
	}
	if opts.Word >= 1 && opts.Word <= n {
		word = opts.Word - 1
	}
	return layer, head, word
}

// newTokens places the words typed in rows, marking the pronouns and the
// chosen word, each titled with the word read where that differs; longest
// is the most runes in a (shortened) label, at least 1, which sets the head
// views' column width.
func newTokens(typed, read []string, pronouns []int, chosen int) (tokens []token, longest int) {
	isPronoun := map[int]bool{}
	for _, p := range pronouns {
		isPronoun[p] = true
	}
	longest = 1
	for i, t := range typed {
		s := shorten(t)
		longest = max(longest, utf8.RuneCountInString(s))
		y := top + (float64(i)+0.5)*rowH
		tokens = append(tokens, token{I: i, Text: t, Short: s, Title: titled(t, read[i]), Pronoun: isPronoun[i], Chosen: i == chosen,
			Y: y, BoxY: top + float64(i)*rowH + 2, BoxH: rowH - 4})
	}
	return tokens, longest
}

// titled is a word typed, and what it was read as if that is another word:
// `puppy (read as "dog")`.
func titled(typed, read string) string {
	if typed == read {
		return typed
	}
	return fmt.Sprintf("%s (read as %q)", typed, read)
}

// layersAcross is the most layers the head views lay side by side: four
// columns of a short sentence's views fit a 1200-pixel page.
const layersAcross = 4

// gridStyle lays the head views out a column per layer, layer 1 on the
// left, so that every layer's first head, the last layer's too (where the
// head trained to point usually is), is in the first row, on the first
// screen. A deeper model gets a row per layer instead, as wide as its heads.
func gridStyle(nl, nh int) template.CSS {
	if nl > layersAcross {
		return template.CSS(fmt.Sprintf("grid-template-columns:repeat(%d,max-content)", nh))
	}
	return template.CSS(fmt.Sprintf("grid-auto-flow:column;grid-template-rows:repeat(%d,auto)", nh))
}

// oneTo is 1, 2, ..., n: the numbers a control offers.
func oneTo(n int) []int {
	var nums []int
	for i := range n {
		nums = append(nums, i+1)
	}
	return nums
}

// newHeads draws every head, layer by layer, in columns of width colW.
func (r *result) newHeads(res *inference.Resolution, colW float64, supL, supH int) []*head {
	var heads []*head
	for l, layer := range res.Attention {
		for h := range layer {
			heads = append(heads, r.newHead(res, l, h, colW, l == supL && h == supH))
		}
	}
	return heads
}

// newHead is head h of layer l: its head view, with lines from the selected
// word, and its heatmap.
func (r *result) newHead(res *inference.Resolution, l, h int, colW float64, supervised bool) *head {
	hd := &head{L: l, H: h, LNum: l + 1, HNum: h + 1, Supervised: supervised, Selected: l == r.Layer && h == r.Head,
		Color: headColors[h%len(headColors)]}
	hd.place(colW, len(res.Tokens))
	m := res.Attention[l][h]
	hd.Lines, hd.Right = r.linesFrom(res.Typed, m[r.Word])
	hd.Rows = r.heatmapRows(res.Typed, m, hd.Color)
	return hd
}

// place sets the head view's geometry: a column of words of width colW, the
// gap the lines cross, the same column again, and the percentages.
func (hd *head) place(colW float64, n int) {
	hd.XLeft = colW
	hd.X1 = colW + 6
	hd.X2 = colW + gap - 6
	hd.XRight = colW + gap
	hd.BoxX = hd.XRight - 4
	hd.BoxW = colW + 4
	hd.XPct = hd.XRight + colW + 4 + pctW
	hd.W = hd.XPct + 4
	hd.Ht = top*2 + float64(n)*rowH
}

// linesFrom draws the selected word's weights on every word (weights, one
// row of the head's matrix) as lines, as thick and as opaque as the weight,
// and as the right column's percentages.
func (r *result) linesFrom(words []string, weights []float64) ([]line, []weightLabel) {
	var lines []line
	var labels []weightLabel
	y1 := fmt.Sprintf("%.1f", r.Tokens[r.Word].Y)
	for j, w := range weights {
		lines = append(lines, line{J: j, Y1: y1, Y2: r.Tokens[j].Y,
			Width: fmt.Sprintf("%.2f", minWidth+(maxWidth-minWidth)*w), Opacity: fmt.Sprintf("%.3f", minOpacity+(1-minOpacity)*w),
			Title: fmt.Sprintf("%s → %s: %s", words[r.Word], words[j], percent(w))})
		labels = append(labels, weightLabel{J: j, Percent: shortPercent(w), Opacity: fmt.Sprintf("%.3f", 0.55*w)})
	}
	return lines, labels
}

// heatmapRows is the head's matrix m as rows of cells shaded in its colour
// (r,g,b) by weight, with white text on the darkest.
func (r *result) heatmapRows(words []string, m [][]float64, color string) []row {
	var rows []row
	for i, weights := range m {
		rw := row{Token: r.Tokens[i]}
		for j, w := range weights {
			rw.Cells = append(rw.Cells, cell{Dark: w > 0.55,
				Style: template.CSS(fmt.Sprintf("background-color:rgba(%s,%.3f)", color, w)),
				Title: fmt.Sprintf("%s → %s: %s", words[i], words[j], percent(w)), Text: cellText(w)})
		}
		rows = append(rows, rw)
	}
	return rows
}

func newAnswer(i int, p inference.Prediction) answer {
	a := answer{Index: i, Pronoun: p.Pronoun + 1, PronounWord: p.Typed[p.Pronoun], Word: p.TypedAnswer,
		Guess: p.Confidence.Guess, Reason: p.Confidence.Reason}
	if p.AnswerWord != p.TypedAnswer {
		a.ReadAs = p.AnswerWord
	}
	if m := p.Confidence.Members; m != nil {
		a.Members = m.Describe(p.TypedAnswer)
	}
	if p.Answer >= 0 && p.Answer < len(p.WordProbs) {
		a.Percent = percent(p.WordProbs[p.Answer])
	}
	for _, c := range p.Candidates {
		a.Candidates = append(a.Candidates, bar{Word: c.Typed, Position: c.Position + 1, Percent: percent(c.Probability),
			Width:  template.CSS(fmt.Sprintf("width:%.2f%%", 100*min(max(c.Probability, 0), 1))),
			Answer: c.Position == p.Answer})
	}
	return a
}

// knockoutText is the knockout of p, as a sentence: "Knocking out L3 H1:
// dog 100.0% → dog 99.8% (the answer does not rest on this head)."
func knockoutText(p inference.Prediction) string {
	if p.Knockout == nil {
		return ""
	}
	s := p.Knockout.Describe(p.TypedAnswer)
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// summary is the sentence above the pictures: where the chosen word looks most
// in the selected head. The page's script writes the same sentence.
func summary(words []string, row []float64, l, h int) string {
	best := 0
	for j, w := range row {
		if w > row[best] {
			best = j
		}
	}
	return fmt.Sprintf("In layer %d, head %d, the strongest attention goes to %q (%s).", l+1, h+1, words[best], percent(row[best]))
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
