package main

// The first screen, looked at as a person would, in a 1400×900 window: the
// panel of the head trained to point is on it without scrolling, the twin's
// label sits beside its box, and no view is a blank box, neither after the
// first answer, nor while a new answer replaces it, nor before any training.
// Blankness is judged on the screenshot's pixels, not on the DOM.

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"itformer/cmd/internal/browsertest"
	"itformer/cmd/internal/defaultmodel"
	"itformer/cmd/internal/site"
	"itformer/inference"
)

// The window a person's first look is judged in.
const screenW, screenH = 1400, 900

// rect is a box in page coordinates (CSS pixels, the page scrolled to its top).
type rect struct{ Top, Bottom, Left, Right float64 }

// layout is what the test reads back of the first screen.
type layout struct {
	Frame      rect     `json:"frame"`       // the shown answer frame
	FrameH     float64  `json:"frame_h"`     // its height as set
	PageH      float64  `json:"page_h"`      // the height its page reported
	Supervised *rect    `json:"supervised"`  // the ★ head's panel, inside the frame
	Caption    string   `json:"caption"`     // that panel's caption
	TwinLabel  rect     `json:"twin_label"`  // "Twin (optional)"
	TwinBox    rect     `json:"twin_box"`    // its input
	Views      []rect   `json:"views"`       // the charts and the probes' box
	ViewNames  []string `json:"view_names"`  // what each of Views is
	ScrollTop  float64  `json:"scroll_top"`  // should stay 0
	FrameShown int      `json:"frame_shown"` // iframes shown: exactly 1
}

const readLayout = `(() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right}; };
  const shown = Array.from(document.querySelectorAll("#view iframe")).filter(f => !f.classList.contains("back"));
  const F = window.itformerFrame || {}, frame = shown[0];
  const views = ["loss", "accuracy", "probes"].map(id => document.getElementById(id));
  return {
    frame: frame ? box(frame) : {}, frame_h: frame ? frame.getBoundingClientRect().height : 0, page_h: F.height || 0,
    supervised: F.supervised || null, caption: F.caption || "",
    twin_label: box(document.querySelector("label[for=twin]")), twin_box: box(document.getElementById("twin")),
    views: views.map(box), view_names: ["the loss chart", "the accuracy chart", "the probes' box"],
    scroll_top: scrollY, frame_shown: shown.length,
  };
})()`

func TestBrowserLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module and starts chromium; skipped with -short")
	}
	// Compiling the module for WebAssembly is a minute of a fresh clone's
	// go test ./...: CI runs this test, go test ./... alone does not.
	browsertest.NeedE2E(t, "cmd/site", "builds the site's WebAssembly module and checks its first screen in chromium")
	chromium := browsertest.FindChromium(t, "cmd/site", "the site")
	sl, sh := supervisedHead(t)
	srv := httptest.NewServer(site.Handler(builtSite(t)))
	defer srv.Close()
	b := &browser{browsertest.Start(t, browsertest.Options{Chromium: chromium, Width: screenW, Height: screenH, Timeout: 3 * time.Minute})}

	b.do("open the page", chromedp.EmulateViewport(screenW, screenH), chromedp.Navigate(srv.URL+"/"))
	b.waitFor("the first answer, drawn", 90*time.Second, func(s pageState) bool { return s.FirstAnswer > 0 && s.Frame > 0 || s.Error != "" })
	l := b.layout()
	checkFirstScreen(t, l, sl, sh)
	notBlank(t, b.shot("first answer", 0), "the answer's frame on the first screen", visible(l.Frame, 0))
	// The training views, below: placeholders before any training.
	y := l.Views[0].Top - 40
	shot := b.shot("training views", y)
	for i, v := range l.Views {
		notBlank(t, shot, l.ViewNames[i]+" before training", visible(v, y))
	}
	b.do("back to the top", chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))

	// A new answer replaces the old one without a blank moment.
	b.askTwin()
	for _, after := range []time.Duration{50 * time.Millisecond, time.Second} {
		time.Sleep(after)
		l = b.layout()
		if l.FrameShown != 1 {
			t.Errorf("%v after asking: %d answer frames shown, want 1", after, l.FrameShown)
			continue
		}
		notBlank(t, b.shot("after asking", 0), fmt.Sprintf("the answer's frame %v after asking", after), visible(l.Frame, 0))
	}
	s := b.waitFor("the twin's answer", 60*time.Second, func(s pageState) bool { return strings.Contains(s.Answer, "twin") || s.Error != "" })
	if !strings.Contains(s.Answer, `twin: "it" refers to food`) {
		t.Errorf("twin: answer %q, error %q", s.Answer, s.Error)
	}
	b.waitFor("the twin's page, shown", 30*time.Second, func(pageState) bool { return b.layout().PageH > 0 })
	checkFirstScreen(t, b.layout(), sl, sh)
}

// supervisedHead is the default model's head trained to point (0-based),
// which the page must show first: found from the model, never assumed.
func supervisedHead(t *testing.T) (layer, head int) {
	t.Helper()
	ck, err := defaultmodel.Load()
	if err != nil {
		t.Fatal(err)
	}
	layer, head, ok := inference.New(ck).SupervisedHead()
	if !ok {
		t.Fatal("the default model has no head trained to point")
	}
	return layer, head
}

// checkFirstScreen checks the ★ panel is the model's supervised head and
// lies inside the first screen, the frame is as tall as its page (nothing
// scrolls inside it), and the twin's label is beside its box.
func checkFirstScreen(t *testing.T, l layout, sl, sh int) {
	t.Helper()
	if l.Supervised == nil {
		t.Fatalf("the frame reports no panel of the head trained to point: %+v", l)
	}
	if want := fmt.Sprintf("Layer %d · Head %d", sl+1, sh+1); !strings.HasPrefix(l.Caption, want) {
		t.Errorf("the ★ panel is captioned %q, want the model's supervised head, %q", l.Caption, want)
	}
	top, bottom := l.Frame.Top+l.Supervised.Top, l.Frame.Top+l.Supervised.Bottom
	if l.ScrollTop != 0 || top < 0 || bottom > screenH {
		t.Errorf("the ★ panel spans y %.0f to %.0f of the page (scrolled %.0f); want it inside the first %d pixels", top, bottom, l.ScrollTop, screenH)
	}
	if l.PageH == 0 || l.FrameH < l.PageH {
		t.Errorf("the frame is %.0f px tall for a page of %.0f px: its page scrolls inside it", l.FrameH, l.PageH)
	}
	mid := func(r rect) float64 { return (r.Top + r.Bottom) / 2 }
	if d := mid(l.TwinLabel) - mid(l.TwinBox); d > 6 || d < -6 || l.TwinLabel.Right > l.TwinBox.Left {
		t.Errorf("the twin's label %+v is not beside its box %+v", l.TwinLabel, l.TwinBox)
	}
}

// visible is the part of r on the screen scrolled down by y, in the
// screen's coordinates.
func visible(r rect, y float64) rect {
	r.Top, r.Bottom = max(r.Top-y, 0), min(r.Bottom-y, screenH)
	return r
}

func (b *browser) layout() layout {
	b.T.Helper()
	var l layout
	b.do("read the layout", chromedp.Evaluate(readLayout, &l))
	return l
}

// shot is a screenshot of the screen, the page scrolled down by y, decoded
// (what a person sees; chromium leaves a tall frame's lower part unpainted in
// a whole-page screenshot). SITE_LAYOUT_SHOT, if set, names a folder to keep
// each one in, to look at.
func (b *browser) shot(what string, y float64) image.Image {
	b.T.Helper()
	var raw []byte
	b.do("screenshot "+what, chromedp.Evaluate(fmt.Sprintf("window.scrollTo(0, %f)", y), nil),
		chromedp.Sleep(200*time.Millisecond), chromedp.CaptureScreenshot(&raw))
	if dir := os.Getenv("SITE_LAYOUT_SHOT"); dir != "" {
		name := fmt.Sprintf("%s/%s-%d.png", dir, strings.ReplaceAll(what, " ", "-"), time.Now().UnixMilli())
		if err := os.WriteFile(name, raw, 0o644); err != nil {
			b.T.Error(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		b.T.Fatalf("screenshot %s: %v", what, err)
	}
	return img
}

// notBlank fails the test when the part of img inside r (its border left
// out) is one flat colour but for a few stray pixels: a box with nothing in
// it. Text, a chart or a placeholder sentence changes far more pixels.
func notBlank(t *testing.T, img image.Image, what string, r rect) {
	t.Helper()
	box := image.Rect(int(r.Left)+3, int(r.Top)+3, int(r.Right)-3, int(r.Bottom)-3).Intersect(img.Bounds())
	if box.Dx() < 10 || box.Dy() < 10 {
		t.Errorf("%s is not on the page (%v)", what, box)
		return
	}
	bg := img.At(box.Min.X, box.Min.Y)
	br, bgG, bb, _ := bg.RGBA()
	differ := 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if far(r, br) || far(g, bgG) || far(b, bb) {
				differ++
			}
		}
	}
	if share := float64(differ) / float64(box.Dx()*box.Dy()); share < 0.002 {
		t.Errorf("%s is blank: %d of its %d pixels differ from its background (%v)", what, differ, box.Dx()*box.Dy(), box)
	}
}

// far: two 16-bit colour channels differ by more than anti-aliasing noise.
func far(a, b uint32) bool { return a > b+0x1000 || b > a+0x1000 }
