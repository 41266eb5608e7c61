package viz

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/inference"
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
	views := headViews(html)
	if len(views) != 4 {
		t.Fatalf("%d head views, want 2 layers x 2 heads", len(views))
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
	if got := strings.Count(html, `<td class="cell`); got != 4*n*n {
		t.Errorf("%d heatmap cells, want 4 heads x %d x %d", got, n, n)
	}
	// The supervised head (layer 2, head 1) is marked and selected first, and
	// its line from "it" to "dog" is the thickest line there can be.
	if !regexp.MustCompile(`<figure class="hv selected supervised" id="hv-1-0"`).MatchString(html) {
		t.Error("layer 2, head 1 is not marked and selected")
	}
	if !regexp.MustCompile(`<line class="attn" data-j="1" x1="[0-9.]+" y1="[0-9.]+" x2="[0-9.]+" y2="[0-9.]+" stroke-width="9.00" stroke-opacity="1.000"><title>it → dog: 100.0%</title>`).MatchString(views[2]) {
		t.Errorf("in layer 2, head 1 the line from it to dog is not full width:\n%s", views[2])
	}
	if strings.Count(html, "<figure class=\"hm\"") != 4 || strings.Count(html, " hidden>") != 3 {
		t.Error("want 4 heatmaps, all but the selected one hidden")
	}
	if !strings.Contains(html, `In layer 2, head 1, the strongest attention goes to &#34;dog&#34; (100.0%).`) {
		t.Error("no summary of the selected head")
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
	if strings.Join(d.Tokens, " ") != strings.Join(res.Tokens, " ") || d.Word != 6 || d.Layer != 1 || d.Head != 0 ||
		len(d.Attention) != 2 || len(d.Attention[1][0][6]) != len(res.Tokens) {
		t.Fatalf("unexpected data %+v", d)
	}
	if w := d.Attention[1][0][6][4]; w < 0.99 {
		t.Errorf(`layer 2 head 1: "it" gives "food" %v, want about 1`, w)
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
	html = render(t, res, Options{Layer: 9, Head: -1, Word: 99})
	if !strings.Contains(html, `id="hv-1-0"`) || !strings.Contains(html, `<option value="6" selected>it (pronoun)</option>`) {
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
