// Command wasm is itformer in a browser tab: the same model, inference and
// training code, compiled with GOOS=js GOARCH=wasm and driven by the static
// site's page (cmd/internal/site). It is not run by hand: build the site with
//
//	go run ./cmd/site -out site
//
// The module registers one object, globalThis.itformer, whose functions the
// page calls (main_js.go). On the page's main thread it answers sentences with
// the default model or one loaded from a zipped checkpoint, once the page has
// handed it the word lists the site serves beside it (data.ServedFiles:
// WordNet's parts of speech, which the module does not embed). In a Web
// Worker it trains a model (train.Run) into an in-memory run folder and
// reports every step and epoch, and the probes' attention, as it goes;
// training reads no served list, so the worker is not handed them.
package main
