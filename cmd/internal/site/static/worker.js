// The training worker: the page sends the compiled itformer.wasm module, then
// "train" and "stop" messages; the Go instance here trains into an in-memory
// run folder (memfs.js) and every event goes back to the page as it happens.
// It is not handed the word data beside the module (words.zip): training
// reads none of it, only answering does, on the page's thread.
"use strict";
importScripts("memfs.js", "wasm_exec.js");

var ready = false;
onmessage = async function (e) {
  var m = e.data;
  if (m.type === "module") {
    var go = new Go();
    var started = new Promise(function (resolve) { globalThis.onItformerReady = resolve; });
    var instance = await WebAssembly.instantiate(m.module, go.importObject);
    go.run(instance);
    await started;
    ready = true;
    postMessage({ type: "ready" });
  } else if (m.type === "train" && ready) {
    var reply = JSON.parse(itformer.train(m.request, function (event, zip) {
      postMessage({ type: "event", event: event, zip: zip });
    }));
    if (reply.error) { postMessage({ type: "event", event: JSON.stringify({ type: "error", error: reply.error }) }); }
  } else if (m.type === "stop" && ready) {
    itformer.stop();
  }
};
