package main

// The explanation controls in the browser: the rollout and attribution views
// drawn for a sentence, the head-ablation checkboxes and the twin sentence
// box, each checked against what package inference computes for the same
// input.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"itformer/inference"
	"itformer/model"
)

// explainState is what the test reads back from the explanation views.
type explainState struct {
	Answer      string     `json:"answer"`
	Error       string     `json:"error"`
	Rollout     [][]string `json:"rollout"`      // per layer, the cells' text
	RolloutRule string     `json:"rollout_rule"` // the definition on the page
	Attribution [][]string `json:"attribution"`  // integrated gradients, then gradient x input
	AttrRows    []string   `json:"attr_rows"`
	AttrRule    string     `json:"attr_rule"`
	Ablated     string     `json:"ablated"` // the "Heads knocked out" line
	Checked     []string   `json:"checked"` // the checked ablation boxes
	Boxes       int        `json:"boxes"`
	TwinAnswers []string   `json:"twin_answers"`
	TwinRows    [][]string `json:"twin_rows"` // every aligned row's cells' text
	Differs     []int      `json:"differs"`   // indices of the rows marked as differing
	Changed     int        `json:"changed"`   // cells marked as a large change
	TwinSummary string     `json:"twin_summary"`
}

const readExplain = `(() => {
  const q = s => document.querySelector(s), qa = s => Array.from(document.querySelectorAll(s));
  const texts = tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent);
  const rows = qa('#twin-table tbody tr');
  return {
    answer: q('.answer-word') ? q('.answer-word').textContent : '',
    error: q('#error') ? q('#error').textContent : '',
    rollout: qa('#rollout tbody tr').map(texts),
    rollout_rule: q('#rollout-rule') ? q('#rollout-rule').textContent : '',
    attribution: qa('#attribution tbody tr').map(texts),
    attr_rows: qa('#attribution tbody th.rowh').map(th => th.textContent),
    attr_rule: q('#attribution-rule') ? q('#attribution-rule').textContent : '',
    ablated: q('#ablated') ? q('#ablated').textContent : '',
    checked: qa('#ablate input:checked').map(i => i.value),
    boxes: qa('#ablate input[type=checkbox]').length,
    twin_answers: qa('.twin-verdict .answer-word').map(e => e.textContent),
    twin_rows: rows.map(texts),
    differs: rows.map((r, i) => r.classList.contains('differs') ? i : -1).filter(i => i >= 0),
    changed: qa('#twin-table td.changed').length,
    twin_summary: q('#twin-summary') ? q('#twin-summary').textContent : '',
  };
})()`

func TestBrowserExplanations(t *testing.T) {
	ts := testServer(t)
	br := startBrowser(t)
	read := func(step string) explainState {
		t.Helper()
		var s explainState
		br.eval(step, readExplain, &s)
		return s
	}
	// submit fills both boxes and the checkboxes, then sends the form.
	submit := func(sentence, twin string, knock ...string) {
		t.Helper()
		br.eval("fill the form", fmt.Sprintf(`(() => {
			document.getElementById("sentence").value = %q;
			document.getElementById("twin").value = %q;
			const knock = %q.split(",").filter(s => s);
			for (const b of document.querySelectorAll("#ablate input")) { b.checked = knock.includes(b.value); }
		})()`, sentence, twin, strings.Join(knock, ",")), nil)
		if _, err := chromedp.RunResponse(br.Ctx, chromedp.Click("#go", chromedp.ByID)); err != nil {
			t.Fatalf("submit %q: %v", sentence, err)
		}
		br.Do("wait for the answer", chromedp.WaitReady("#result, #error", chromedp.ByQuery))
	}
	const mission, twin = "A dog ate the food because it was hungry", "A dog ate the food because it was tasty"
	c := shared.Config()

	br.Do("open the page", chromedp.EmulateViewport(1200, 900), chromedp.Navigate(ts.URL+"/"))
	submit(mission, "")
	s := read("mission")
	res, err := shared.Resolve(mission)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Predictions[0]
	if err := shared.Attribute(&p); err != nil {
		t.Fatal(err)
	}
	if s.Boxes != c.Layers*c.Heads || len(s.Checked) != 0 || s.Ablated != "" {
		t.Errorf("%d ablation boxes (%v checked), ablated line %q; want %d, none", s.Boxes, s.Checked, s.Ablated, c.Layers*c.Heads)
	}

	// Rollout: a row per layer, each cell the percent of inference's rollout.
	if len(s.Rollout) != c.Layers {
		t.Fatalf("%d rollout rows, want %d", len(s.Rollout), c.Layers)
	}
	for l, row := range p.Rollout {
		var want []string
		for _, w := range row {
			want = append(want, viewPercent(w))
		}
		if fmt.Sprint(s.Rollout[l]) != fmt.Sprint(want) {
			t.Errorf("rollout row %d draws %q, inference says %q", l+1, s.Rollout[l], want)
		}
	}
	if !strings.Contains(s.RolloutRule, inference.RolloutRule) {
		t.Errorf("the rollout's definition on the page is %q", s.RolloutRule)
	}

	// Attribution: integrated gradients and gradient x input, word by word.
	a := p.Attribution
	for k, vals := range [][]float64{a.IntegratedGradients, a.GradientXInput} {
		var want []string
		for _, x := range vals {
			want = append(want, signed(x))
		}
		if k >= len(s.Attribution) || fmt.Sprint(s.Attribution[k]) != fmt.Sprint(want) {
			t.Errorf("attribution rows %q draw %q, inference says row %d is %q", s.AttrRows, s.Attribution, k, want)
		}
	}
	if !strings.Contains(s.AttrRule, inference.AttributionRule) {
		t.Errorf("the attribution's definition on the page is %q", s.AttrRule)
	}

	// Knocking out the supervised head: the answer is the ablated model's,
	// the page says which heads are out and what the whole model answers.
	sl, sh, _ := shared.SupervisedHead()
	sup := model.Head{Layer: sl, Head: sh}
	submit(mission, "", sup.String())
	s = read("ablated")
	ab := inference.New(shared.Checkpoint())
	if err := ab.Ablate([]model.Head{sup}); err != nil {
		t.Fatal(err)
	}
	ares, err := ab.Resolve(mission)
	if err != nil {
		t.Fatal(err)
	}
	ap := ares.Predictions[0]
	wantWhole := fmt.Sprintf("The whole model answers %q (%.1f%%).", p.AnswerWord, 100*p.WordProbs[p.Answer])
	if s.Answer != ap.AnswerWord || fmt.Sprint(s.Checked) != fmt.Sprint([]string{sup.String()}) ||
		!strings.Contains(s.Ablated, "Heads knocked out: "+sup.String()) || !strings.Contains(s.Ablated, wantWhole) {
		t.Errorf("with %s out: answer %q (inference: %q), boxes %v, line %q; want the line to say %q", sup, s.Answer, ap.AnswerWord, s.Checked, s.Ablated, wantWhole)
	}
	var rolloutAblated []string
	for _, w := range ap.Rollout[len(ap.Rollout)-1] {
		rolloutAblated = append(rolloutAblated, viewPercent(w))
	}
	if fmt.Sprint(s.Rollout[len(s.Rollout)-1]) != fmt.Sprint(rolloutAblated) {
		t.Errorf("with %s out the rollout draws %q, inference says %q", sup, s.Rollout[len(s.Rollout)-1], rolloutAblated)
	}

	// The twin sentence: both answers, and the words aligned with the one
	// that differs marked.
	submit(mission, twin)
	s = read("twins")
	tw, err := shared.Twins(mission, twin)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.TwinAnswers) != fmt.Sprint([]string{"dog", "food"}) || !strings.HasPrefix(s.TwinSummary, "The answer changed") {
		t.Errorf("twin answers %q, summary %q; want dog and food, changed", s.TwinAnswers, s.TwinSummary)
	}
	if len(s.TwinRows) != len(tw.Words) {
		t.Fatalf("%d aligned rows, inference aligns %d", len(s.TwinRows), len(tw.Words))
	}
	var differs []int
	for i, w := range tw.Words {
		if w.Differs {
			differs = append(differs, i)
		}
		wantA, wantB := word(tw.A.Predictions[0], w.A), word(tw.B.Predictions[0], w.B)
		change := signed(w.ProbabilityChange)
		if row := s.TwinRows[i]; len(row) < 5 || row[0] != wantA || row[1] != wantB || row[4] != change {
			t.Errorf("aligned row %d is %q; inference: %q / %q, P change %s", i, row, wantA, wantB, change)
		}
	}
	if fmt.Sprint(s.Differs) != fmt.Sprint(differs) || len(differs) == 0 || s.Changed == 0 {
		t.Errorf("rows %v marked as differing, inference says %v; %d changes marked", s.Differs, differs, s.Changed)
	}
	if i := differs[0]; s.TwinRows[i][0] != "hungry" || s.TwinRows[i][1] != "tasty" {
		t.Errorf("the differing row is %q, want hungry / tasty", s.TwinRows[i][:2])
	}
	var png []byte
	br.Do("screenshot", chromedp.FullScreenshot(&png, 100))
	path := filepath.Join(t.TempDir(), "explain.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// signed is an attribution cell's or a change's text: sign and 2 decimals,
// 0.00 for what rounds to zero.
func signed(x float64) string {
	if math.Abs(x) < 0.005 {
		return "0.00"
	}
	return fmt.Sprintf("%+.2f", x)
}

// viewPercent is the rollout cell's text: whole percents, nothing under 0.5%.
func viewPercent(w float64) string {
	if w < 0.005 {
		return ""
	}
	return fmt.Sprintf("%.0f", 100*w)
}

func word(p inference.Prediction, i int) string {
	if i < 0 {
		return ""
	}
	return p.Tokens[i]
}
