package browsertest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Options says how to start the browser; the tests differ only in these.
type Options struct {
	Chromium      string        // the executable, from FindChromium
	Width, Height int           // the window, in CSS pixels
	Timeout       time.Duration // for the whole browser session
	// OnEvent, if set, also sees every event of the page's target, after
	// the browser has counted a JavaScript exception.
	OnEvent func(b *Browser, ev any)
}

// Browser is a headless chromium for one test. It counts the JavaScript
// exceptions on its page (FailOnException fails the test on one) and keeps
// chromedp's log, which it writes to the test log when the test ends.
type Browser struct {
	T          *testing.T
	Ctx        context.Context
	mu         sync.Mutex
	log        []string
	exceptions int
}

// Start starts chromium with a fresh profile; it quits when the test ends.
func Start(t *testing.T, o Options) *Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromiumOptions(t, o)...)
	t.Cleanup(cancelAlloc)
	b := &Browser{T: t}
	var cancelBrowser context.CancelFunc
	b.Ctx, cancelBrowser = chromedp.NewContext(actx, chromedp.WithErrorf(b.Logf))
	t.Cleanup(func() {
		cancelBrowser()
		b.writeLog()
	})
	chromedp.ListenTarget(b.Ctx, func(ev any) { b.onEvent(ev, o.OnEvent) })
	return b
}

// chromiumOptions are chromedp's defaults, headless, in o's window and a
// fresh profile, without the background traffic, first-run pages and
// scrollbars that would make runs differ.
func chromiumOptions(t *testing.T, o Options) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(o.Chromium),
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
		chromedp.UserDataDir(ProfileDir(t)),
		chromedp.WindowSize(o.Width, o.Height),
	)
}

// onEvent counts a JavaScript exception on the page, then passes every
// event to also, if set.
func (b *Browser) onEvent(ev any, also func(b *Browser, ev any)) {
	if e, ok := ev.(*runtime.EventExceptionThrown); ok {
		b.Logf("JavaScript exception: %s", e.ExceptionDetails.Error())
		b.mu.Lock()
		b.exceptions++
		b.mu.Unlock()
	}
	if also != nil {
		also(b, ev)
	}
}

// writeLog writes chromedp's log to the test log.
func (b *Browser) writeLog() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range b.log {
		b.T.Log("chromedp:", l)
	}
}

// Logf adds a line to the log the test shows when it ends.
func (b *Browser) Logf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.log = append(b.log, fmt.Sprintf(format, args...))
}

// Do runs actions, failing the test on an error.
func (b *Browser) Do(step string, actions ...chromedp.Action) {
	b.T.Helper()
	if err := chromedp.Run(b.Ctx, actions...); err != nil {
		b.T.Fatalf("%s: %v", step, err)
	}
}

// FailOnException fails the test if the page has thrown.
func (b *Browser) FailOnException(step string) {
	b.T.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.exceptions > 0 {
		b.T.Fatalf("%s: a JavaScript exception on the page (see the chromedp log below)", step)
	}
}

// ProfileDir is a fresh user-data-dir for chromium. Its helper processes may
// still be writing there for a moment after the browser quits, so removing it
// is retried rather than left to t.TempDir, which fails the test.
func ProfileDir(t *testing.T) string {
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

// E2E is the environment variable that turns on the end-to-end runs that
// take minutes (a model trained in the page): go test ./... skips them,
// .ci/run sets it (docs/testing.md).
const E2E = "ITFORMER_E2E"

// NeedE2E skips the calling test unless ITFORMER_E2E=1, saying once on the
// terminal what it skipped and how to run it; under CI, which must run it,
// the test fails instead.
func NeedE2E(t *testing.T, pkg, what string) {
	t.Helper()
	if os.Getenv(E2E) == "1" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not 1 under CI: .ci/run sets it to run the end-to-end tests", E2E)
	}
	e2eToldOnce.Do(func() {
		Tell(fmt.Sprintf("%s: %s skipped: it %s; %s=1 go test ./... runs it (docs/testing.md)", pkg, t.Name(), what, E2E))
	})
	t.Skipf("an end-to-end run (%s); set %s=1 to run it", what, E2E)
}

var e2eToldOnce sync.Once
