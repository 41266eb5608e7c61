// The page: compiles itformer.wasm once, runs one Go instance here to answer
// sentences and another in a Web Worker (worker.js) to train, and draws the
// training's curves and the probes' attention as the worker reports them.
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var wasmModule = null, worker = null, trained = null;
  // targets are the validation accuracies a config is expected to reach: the
  // tiny one's is train's test bar (train_test.go), the default's the README's.
  var targets = { tiny: 0.70, default: 0.90 }, target = targets.tiny;
  var curves = { epochs: [], steps: [] };
  var timing = { start: performance.now() };
  window.itformerTiming = timing; // read by the browser test and the README's figures

  function status(text) { $("status").textContent = text; }
  function showError(text) { $("error").hidden = !text; $("error").textContent = text || ""; }
  function call(name) {
    var reply = JSON.parse(globalThis.itformer[name].apply(null, Array.prototype.slice.call(arguments, 1)));
    if (reply && reply.error) { throw new Error(reply.error); }
    return reply;
  }

  // --- loading -------------------------------------------------------------
  async function compile() {
    var resp = fetch("itformer.wasm");
    try {
      return await WebAssembly.compileStreaming(resp);
    } catch (e) { // a host that sends the wrong Content-Type
      return WebAssembly.compile(await (await fetch("itformer.wasm")).arrayBuffer());
    }
  }
  // The word lists the module does not embed (WordNet's parts of speech,
  // which answering needs), served beside it by the site's builder. Only this
  // thread answers; the training worker does not need them.
  var wordsFile = "words.zip";
  async function fetchWords() {
    var resp;
    try {
      resp = await fetch(wordsFile);
    } catch (e) {
      throw new Error("the word data " + wordsFile + " could not be fetched: " + e.message);
    }
    if (!resp.ok) { throw new Error("the word data " + wordsFile + " could not be fetched: " + resp.status + " " + resp.statusText); }
    return new Uint8Array(await resp.arrayBuffer());
  }
  function supplyWords(bytes) {
    try { call("words", bytes); } catch (e) { throw new Error(wordsFile + ": " + e.message); }
  }
  async function start() {
    var words = fetchWords(); // while the module compiles
    words.catch(function () {}); // its failure is reported when awaited below, not as unhandled meanwhile
    wasmModule = await compile();
    timing.compiled = performance.now() - timing.start;
    var go = new Go();
    var ready = new Promise(function (resolve) { globalThis.onItformerReady = resolve; });
    var instance = await WebAssembly.instantiate(wasmModule, go.importObject);
    go.run(instance);
    await ready;
    supplyWords(await words);
    useModel(call("load", null));
    $("go").disabled = false;
    ask();
    timing.firstAnswer = performance.now() - timing.start;
    status("Ready: the first answer came " + (timing.firstAnswer / 1000).toFixed(1) + " s after the page started loading.");
    startWorker();
  }

  function useModel(info) {
    var m = info.model;
    $("model-name").textContent = "(" + info.name + ": " + m.layers + " layers, " + m.heads + " heads, d_model " + m.d_model +
      (info.epoch ? ", saved at epoch " + info.epoch + ", validation accuracy " + (100 * info.validation_accuracy).toFixed(1) + "%" : "") + ")";
    var boxes = $("heads");
    boxes.textContent = "";
    for (var l = 1; l <= m.layers; l++) {
      for (var h = 1; h <= m.heads; h++) {
        var label = document.createElement("label"), box = document.createElement("input");
        box.type = "checkbox";
        box.value = "L" + l + "H" + h;
        box.addEventListener("change", function () { ask(); });
        label.appendChild(box);
        label.appendChild(document.createTextNode(" L" + l + " H" + h));
        boxes.appendChild(label);
      }
    }
  }

  // --- asking --------------------------------------------------------------
  function ablated() {
    return Array.prototype.slice.call(document.querySelectorAll("#heads input:checked")).map(function (b) { return b.value; }).join(",");
  }
  function ask() {
    var req = { sentence: $("sentence").value, twin: $("twin").value, ablate: ablated(), attribute: $("attribute").checked, steps: true };
    try {
      var ans = call("answer", JSON.stringify(req));
      showError("");
      $("answer").textContent = verdict(ans.resolution) + (ans.twin ? "  |  twin: " + verdict(ans.twin.b) : "");
      show(ans.page);
      $("steps").textContent = "";
      if (ans.steps) { drawSteps(ans.steps); }
      return ans;
    } catch (e) {
      showError(e.message);
      $("answer").textContent = "";
      return null;
    }
  }
  // --- the answer's frame ----------------------------------------------------
  // viz's page is drawn in a sandboxed frame. A new page is written into the
  // hidden frame and shown only once it has laid itself out and said how tall
  // it is: the frame is never blank while a page loads, and, as tall as its
  // page, never scrolls inside, so no head hides below an inner fold.
  var frames = Array.prototype.slice.call(document.querySelectorAll("#view iframe")), shown = 0, pageSeq = 0;
  // Both start as back frames: until the first page is ready, the placeholder shows.
  // frameStyle hides what the site already shows (the form, the title); frameScript
  // reports the page's height and where the head trained to point sits.
  var frameStyle = "<style>form.ask, body > header { display: none } body { padding-top: 8px }</style>";
  function frameScript(seq) {
    return "<script>(function () { function post() {" +
      " var s = document.querySelector('figure.hv.supervised'), r = s ? s.getBoundingClientRect() : null;" +
      " parent.postMessage({ itformerFrame: { seq: " + seq + ", height: document.documentElement.scrollHeight," +
      " supervised: r ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right } : null," +
      " caption: s ? s.querySelector('figcaption').textContent : '' } }, '*'); }" +
      " addEventListener('load', post); new ResizeObserver(post).observe(document.body); })();<\/script>";
  }
  function show(page) {
    var back = frames[1 - shown], end = page.lastIndexOf("</body>");
    pageSeq++;
    back.srcdoc = page.slice(0, end).replace("</head>", frameStyle + "</head>") + frameScript(pageSeq) + page.slice(end);
  }
  window.addEventListener("message", function (e) {
    var m = e.data && e.data.itformerFrame, i = frames.findIndex(function (f) { return f.contentWindow === e.source; });
    if (!m || i < 0 || m.seq !== pageSeq && i !== shown) { return; }
    frames[i].style.height = (m.height + 2) + "px";
    if (i !== shown && m.seq === pageSeq) { // the new page is ready: swap
      frames[i].classList.remove("back");
      frames[shown].classList.add("back");
      shown = i;
      $("view-placeholder").hidden = true;
    }
    if (i === shown) { window.itformerFrame = m; } // read by the browser test
  });

  function verdict(res) {
    if (!res.predictions || !res.predictions.length) { return "No \"it\" to resolve in: " + res.sentence; }
    return res.predictions.map(function (p) {
      var best = p.candidates[0];
      return "\"it\" " + (p.confidence && p.confidence.guess ? "might refer to " : "refers to ") + p.typed_answer +
        " (" + (100 * best.probability).toFixed(1) + "%)" + (p.typed_answer !== p.answer_word ? ", read as \"" + p.answer_word + "\"" : "");
    }).join("; ");
  }
  // drawSteps shows explain's numbers: the word's vectors, then a table with
  // a row per word of the sentence and a column per per-word step.
  function drawSteps(s) {
    var box = $("steps"), p = document.createElement("p");
    p.textContent = "\"" + s.typed_words[s.word] + "\" (word " + (s.word + 1) + ") in layer " + (s.layer + 1) + ", head " + (s.head + 1) +
      "; d_k = " + s.d_k + ", so √d_k = " + Math.sqrt(s.d_k).toFixed(3) + ".";
    box.appendChild(p);
    var vectors = document.createElement("ul"), cols = [];
    s.steps.forEach(function (st) {
      if (st.per_word) { cols.push(st); return; }
      var li = vectors.appendChild(document.createElement("li"));
      li.textContent = st.formula + " (" + st.about + "): [" + st.values.map(function (v) { return v.toFixed(3); }).join(", ") + "]";
    });
    box.appendChild(vectors);
    var t = document.createElement("table"), head = t.insertRow();
    head.appendChild(document.createElement("th")).textContent = "word j";
    cols.forEach(function (c) { var th = head.appendChild(document.createElement("th")); th.textContent = c.formula; th.title = c.about; });
    s.typed_words.forEach(function (w, j) {
      var r = t.insertRow();
      r.insertCell().textContent = w;
      cols.forEach(function (c) { r.insertCell().textContent = c.values[j].toFixed(3); });
    });
    box.appendChild(t);
  }
  $("ask-form").addEventListener("submit", function (e) { e.preventDefault(); ask(); });
  $("sentence").addEventListener("input", function () {
    $("typed").textContent = $("sentence").value.length + " characters";
  });

  // --- training ------------------------------------------------------------
  function startWorker() {
    worker = new Worker("worker.js");
    worker.onmessage = function (e) { onWorker(e.data); };
    worker.postMessage({ type: "module", module: wasmModule });
  }
  function onWorker(m) {
    if (m.type === "ready") { $("train-go").disabled = false; return; }
    var ev = JSON.parse(m.event);
    if (ev.type === "config") { onConfig(ev.config); }
    if (ev.type === "step") { onStep(ev); }
    if (ev.type === "epoch") { onEpoch(ev); }
    if (ev.type === "done") { onDone(ev, m.zip); }
    if (ev.type === "error") { onTrainError(ev.error); }
  }
  function trainRequest() {
    return { config: $("config").value, layers: +$("layers").value, heads: +$("heads-n").value, d_model: +$("d_model").value,
      epochs: +$("epochs").value, attention_supervision: $("supervision").checked };
  }
  // An empty size field sends 0, which the worker reads as the chosen
  // config's own value (TrainRequest.RunConfig), so the page never repeats
  // configs/*.json; choosing another config clears what was typed.
  $("config").addEventListener("change", function () {
    ["d_model", "epochs", "layers", "heads-n"].forEach(function (id) { $(id).value = ""; });
  });
  $("train-form").addEventListener("submit", function (e) {
    e.preventDefault();
    curves = { epochs: [], steps: [] };
    target = targets[$("config").value];
    timing.trainStart = performance.now();
    timing.targetReached = null;
    timing.epochs = [];
    $("train-go").disabled = true;
    $("train-stop").disabled = false;
    $("train-status").textContent = "Preparing the corpus and the graphs…";
    worker.postMessage({ type: "train", request: JSON.stringify(trainRequest()) });
    draw();
  });
  $("train-stop").addEventListener("click", function () {
    worker.postMessage({ type: "stop" });
    $("train-status").textContent = "Stopping: the best epoch so far is kept…";
  });
  function onConfig(cfg) { curves.epochsTotal = cfg.train.epochs; }
  function onStep(ev) {
    var s = ev.step;
    curves.steps.push({ x: s.epoch - 1 + s.seen / s.total, loss: s.loss, acc: s.accuracy, epoch: s.epoch });
    $("train-status").textContent = "Epoch " + s.epoch + " of " + s.epochs + ": " + s.seen + " of " + s.total +
      " sentences, running loss " + s.loss.toFixed(3) + ", accuracy " + (100 * s.accuracy).toFixed(1) + "%  (" + ev.elapsed.toFixed(1) + " s)";
    draw();
  }
  function onEpoch(ev) {
    var r = ev.epoch;
    curves.epochs.push({ x: r.epoch, loss: r.validation_loss, acc: r.validation_accuracy, trainAcc: r.train_accuracy });
    timing.epochs.push({ epoch: r.epoch, seconds: r.seconds, sentences_per_second: r.sentences_per_second,
      validation_accuracy: r.validation_accuracy, elapsed: ev.elapsed });
    if (r.validation_accuracy >= target && timing.targetReached == null) {
      timing.targetReached = ev.elapsed;
      timing.targetEpoch = r.epoch;
    }
    $("train-status").textContent = "Epoch " + r.epoch + ": validation accuracy " + (100 * r.validation_accuracy).toFixed(1) +
      "%, loss " + r.validation_loss.toFixed(3) + ", " + r.sentences_per_second.toFixed(0) + " sentences/s  (" + ev.elapsed.toFixed(1) + " s)";
    draw();
    if (ev.history) { drawProbes(ev.history); }
  }
  function onDone(ev, zip) {
    timing.trainDone = ev.elapsed;
    $("train-go").disabled = false;
    $("train-stop").disabled = true;
    var acc = curves.epochs.length ? curves.epochs[curves.epochs.length - 1].acc : 0;
    $("train-status").textContent = (ev.stopped ? "Stopped" : "Done") + " after " + ev.elapsed.toFixed(1) + " s" +
      (ev.metrics ? ": test accuracy " + (100 * ev.metrics.test.accuracy).toFixed(1) + "%" : ", last validation accuracy " + (100 * acc).toFixed(1) + "%") +
      (timing.targetReached != null ? "; the target " + (100 * target).toFixed(0) + "% was reached at epoch " + timing.targetEpoch + " after " + timing.targetReached.toFixed(1) + " s" : "") + ".";
    if (ev.history) { drawProbes(ev.history); }
    trained = { zip: zip, history: ev.history ? JSON.stringify(ev.history) : "" };
    var a = $("download");
    if (a.href) { URL.revokeObjectURL(a.href); }
    a.href = URL.createObjectURL(new Blob([zip], { type: "application/zip" }));
    a.hidden = false;
    $("use-trained").disabled = false;
  }
  function onTrainError(msg) {
    $("train-go").disabled = false;
    $("train-stop").disabled = true;
    $("train-status").textContent = "Training stopped: " + msg;
  }
  $("use-trained").addEventListener("click", function () { load(trained.zip, trained.history, "the model trained in this tab"); });
  $("use-default").addEventListener("click", function () { load(null, "", ""); });
  $("load-file").addEventListener("change", async function () {
    var f = $("load-file").files[0];
    if (f) { load(new Uint8Array(await f.arrayBuffer()), "", f.name); }
  });
  function load(zip, history, name) {
    try {
      useModel(call("load", zip, history, name));
      $("use-default").disabled = zip === null;
      showError("");
      ask();
    } catch (e) { showError(e.message); }
  }

  // --- drawing -------------------------------------------------------------
  function draw() {
    var n = Math.max(curves.epochsTotal || 1, 1);
    plot($("loss"), n, [{ pts: curves.steps.map(function (p) { return [p.x, p.loss, p.epoch]; }), color: "#1f77b4", line: true },
      { pts: curves.epochs.map(function (p) { return [p.x, p.loss]; }), color: "#d62728" }], null, "loss");
    plot($("accuracy"), n, [{ pts: curves.steps.map(function (p) { return [p.x, p.acc, p.epoch]; }), color: "#1f77b4", line: true },
      { pts: curves.epochs.map(function (p) { return [p.x, p.acc]; }), color: "#d62728" }], target, "accuracy", 1);
  }
  function plot(cv, epochs, series, hline, label, ymax) {
    var g = cv.getContext("2d"), W = cv.width, H = cv.height, L = 40, B = 24, top = 8;
    if (!series.some(function (s) { return s.pts.length; })) { return placeholder(cv, "No model trained in this tab yet: press Train to draw its " + label + " here."); }
    var hi = ymax || 0;
    series.forEach(function (s) { s.pts.forEach(function (p) { hi = Math.max(hi, p[1]); }); });
    hi = hi || 1;
    var X = function (x) { return L + (W - L - 8) * x / epochs; }, Y = function (y) { return H - B - (H - B - top) * y / hi; };
    g.clearRect(0, 0, W, H);
    g.strokeStyle = "#999"; g.fillStyle = "#555"; g.font = "11px sans-serif"; g.setLineDash([]);
    g.beginPath(); g.moveTo(L, top); g.lineTo(L, H - B); g.lineTo(W - 8, H - B); g.stroke();
    g.fillText(hi.toFixed(2), 2, top + 8); g.fillText("0", 28, H - B); g.fillText(label, L + 6, top + 10);
    for (var e = 1; e <= epochs; e++) { g.fillText(String(e), X(e) - 3, H - 8); }
    if (hline != null) {
      g.setLineDash([4, 4]); g.beginPath(); g.moveTo(L, Y(hline)); g.lineTo(W - 8, Y(hline)); g.stroke(); g.setLineDash([]);
    }
    series.forEach(function (s) {
      g.strokeStyle = g.fillStyle = s.color;
      if (s.line) {
        g.beginPath();
        // a running mean starts again with each epoch: one line per epoch
        s.pts.forEach(function (p, i) {
          if (i && p[2] === s.pts[i - 1][2]) { g.lineTo(X(p[0]), Y(p[1])); } else { g.moveTo(X(p[0]), Y(p[1])); }
        });
        g.stroke();
      } else {
        s.pts.forEach(function (p) { g.beginPath(); g.arc(X(p[0]), Y(p[1]), 3, 0, 7); g.fill(); });
      }
    });
  }
  // placeholder writes text in an empty chart, so that it does not look broken.
  function placeholder(cv, text) {
    var g = cv.getContext("2d");
    g.clearRect(0, 0, cv.width, cv.height);
    g.fillStyle = "#777"; g.font = "italic 13px sans-serif"; g.textAlign = "center";
    var words = text.split(" "), line = "", y = cv.height / 2 - 10;
    words.forEach(function (w) {
      if (g.measureText(line + w).width > cv.width - 40) { g.fillText(line, cv.width / 2, y); line = ""; y += 18; }
      line += w + " ";
    });
    g.fillText(line, cv.width / 2, y);
    g.textAlign = "start";
  }
  // pointLabel names a recorded point as the playback of viz's page does
  // (history.js): the epoch under way, in whole numbers, and the steps so far.
  function pointLabel(pt) {
    return pt.step === 0 ? "before training" : "epoch " + Math.ceil(pt.epoch - 1e-9) + ", step " + pt.step;
  }
  // drawProbes draws the mission probe's pronoun attention, every head, at
  // every recorded point: one table per head, a row per point.
  function drawProbes(h) {
    var probe = h.probes[0], box = $("probes");
    box.textContent = "";
    for (var l = 0; l < h.layers; l++) {
      for (var hd = 0; hd < h.heads; hd++) {
        var t = document.createElement("table"), cap = t.createCaption(), head = t.insertRow();
        t.className = "probe";
        cap.textContent = "Layer " + (l + 1) + " · head " + (hd + 1) + (l === h.supervised_layer && hd === h.supervised_head ? " ★ supervised" : "");
        head.appendChild(document.createElement("th")).textContent = "when";
        probe.tokens.forEach(function (w) { head.appendChild(document.createElement("th")).textContent = w; });
        h.points.forEach(function (pt) {
          var r = t.insertRow(), row = pt.readings[0].attention[l][hd];
          r.appendChild(document.createElement("th")).textContent = pointLabel(pt);
          row.forEach(function (w) {
            var c = r.insertCell();
            c.style.backgroundColor = "rgba(31,119,180," + w.toFixed(3) + ")";
            c.textContent = w >= 0.005 ? (100 * w).toFixed(0) : "";
            if (w > 0.55) { c.className = "dark"; }
          });
        });
        box.appendChild(t);
      }
    }
    $("probes-caption").textContent = "\"" + probe.text + "\": where \"it\" (word " + (probe.pronoun + 1) +
      ") looks in each head, in %, at each recorded point of training (the epoch under way and the optimiser steps so far); the answer is \"" +
      probe.tokens[probe.antecedent] + "\".";
  }

  draw();
  start().catch(function (e) { status("The model could not start: " + e.message); });
})();
