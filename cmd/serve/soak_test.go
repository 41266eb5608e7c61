package main

// A soak: many mixed requests (plain, heads knocked out, twins; sentences of
// several lengths) on loopback, checking that the server's memory stays flat
// and that knocking heads out costs about what a plain request does. The
// test suite runs a short one, over 7 lengths; a long one is
//
//	go test ./cmd/serve -run TestSoak -v -soak 1000 -soak.clients 8 -soak.lengths 14
//
// which prints the figures it checks. The server keeps the graphs of the
// lengths it answered last, about 120 MB a length with the default model
// (818 MB over 7; the two 65-row input-gradient graphs of attribution, with
// and without heads knocked out, are most of it), within
// inference.DefaultGraphMemory (0.97 GB), so the live heap a soak reaches
// grows with -soak.lengths up to about 8 and no further (memory_test.go),
// and a process of up to twice that.

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"itformer/cmd/internal/cli"
	"itformer/internal/memstat"
)

var (
	soakRequests = flag.Int("soak", 160, "requests TestSoak sends (the memory is compared after 50 and after all of them)")
	soakClients  = flag.Int("soak.clients", 2, "clients TestSoak sends them from at once")
	soakLengths  = flag.Int("soak.lengths", 7, "sentence lengths TestSoak's requests spread over, 1 to 14")
)

// soakSubjects make sentences of 14 lengths, 9 to 22 tokens, all with an
// answer: "<subject> ate the food because it was hungry".
var soakSubjects = []string{"A dog", "A big dog", "A big old dog", "A big old brown dog", "A very big old brown dog",
	"A very big old brown farm dog", "A very big old brown farm dog there", "Yesterday a very big old brown farm dog there",
	"Yesterday a very big old brown farm dog over there", "Yesterday morning a very big old brown farm dog over there",
	"Early yesterday morning a very big old brown farm dog over there", "Early yesterday morning a very big old brown farm dog over there again",
	"Early yesterday morning a very big old brown farm dog over there again quickly",
	"Early yesterday morning a very big old brown farm dog over there again very quickly"}

// soakAblations alternate between requests, so the knocked-out heads change
// from one ablation request to the next.
var soakAblations = [][]string{{"L1H1"}, {"L2H2"}, {"L2H3", "L1H1"}, {"L2H1"}}

// soakQuery is request i's query and its kind: plain, ablate or twin, its
// sentence of one of lengths lengths spread over soakSubjects'.
func soakQuery(i, lengths int) (url.Values, string) {
	s := soakSubjects[i%lengths*len(soakSubjects)/lengths] + " ate the food because it was hungry"
	switch i % 3 {
	case 1:
		return url.Values{"sentence": {s}, "ablate": soakAblations[(i/3)%len(soakAblations)]}, "ablate"
	case 2:
		return url.Values{"sentence": {s}, "twin": {strings.Replace(s, "hungry", "tasty", 1)}}, "twin"
	}
	return url.Values{"sentence": {s}}, "plain"
}

// soakReport is what a soak measured.
type soakReport struct {
	heapAt50, heapAtEnd int64 // live heap after a GC, in bytes
	rssAt50, rssAtEnd   int64 // resident set (Linux; 0 elsewhere)
	p50                 map[string]time.Duration
}

// soak sends n requests from clients goroutines to a server of its own (a
// fresh Predictor, so that no other test's graphs count) and measures it.
// The first 50 requests ask every kind at every length (3 × 14 at most), so
// every graph the soak needs is built before the first measurement.
func soak(t *testing.T, n, clients, lengths int) soakReport {
	t.Helper()
	p, err := cli.LoadModel("")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newHandler(p, nil, os.ErrNotExist))
	defer ts.Close()
	client := &http.Client{Timeout: time.Minute}
	r := soakReport{p50: map[string]time.Duration{}}
	times := map[string][]time.Duration{}
	var mu sync.Mutex
	run := func(from, to int) {
		var wg sync.WaitGroup
		next := make(chan int)
		for range clients {
			wg.Go(func() {
				for i := range next {
					q, kind := soakQuery(i, lengths)
					d, err := soakGet(client, ts.URL, q)
					if err != nil {
						t.Errorf("request %d (%s): %v", i, kind, err)
					}
					mu.Lock()
					times[kind] = append(times[kind], d)
					mu.Unlock()
				}
			})
		}
		for i := from; i < to; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	run(0, 50)
	r.heapAt50, r.rssAt50 = memstat.LiveHeap(), memstat.Resident()
	run(50, n)
	r.heapAtEnd, r.rssAtEnd = memstat.LiveHeap(), memstat.Resident()
	for kind, ds := range times {
		slices.Sort(ds)
		r.p50[kind] = ds[len(ds)/2]
	}
	return r
}

// soakGet sends one request and reads the whole answer, which must be 200.
func soakGet(client *http.Client, base string, q url.Values) (time.Duration, error) {
	start := time.Now()
	resp, err := client.Get(base + "/?" + q.Encode())
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %d: %.300s", resp.StatusCode, body)
	}
	return time.Since(start), err
}

// The server's memory after many mixed requests stays within 1.5 times what
// it was after 50, and a request that knocks heads out takes at most twice
// as long as a plain one (it also answers with the whole model). Each set of
// heads had built new graphs, which were never freed: 20 MB and over a
// second a request.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak of many requests")
	}
	n, clients, lengths := max(*soakRequests, 100), max(*soakClients, 1), min(max(*soakLengths, 1), len(soakSubjects))
	// A soft limit of 1 GiB makes the collector run before the process grows
	// to twice its live heap (GOGC's default), so that the suite's largest
	// process stays near what the graphs need; the checks below compare
	// live heaps, which it does not change.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	r := soak(t, n, clients, lengths)
	mb := memstat.MB
	t.Logf("%d requests of %d lengths, %d clients: live heap %s after 50, %s after %d (×%.2f); resident %s, %s; p50 plain %v, ablate %v, twin %v",
		n, lengths, clients, mb(r.heapAt50), mb(r.heapAtEnd), n, float64(r.heapAtEnd)/float64(r.heapAt50), mb(r.rssAt50), mb(r.rssAtEnd),
		r.p50["plain"].Round(time.Millisecond), r.p50["ablate"].Round(time.Millisecond), r.p50["twin"].Round(time.Millisecond))
	if float64(r.heapAtEnd) > 1.5*float64(r.heapAt50) {
		t.Errorf("the live heap grew from %s after 50 requests to %s after %d: more than 1.5 times", mb(r.heapAt50), mb(r.heapAtEnd), n)
	}
	if r.p50["ablate"] > 2*r.p50["plain"] {
		t.Errorf("a request knocking heads out takes %v (median), more than twice a plain one's %v", r.p50["ablate"], r.p50["plain"])
	}
}
