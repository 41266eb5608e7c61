package main

// The server's memory over requests of every length: it used to keep every
// graph it built, one set per sentence length, per ensemble member and again
// for the Predictor that knocks heads out, and grew to 20.7 GB of live heap
// over twin requests of 6 to 62 words. Its graphs are now held to a budget
// (inference.Predictor.SetGraphMemory), so the live heap stays under it
// whatever lengths come. The suite sends every fourth length; all of them:
//
//	go test ./cmd/serve -run TestMemoryIsBounded -v -memory.every 1

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"itformer/cmd/internal/cli"
	"itformer/config"
	"itformer/internal/memstat"
)

var memoryEvery = flag.Int("memory.every", 4, "TestMemoryIsBounded asks every `n`th sentence length from 6 to 62 words")

// sentenceOf is a sentence of n words, 6 to 63, with an answer ("dog"),
// ending "because it was hungry".
func sentenceOf(n int) string {
	switch n {
	case 6:
		return "dog ate because it was hungry"
	case 7:
		return "the dog ate because it was hungry"
	case 8:
		return "the dog ate food because it was hungry"
	}
	return "the " + strings.Repeat("big ", n-9) + "dog ate the food because it was hungry"
}

// memoryQueries are the requests of the sequence: for each length, a twin
// with heads knocked out (which runs the most graphs: the whole model's
// answer, two attributions and a knockout), then a plain twin.
func memoryQueries(every int) []url.Values {
	ablations := [][]string{{"L2H1"}, {"L1H2"}, {"L2H3", "L1H1"}}
	var qs []url.Values
	for n := 6; n <= 62; n += every {
		s := sentenceOf(n)
		twin := strings.Replace(s, "hungry", "tasty", 1)
		qs = append(qs, url.Values{"sentence": {s}, "twin": {twin}, "ablate": ablations[len(qs)/2%len(ablations)]},
			url.Values{"sentence": {s}, "twin": {twin}})
	}
	return qs
}

// The live heap (after a collection) over the sequence stays under the
// graphs' budget and 100 MB for what the server holds besides them. With
// every length it peaked at 883 MB (budget 974 MB); it used to reach 20.7 GB.
func TestMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("twin requests of up to 62 words")
	}
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	budget := graphMemory(p.Config(), config.MaxMemory)
	if err := p.SetGraphMemory(budget); err != nil {
		t.Fatal(err)
	}
	h := newHandler(p, nil, os.ErrNotExist)
	start, peak := memstat.LiveHeap(), int64(0)
	for i, q := range memoryQueries(max(*memoryEvery, 1)) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?"+q.Encode(), nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("request %d (%d words): status %d: %.300s", i, len(strings.Fields(q.Get("sentence"))), rec.Code, rec.Body)
		}
		live := memstat.LiveHeap()
		peak = max(peak, live)
		t.Logf("request %d (%d words, ablate %v): live heap %s", i, len(strings.Fields(q.Get("sentence"))), q["ablate"], memstat.MB(live))
	}
	t.Logf("live heap %s at the start, at most %s over the sequence (graphs' budget %s); resident %s",
		memstat.MB(start), memstat.MB(peak), memstat.MB(budget), memstat.MB(memstat.Resident()))
	if limit := start + budget + 100e6; peak > limit {
		t.Errorf("the live heap reached %s, over the graphs' budget %s and 100 MB besides", memstat.MB(peak), memstat.MB(budget))
	}
}
