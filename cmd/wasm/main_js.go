//go:build js && wasm

package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"syscall/js"
	"time"

	"itformer/data"
)

// runDir is the run folder in the worker's in-memory file system; each
// training request gets its own.
const runDir = "/runs/tab-"

// module is the state behind globalThis.itformer: the model the page
// questions, and the training run in progress, if any.
type module struct {
	a      *answerer
	cancel context.CancelFunc
	runs   int
}

func main() {
	m := &module{}
	api := map[string]any{
		"words":  js.FuncOf(m.words),
		"load":   js.FuncOf(m.load),
		"answer": js.FuncOf(m.answer),
		"train":  js.FuncOf(m.train),
		"stop":   js.FuncOf(m.stop),
	}
	js.Global().Set("itformer", js.ValueOf(api))
	if ready := js.Global().Get("onItformerReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve the page's calls for as long as it lives
}

// reply is the JSON every call returns: v, or {"error": "..."}.
func reply(v any, err error) any {
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		raw, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return string(raw)
}

// words(zip Uint8Array): the word data the site serves beside the module
// (cmd/site's words.zip): the lexicon files this build does not embed,
// which answering needs (candidates and relatives read WordNet's parts of
// speech) and training does not. The page calls it once, before load.
func (m *module) words(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeObject {
		return reply(nil, fmt.Errorf("words wants the word data's bytes"))
	}
	raw := make([]byte, args[0].Length())
	js.CopyBytesToGo(raw, args[0])
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return reply(nil, fmt.Errorf("the word data (%d bytes): %w", len(raw), err))
	}
	return reply(map[string]bool{"supplied": true}, data.SupplyServed(zr))
}

// load(zip Uint8Array|null, history string, name string): the default model
// when zip is null, else the zipped checkpoint. Returns the model's config.
// It fails, naming the file, when the word data was not supplied (words):
// answers would otherwise silently read every word as unlisted.
func (m *module) load(_ js.Value, args []js.Value) any {
	if _, err := data.DefaultPartsOfSpeech(); err != nil {
		return reply(nil, err)
	}
	var a *answerer
	var err error
	if len(args) == 0 || args[0].IsNull() || args[0].IsUndefined() {
		a, err = loadDefault()
	} else {
		archive := make([]byte, args[0].Length())
		js.CopyBytesToGo(archive, args[0])
		var hist []byte
		if len(args) > 1 && args[1].Type() == js.TypeString {
			hist = []byte(args[1].String())
		}
		name := "a loaded model"
		if len(args) > 2 && args[2].Type() == js.TypeString {
			name = args[2].String()
		}
		a, err = loadZip(archive, hist, name)
	}
	if err != nil {
		return reply(nil, err)
	}
	m.a = a
	ck := a.p.Checkpoint()
	return reply(map[string]any{"name": a.name, "model": ck.Meta.Model, "epoch": ck.Meta.Epoch,
		"validation_accuracy": ck.Meta.ValidationAccuracy, "history": a.hist != nil}, nil)
}

// answer(request JSON) returns an Answer's JSON.
func (m *module) answer(_ js.Value, args []js.Value) any {
	if m.a == nil {
		return reply(nil, fmt.Errorf("no model loaded yet"))
	}
	var r Request
	if len(args) == 0 || json.Unmarshal([]byte(args[0].String()), &r) != nil {
		return reply(nil, fmt.Errorf("answer wants a JSON request"))
	}
	ans, err := m.a.answer(r)
	return reply(ans, err)
}

// train(request JSON, onEvent(eventJSON, zip Uint8Array|undefined)) starts a
// run and returns at once; the run reports through onEvent.
func (m *module) train(_ js.Value, args []js.Value) any {
	if m.cancel != nil {
		return reply(nil, fmt.Errorf("a run is in progress: stop it first"))
	}
	var r TrainRequest
	if len(args) < 2 || json.Unmarshal([]byte(args[0].String()), &r) != nil {
		return reply(nil, fmt.Errorf("train wants a JSON request and an event callback"))
	}
	onEvent := args[1]
	reserveHeap()
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.runs = cancel, m.runs+1
	t := &trainer{dir: fmt.Sprint(runDir, m.runs), emit: func(e Event) { sendEvent(onEvent, e) }, pause: yield}
	go func() {
		defer func() { cancel(); m.cancel = nil }()
		t.run(ctx, r)
	}()
	return reply(map[string]bool{"started": true}, nil)
}

// heapBytes is about the Go heap a run of the tiny config holds after two
// epochs (its spans, runtime.MemStats.HeapSys, under node, in two runs:
// 548-604 MiB after one, 564-604 MiB after two, 588-604 MiB after three,
// 291-294 MiB of them in use; the tiny config of 4 heads at width 24, on
// the same corpus, held 401, 409 and 409 MiB).
const heapBytes = 576 << 20

var reserveOnce sync.Once

// reserveHeap grows the module's memory to heapBytes at once, before the
// first run, by allocating and dropping one slice: the Go runtime then
// reuses those pages instead of growing the WebAssembly memory a few
// megabytes at a time, which cost 2 of the 20 CPU seconds of a one-epoch
// run under node (runtime.growMemory and the allocations waiting on it).
// Pages never touched cost the tab no real memory.
func reserveHeap() {
	reserveOnce.Do(func() {
		runtime.KeepAlive(make([]byte, heapBytes))
	})
}

// stop() asks the run to stop; it saves and reports "done" (or "error").
func (m *module) stop(js.Value, []js.Value) any {
	if m.cancel != nil {
		m.cancel()
	}
	return nil
}

func sendEvent(onEvent js.Value, e Event) {
	raw, err := json.Marshal(e)
	if err != nil {
		raw, _ = json.Marshal(Event{Type: "error", Error: err.Error()})
	}
	zip := js.Undefined()
	if e.Zip != nil {
		zip = js.Global().Get("Uint8Array").New(len(e.Zip))
		js.CopyBytesToJS(zip, e.Zip)
	}
	onEvent.Invoke(string(raw), zip)
}

// yield sleeps briefly: with every goroutine asleep the module returns to
// the browser's event loop, which then delivers the page's messages (stop).
func yield() { time.Sleep(time.Millisecond) }
