// Plays back attention as it was learned, from a run's history.json (package
// history): embedded in the page (#history-data) or fetched from the server
// (#history-config's src). Plain ES5, no network but that request.
(function () {
  "use strict";
  var section = document.getElementById("history");
  if (!section) { return; }
  var C = JSON.parse(document.getElementById("history-config").textContent);
  var H = null, probe = 0, point = 0, timer = null;
  var playEvery = 700; // ms per point
  var svgNS = document.getElementById("history-chart").namespaceURI; // the chart's parts join it

  function $(id) { return document.getElementById(id); }
  function percent(w) { return (100 * w).toFixed(1) + "%"; }
  function cellText(w) { return w < 0.005 ? "" : String(Math.round(100 * w)); }
  function status(text) { $("history-status").textContent = text; }
  function el(name, attrs, text) {
    var ns = name === "svg" || name === "polyline" || name === "line" || name === "circle" || name === "text" || name === "title";
    var e = ns ? document.createElementNS(svgNS, name) : document.createElement(name);
    for (var k in attrs) { if (attrs.hasOwnProperty(k)) { e.setAttribute(k, attrs[k]); } }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function supervised(l, h) { return l === H.supervised_layer && h === H.supervised_head; }

  // pointLabel names a point as the slider shows it: "epoch 1, step 23",
  // the epoch under way (or just ended) and the optimiser steps so far; the
  // site's probe tables (app.js) write the same words. The point whose
  // weights answer the page is marked.
  function pointLabel(p) {
    if (p.step === 0) { return "before training"; }
    var label = "epoch " + Math.ceil(p.epoch - 1e-9) + ", step " + p.step;
    return isModelPoint(p) ? label + " (end of the epoch this model was saved at)" : label;
  }
  function isModelPoint(p) { return C.model_epoch > 0 && p.step > 0 && Math.abs(p.epoch - C.model_epoch) < 1e-9; }
  // modelPoint is the point the playback opens at: the answering model's, else the last.
  function modelPoint() {
    for (var i = 0; i < H.points.length; i++) { if (isModelPoint(H.points[i])) { return i; } }
    return H.points.length - 1;
  }

  function answerProbability(pr, r) {
    return pr.antecedent === pr.candidates[1] ? r.candidate_probabilities[1] : r.candidate_probabilities[0];
  }

  // The pronoun's attention: a row per layer and head, a column per word.
  function buildGrid() {
    var pr = H.probes[probe], t = $("history-grid");
    t.textContent = "";
    var head = el("tr", {}), thead = el("thead", {}), tbody = el("tbody", {});
    head.appendChild(el("th", { "class": "corner" }));
    pr.tokens.forEach(function (w, j) {
      var cls = "col" + (j === pr.pronoun ? " pronoun" : "") + (j === pr.antecedent ? " antecedent" : "");
      var th = el("th", { "class": cls, scope: "col", "data-j": j, title: w });
      th.appendChild(el("span", {}, w));
      head.appendChild(th);
    });
    thead.appendChild(head);
    t.appendChild(thead);
    for (var l = 0; l < H.layers; l++) {
      for (var h = 0; h < H.heads; h++) {
        var tr = el("tr", { "data-l": l, "data-h": h, "class": supervised(l, h) ? "supervised" : "" });
        tr.appendChild(el("th", { "class": "rowh", scope: "row" }, "L" + (l + 1) + " H" + (h + 1) + (supervised(l, h) ? " \u2605" : "")));
        pr.tokens.forEach(function (w, j) { tr.appendChild(el("td", { "class": "score", "data-j": j })); });
        tbody.appendChild(tr);
      }
    }
    t.appendChild(tbody);
  }

  function drawGrid() {
    var pr = H.probes[probe], r = H.points[point].readings[probe];
    Array.prototype.forEach.call($("history-grid").querySelectorAll("tbody tr"), function (tr) {
      var l = +tr.getAttribute("data-l"), h = +tr.getAttribute("data-h"), row = r.attention[l][h];
      Array.prototype.forEach.call(tr.querySelectorAll("td.score"), function (td) {
        var j = +td.getAttribute("data-j"), w = row[j];
        td.textContent = cellText(w);
        td.title = "L" + (l + 1) + " H" + (h + 1) + ": " + pr.tokens[pr.pronoun] + " \u2192 " + pr.tokens[j] + ": " + percent(w);
        td.style.backgroundColor = "rgba(" + C.colors[h % C.colors.length] + "," + w.toFixed(3) + ")";
        td.classList.toggle("dark", w > 0.55);
      });
    });
  }

  // The chart: the answer's probability and the supervised head's weight on
  // the antecedent at every point, evenly spaced, with the current one marked.
  var chart = { left: 34, right: 370, top: 10, bottom: 140 };
  function cx(i) { return chart.left + (chart.right - chart.left) * (H.points.length < 2 ? 0 : i / (H.points.length - 1)); }
  function cy(v) { return chart.bottom - (chart.bottom - chart.top) * v; }

  function series(f) {
    return H.points.map(function (p, i) { return cx(i).toFixed(1) + "," + cy(f(p.readings[probe])).toFixed(1); }).join(" ");
  }

  function buildChart() {
    var svg = $("history-chart"), pr = H.probes[probe];
    svg.textContent = "";
    [0, 0.5, 1].forEach(function (v) {
      svg.appendChild(el("line", { "class": "grid", x1: chart.left, x2: chart.right, y1: cy(v), y2: cy(v) }));
      svg.appendChild(el("text", { "class": "tick", x: chart.left - 4, y: cy(v) }, (100 * v) + "%"));
    });
    var last = H.points[H.points.length - 1];
    svg.appendChild(el("text", { "class": "xtick", x: chart.left, y: chart.bottom + 16 }, "start"));
    svg.appendChild(el("text", { "class": "xtick end", x: chart.right, y: chart.bottom + 16 }, "epoch " + Math.round(last.epoch)));
    svg.appendChild(el("line", { "class": "cursor", id: "history-cursor", y1: chart.top, y2: chart.bottom }));
    svg.appendChild(el("polyline", { "class": "answer", points: series(function (r) { return answerProbability(pr, r); }) }));
    if (H.supervised_layer >= 0) {
      svg.appendChild(el("polyline", { "class": "supervised", points: series(function (r) { return r.attention[H.supervised_layer][H.supervised_head][pr.antecedent]; }) }));
    }
    svg.appendChild(el("circle", { "class": "answer-dot", id: "history-dot", r: 4 }));
  }

  function drawChart() {
    var pr = H.probes[probe], r = H.points[point].readings[probe], p = answerProbability(pr, r);
    var x = cx(point).toFixed(1);
    $("history-cursor").setAttribute("x1", x);
    $("history-cursor").setAttribute("x2", x);
    $("history-dot").setAttribute("cx", x);
    $("history-dot").setAttribute("cy", cy(p).toFixed(1));
    var o = pr.antecedent === pr.candidates[0] ? 1 : 0;
    var text = "P(" + pr.tokens[pr.antecedent] + ") = " + percent(p) + ", P(" + pr.tokens[pr.candidates[o]] + ") = " + percent(r.candidate_probabilities[o]);
    if (H.supervised_layer >= 0) {
      text += "; the \u2605 head gives \u201c" + pr.tokens[pr.antecedent] + "\u201d " + percent(r.attention[H.supervised_layer][H.supervised_head][pr.antecedent]);
    }
    $("history-answer").textContent = text;
  }

  function draw() {
    $("epoch").value = String(point);
    $("epoch-label").textContent = pointLabel(H.points[point]) + ", " + (point + 1) + " of " + H.points.length;
    drawGrid();
    drawChart();
  }

  function pickProbe(i) {
    probe = i;
    buildGrid();
    buildChart();
    draw();
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "\u25B6 Play";
    $("play").setAttribute("aria-pressed", "false");
  }

  function play() {
    if (point >= H.points.length - 1) { point = 0; draw(); }
    $("play").textContent = "\u275A\u275A Pause";
    $("play").setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (point >= H.points.length - 1) { stop(); return; }
      point++;
      draw();
    }, playEvery);
  }

  function start(h) {
    H = h;
    if (!H.points || H.points.length === 0 || !H.probes || H.probes.length === 0) {
      status("This run's history has no points yet.");
      return;
    }
    status("");
    H.probes.forEach(function (p, i) {
      $("probe").appendChild(el("option", { value: i }, p.name + ": " + p.text));
    });
    $("epoch").max = String(H.points.length - 1);
    point = modelPoint();
    $("probe").addEventListener("change", function (e) { pickProbe(+e.target.value); });
    $("epoch").addEventListener("input", function (e) { stop(); point = +e.target.value; draw(); });
    $("play").addEventListener("click", function () { if (timer === null) { play(); } else { stop(); } });
    pickProbe(0);
    section.setAttribute("data-ready", "true");
  }

  var embedded = document.getElementById("history-data");
  if (embedded) { start(JSON.parse(embedded.textContent)); return; }
  var req = new XMLHttpRequest();
  req.open("GET", C.src);
  req.onload = function () {
    var body = null;
    try { body = JSON.parse(req.responseText); } catch (e) { body = null; }
    if (req.status === 200 && body) { start(body); return; }
    status(body && body.error ? body.error : "The training history could not be loaded (HTTP " + req.status + ").");
    section.setAttribute("data-ready", "false");
  };
  req.onerror = function () { status("The training history could not be loaded."); };
  req.send();
}());
