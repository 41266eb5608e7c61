package main

// The page in a real browser: Debian's chromium, headless, driven by chromedp
// against the handler served on loopback.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"itformer/inference"
)

// noChromium is the one line a run without chromium prints.
const noChromium = "cmd/serve: TestBrowser skipped: no chromium on PATH; install it (apt-get install chromium) to test the page in a browser"

var noChromiumOnce sync.Once

// findChromium finds chromium on PATH (Debian's is /usr/bin/chromium). Without
// it the test fails in CI, where .ci/run installs it, and is skipped elsewhere,
// with a line the person running the tests sees.
func findChromium(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	switch {
	case err == nil:
		return path
	case os.Getenv("CI") != "":
		t.Fatalf("no chromium on PATH; .ci/run should have installed it (apt-get install -y --no-install-recommends chromium)")
	}
	noChromiumOnce.Do(func() { tell(noChromium) })
	t.Skip("no chromium on PATH")
	return ""
}

// tell writes line to the terminal. go test ./... shows nothing of a passing
// package's output, stderr included (a skip passes), unless -v; the
// terminal is the one place the line is seen. Without one, stderr (-v shows it).
func tell(line string) {
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		fmt.Fprintln(tty, line)
		return
	}
	fmt.Fprintln(os.Stderr, line)
}

// pageState is what the test reads back from the page after each step.
type pageState struct {
	Answer        string   `json:"answer"`
	Error         string   `json:"error"`
	HeadViews     int      `json:"head_views"`
	Lines         []int    `json:"lines"` // per head view
	Cells         int      `json:"cells"`
	VisibleCells  int      `json:"visible_cells"`
	Heatmaps      []string `json:"heatmaps"` // ids of the visible heatmaps
	Selected      []string `json:"selected"` // ids of the selected head views
	Summary       string   `json:"summary"`
	Layer         string   `json:"layer"`
	Head          string   `json:"head"`
	Word          string   `json:"word"`
	ChosenRows    []string `json:"chosen_rows"`   // data-i of the heatmap rows marked chosen
	Y1            []string `json:"y1"`            // every line's start, in every head view
	DogWidth      float64  `json:"dog_width"`     // layer 2 head 1, the line to word 2
	MaxOtherWidth float64  `json:"other_width"`   // layer 2 head 1, the thickest other line
	ViewWidth     float64  `json:"view_width"`    // the first head view's rendered width
	HeatmapWidth  float64  `json:"heatmap_width"` // the visible heatmap's rendered width
	Verdict       string   `json:"verdict"`       // the first answer's line
	Guess         string   `json:"guess"`         // the text of the first answer's guess notice
	GuessShown    bool     `json:"guess_shown"`   // the notice is laid out, visible and at least a line high
	GuessAbove    bool     `json:"guess_above"`   // the notice ends above the candidates' bars begin
}

const readState = `(() => {
  const q = s => document.querySelector(s), qa = s => Array.from(document.querySelectorAll(s));
  const lines = qa('#hv-1-0 line.attn');
  const width = l => +l.getAttribute('stroke-width');
  const hm = qa('figure.hm').filter(f => !f.hidden);
  const guess = q('.guess');
  return {
    answer: q('.answer-word') ? q('.answer-word').textContent : '',
    error: q('#error') ? q('#error').textContent : '',
    head_views: qa('svg.headview').length,
    lines: qa('svg.headview').map(s => s.querySelectorAll('line.attn').length),
    cells: qa('table.heatmap td.cell').length,
    visible_cells: hm.reduce((n, f) => n + f.querySelectorAll('td.cell').length, 0),
    heatmaps: hm.map(f => f.id),
    selected: qa('figure.hv.selected').map(f => f.id),
    summary: q('#summary') ? q('#summary').textContent : '',
    layer: q('#layer') ? q('#layer').value : '',
    head: q('#head') ? q('#head').value : '',
    word: q('#word') ? q('#word').value : '',
    chosen_rows: qa('figure.hm:not([hidden]) tr.chosen').map(r => r.dataset.i),
    y1: Array.from(new Set(qa('line.attn').map(l => l.getAttribute('y1')))),
    dog_width: lines.length > 1 ? width(lines[1]) : 0,
    other_width: Math.max(0, ...lines.filter((l, j) => j !== 1).map(width)),
    view_width: qa('svg.headview').length ? qa('svg.headview')[0].getBoundingClientRect().width : 0,
    heatmap_width: hm.length ? hm[0].getBoundingClientRect().width : 0,
    verdict: q('.verdict') ? q('.verdict').textContent : '',
    guess: guess ? guess.textContent : '',
    guess_shown: !!guess && guess.getBoundingClientRect().height >= 20 && getComputedStyle(guess).visibility === 'visible',
    guess_above: !!guess && guess.getBoundingClientRect().bottom <= q('.bars').getBoundingClientRect().top,
  };
})()`

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test starts chromium; skipped with -short")
	}
	chromium := findChromium(t)
	ts := testServer(t) // httptest: 127.0.0.1 only
	start := time.Now()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox, // the tests may run as root
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(profileDir(t)),
		chromedp.WindowSize(1200, 900),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	var logMu sync.Mutex
	var browserLog []string
	var exceptions int
	logf := func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		browserLog = append(browserLog, fmt.Sprintf(format, args...))
	}
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithErrorf(logf))
	defer cancelBrowser()
	defer func() {
		logMu.Lock()
		defer logMu.Unlock()
		for _, l := range browserLog {
			t.Log("chromedp:", l)
		}
	}()
	// Every JavaScript exception on the page fails the test.
	chromedp.ListenTarget(bctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			logf("JavaScript exception: %s", e.ExceptionDetails.Error())
			logMu.Lock()
			exceptions++
			logMu.Unlock()
		}
	})

	state := func(step string) pageState {
		t.Helper()
		var s pageState
		if err := chromedp.Run(bctx, chromedp.Evaluate(readState, &s)); err != nil {
			t.Fatalf("%s: reading the page: %v", step, err)
		}
		logMu.Lock()
		defer logMu.Unlock()
		if exceptions > 0 {
			t.Fatalf("%s: a JavaScript exception on the page (see the chromedp log below)", step)
		}
		return s
	}
	do := func(step string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(bctx, actions...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	// ask types a sentence into the page's input and submits it, then waits
	// for the next page to load.
	ask := func(sentence string) {
		t.Helper()
		do("type "+sentence,
			chromedp.WaitVisible("#sentence", chromedp.ByID),
			chromedp.Evaluate(`document.getElementById("sentence").value = ""`, nil),
			chromedp.SendKeys("#sentence", sentence, chromedp.ByID),
		)
		resp, err := chromedp.RunResponse(bctx, chromedp.Click("#go", chromedp.ByID))
		if err != nil {
			t.Fatalf("submit %q: %v", sentence, err)
		}
		t.Logf("%q: HTTP %d", sentence, resp.Status)
		do("wait for the answer to "+sentence, chromedp.WaitReady("#result, #error", chromedp.ByQuery))
	}

	// The mission sentence, typed into the empty form.
	do("open the page", chromedp.EmulateViewport(1200, 900), chromedp.Navigate(ts.URL+"/"))
	ask("A dog ate the food because it was hungry")
	s := state("mission sentence")
	const n = 9 // words of the mission sentence
	if s.Answer != "dog" {
		t.Errorf("answer %q, want dog (error %q)", s.Answer, s.Error)
	}
	if s.HeadViews != 4 || fmt.Sprint(s.Lines) != "[9 9 9 9]" {
		t.Errorf("%d head views with %v lines, want 4 with %d each", s.HeadViews, s.Lines, n)
	}
	if s.Cells != 4*n*n || s.VisibleCells != n*n {
		t.Errorf("%d heatmap cells (%d shown), want %d (%d shown)", s.Cells, s.VisibleCells, 4*n*n, n*n)
	}
	if fmt.Sprint(s.Selected, s.Heatmaps) != "[hv-1-0] [hm-1-0]" || s.Layer != "2" || s.Head != "1" || s.Word != "6" {
		t.Errorf("first selection %v %v, layer %s head %s word %s; want layer 2, head 1 (the supervised one) and the pronoun", s.Selected, s.Heatmaps, s.Layer, s.Head, s.Word)
	}
	if s.DogWidth < 8 || s.MaxOtherWidth > 1 {
		t.Errorf("layer 2 head 1: the line to dog is %.2f px, the thickest other %.2f px; want dog's far thicker", s.DogWidth, s.MaxOtherWidth)
	}
	if s.ViewWidth < 100 || s.HeatmapWidth < 100 {
		t.Errorf("the pictures are not laid out: head view %.0f px, heatmap %.0f px wide", s.ViewWidth, s.HeatmapWidth)
	}
	if !strings.Contains(s.Summary, `layer 2, head 1, the strongest attention goes to "dog" (100.0%)`) {
		t.Errorf("summary %q", s.Summary)
	}
	if s.Guess != "" || !strings.Contains(s.Verdict, " refers to dog") {
		t.Errorf("the confident answer %q has a guess notice %q", s.Verdict, s.Guess)
	}
	var png []byte
	do("screenshot", chromedp.Evaluate(`document.activeElement.blur()`, nil), chromedp.FullScreenshot(&png, 100))
	saveScreenshot(t, png)

	// Clicking another head shows its heatmap.
	do("click layer 1 head 2", chromedp.Click("#hv-0-1 figcaption", chromedp.ByQuery))
	s = state("layer 1 head 2")
	if fmt.Sprint(s.Selected, s.Heatmaps) != "[hv-0-1] [hm-0-1]" || s.Layer != "1" || s.Head != "2" ||
		!strings.Contains(s.Summary, `layer 1, head 2, the strongest attention goes to "food"`) {
		t.Errorf("after clicking layer 1 head 2: %+v", s)
	}

	// So do the layer and head controls.
	do("pick layer 2 head 2", chromedp.Evaluate(`(() => {
		for (const [id, v] of [["layer", "2"], ["head", "2"]]) {
			const el = document.getElementById(id);
			el.value = v;
			el.dispatchEvent(new Event("change", {bubbles: true}));
		}
	})()`, nil))
	s = state("layer 2 head 2")
	if fmt.Sprint(s.Selected, s.Heatmaps) != "[hv-1-1] [hm-1-1]" || !strings.Contains(s.Summary, `layer 2, head 2, the strongest attention goes to "hungry"`) {
		t.Errorf("after picking layer 2 head 2: %+v", s)
	}

	// Clicking a word draws its lines, in every head view, and selects that view.
	do("click dog", chromedp.Click(`#hv-1-0 text.tok.left[data-i="1"]`, chromedp.ByQuery))
	s = state("dog chosen")
	if s.Word != "1" || fmt.Sprint(s.Y1) != "[44.0]" || fmt.Sprint(s.ChosenRows) != "[1]" || fmt.Sprint(s.Selected) != "[hv-1-0]" ||
		!strings.HasPrefix(s.Summary, "In layer 2, head 1,") {
		t.Errorf("after clicking dog: word %s, line starts %v, chosen rows %v, selected %v, summary %q", s.Word, s.Y1, s.ChosenRows, s.Selected, s.Summary)
	}

	// Back to layer 2 head 2; a new sentence keeps that selection.
	do("pick layer 2 head 2 again", chromedp.Click("#hv-1-1 figcaption", chromedp.ByQuery))
	ask("A dog ate the food because it was tasty")
	s = state("twin sentence")
	if s.Answer != "food" {
		t.Errorf("answer %q, want food (error %q)", s.Answer, s.Error)
	}
	if fmt.Sprint(s.Selected, s.Heatmaps) != "[hv-1-1] [hm-1-1]" || s.Word != "6" {
		t.Errorf("the new sentence did not keep layer 2 head 2, or did not choose its pronoun: %v %v word %s", s.Selected, s.Heatmaps, s.Word)
	}

	// A guess says so, above the candidates, with the reason Resolve gives.
	sentence, c := guessSentence(t)
	ask(sentence)
	s = state("a guess")
	if s.Guess != "This is a guess: "+c.Reason || !s.GuessShown || !s.GuessAbove || !strings.Contains(s.Verdict, " might refer to ") {
		t.Errorf("%q: answer %q, notice %q (shown %v, above the candidates %v); want the notice %q shown above the candidates",
			sentence, s.Verdict, s.Guess, s.GuessShown, s.GuessAbove, "This is a guess: "+c.Reason)
	}

	// Bad input shows its message on the page.
	ask("The dog ate the food")
	s = state("no pronoun")
	if !strings.Contains(s.Error, `no pronoun "it" to resolve`) || s.Answer != "" || s.HeadViews != 0 {
		t.Errorf("no pronoun: error %q, answer %q, %d head views", s.Error, s.Answer, s.HeadViews)
	}
	t.Logf("browser test took %v", time.Since(start).Round(time.Millisecond))
}

// guessSentences are sentences the served model should be unsure of: the
// word that decides is unknown, and in the second the nouns too. The model
// the test serves is the embedded one, and a retrained one may judge them
// differently, so the test takes the first that Resolve judges a guess.
var guessSentences = []string{
	"A dog ate the food because it was famished",
	"The man lifted the boy because it was strong",
}

// guessSentence is the first of guessSentences that the served model
// answers with a guess, and that answer's confidence. The page is not told
// what to show: it shows what Resolve says.
func guessSentence(t *testing.T) (string, inference.Confidence) {
	t.Helper()
	for _, s := range guessSentences {
		res, err := shared.Resolve(s)
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Predictions[0].Confidence; c.Guess {
			return s, c
		}
	}
	t.Fatalf("the default model answers none of %q with a guess; add a sentence it is unsure of", guessSentences)
	return "", inference.Confidence{}
}

// profileDir is a fresh user-data-dir for chromium. Its helper processes may
// still be writing there for a moment after the browser quits, so removing it
// is retried rather than left to t.TempDir, which fails the test.
func profileDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "itformer-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 20 {
			if err = os.RemoveAll(dir); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("leaving %s: %v", dir, err)
	})
	return dir
}

// saveScreenshot keeps the PNG in the test's temporary folder, and in
// docs/serve.png when UPDATE_SCREENSHOT=1.
func saveScreenshot(t *testing.T, png []byte) {
	t.Helper()
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatalf("the screenshot is not a PNG (%d bytes)", len(png))
	}
	path := filepath.Join(t.TempDir(), "serve.png")
	if os.Getenv("UPDATE_SCREENSHOT") == "1" {
		path = filepath.Join("..", "..", "docs", "serve.png")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d KB)", path, len(png)/1024)
}
