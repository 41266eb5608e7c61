package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"itformer/cmd/internal/browsertest"
	"itformer/cmd/internal/site"
)

// A host that lacks the word data beside the module: the page says so,
// naming the file, instead of waiting for ever or answering without it.
func TestBrowserWithoutWordData(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module and starts chromium; skipped with -short")
	}
	browsertest.NeedE2E(t, "cmd/site", "checks the page's error when the word data is missing")
	chromium := browsertest.FindChromium(t, "cmd/site", "the site")
	files := site.Handler(builtSite(t))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/"+site.WordsName {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	b := &browser{browsertest.Start(t, browsertest.Options{Chromium: chromium, Width: 1200, Height: 900, Timeout: 3 * time.Minute})}
	b.do("open the page", chromedp.Navigate(srv.URL+"/"))
	s := b.waitFor("the page to give up", 90*time.Second, func(s pageState) bool {
		return strings.Contains(s.Status, "could not start") || s.FirstAnswer > 0
	})
	if want := site.WordsName + " could not be fetched: 404"; !strings.Contains(s.Status, want) || s.Answer != "" {
		t.Errorf("without %s the page says %q and answers %q; want it to say %q and not answer", site.WordsName, s.Status, s.Answer, want)
	}
}
