package viz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/history"
	"itformer/inference"
	itmodel "itformer/model"
)

var (
	loadOnce sync.Once
	model    *inference.Predictor
	loadErr  error
)

func resolve(t *testing.T, sentence string) *inference.Resolution {
	t.Helper()
	loadOnce.Do(func() { model, loadErr = cli.LoadModel("") })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	res, err := model.Resolve(sentence)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func render(t *testing.T, res *inference.Resolution, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WritePage(&buf, res, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// headViews splits the page at its head views: one string per <svg>.
func headViews(html string) []string {
	var out []string
	for _, part := range strings.Split(html, `<svg class="headview"`)[1:] {
		out = append(out, part[:strings.Index(part, "</svg>")])
	}
	return out
}

func TestPageShowsAnswerCandidatesAndPictures(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry")
	html := render(t, res, Options{})
	n := len(res.Tokens)
	for _, want := range []string{`class="answer-word">dog</strong>`, `<span class="bar-word" title="word 2">dog</span>`,
		`<span class="bar-word" title="word 5">food</span>`, "100.0%", `★ trained to point`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if got := strings.Count(html, `<span class="bar"`); got != len(res.Predictions[0].Candidates) {
		t.Errorf("%d bars, want one per candidate (%d)", got, len(res.Predictions[0].Candidates))
	}
	nl, nh := len(res.Attention), len(res.Attention[0])
	c := model.Config()
	if nl != c.Layers || nh != c.Heads {
		t.Fatalf("Resolve gave attention for %d layers x %d heads, the model has %d x %d", nl, nh, c.Layers, c.Heads)
	}
	views := headViews(html)
	if len(views) != nl*nh {
		t.Fatalf("%d head views, want %d layers x %d heads", len(views), nl, nh)
	}
	for k, v := range views {
		if got := strings.Count(v, `<line class="attn"`); got != n {
			t.Errorf("head view %d has %d lines, want one per word (%d)", k, got, n)
		}
		if got := strings.Count(v, `<text class="tok left`); got != n {
			t.Errorf("head view %d has %d words on the left, want %d", k, got, n)
		}
		if got := strings.Count(v, `<text class="tok right`); got != n {
			t.Errorf("head view %d has %d words on the right, want %d", k, got, n)
		}
	}
	if got := strings.Count(html, `<td class="cell`); got != nl*nh*n*n {
		t.Errorf("%d heatmap cells, want %d heads x %d x %d", got, nl*nh, n, n)
	}
	// The supervised head is marked and selected first, and its line from
	// "it" to "dog" is drawn as thick as its weight, which the head, trained
	// to point at the antecedent, puts almost all on "dog".
	sl, sh, ok := model.SupervisedHead()
	if !ok {
		t.Fatal("the default model has no supervised head")
	}
	p := res.Predictions[0]
	if p.SupervisedLayer != sl || p.SupervisedHead != sh {
		t.Fatalf("Resolve names layer %d head %d supervised, the model %d %d", p.SupervisedLayer, p.SupervisedHead, sl, sh)
	}
	if !strings.Contains(html, fmt.Sprintf(`<figure class="hv selected supervised" id="hv-%d-%d"`, sl, sh)) {
		t.Errorf("layer %d, head %d (the supervised one) is not marked and selected", sl+1, sh+1)
	}
	if strings.Count(html, `<figure class="hv selected`) != 1 || strings.Count(html, ` supervised"`) != 1 {
		t.Error("want exactly one head view selected and one marked supervised")
	}
	dog := p.Attention[sl][sh][1]
	if itmodel.ArgMax(p.Attention[sl][sh]) != 1 {
		t.Fatalf(`layer %d head %d: "it" gives "dog" %.3f, not the most of any word`, sl+1, sh+1, dog)
	}
	view := views[sl*nh+sh]
	line := regexp.MustCompile(`<line class="attn" data-j="(\d+)" x1="[0-9.]+" y1="[0-9.]+" x2="[0-9.]+" y2="[0-9.]+" stroke-width="([0-9.]+)" stroke-opacity="([0-9.]+)"><title>it → ([^:]+): ([0-9.]+%)</title>`)
	lines := line.FindAllStringSubmatch(view, -1)
	if len(lines) != n {
		t.Fatalf("layer %d head %d: %d lines from it, want %d:\n%s", sl+1, sh+1, len(lines), n, view)
	}
	for j, m := range lines {
		w := p.Attention[sl][sh][j]
		want := []string{strconv.Itoa(j), fmt.Sprintf("%.2f", minWidth+(maxWidth-minWidth)*w), fmt.Sprintf("%.3f", minOpacity+(1-minOpacity)*w), res.Tokens[j], percent(w)}
		if strings.Join(m[1:], " ") != strings.Join(want, " ") {
			t.Errorf("layer %d head %d, line %d: %q, want %q", sl+1, sh+1, j, m[1:], want)
		}
		if width, _ := strconv.ParseFloat(m[2], 64); j != 1 && width >= minWidth+(maxWidth-minWidth)*dog {
			t.Errorf(`layer %d head %d: the line to %q (%s px) is not thinner than the line to "dog"`, sl+1, sh+1, m[4], m[2])
		}
	}
	if strings.Count(html, "<figure class=\"hm\"") != nl*nh || strings.Count(html, " hidden>") != nl*nh-1 {
		t.Errorf("want %d heatmaps, all but the selected one hidden", nl*nh)
	}
	top := itmodel.ArgMax(p.Attention[sl][sh])
	if want := fmt.Sprintf(`In layer %d, head %d, the strongest attention goes to &#34;%s&#34; (%s).`, sl+1, sh+1, res.Tokens[top], percent(p.Attention[sl][sh][top])); !strings.Contains(html, want) {
		t.Errorf("no summary of the selected head: %q", want)
	}
}

// A guess gets a notice between its answer and the candidates, with the
// reason, and its answer does not claim to be certain; a confident answer
// gets none, or a softer note when it has unknown words to warn about. The
// embedded model is confident on almost everything, so the confidence is set
// by hand on a real resolution.
func TestGuessNotice(t *testing.T) {
	const reason = `"famished" is not a word this model knows & <may> decide`
	const escaped = `&#34;famished&#34; is not a word this model knows &amp; &lt;may&gt; decide`
	cases := []struct {
		name      string
		c         inference.Confidence
		verdict   string
		want, not []string
	}{
		{"guess", inference.Confidence{Guess: true, Reason: reason}, "might refer to",
			[]string{`<div class="answer is-guess" id="answer-0">`, `<p class="guess" id="guess-0" role="alert"><strong>This is a guess:</strong> ` + escaped + `</p>`},
			[]string{`class="caution"`}},
		{"confident, a note", inference.Confidence{Reason: reason}, "refers to",
			[]string{`<p class="caution" id="caution-0">Note: ` + escaped + `</p>`},
			[]string{`class="guess"`, `class="answer is-guess"`}},
		{"confident", inference.Confidence{}, "refers to", nil,
			[]string{`class="guess"`, `class="caution"`, `class="answer is-guess"`}},
	}
	for _, tc := range cases {
		res := resolve(t, "A dog ate the food because it was hungry")
		res.Predictions[0].Confidence = tc.c
		html := render(t, res, Options{})
		verdict := `<span class="pos">(word 7)</span> ` + tc.verdict + ` <strong class="answer-word">dog</strong>`
		for _, want := range append(tc.want, verdict) {
			if !strings.Contains(html, want) {
				t.Errorf("%s: no %q in the page", tc.name, want)
			}
		}
		for _, not := range tc.not {
			if strings.Contains(html, not) {
				t.Errorf("%s: %q in the page", tc.name, not)
			}
		}
		if tc.c.Reason != "" {
			at, bars := strings.Index(html, escaped), strings.Index(html, `<div class="bars"`)
			if !(strings.Index(html, verdict) < at && at < bars) {
				t.Errorf("%s: the notice is not between the answer and the candidates", tc.name)
			}
		}
	}
}

func TestEmbeddedData(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was tasty")
	html := render(t, res, Options{})
	m := regexp.MustCompile(`(?s)<script type="application/json" id="viz-data">(.*?)</script>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no embedded data")
	}
	var d data
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("embedded data is not JSON: %v\n%s", err, m[1])
	}
	sl, sh, ok := model.SupervisedHead()
	if !ok {
		t.Fatal("the default model has no supervised head")
	}
	if strings.Join(d.Words, " ") != strings.Join(res.Typed, " ") || d.Word != 6 || d.Layer != sl || d.Head != sh {
		t.Fatalf("unexpected data %+v", d)
	}
	// The embedded weights are Resolve's, rounded to 6 decimals.
	if len(d.Attention) != len(res.Attention) {
		t.Fatalf("%d layers of attention, want %d", len(d.Attention), len(res.Attention))
	}
	for l := range res.Attention {
		if len(d.Attention[l]) != len(res.Attention[l]) {
			t.Fatalf("layer %d: %d heads, want %d", l+1, len(d.Attention[l]), len(res.Attention[l]))
		}
		for h := range res.Attention[l] {
			for i, row := range res.Attention[l][h] {
				if len(d.Attention[l][h][i]) != len(row) {
					t.Fatalf("layer %d head %d row %d: %d weights, want %d", l+1, h+1, i, len(d.Attention[l][h][i]), len(row))
				}
				for j, w := range row {
					if math.Abs(d.Attention[l][h][i][j]-w) > 5e-7 {
						t.Fatalf("layer %d head %d [%d][%d]: %v, want %v", l+1, h+1, i, j, d.Attention[l][h][i][j], w)
					}
				}
			}
		}
	}
	// The supervised head points from "it" to its antecedent: most of its
	// weight, not a spread (the embedded model gives 0.986).
	if w := d.Attention[sl][sh][6][4]; w < 0.9 {
		t.Errorf(`layer %d head %d (supervised): "it" gives "food" %v, want most of it`, sl+1, sh+1, w)
	}
}

func TestOptionsPickTheFirstSelection(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry")
	html := render(t, res, Options{Layer: 1, Head: 2, Word: 2, Title: "a title"})
	for _, want := range []string{`<figure class="hv selected" id="hv-0-1"`, `<figure class="hm" id="hm-0-1" data-l="0" data-h="1">`,
		`<option value="1" selected>dog</option>`, `<title>a title</title>`, `<text class="tok left chosen" data-i="1"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	// Out of range falls back to the defaults.
	sl, sh, _ := model.SupervisedHead()
	html = render(t, res, Options{Layer: len(res.Attention) + 1, Head: -1, Word: 99})
	if !strings.Contains(html, fmt.Sprintf(`<figure class="hv selected supervised" id="hv-%d-%d"`, sl, sh)) || !strings.Contains(html, `<option value="6" selected>it (pronoun)</option>`) {
		t.Error("out-of-range options did not fall back to the supervised head and the pronoun")
	}
}

func TestTokensAreEscaped(t *testing.T) {
	res := resolve(t, `A <script> & dog ate it`)
	html := render(t, res, Options{})
	if strings.Count(html, "<script") != 2 {
		t.Errorf("the page has %d <script elements, want only its own 2", strings.Count(html, "<script"))
	}
	for _, want := range []string{`<q>A &lt;script&gt; &amp; dog ate it</q>`, `>&lt;<title>&lt;</title></text>`, `>&amp;<title>&amp;</title></text>`,
		`title="&amp;"`, `\u003c`, `\u0026`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	var buf bytes.Buffer
	evil := `"><script>alert(1)</script>`
	if err := WriteForm(&buf, Form{Sentence: evil, Error: evil}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "alert(1)</script>") {
		t.Errorf("the form echoes markup unescaped:\n%s", buf.String())
	}
}

func TestNoNetworkResources(t *testing.T) {
	var form bytes.Buffer
	res := resolve(t, "A dog ate the food because it was hungry")
	if err := WriteForm(&form, Form{Sentence: "x", Result: res, MaxBytes: 4096}); err != nil {
		t.Fatal(err)
	}
	external := regexp.MustCompile(`(?i)(src|href|action|xlink:href)\s*=\s*["']?\s*(https?:|//)|url\(|@import`)
	for name, html := range map[string]string{"page": render(t, res, Options{}), "form": form.String()} {
		if m := external.FindString(html); m != "" {
			t.Errorf("%s: a reference to another host: %q", name, m)
		}
		if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
			t.Errorf("%s: a URL in the page", name)
		}
		if !strings.Contains(html, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;`) {
			t.Errorf("%s: no content security policy", name)
		}
	}
}

func TestForm(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteForm(&buf, Form{Sentence: "The dog ate", Error: `no pronoun "it" to resolve`, MaxBytes: 4096}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{`<form class="ask" method="get" action="/">`, `value="The dog ate"`, `maxlength="4096"`,
		`<p class="error" id="error" role="alert">no pronoun &#34;it&#34; to resolve</p>`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	if strings.Contains(html, `id="result"`) || strings.Contains(html, "<svg") {
		t.Error("a page with no result draws pictures")
	}
	buf.Reset()
	res := resolve(t, "A dog ate the food because it was hungry")
	if err := WriteForm(&buf, Form{Action: "/x", Sentence: res.Sentence, Result: res, Options: Options{Layer: 1, Head: 2}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`action="/x"`, `name="layer" id="form-layer" value="1"`, `name="head" id="form-head" value="2"`, `class="answer-word">dog<`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("no %q in the page", want)
		}
	}
}

func TestBadResolution(t *testing.T) {
	if err := WritePage(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Error("nil resolution: no error")
	}
	res := resolve(t, "A dog ate the food because it was hungry")
	bad := *res
	bad.Attention = [][][][]float64{{{{1}}}}
	if err := WritePage(&bytes.Buffer{}, &bad, Options{}); err == nil {
		t.Error("attention of the wrong shape: no error")
	}
}

func TestLongWordsAreCut(t *testing.T) {
	res := resolve(t, "The supercalifragilisticexpialidocious dog ate it")
	html := render(t, res, Options{})
	if !strings.Contains(html, ">supercalifrag…<title>supercalifragilisticexpialidocious</title>") {
		t.Error("a long word is not cut in the head view, with its whole text as a tooltip")
	}
}

// The playback section: a standalone page embeds the history it is given, a
// served page names where to fetch it, and a page with neither has none.
func TestHistorySection(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry")
	h := history.New(1, 1, [2]int{-1, -1}, 4, []history.Probe{{Name: "p</script>", Text: "a dog it", Tokens: []string{"a", "dog", "it"},
		Pronoun: 2, Antecedent: 1, Candidates: [2]int{1, 1}}})
	h.Add(history.Point{Readings: []history.Reading{{Attention: [][][]float64{{{0.2, 0.7, 0.1}}}, CandidateProbabilities: [2]float64{0.9, 0.9}}}})
	dataRe := regexp.MustCompile(`(?s)<script type="application/json" id="history-data">(.*?)</script>`)

	page := render(t, res, Options{History: h})
	m := dataRe.FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, `id="history-config"`) {
		t.Fatal("the standalone page does not embed the history")
	}
	got, err := history.Parse([]byte(m[1]), "embedded")
	if err != nil || got.Probes[0].Name != "p</script>" || got.Points[0].Readings[0].Attention[0][0][1] != 0.7 {
		t.Errorf("the embedded history reads back as %+v, %v", got, err)
	}

	var buf bytes.Buffer
	if err := WriteForm(&buf, Form{HistoryURL: "/history.json"}); err != nil {
		t.Fatal(err)
	}
	if form := buf.String(); dataRe.MatchString(form) || !strings.Contains(form, `"src":"/history.json"`) {
		t.Error("the served page should name /history.json and embed nothing")
	}
	if plain := render(t, res, Options{}); strings.Contains(plain, `id="history"`) {
		t.Error("a page without a history has a playback section")
	}
}

// The explanation views: the rollout (a row per layer) and its definition
// on every page; the attribution when the answer was attributed; the heads
// knocked out; and, on a served page, the ablation boxes and a twin's
// aligned rows.
func TestExplanationViews(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry")
	c := model.Config()
	plain := render(t, res, Options{})
	if got := strings.Count(plain, `<tr data-l=`); got != c.Layers || !strings.Contains(plain, `id="rollout-rule"`) || strings.Contains(plain, `id="attribution"`) {
		t.Errorf("%d rollout rows (want %d), the rule shown %v, an attribution drawn %v before Attribute",
			got, c.Layers, strings.Contains(plain, `id="rollout-rule"`), strings.Contains(plain, `id="attribution"`))
	}
	if err := model.Attribute(&res.Predictions[0]); err != nil {
		t.Fatal(err)
	}
	res.Ablated = []string{"L1H2"}
	page := render(t, res, Options{})
	ig := res.Predictions[0].Attribution.IntegratedGradients
	if !strings.Contains(page, `id="attribution"`) || !strings.Contains(html.UnescapeString(page), ">"+signed(ig[1])+"</td>") ||
		!strings.Contains(page, "Heads knocked out:</strong> L1H2.") {
		t.Errorf("the attributed, ablated page lacks the attribution (dog %s) or the knocked-out line", signed(ig[1]))
	}
	if steps := fmt.Sprintf("%d trapezoid steps).", res.Predictions[0].Attribution.Steps); !strings.Contains(page, steps) {
		t.Errorf("the attribution's legend does not give its steps (%q)", steps)
	}

	tw, err := model.Twins("A dog ate the food because it was hungry", "A dog ate the food because it was tasty")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteForm(&buf, Form{Sentence: "x", Twin: tw, ModelLayers: c.Layers, ModelHeads: c.Heads, Ablate: []string{"L2H1"}}); err != nil {
		t.Fatal(err)
	}
	form := buf.String()
	rows := regexp.MustCompile(`(?s)<table class="twin-table".*?</table>`).FindString(form)
	if got := strings.Count(rows, `<tr class="">`) + strings.Count(rows, `<tr class="differs">`); got != len(tw.Words) || strings.Count(rows, `<tr class="differs">`) != 1 {
		t.Errorf("the twin table has %d rows (%d differing), want %d and 1", got, strings.Count(rows, `<tr class="differs">`), len(tw.Words))
	}
	if got := strings.Count(form, `name="ablate"`); got != c.Layers*c.Heads || !strings.Contains(form, `value="L2H1" checked`) {
		t.Errorf("%d ablation boxes, L2H1 checked %v; want %d", got, strings.Contains(form, `value="L2H1" checked`), c.Layers*c.Heads)
	}
}

// The page says which contractions were read as their words and which words
// were read as <unk>, for the sentence and, in a twin view, for the second.
func TestPageSaysHowTheSentenceWasRead(t *testing.T) {
	page := html.UnescapeString(render(t, resolve(t, "The dog didn't eat the zorblax because it's hungry"), Options{}))
	for _, want := range []string{`<p class="read-as">Read <q>it's</q> as <q>it is</q>: `,
		`read as <unk>: <q>zorblax</q> (the words it knows are listed at the foot of the page)</p>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if plain := render(t, resolve(t, "A dog ate the food because it was hungry"), Options{}); strings.Contains(plain, `<p class="read-as">`) {
		t.Error("a sentence read as written has a contraction note")
	}
	tw, err := model.Twins("A dog ate the food because it was hungry", "A dog ate the food because it's tasty")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteForm(&buf, Form{Sentence: "x", Twin: tw}); err != nil {
		t.Fatal(err)
	}
	twin := regexp.MustCompile(`(?s)<section class="twin".*?</section>`).FindString(html.UnescapeString(buf.String()))
	if !strings.Contains(twin, `In the second sentence: <p class="read-as">Read <q>it's</q> as <q>it is</q>`) {
		t.Errorf("the twin view does not say how the second sentence was read:\n%s", twin)
	}
}

// A word read as its relative is labelled as typed everywhere on the page:
// the answer (with what it was read as), the candidates, the head views,
// the heatmaps, the rollout and attribution tables, the data the script
// redraws from, and a twin's rows; a label's tooltip says what it was read
// as. The reading note still says it.
func TestPageShowsTheWordsTyped(t *testing.T) {
	res := resolve(t, "The puppy ate the food because it was famished")
	if err := model.Attribute(&res.Predictions[0]); err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(render(t, res, Options{}))
	p := res.Predictions[0]
	for _, want := range []string{
		`<strong class="answer-word">puppy</strong> <span class="prob">` + percent(p.WordProbs[p.Answer]) + `</span> <span class="read-as-word">read as <q>dog</q></span></p>`,
		`<span class="bar-word" title="word 2">puppy</span>`,
		`>puppy<title>puppy (read as "dog")</title></text>`,
		`title="famished (read as "hungry")"><span>famished</span></th>`,
		`<h2>Which words decided <q>puppy</q></h2>`,
		`the strongest attention goes to "puppy" (`,
		`<p class="read-as">Read <q>puppy</q> as <q>dog</q> (WordNet: a kind of)`,
		`"words":["the","puppy","ate","the","food","because","it","was","famished","."]`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	views := page[strings.Index(page, `<section class="controls"`):] // after the answer and the reading notes
	for _, read := range []string{">dog<", ">hungry<", "→ dog", "→ hungry"} {
		if strings.Contains(views, read) {
			t.Errorf("the page labels a word as read: %q", read)
		}
	}
	tw, err := model.Twins("The puppy ate the food because it was hungry", "The dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteForm(&buf, Form{Sentence: "x", Twin: tw}); err != nil {
		t.Fatal(err)
	}
	twin := regexp.MustCompile(`(?s)<section class="twin".*?</section>`).FindString(html.UnescapeString(buf.String()))
	if !strings.Contains(twin, `<tr class="differs"><td class="w">puppy</td><td class="w">dog</td>`) {
		t.Errorf("the twin view does not set puppy against dog:\n%s", twin)
	}
}

// A resolution whose words typed are not one per token is refused, not
// drawn with a label missing.
func TestTypedWordsMustMatchTheTokens(t *testing.T) {
	res := *resolve(t, "A dog ate the food because it was hungry")
	res.Typed = res.Typed[:3]
	if err := WritePage(&bytes.Buffer{}, &res, Options{}); err == nil || !strings.Contains(err.Error(), "3 words typed for 10 tokens") {
		t.Errorf("WritePage with 3 words typed for 10 tokens: %v", err)
	}
}

// The page says, next to the head views, what knocking out the ★ head does
// to the answer, in inference's words, once KnockOut has run.
func TestKnockoutLine(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry")
	if page := render(t, res, Options{}); strings.Contains(page, `id="knockout"`) {
		t.Error("a knockout line before KnockOut ran")
	}
	p := &res.Predictions[0]
	if err := model.KnockOut(p); err != nil {
		t.Fatal(err)
	}
	want := "K" + strings.TrimPrefix(p.Knockout.Describe(p.TypedAnswer), "k") + "."
	page := html.UnescapeString(render(t, res, Options{}))
	line := regexp.MustCompile(`<p class="knockout" id="knockout">.*?</p>`).FindString(page)
	if !strings.Contains(line, want) {
		t.Errorf("knockout line %q, want it to say %q", line, want)
	}
	if strings.Index(page, `id="knockout"`) > strings.Index(page, `class="headviews"`) {
		t.Error("the knockout line comes after the head views, not beside their summary")
	}
}

// The members' votes stand under the answer, and the words the model knows
// at the page's foot, when given.
func TestMembersAndWords(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry")
	res.Predictions[0].Confidence.Members = &inference.Agreement{Members: 2, Agree: 2, Shown: 1,
		Votes: []inference.Vote{{Member: 1, Answer: "dog", Typed: "dog", Share: 1}, {Member: 2, Answer: "dog", Typed: "dog", Share: 0.9}}}
	html := render(t, res, Options{Words: []string{"dog", "food"}})
	for _, want := range []string{
		`<p class="members" id="members-0">Models: 2 of 2 models trained alike say &#34;dog&#34; (1: dog 100.0%, 2: dog 90.0%); what is shown is model 1&#39;s.</p>`,
		`<summary>The 2 words this model knows</summary><p>dog, food</p>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	res.Predictions[0].Confidence.Members = nil
	if html := render(t, res, Options{}); strings.Contains(html, `id="vocab"`) || strings.Contains(html, `class="members"`) {
		t.Error("a page without words or members shows them")
	}
}

// A character that reorders the text around it (U+202E, right-to-left
// override) is shown by name wherever the sentence goes, never raw: the page
// had displayed everything after it reversed.
func TestBidiControlsAreNamed(t *testing.T) {
	res := resolve(t, "A dog ate the food because it was hungry \u202e evil")
	html := render(t, res, Options{})
	if strings.ContainsRune(html, '\u202e') || !strings.Contains(html, "<q>A dog ate the food because it was hungry [U+202E] evil</q>") {
		t.Errorf("U+202E raw %d times; the sentence as shown: %v", strings.Count(html, "\u202e"), strings.Contains(html, "[U+202E]"))
	}
}
