/* warbook search: an index generated at build time (assets/search-index.js, a script
   that assigns window.WARBOOK_SEARCH, so it loads from file:// without fetch), loaded
   on first use. Results are built with DOM nodes and textContent only. */
(function () {
  "use strict";
  var here = document.currentScript && document.currentScript.src;
  var indexUrl = here ? here.replace(/search\.js(\?.*)?$/, "search-index.js") : "assets/search-index.js";
  var KIND = { rule: "Rule", clarification: "Clarification", term: "Glossary", example: "Worked example" };
  var BONUS = { rule: 3, clarification: 2, term: 2, example: 1 };
  var prepared = null;
  var waiting = [];
  var loading = false;

  function norm(s) {
    return String(s).toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
      .replace(/[\u2018\u2019]/g, "'").replace(/[^a-z0-9.']+/g, " ");
  }

  function withIndex(cb) {
    if (prepared) { cb(prepared); return; }
    waiting.push(cb);
    if (loading) return;
    loading = true;
    var s = document.createElement("script");
    s.src = indexUrl;
    s.onload = function () {
      var data = window.WARBOOK_SEARCH || { games: {}, items: [] };
      prepared = data.items.map(function (it, n) {
        return { it: it, n: n, t: " " + norm(it.t) + " ", x: " " + norm(it.x) + " ",
                 game: data.games[it.g] || it.g };
      });
      var w = waiting; waiting = [];
      w.forEach(function (f) { f(prepared); });
    };
    s.onerror = function () { loading = false; };
    document.head.appendChild(s);
  }

  function count(hay, tok) {
    var c = 0, at = hay.indexOf(tok);
    while (at >= 0 && c < 4) { c++; at = hay.indexOf(tok, at + tok.length); }
    return c;
  }

  function search(items, query) {
    var q = norm(query).trim();
    if (!q) return [];
    var toks = q.split(" ").filter(Boolean);
    var out = [];
    for (var i = 0; i < items.length; i++) {
      var p = items[i], score = 0, ok = true;
      for (var k = 0; k < toks.length; k++) {
        var tok = toks[k];
        if (p.t.indexOf(" " + tok) >= 0) score += 14;
        else if (p.t.indexOf(tok) >= 0) score += 8;
        else if (p.x.indexOf(" " + tok) >= 0) score += 3 + count(p.x, " " + tok);
        else if (p.x.indexOf(tok) >= 0) score += 1;
        else { ok = false; break; }
      }
      if (!ok) continue;
      if (p.t.indexOf(" " + q) >= 0) score += 6;
      score += BONUS[p.it.k] || 0;
      out.push({ p: p, score: score });
    }
    out.sort(function (a, b) { return b.score - a.score || a.p.n - b.p.n; });
    return out.map(function (r) { return r.p; });
  }

  /* text with each query word marked */
  function marked(text, query) {
    var frag = document.createDocumentFragment();
    var toks = norm(query).trim().split(" ").filter(function (t) { return t.length > 1; });
    if (!toks.length) { frag.appendChild(document.createTextNode(text)); return frag; }
    var esc = toks.map(function (t) { return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
    var re = new RegExp("(" + esc.join("|") + ")", "gi");
    var last = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
      var mk = document.createElement("mark");
      mk.textContent = m[0];
      frag.appendChild(mk);
      last = m.index + m[0].length;
      if (m[0].length === 0) re.lastIndex++;
    }
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  function snippet(text, query) {
    var toks = norm(query).trim().split(" ").filter(Boolean);
    var low = text.toLowerCase(), at = -1;
    for (var k = 0; k < toks.length && at < 0; k++) at = low.indexOf(toks[k]);
    var size = 150;
    if (at < 0 || text.length <= size) return text.length > size ? text.slice(0, size) + "…" : text;
    var start = Math.max(0, at - 50);
    if (start > 0) { var sp = text.indexOf(" ", start); if (sp >= 0 && sp < at) start = sp + 1; }
    var end = Math.min(text.length, start + size);
    return (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
  }

  function item(p, query) {
    var li = document.createElement("li");
    li.className = "hit hit-" + p.it.k;
    var a = document.createElement("a");
    a.href = p.it.u;
    var title = document.createElement("span");
    title.className = "hit-title";
    title.appendChild(marked(p.it.t, query));
    var meta = document.createElement("span");
    meta.className = "hit-meta";
    meta.textContent = p.game + " · " + (KIND[p.it.k] || p.it.k);
    a.appendChild(title);
    a.appendChild(meta);
    if (p.it.x) {
      var sn = document.createElement("span");
      sn.className = "hit-text";
      sn.appendChild(marked(snippet(p.it.x, query), query));
      a.appendChild(sn);
    }
    li.appendChild(a);
    return li;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /* ---------------------------------------------------------------- header box */
  var input = document.getElementById("search-q");
  var box = document.getElementById("search-results");
  var list = document.getElementById("search-list");
  var status = document.getElementById("search-status");
  var MAX = 8;

  function close() { if (box) box.hidden = true; }

  function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }

  function update() {
    var q = input.value;
    if (!q.trim()) { close(); list.textContent = ""; status.textContent = ""; return; }
    withIndex(function (items) {
      if (input.value !== q) return;
      var hits = search(items, q);
      list.textContent = "";
      hits.slice(0, MAX).forEach(function (p) { list.appendChild(item(p, q)); });
      if (!hits.length) {
        var none = document.createElement("li");
        none.className = "hit-none";
        none.textContent = "Nothing found for \u201c" + q.trim() + "\u201d.";
        list.appendChild(none);
      } else if (hits.length > MAX) {
        var more = document.createElement("li");
        more.className = "hit-more";
        var a = document.createElement("a");
        a.href = "search.html?q=" + encodeURIComponent(q.trim());
        a.textContent = "All " + plural(hits.length, "result") + " \u2192";
        more.appendChild(a);
        list.appendChild(more);
      }
      status.textContent = hits.length ? plural(hits.length, "result") : "No results";
      box.hidden = false;
    });
  }

  if (input && box && list) {
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(update, 60);
    });
    input.addEventListener("focus", function () { withIndex(function () {}); });
    input.addEventListener("click", function () {
      if (input.value.trim() && list.childNodes.length) box.hidden = false;
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") {
        var ls = links();
        if (ls.length) { e.preventDefault(); box.hidden = false; ls[0].focus(); }
      } else if (e.key === "Escape") {
        if (!box.hidden) { e.preventDefault(); close(); }
        else if (input.value) { input.value = ""; update(); }
      }
    });
    box.addEventListener("keydown", function (e) {
      var ls = links(), at = ls.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && at >= 0) {
        e.preventDefault();
        if (at + 1 < ls.length) ls[at + 1].focus();
      } else if (e.key === "ArrowUp" && at >= 0) {
        e.preventDefault();
        if (at > 0) ls[at - 1].focus(); else input.focus();
      } else if (e.key === "Escape") {
        e.preventDefault(); close(); input.focus();
      }
    });
    box.addEventListener("click", function (e) {
      if (e.target.closest && e.target.closest("a")) close();
    });
    input.form.addEventListener("focusout", function (e) {
      if (!e.relatedTarget || !input.form.contains(e.relatedTarget)) setTimeout(close, 0);
    });
    document.addEventListener("click", function (e) {
      if (!input.form.contains(e.target)) close();
    });
  }

  /* ---------------------------------------------------------------- search page */
  var pageInput = document.getElementById("search-page-q");
  var pageList = document.getElementById("search-page-list");
  var pageStatus = document.getElementById("search-page-status");
  if (pageInput && pageList) {
    var render = function () {
      var q = pageInput.value;
      if (!q.trim()) { pageList.textContent = ""; pageStatus.textContent = "Type a word or a rule number, such as \u201cwar\u201d or \u201c4.2\u201d."; return; }
      withIndex(function (items) {
        if (pageInput.value !== q) return;
        var hits = search(items, q);
        pageList.textContent = "";
        hits.forEach(function (p) { pageList.appendChild(item(p, q)); });
        pageStatus.textContent = hits.length
          ? plural(hits.length, "result") + " for \u201c" + q.trim() + "\u201d"
          : "Nothing found for \u201c" + q.trim() + "\u201d.";
      });
    };
    var params = new URLSearchParams(window.location.search);
    pageInput.value = params.get("q") || "";
    var t2 = null;
    pageInput.addEventListener("input", function () {
      clearTimeout(t2);
      t2 = setTimeout(function () {
        render();
        try {
          var u = "search.html" + (pageInput.value.trim() ? "?q=" + encodeURIComponent(pageInput.value.trim()) : "");
          window.history.replaceState(null, "", u);
        } catch (e) { /* some file:// setups refuse: the results still show */ }
      }, 80);
    });
    render();
    if (!pageInput.value) pageInput.focus();
  }
})();
