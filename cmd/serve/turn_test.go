package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"itformer/cmd/internal/cli"
)

// turnHandler is a handler of the embedded model whose requests wait at
// most wait for their turn.
func turnHandler(t *testing.T, wait time.Duration) *handler {
	t.Helper()
	loadOnce.Do(func() { shared, loadErr = cli.LoadModel("") })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	h := newHandler(shared, nil, os.ErrNotExist).(*handler)
	h.wait = wait
	return h
}

// serveQuery answers GET /?query with h.
func serveQuery(ctx context.Context, h *handler, query url.Values) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?"+query.Encode(), nil).WithContext(ctx))
	return rec
}

// While another request holds the model, a request that waits its turn in
// vain gets 503 with Retry-After and a message saying why, instead of
// waiting past the write timeout to be dropped without a status (40 twins
// of 62 words at once: curl's "Empty reply from server" after 30 s). A
// page that needs no model is answered at once, and the same request is
// answered once the model is free.
func TestBusyServerSays503(t *testing.T) {
	h := turnHandler(t, 50*time.Millisecond)
	mission := url.Values{"sentence": {"A dog ate the food because it was hungry"}}
	h.turn <- struct{}{} // another request is being answered
	for _, tc := range []struct {
		name  string
		query url.Values
		code  int
		want  string
	}{
		{"plain", mission, http.StatusServiceUnavailable, "the server is busy answering other requests: this request waited 50ms for its turn; try again in a few seconds"},
		{"twin, heads knocked out", url.Values{"sentence": mission["sentence"], "twin": {"A dog ate the food because it was tasty"}, "ablate": {"L2H1"}},
			http.StatusServiceUnavailable, "the server is busy"},
		{"empty form", url.Values{}, http.StatusOK, `<input id="sentence" name="sentence"`},
		{"bad request", url.Values{"sentence": {strings.Repeat("a", maxSentence+1)}}, http.StatusBadRequest, "the sentence is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := serveQuery(context.Background(), h, tc.query)
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("status %d, want %d with %q\n%.300s", rec.Code, tc.code, tc.want, rec.Body)
			}
			if retry := rec.Header().Get("Retry-After"); (tc.code == http.StatusServiceUnavailable) != (retry == "1") {
				t.Errorf("status %d with Retry-After %q; want 1 (second) on 503 only", rec.Code, retry)
			}
		})
	}
	<-h.turn // the other request is answered
	if rec := serveQuery(context.Background(), h, mission); rec.Code != http.StatusOK {
		t.Errorf("with the model free: status %d, want 200\n%.300s", rec.Code, rec.Body)
	}
}

// A request waits for the model while its wait lasts, and one whose client
// leaves stops waiting; neither keeps the turn.
func TestRequestWaitsItsTurn(t *testing.T) {
	h := turnHandler(t, time.Minute)
	mission := url.Values{"sentence": {"A dog ate the food because it was hungry"}}
	h.turn <- struct{}{}
	done := make(chan int, 1)
	go func() { done <- serveQuery(context.Background(), h, mission).Code }()
	time.Sleep(20 * time.Millisecond) // most likely waiting by now; either way it must be answered
	<-h.turn
	if code := <-done; code != http.StatusOK {
		t.Errorf("a request that waited for the model: status %d, want 200", code)
	}
	h.turn <- struct{}{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client left
	if rec := serveQuery(ctx, h, mission); rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "the request ended while it waited") {
		t.Errorf("a request whose client left: status %d, want 503 saying so\n%.300s", rec.Code, rec.Body)
	}
	<-h.turn
	select {
	case h.turn <- struct{}{}: // free: no request kept it
	default:
		t.Error("the turn is still held after every request ended")
	}
}
