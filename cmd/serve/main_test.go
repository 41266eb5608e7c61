package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"itformer/cmd/internal/browsertest"
	"itformer/cmd/internal/cli"
	"itformer/configs"
	"itformer/history"
	"itformer/inference"
	"itformer/inference/inferencetest"
	"itformer/train"
)

var (
	loadOnce sync.Once
	shared   *inference.Predictor
	loadErr  error
)

// testServer serves the embedded model, and its history if it has one, on loopback.
func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := cli.LoadHistory("")
	return testServerWith(t, h, err)
}

// testServerWith serves the embedded model with the history h (or none, for
// the reason histErr).
func testServerWith(t *testing.T, h *history.History, histErr error) *httptest.Server {
	t.Helper()
	loadOnce.Do(func() { shared, loadErr = cli.LoadModel("") })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	ts := httptest.NewServer(newHandler(shared, h, histErr))
	t.Cleanup(ts.Close)
	return ts
}

var played struct {
	once sync.Once
	h    *history.History
	err  error
}

// playbackHistory is the embedded model's history or, while the embedded
// model predates histories, that of a one-epoch run of configs/tiny.json
// trained here, so that the playback is always tested on a real run's file.
func playbackHistory(t *testing.T) *history.History {
	t.Helper()
	played.once.Do(func() {
		if played.h, played.err = cli.LoadHistory(""); !errors.Is(played.err, fs.ErrNotExist) {
			return
		}
		browsertest.Tell("cmd/serve: the embedded model has no history.json; the playback test trains a one-epoch tiny run for one")
		dir, err := os.MkdirTemp("", "itformer-history-")
		if err != nil {
			played.err = err
			return
		}
		defer os.RemoveAll(dir)
		cfg, err := configs.Load("tiny.json", "train.epochs=1")
		if err != nil {
			played.err = err
			return
		}
		if _, played.err = train.Run(cfg, train.Options{OutDir: dir}); played.err == nil {
			played.h, played.err = cli.LoadHistory(dir)
		}
	})
	if played.err != nil {
		t.Fatal(played.err)
	}
	return played.h
}

// GET /history.json serves the history the handler was given, and a 404
// whose JSON says why when there is none; the page fetches it from there.
func TestHistoryEndpoint(t *testing.T) {
	h := &history.History{Format: history.Format, Layers: 1, Heads: 1, StepsPerEpoch: 1, SupervisedLayer: -1, SupervisedHead: -1}
	want, err := h.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		h       *history.History
		err     error
		code    int
		content string
	}{
		{"served", h, nil, http.StatusOK, string(want)},
		{"missing", nil, fs.ErrNotExist, http.StatusNotFound, "trained before training recorded one"},
		{"broken", nil, errors.New("history.json: point 3 is wrong"), http.StatusNotFound, "point 3 is wrong"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := testServerWith(t, tc.h, tc.err)
			resp, err := http.Get(ts.URL + historyPath)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.code || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(body), tc.content) {
				t.Errorf("status %d (%s), body %.200s; want %d with %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.code, tc.content)
			}
			if tc.code == http.StatusNotFound && !json.Valid(body) {
				t.Errorf("the 404's body is not JSON: %s", body)
			}
			_, page := get(t, ts, nil)
			if !strings.Contains(page, `id="history"`) || !strings.Contains(page, `"src":"/history.json"`) {
				t.Errorf("the page has no playback section fetching %s", historyPath)
			}
			resp, err = http.Post(ts.URL+historyPath, "text/plain", strings.NewReader("x"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("POST %s: status %d, want 405", historyPath, resp.StatusCode)
			}
		})
	}
}

func get(t *testing.T, ts *httptest.Server, query url.Values) (int, string) {
	t.Helper()
	u := ts.URL + "/"
	if query != nil {
		u += "?" + query.Encode()
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func TestEmptyForm(t *testing.T) {
	ts := testServer(t)
	code, body := get(t, ts, nil)
	if code != http.StatusOK || !strings.Contains(body, `<input id="sentence" name="sentence"`) || strings.Contains(body, `class="error"`) ||
		strings.Contains(body, `id="result"`) {
		t.Fatalf("GET /: %d\n%s", code, body)
	}
}

func TestAnswers(t *testing.T) {
	ts := testServer(t)
	c := shared.Config()
	views := c.Layers * c.Heads // a head view and a heatmap for every layer's every head
	for sentence, want := range map[string]string{
		"A dog ate the food because it was hungry": "dog",
		"A dog ate the food because it was tasty":  "food",
	} {
		code, body := get(t, ts, url.Values{"sentence": {sentence}})
		if code != http.StatusOK || !strings.Contains(body, `class="answer-word">`+want+`</strong>`) {
			t.Errorf("%q: %d, want the answer %q", sentence, code, want)
		}
		lines, cells := strings.Count(body, `<line class="attn"`), strings.Count(body, `<td class="cell`)
		if lines != views*10 || cells != views*100 { // 9 words and the full stop they are read with
			t.Errorf("%q: %d lines and %d heatmap cells, want %d and %d (%d layers x %d heads, 10 words)",
				sentence, lines, cells, views*10, views*100, c.Layers, c.Heads)
		}
		if !strings.Contains(body, `value="`+sentence+`"`) {
			t.Errorf("%q: the input does not keep the sentence", sentence)
		}
	}
}

// The page says when the answer is a guess, with Resolve's reason, and
// says nothing of the kind for the confident mission sentence.
func TestGuessIsShown(t *testing.T) {
	ts := testServer(t)
	sentence, c := guessSentence(t)
	_, body := get(t, ts, url.Values{"sentence": {sentence}})
	if want := `<strong>This is a guess:</strong> ` + html.EscapeString(c.Reason) + `</p>`; !strings.Contains(body, want) {
		t.Errorf("%q: no %q in the page", sentence, want)
	}
	_, body = get(t, ts, url.Values{"sentence": {"A dog ate the food because it was hungry"}})
	if strings.Contains(body, `<p class="guess"`) {
		t.Error("the mission sentence's answer is shown as a guess")
	}
}

func TestSelectionIsKept(t *testing.T) {
	ts := testServer(t)
	_, body := get(t, ts, url.Values{"sentence": {"A dog ate the food because it was hungry"}, "layer": {"1"}, "head": {"2"}, "word": {"2"}})
	for _, want := range []string{`id="hv-0-1"`, `<figure class="hv selected" id="hv-0-1"`, `name="layer" id="form-layer" value="1"`, `<option value="1" selected>dog</option>`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q", want)
		}
	}
	// An error page keeps it too, for the next sentence.
	code, body := get(t, ts, url.Values{"sentence": {"The dog ate"}, "layer": {"1"}, "head": {"2"}})
	if code != http.StatusBadRequest || !strings.Contains(body, `name="layer" id="form-layer" value="1"`) || !strings.Contains(body, `name="head" id="form-head" value="2"`) {
		t.Errorf("the error page lost the selection")
	}
	// Nonsense is ignored, not an error: the supervised head is shown.
	sl, sh, ok := shared.SupervisedHead()
	if !ok {
		t.Fatal("the default model has no supervised head")
	}
	code, body = get(t, ts, url.Values{"sentence": {"A dog ate the food because it was hungry"}, "layer": {"x"}, "head": {"-3"}})
	if want := fmt.Sprintf(`<figure class="hv selected supervised" id="hv-%d-%d"`, sl, sh); code != http.StatusOK || !strings.Contains(body, want) {
		t.Errorf("bad layer and head: %d, want %q", code, want)
	}
}

func TestBadInput(t *testing.T) {
	ts := testServer(t)
	maxLen := shared.Config().MaxLen
	words := strings.Fields(strings.Repeat("the dog ate ", maxLen))
	tooMany := strings.Join(append(words[:maxLen+1-4], "because", "it", "was", "hungry"), " ") // max_len+1 tokens
	cases := []struct{ name, sentence, want string }{
		{"empty", "", "the sentence is empty"},
		{"spaces", "   ", "the sentence is empty"},
		{"no pronoun", "The dog ate the food", `no pronoun &#34;it&#34; to resolve`},
		{"only the pronoun", "it", "no word besides the pronoun"},
		{"no noun", ". , it . ,", "no noun for &#34;it&#34; to refer to"},
		{"too many words", tooMany, fmt.Sprintf("has %d tokens; this model reads at most %d", maxLen+1, maxLen)},
		{"too long", strings.Repeat("é", 2100), "bytes long; the limit is 4096"},
		{"markup", `<b>it</b> & "x"`, "&lt;b&gt;"},
	}
	for _, tc := range cases {
		code, body := get(t, ts, url.Values{"sentence": {tc.sentence}})
		if code != http.StatusBadRequest && tc.name != "markup" {
			t.Errorf("%s: status %d, want 400", tc.name, code)
		}
		if !strings.Contains(body, `<p class="error" id="error" role="alert">`) && tc.name != "markup" {
			t.Errorf("%s: no error on the page", tc.name)
		}
		if !strings.Contains(body, tc.want) {
			t.Errorf("%s: the page does not say %q", tc.name, tc.want)
		}
		if strings.Contains(body, "<b>it</b>") {
			t.Errorf("%s: input echoed as markup", tc.name)
		}
	}
	// The too-long sentence is echoed cut to the limit, on a character boundary.
	_, body := get(t, ts, url.Values{"sentence": {strings.Repeat("é", 2100)}})
	if !strings.Contains(body, `value="`+strings.Repeat("é", 2048)+`"`) {
		t.Error("the too-long sentence is not echoed cut to 4096 bytes")
	}
}

func TestRequestLimits(t *testing.T) {
	ts := testServer(t)
	resp, err := http.Get(ts.URL + "/?sentence=" + strings.Repeat("a", maxQuery+1))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "the request is too long") {
		t.Errorf("long query: %d\n%s", resp.StatusCode, body)
	}

	resp, err = http.Post(ts.URL+"/", "application/x-www-form-urlencoded", strings.NewReader("sentence="+strings.Repeat("a", maxBody+1)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "the request is too long") {
		t.Errorf("long body: %d\n%s", resp.StatusCode, body)
	}

	resp, err = http.PostForm(ts.URL+"/", url.Values{"sentence": {"A dog ate the food because it was tasty"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `class="answer-word">food<`) {
		t.Errorf("POST: %d", resp.StatusCode)
	}

	req, _ := http.NewRequest(http.MethodDelete, ts.URL+"/", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("DELETE: %d", resp.StatusCode)
	}

	resp, err = http.Get(ts.URL + "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /elsewhere: %d", resp.StatusCode)
	}

	resp, err = http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
}

func TestRunServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, pw, &errOut) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	u := strings.Fields(strings.TrimPrefix(line, "serving on "))[0]
	if !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("first line %q", line)
	}
	resp, err := http.Get(u + "?sentence=" + url.QueryEscape("A dog ate the food because it was hungry"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `class="answer-word">dog<`) {
		t.Errorf("no answer from the running server")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
	// Nothing on stderr, but for the warning that the embedded model, until
	// it is retrained, has no history for the playback.
	stderr := errOut.String()
	if _, histErr := cli.LoadHistory(""); histErr != nil {
		stderr = strings.Replace(stderr, "warning: no training history for the page's playback: "+histErr.Error()+"\n", "", 1)
	}
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
}

func TestRunRefuses(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-frobnicate"}, "flag provided but not defined"},
		{[]string{"A dog ate it"}, "type sentences into the page"},
		{[]string{"-run", filepath.Join(t.TempDir(), "nope")}, "nope"},
		{[]string{"-addr", "127.0.0.1:99999"}, `-addr "127.0.0.1:99999": cannot listen there`},
		{[]string{"-addr", "nope"}, `-addr "nope": cannot listen there`},
	}
	for _, tc := range cases {
		var out, errOut bytes.Buffer
		err := run(context.Background(), tc.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error()+errOut.String(), tc.want) {
			t.Errorf("%q: err %v (stderr %q), want %q", tc.args, err, errOut.String(), tc.want)
		}
		if tc.want == "type sentences into the page" && !errors.Is(err, cli.ErrUsage) {
			t.Errorf("%q: want a usage error", tc.args)
		}
	}
}

// A model whose outputs are NaN is the server's fault: an error page with
// status 500 that says the model is broken, never 200 with NaN%.
func TestBrokenModelIsAnErrorPage(t *testing.T) {
	good, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	broken, err := cli.LoadModel(inferencetest.HugeWeights(t, good.Checkpoint()))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newHandler(broken, nil, fs.ErrNotExist))
	defer ts.Close()
	code, body := get(t, ts, url.Values{"sentence": {"A dog ate the food because it was hungry"}})
	if code != http.StatusInternalServerError || !strings.Contains(body, `<p class="error" id="error" role="alert">`) ||
		!strings.Contains(body, "the checkpoint&#39;s weights are broken") || strings.Contains(body, "NaN%") {
		t.Errorf("status %d, want 500 and an error page saying the weights are broken:\n%s", code, body)
	}
}

// Only a listener bound to loopback is private; every other address (an
// empty host, 0.0.0.0, ::, a real interface) gets the warning.
func TestLoopbackOnly(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "127.1.2.3:80": true, "[::1]:8080": true, "localhost:8080": true,
		"": false, ":0": false, ":8080": false, "0.0.0.0:8080": false, "[::]:8080": false,
		"192.168.1.5:8080": false, "[fe80::1]:80": false, "example.com:80": false,
	} {
		if got := loopbackOnly(addr); got != want {
			t.Errorf("loopbackOnly(%q) = %v, want %v", addr, got, want)
		}
	}
}

// The form's twin box and ablation boxes reach the answer; bad values are
// the request's fault, with a message naming them.
func TestTwinAndAblationRequests(t *testing.T) {
	ts := testServer(t)
	const mission = "A dog ate the food because it was hungry"
	for _, tc := range []struct {
		name  string
		query url.Values
		code  int
		want  []string
	}{
		{"ablate", url.Values{"sentence": {mission}, "ablate": {"L2H2", "L1H1"}}, http.StatusOK,
			[]string{"Heads knocked out:</strong> L1H1, L2H2.", "The whole model answers &#34;dog&#34;", `value="L1H1" checked`, `value="L2H2" checked`}},
		{"bad head", url.Values{"sentence": {mission}, "ablate": {"L9H1"}}, http.StatusBadRequest,
			[]string{"knock out: &#34;L9H1&#34;: this model has layers 1-"}},
		{"twin", url.Values{"sentence": {mission}, "twin": {"A dog ate the food because it was tasty"}}, http.StatusOK,
			[]string{`id="twin-view"`, `<tr class="differs"><td class="w">hungry</td><td class="w">tasty</td>`, "The answer changed"}},
		{"contractions, curly, with heads knocked out", url.Values{"sentence": {"The dog ate the food because it’s hungry"}, "ablate": {"L1H1"},
			"twin": {"The dog didn't eat the food because it's full"}}, http.StatusOK,
			[]string{`<p class="read-as">Read <q>it&#39;s</q> as <q>it is</q>`,
				`In the second sentence: <p class="read-as">Read <q>it&#39;s</q> as <q>it is</q>`, "The whole model answers &#34;dog&#34;"}},
		{"a relative, with heads knocked out", url.Values{"sentence": {"The puppy ate the food because it was famished"}, "ablate": {"L1H1"}}, http.StatusOK,
			[]string{`class="answer-word">puppy</strong>`, `read as <q>dog</q>`, "The whole model answers &#34;puppy&#34;"}},
		{"twin without it", url.Values{"sentence": {mission}, "twin": {"A dog ate the food"}}, http.StatusBadRequest,
			[]string{`no pronoun &#34;it&#34;`}},
		{"long twin", url.Values{"sentence": {mission}, "twin": {strings.Repeat("a", maxSentence+1)}}, http.StatusBadRequest,
			[]string{fmt.Sprintf("the twin sentence is %d bytes long", maxSentence+1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := get(t, ts, tc.query)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
		})
	}
}

// A POST body the server does not read (JSON, multipart, text) is refused
// with 415 and a message that names its type and the one it reads, instead
// of a 200 empty form that silently dropped the sentence.
func TestPostOfAnotherTypeIsRefused(t *testing.T) {
	ts := testServer(t)
	for _, ct := range []string{"application/json", "multipart/form-data; boundary=x", "text/plain"} {
		resp, err := http.Post(ts.URL+"/", ct, strings.NewReader(`{"sentence": "A dog ate the food because it was hungry"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType || !strings.Contains(string(body), "application/x-www-form-urlencoded") {
			t.Errorf("POST %s: %d, want 415 naming the form type\n%.300s", ct, resp.StatusCode, body)
		}
	}
	resp, err := http.Post(ts.URL+"/", "", nil) // an empty POST is the empty form
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("empty POST: %d, want 200", resp.StatusCode)
	}
}
