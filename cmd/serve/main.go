// Command serve is a small local web page for the model: type a sentence, get
// the answer, the candidates' probabilities and the attention pictures of
// every layer and head; below them, a playback of the probe sentences'
// attention as the model learned it, from the run's history.json (served at
// /history.json).
//
//	go run ./cmd/serve                  # http://localhost:8080/
//	go run ./cmd/serve -addr localhost:9000 -run runs/default-... -open
//
// It listens on localhost only unless -addr says otherwise. With no -run it
// uses the default model embedded in the binary, as infer does.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"itformer/cmd/internal/cli"
	"itformer/cmd/internal/site"
	"itformer/cmd/internal/viz"
	"itformer/config"
	"itformer/history"
	"itformer/inference"
	"itformer/internal/await"
	"itformer/model"
)

// Limits on what a request may carry.
const (
	maxSentence = 4 << 10  // bytes of the sentence
	maxQuery    = 16 << 10 // bytes of the URL's query (a sentence percent-encoded, and the selection)
	maxBody     = 16 << 10 // bytes of a POSTed form
)

func main() {
	ctx, stop := cli.SignalContext()
	defer stop()
	cli.Exit("serve", run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run serves until ctx is done.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("serve", "serve [-addr host:port] [-run DIR|checkpoint.json] [-open] | serve -site DIR [-addr host:port] [-open]")
	addr := fs.String("addr", "localhost:8080", "address to listen on (host:port); keep the host a loopback one unless you mean to share the page")
	fs.AllowEmpty("addr") // "" is every interface, a port the system picks (net.Listen): warned of, not refused
	runPath := fs.String("run", "", "run folder or checkpoint.json to use instead of the embedded default model")
	open := fs.Bool("open", false, "open the page in the default browser")
	siteDir := fs.String("site", "", "serve the static site built by `go run ./cmd/site -out DIR` from this `folder` instead of answering with a model here")
	fs.MaxMemoryFlag()
	if err := fs.Parse(args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fs.Mistake("unexpected arguments %q; type sentences into the page", fs.Args())
	}
	handler, err := untilDone(ctx, func() (http.Handler, error) { return chooseHandler(*siteDir, *runPath, fs, stderr) })
	if err != nil {
		return err
	}
	ln, url, err := listen(*addr, stdout, stderr)
	if err != nil {
		return err
	}
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(stderr, "warning: cannot open a browser (%v); open %s yourself\n", err, url)
		}
	}
	return serveUntil(ctx, newServer(handler, stderr), ln)
}

// untilDone returns load's result, or ctx's error as soon as ctx is done
// (Ctrl-C, SIGTERM), leaving load to the process's end: run catches those
// signals from its start, so a load that took long (a large checkpoint, a
// slow disk) would otherwise ignore them.
func untilDone[T any](ctx context.Context, load func() (T, error)) (T, error) {
	v, err, ok := await.Result(ctx.Done(), load, nil)
	if !ok {
		return v, fmt.Errorf("stopped while loading the model: %w", context.Cause(ctx))
	}
	return v, err
}

// listen opens addr and says where the page is, warning when other machines
// may reach it.
func listen(addr string, stdout, stderr io.Writer) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil { // net's own message ("address nope: missing port") names no flag
		return nil, "", fmt.Errorf("-addr %q: cannot listen there: %w", addr, err)
	}
	url := "http://" + ln.Addr().String() + "/"
	if !loopbackOnly(ln.Addr().String()) {
		fmt.Fprintf(stderr, "warning: listening on %s, which other machines may reach (-addr localhost:PORT keeps the page to this machine)\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "serving on %s (Ctrl-C to stop)\n", url)
	return ln, url, nil
}

// writeTimeout bounds a request from its headers to the end of its answer:
// past it, net/http closes the connection without a status, so a request
// waits for its turn at the model at most turnWait (handler.takeTurn), a
// third of it, and gets 503 after that. The slowest request, a twin of 62
// words with heads knocked out, took 1.4 to 4.3 s here (two cores, a
// training run beside it): 40 of them at once got 4 answers and 36 503s.
const (
	writeTimeout = 30 * time.Second
	turnWait     = writeTimeout / 3
)

// newServer bounds every stage of a request, so that a slow or huge one
// cannot hold the server.
func newServer(handler http.Handler, stderr io.Writer) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    maxQuery + 16<<10,
		ErrorLog:          log.New(stderr, "serve: ", 0),
	}
}

// serveUntil serves on ln until the server fails or ctx ends (Ctrl-C), then
// lets requests under way finish for up to 5 s.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener) error {
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shut)
	}
}

// chooseHandler is the static site in siteDir, or else the page that
// answers with the model at runPath.
func chooseHandler(siteDir, runPath string, fs *cli.FlagSet, stderr io.Writer) (http.Handler, error) {
	if siteDir != "" {
		if runPath != "" {
			return nil, fs.Mistake("-site serves a built site, whose page runs its own model: drop -run")
		}
		if _, err := os.Stat(filepath.Join(siteDir, "index.html")); err != nil {
			return nil, fmt.Errorf("-site %s: no index.html (build the site with go run ./cmd/site -out %s): %w", siteDir, siteDir, err)
		}
		return site.Handler(siteDir), nil
	}
	ck, err := cli.LoadModel(runPath)
	if err != nil {
		return nil, err
	}
	if err := ck.SetGraphMemory(graphMemory(ck.Config(), config.MaxMemory)); err != nil {
		return nil, err
	}
	hist, histErr := cli.LoadHistory(runPath)
	if histErr != nil { // the model still answers: the page says the history is missing
		fmt.Fprintf(stderr, "warning: no training history for the page's playback: %v\n", histErr)
	}
	return newHandler(ck, hist, histErr), nil
}

// graphMemory bounds the graphs the server keeps for the model c (both its
// Predictors together, inference.Predictor.SetGraphMemory): the model's
// default, or a quarter of -max-memory (limit) where that is less. The
// collector lets the heap grow to twice what is live, so the graphs may
// take half the limit, and the model and its requests the other half.
func graphMemory(c model.Config, limit config.ByteSize) int64 {
	return min(inference.DefaultGraphMemory(c), int64(limit)/4)
}

// loopbackOnly says whether a listener at addr (host:port) is reachable from
// this machine only. It is given the bound address, so -addr "" and ":0"
// arrive as the unspecified IP, which listens on every interface.
func loopbackOnly(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; the browser's exit status is not ours to report
	return nil
}

// historyPath is where the page fetches the model's history.json.
const historyPath = "/history.json"

// handler answers GET / (and POST /) with the form and, for a sentence, its
// result, and GET /history.json with the model's training history.
type handler struct {
	p       *inference.Predictor
	history []byte // history.json, or {"error": why there is none}
	histErr bool
	// ablator answers the requests that knock heads out: Ablate changes a
	// Predictor for all its callers, so it is a second one, re-ablated only
	// when the heads change, which rewrites its graphs' head gates and
	// builds none.
	ablator *inference.Predictor
	knocked string // the heads ablator has knocked out, as ParseHeads reads them
	// turn is held by the request the model answers, one at a time (the
	// Predictors run one sentence at a time anyway); the others wait for it
	// at most wait (turnWait), then get 503 (takeTurn).
	turn chan struct{}
	wait time.Duration
}

// newHandler serves p; h is its history, or nil with the error that says why.
func newHandler(p *inference.Predictor, h *history.History, histErr error) http.Handler {
	hd := &handler{p: p, ablator: p.Another(), turn: make(chan struct{}, 1), wait: turnWait}
	if h != nil {
		hd.history, histErr = h.JSON()
	}
	if histErr != nil {
		msg := "This model has no training history: " + histErr.Error()
		if errors.Is(histErr, fs.ErrNotExist) {
			msg = "This model has no training history (history.json): it was trained before training recorded one. Train it again to see attention as it is learned."
		}
		hd.history, _ = json.Marshal(map[string]string{"error": msg})
		hd.histErr = true
	}
	return hd
}

// serveHistory answers GET /history.json: the history, or 404 with the reason.
func (h *handler) serveHistory(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, r.Method+" is not supported here", http.StatusMethodNotAllowed)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	if h.histErr {
		w.WriteHeader(http.StatusNotFound)
	}
	w.Write(h.history) // an error here means the client went away
}

// ServeHTTP routes a request: the history, the page, or nothing.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer h.recoverPage(w)
	switch r.URL.Path {
	case historyPath:
		h.serveHistory(w, r)
	case "/":
		h.servePage(w, r)
	default:
		http.NotFound(w, r)
	}
}

// recoverPage turns a panic while answering into a 500 page, so that one bad
// request cannot stop the server; net/http's own abort still propagates.
func (h *handler) recoverPage(w http.ResponseWriter) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	h.page(w, http.StatusInternalServerError, viz.Form{Error: fmt.Sprintf("internal error: %v", v), HistoryURL: historyPath})
}

// servePage answers the form: the empty page, or the page with the sentence
// (and its twin) resolved and explained.
func (h *handler) servePage(w http.ResponseWriter, r *http.Request) {
	if status, msg := readForm(w, r); status != http.StatusOK {
		h.page(w, status, viz.Form{Error: msg, HistoryURL: historyPath})
		return
	}
	c := h.p.Config()
	f := viz.Form{MaxBytes: maxSentence, HistoryURL: historyPath, ModelLayers: c.Layers, ModelHeads: c.Heads, Ablate: r.Form["ablate"]}
	f.Layer, f.Head, f.Word = number(r, "layer"), number(r, "head"), number(r, "word")
	f.ModelEpoch, f.Words = h.p.Checkpoint().Meta.Epoch, h.p.KnownWords()
	if _, asked := r.Form["sentence"]; !asked {
		h.page(w, http.StatusOK, f)
		return
	}
	if err := readSentences(&f, r); err != nil {
		f.Error = err.Error()
		h.page(w, http.StatusBadRequest, f)
		return
	}
	if err := h.answerInTurn(r.Context(), &f); err != nil {
		f.Error = err.Error()
		if errors.Is(err, errBusy) {
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(h.wait.Seconds()))))
		}
		h.page(w, errorStatus(err), f)
		return
	}
	h.page(w, http.StatusOK, f)
}

// errBusy is a request that waited its turn at the model in vain.
var errBusy = errors.New("the server is busy answering other requests")

// answerInTurn answers f once the model is free (takeTurn), and gives the
// model back before the page is drawn.
func (h *handler) answerInTurn(ctx context.Context, f *viz.Form) error {
	release, err := h.takeTurn(ctx)
	if err != nil {
		return err
	}
	defer release()
	return h.answer(f)
}

// takeTurn waits for the model at most h.wait, and returns the function
// that gives it back. A request that would wait longer gets errBusy, as
// does one whose client left while it waited: queued behind a long line,
// it would outlast the write timeout and be dropped without a status.
func (h *handler) takeTurn(ctx context.Context) (release func(), err error) {
	timer := time.NewTimer(h.wait)
	defer timer.Stop()
	select {
	case h.turn <- struct{}{}:
		return func() { <-h.turn }, nil
	case <-timer.C:
		return nil, fmt.Errorf("%w: this request waited %s for its turn; try again in a few seconds", errBusy, h.wait)
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: the request ended while it waited for its turn (%w)", errBusy, context.Cause(ctx))
	}
}

// readForm checks the method, the query's size and the body's type and size,
// and parses the form into r.Form. It returns 200, or the status and message
// of a request it refuses.
func readForm(w http.ResponseWriter, r *http.Request) (int, string) {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		return http.StatusMethodNotAllowed, r.Method + " is not supported here; use the form"
	}
	if len(r.URL.RawQuery) > maxQuery {
		return http.StatusBadRequest, fmt.Sprintf("the request is too long (at most %d bytes of query)", maxQuery)
	}
	if msg := unreadBody(r); msg != "" {
		return http.StatusUnsupportedMediaType, msg
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return http.StatusBadRequest, fmt.Sprintf("the request is too long (at most %d bytes)", maxBody)
		}
		return http.StatusBadRequest, "the request cannot be read: " + err.Error()
	}
	return http.StatusOK, ""
}

// readSentences fills f's sentence and twin from the form, refusing either
// when it is longer than maxSentence (the page then shows both cut to it).
func readSentences(f *viz.Form, r *http.Request) error {
	f.Sentence, f.TwinSentence = r.Form.Get("sentence"), r.Form.Get("twin")
	for _, s := range []struct{ name, text string }{{"sentence", f.Sentence}, {"twin sentence", f.TwinSentence}} {
		if len(s.text) > maxSentence {
			f.Sentence, f.TwinSentence = cut(f.Sentence, maxSentence), cut(f.TwinSentence, maxSentence)
			return fmt.Errorf("the %s is %d bytes long; the limit is %d", s.name, len(s.text), maxSentence)
		}
	}
	return nil
}

// unreadBody says why a POST's body is not one ParseForm reads (it skips a
// JSON or multipart body without error, and the page would come back empty
// as if no sentence had been sent), or "" when it is a form or empty.
func unreadBody(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	if r.Method != http.MethodPost || (ct == "" && r.ContentLength == 0) {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/x-www-form-urlencoded" {
		return ""
	}
	return fmt.Sprintf("a POST body of type %q is not read here: send the fields as application/x-www-form-urlencoded (or use GET)", ct)
}

// answer fills f with the result: the sentence resolved and attributed, or
// with a twin sentence both compared, by the whole model or with f.Ablate's
// heads knocked out (then f.Whole says what the whole model answers). The
// caller holds the turn (takeTurn).
func (h *handler) answer(f *viz.Form) error {
	p := h.p
	if len(f.Ablate) > 0 {
		heads, err := model.ParseHeads(strings.Join(f.Ablate, ","), h.p.Config())
		if err != nil {
			return fmt.Errorf("knock out: %w", err)
		}
		if key := fmt.Sprint(heads); key != h.knocked {
			if err := h.ablator.Ablate(heads); err != nil {
				return err
			}
			h.knocked = key
		}
		p = h.ablator
		whole, err := h.p.Resolve(f.Sentence)
		if err != nil {
			return err
		}
		a := whole.Predictions[0]
		f.Whole = fmt.Sprintf("The whole model answers %q (%.1f%%).", a.TypedAnswer, 100*a.WordProbs[a.Answer])
	}
	if f.TwinSentence != "" {
		tw, err := p.Twins(f.Sentence, f.TwinSentence)
		f.Twin = tw
		if err != nil {
			return err
		}
		return p.KnockOut(&tw.A.Predictions[0]) // the page draws the first sentence's heads
	}
	res, err := p.Resolve(f.Sentence)
	if err != nil {
		return err
	}
	f.Result = res
	if err := p.Attribute(&res.Predictions[0]); err != nil {
		return err
	}
	return p.KnockOut(&res.Predictions[0])
}

// errorStatus is the status of a sentence that got no answer: 503 if it
// waited its turn in vain, the server's fault (500) if the model is broken,
// else the sentence's (400).
func errorStatus(err error) int {
	switch {
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
	case errors.Is(err, inference.ErrBrokenModel):
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

func (h *handler) page(w http.ResponseWriter, status int, f viz.Form) {
	var buf bytes.Buffer
	if err := viz.WriteForm(&buf, f); err != nil {
		http.Error(w, "cannot draw the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", viz.ContentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes()) // an error here means the client went away
}

// number is a small positive form value, or 0.
func number(r *http.Request, key string) int {
	n, err := strconv.Atoi(r.Form.Get(key))
	if err != nil || n < 0 || n > 1000 {
		return 0
	}
	return n
}

// cut shortens s to at most n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
