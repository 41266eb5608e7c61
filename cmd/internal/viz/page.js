// Redraws the head views and the heatmap when the layer, head or chosen word
// changes, from the attention matrices embedded as JSON. Plain ES5, no network.
(function () {
  "use strict";
  var el = document.getElementById("viz-data");
  if (!el) { return; }
  var D = JSON.parse(el.textContent);
  var state = { layer: D.layer, head: D.head, word: D.word };

  function $(id) { return document.getElementById(id); }
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function percent(w) { return (100 * w).toFixed(1) + "%"; }
  function shortPercent(w) { return w < 0.005 ? "" : (100 * w).toFixed(0) + "%"; }

  // The same numbers as viz.go's.
  function y(i) { return D.top + (i + 0.5) * D.row_h; }
  function width(w) { return (D.min_width + (D.max_width - D.min_width) * w).toFixed(2); }
  function opacity(w) { return (D.min_opacity + (1 - D.min_opacity) * w).toFixed(3); }

  function summary() {
    var row = D.attention[state.layer][state.head][state.word], best = 0;
    for (var j = 0; j < row.length; j++) { if (row[j] > row[best]) { best = j; } }
    return "In layer " + (state.layer + 1) + ", head " + (state.head + 1) +
      ", the strongest attention goes to \"" + D.words[best] + "\" (" + percent(row[best]) + ").";
  }

  function drawWord() {
    var i = state.word, y1 = y(i).toFixed(1);
    all("svg.headview").forEach(function (svg) {
      var row = D.attention[+svg.getAttribute("data-l")][+svg.getAttribute("data-h")][i];
      all("line.attn", svg).forEach(function (ln) {
        var j = +ln.getAttribute("data-j"), w = row[j];
        ln.setAttribute("y1", y1);
        ln.setAttribute("stroke-width", width(w));
        ln.setAttribute("stroke-opacity", opacity(w));
        var t = ln.querySelector("title");
        if (t) { t.textContent = D.words[i] + " \u2192 " + D.words[j] + ": " + percent(w); }
      });
      all("rect.wbg", svg).forEach(function (r) {
        r.setAttribute("fill-opacity", (0.55 * row[+r.getAttribute("data-j")]).toFixed(3));
      });
      all("text.pct", svg).forEach(function (t) {
        t.textContent = shortPercent(row[+t.getAttribute("data-j")]);
      });
      all("text.left", svg).forEach(function (t) {
        t.classList.toggle("chosen", +t.getAttribute("data-i") === i);
      });
    });
    all("table.heatmap tbody tr").forEach(function (tr) {
      tr.classList.toggle("chosen", +tr.getAttribute("data-i") === i);
    });
    $("word").value = String(i);
  }

  function drawHead() {
    all("figure.hv").forEach(function (f) {
      f.classList.toggle("selected", +f.getAttribute("data-l") === state.layer && +f.getAttribute("data-h") === state.head);
    });
    all("figure.hm").forEach(function (f) {
      f.hidden = !(+f.getAttribute("data-l") === state.layer && +f.getAttribute("data-h") === state.head);
    });
    $("layer").value = String(state.layer + 1);
    $("head").value = String(state.head + 1);
    var fl = $("form-layer"), fh = $("form-head");
    if (fl) { fl.value = String(state.layer + 1); }
    if (fh) { fh.value = String(state.head + 1); }
  }

  function draw() {
    drawWord();
    drawHead();
    $("summary").textContent = summary();
  }

  function pickWord(i) {
    if (i >= 0 && i < D.words.length) { state.word = i; draw(); }
  }

  $("layer").addEventListener("change", function (e) { state.layer = +e.target.value - 1; draw(); });
  $("head").addEventListener("change", function (e) { state.head = +e.target.value - 1; draw(); });
  $("word").addEventListener("change", function (e) { pickWord(+e.target.value); });
  all("svg.headview text.tok").forEach(function (t) {
    t.addEventListener("click", function (e) {
      e.stopPropagation();
      var f = t.closest("figure.hv");
      state.layer = +f.getAttribute("data-l");
      state.head = +f.getAttribute("data-h");
      pickWord(+t.getAttribute("data-i"));
    });
  });
  all("figure.hv").forEach(function (f) {
    f.addEventListener("click", function () {
      state.layer = +f.getAttribute("data-l");
      state.head = +f.getAttribute("data-h");
      draw();
    });
  });
  all("table.heatmap th.rowh").forEach(function (th) {
    th.addEventListener("click", function () { pickWord(+th.getAttribute("data-i")); });
  });
  draw();
}());
