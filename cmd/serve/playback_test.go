package main

// The playback of attention as it was learned, in the browser: the served
// page (which fetches /history.json) and the standalone page of infer -html
// (which embeds it) draw what the history says, at the point the slider or
// the play button picks.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"itformer/cmd/internal/viz"
	"itformer/history"
)

// playbackState is what the test reads back from the playback section.
type playbackState struct {
	Ready    string      `json:"ready"`
	Status   string      `json:"status"`
	Probes   int         `json:"probes"`
	Probe    string      `json:"probe"`
	Max      string      `json:"max"`
	Value    string      `json:"value"`
	Label    string      `json:"label"`
	Columns  []string    `json:"columns"`    // the grid's words
	Marked   []string    `json:"marked"`     // the columns marked as the antecedent
	RowNames []string    `json:"row_names"`  // L1 H1 ...
	Cells    [][]string  `json:"cells"`      // per row, the cells' text
	Alpha    [][]float64 `json:"alpha"`      // per row, the cells' background alpha
	Answer   string      `json:"answer"`     // the line under the chart
	Play     string      `json:"play"`       // the button's text
	Pressed  string      `json:"pressed"`    // its aria-pressed
	Series   []int       `json:"series"`     // points in each polyline
	DotY     string      `json:"dot_y"`      // the current point's dot
	CursorX  string      `json:"cursor_x"`   // the cursor line
	GridSeen float64     `json:"grid_width"` // the grid's rendered width
}

const readPlayback = `(() => {
  const q = s => document.querySelector(s), qa = s => Array.from(document.querySelectorAll(s));
  const sec = q('#history');
  const alpha = td => { const m = td.style.backgroundColor.match(/rgba?\(([^)]*)\)/); if (!m) return -1; const p = m[1].split(','); return p.length > 3 ? +p[3] : 1; };
  return {
    ready: sec ? (sec.dataset.ready || '') : '',
    status: q('#history-status') ? q('#history-status').textContent : '',
    probes: qa('#probe option').length,
    probe: q('#probe') ? q('#probe').value : '',
    max: q('#epoch') ? q('#epoch').max : '',
    value: q('#epoch') ? q('#epoch').value : '',
    label: q('#epoch-label') ? q('#epoch-label').textContent : '',
    columns: qa('#history-grid thead th.col').map(th => th.textContent),
    marked: qa('#history-grid thead th.col.antecedent').map(th => th.textContent),
    row_names: qa('#history-grid tbody th.rowh').map(th => th.textContent),
    cells: qa('#history-grid tbody tr').map(tr => Array.from(tr.querySelectorAll('td.score')).map(td => td.textContent)),
    alpha: qa('#history-grid tbody tr').map(tr => Array.from(tr.querySelectorAll('td.score')).map(alpha)),
    answer: q('#history-answer') ? q('#history-answer').textContent : '',
    play: q('#play') ? q('#play').textContent : '',
    pressed: q('#play') ? q('#play').getAttribute('aria-pressed') : '',
    series: qa('#history-chart polyline').map(p => p.points.numberOfItems),
    dot_y: q('#history-dot') ? q('#history-dot').getAttribute('cy') : '',
    cursor_x: q('#history-cursor') ? q('#history-cursor').getAttribute('x1') : '',
    grid_width: q('#history-grid') ? q('#history-grid').getBoundingClientRect().width : 0,
  };
})()`

func TestBrowserPlayback(t *testing.T) {
	h := playbackHistory(t)
	ts := testServerWith(t, h, nil)
	br := startBrowser(t)
	read := func(step string) playbackState {
		t.Helper()
		var s playbackState
		br.eval(step, readPlayback, &s)
		return s
	}
	last := len(h.Points) - 1
	// The playback opens where the served weights were saved: the
	// checkpoint's epoch, which may come before the run's last.
	at := last
	for i, p := range h.Points {
		if p.Step > 0 && p.Epoch == float64(shared.Checkpoint().Meta.Epoch) {
			at = i
		}
	}

	br.Do("open the page", chromedp.EmulateViewport(1200, 900), chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(`#history[data-ready="true"] #history-grid td.score`, chromedp.ByQuery))
	s := read("served page")
	if s.Probes != len(h.Probes) || s.Max != fmt.Sprint(last) || s.Value != fmt.Sprint(at) || s.GridSeen < 100 {
		t.Errorf("%d probes, slider max %s at %s, grid %.0f px wide; want %d probes, the slider at the model's epoch, %d of %d", s.Probes, s.Max, s.Value, s.GridSeen, len(h.Probes), at, last)
	}
	checkDrawn(t, "the model's point", s, h, 0, at)
	if want := fmt.Sprintf("epoch %d, step %d (end of the epoch this model was saved at)", shared.Checkpoint().Meta.Epoch, h.Points[at].Step); at != last && !strings.HasPrefix(s.Label, want) {
		t.Errorf("label %q at the model's point, want %q", s.Label, want)
	}

	// The slider's first position is the untrained model.
	setSlider(br, 0)
	s = read("slider at 0")
	if !strings.HasPrefix(s.Label, "before training,") {
		t.Errorf("label %q at the first point", s.Label)
	}
	checkDrawn(t, "the first point", s, h, 0, 0)

	// Another sentence: the mission's twin, whose answer is "food".
	br.eval("pick the twin", `(() => { const p = document.getElementById("probe"); p.value = "1"; p.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
	setSlider(br, 2)
	s = read("the twin at point 2")
	checkDrawn(t, "the twin", s, h, 1, 2)

	// Play moves the slider on by itself and redraws; Pause stops it.
	setSlider(br, 0)
	br.Do("play", chromedp.Click("#play", chromedp.ByID))
	deadline := time.Now().Add(20 * time.Second)
	for s = read("playing"); s.Value == "0" && time.Now().Before(deadline); s = read("playing") {
		time.Sleep(100 * time.Millisecond)
	}
	if s.Value == "0" || s.Pressed != "true" || !strings.Contains(s.Play, "Pause") {
		t.Fatalf("after Play the slider is at %s, the button %q (pressed %s); want it moving and the button saying Pause", s.Value, s.Play, s.Pressed)
	}
	br.Do("pause", chromedp.Click("#play", chromedp.ByID))
	paused := read("paused")
	time.Sleep(1500 * time.Millisecond)
	s = read("still paused")
	if s.Value != paused.Value || s.Pressed != "false" || !strings.Contains(s.Play, "Play") {
		t.Errorf("after Pause the slider went from %s to %s; button %q (pressed %s)", paused.Value, s.Value, s.Play, s.Pressed)
	}
	var left int
	fmt.Sscan(s.Value, &left)
	checkDrawn(t, "where Pause left it", s, h, 1, left)

	// infer -html's page embeds the history and plays it from a file.
	res, err := shared.Resolve("A dog ate the food because it was hungry")
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "attention.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := viz.WritePage(f, res, viz.Options{History: h}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	br.Do("open the standalone page", chromedp.Navigate("file://"+page),
		chromedp.WaitVisible(`#history[data-ready="true"] #history-grid td.score`, chromedp.ByQuery))
	setSlider(br, 1)
	checkDrawn(t, "the standalone page", read("standalone"), h, 0, 1)

	// A model without a history: the section says so.
	bare := testServerWith(t, nil, os.ErrNotExist)
	br.Do("open a page without history", chromedp.Navigate(bare.URL+"/"),
		chromedp.WaitVisible(`#history[data-ready="false"]`, chromedp.ByQuery))
	if s = read("no history"); !strings.Contains(s.Status, "no training history") || len(s.Cells) != 0 {
		t.Errorf("without a history: status %q, %d grid rows", s.Status, len(s.Cells))
	}
}

// setSlider moves the slider as a user does: value, then an input event.
func setSlider(br *browser, i int) {
	br.T.Helper()
	br.eval(fmt.Sprintf("slider to %d", i), fmt.Sprintf(`(() => { const e = document.getElementById("epoch"); e.value = "%d"; e.dispatchEvent(new Event("input", {bubbles: true})); })()`, i), nil)
}

// checkDrawn compares the playback with the history's numbers for probe p
// at point i: the words, the marked antecedent, one row per layer and head
// with each cell's percent and shade, the label, the chart and the answer line.
func checkDrawn(t *testing.T, what string, s playbackState, h *history.History, p, i int) {
	t.Helper()
	pr, pt := h.Probes[p], h.Points[i]
	r := pt.Readings[p]
	if s.Probe != fmt.Sprint(p) || s.Value != fmt.Sprint(i) {
		t.Errorf("%s: probe %s at point %s, want %d at %d", what, s.Probe, s.Value, p, i)
	}
	if fmt.Sprint(s.Columns) != fmt.Sprint(pr.Tokens) || fmt.Sprint(s.Marked) != fmt.Sprint([]string{pr.Tokens[pr.Antecedent]}) {
		t.Errorf("%s: columns %q marked %q, want %q marked %q", what, s.Columns, s.Marked, pr.Tokens, pr.Tokens[pr.Antecedent])
	}
	if len(s.Cells) != h.Layers*h.Heads {
		t.Fatalf("%s: %d rows, want %d (layers x heads)", what, len(s.Cells), h.Layers*h.Heads)
	}
	for l := range h.Layers {
		for hd := range h.Heads {
			k := l*h.Heads + hd
			name := fmt.Sprintf("L%d H%d", l+1, hd+1)
			if l == h.SupervisedLayer && hd == h.SupervisedHead {
				name += " ★"
			}
			var text []string
			shaded := len(s.Alpha[k]) == len(pr.Tokens)
			for j, w := range r.Attention[l][hd] {
				text = append(text, cellText(w))
				// The browser keeps a colour's alpha in 8 bits and reads it
				// back with as few decimals as that byte needs: within 0.006.
				shaded = shaded && math.Abs(s.Alpha[k][j]-w) <= 0.006
			}
			if s.RowNames[k] != name || fmt.Sprint(s.Cells[k]) != fmt.Sprint(text) || !shaded {
				t.Errorf("%s: row %q draws %q shaded %v; the history says %s %q shaded %v", what, s.RowNames[k], s.Cells[k], s.Alpha[k], name, text, r.Attention[l][hd])
			}
		}
	}
	ans := pr.AnswerProbability(r)
	if want := fmt.Sprintf("P(%s) = %.1f%%", pr.Tokens[pr.Antecedent], 100*ans); !strings.HasPrefix(s.Answer, want) {
		t.Errorf("%s: answer line %q, want it to start %q", what, s.Answer, want)
	}
	step := fmt.Sprintf("epoch %d, step %d", int(math.Ceil(pt.Epoch)), pt.Step) // the epoch under way, as whole numbers
	if want := fmt.Sprintf("%d of %d", i+1, len(h.Points)); !strings.HasSuffix(s.Label, want) || (pt.Step > 0 && !strings.HasPrefix(s.Label, step)) {
		t.Errorf("%s: label %q, want %q and %q", what, s.Label, step, want)
	}
	// The chart: 130 px of height for 0..1, from y = 140 up; points evenly spaced from x = 34 to 370.
	wantY, wantX := fmt.Sprintf("%.1f", 140-130*ans), fmt.Sprintf("%.1f", 34+336*float64(i)/float64(max(len(h.Points)-1, 1)))
	if len(s.Series) == 0 || s.Series[0] != len(h.Points) || s.DotY != wantY || s.CursorX != wantX {
		t.Errorf("%s: chart series %v, dot at y %s, cursor at x %s; want %d points, %s, %s", what, s.Series, s.DotY, s.CursorX, len(h.Points), wantY, wantX)
	}
}

// cellText is the playback's cell number: whole percents (halves up, as
// JavaScript's Math.round), nothing under 0.5%.
func cellText(w float64) string {
	if w < 0.005 {
		return ""
	}
	return fmt.Sprint(math.Round(100 * w))
}
