/* warbook search: lunr.js (assets/lunr.min.js, MIT, see lunr.LICENSE) over an index that
   the build prebuilt with lunr.py (assets/search-index.js, a script that assigns
   window.WARBOOK_SEARCH, so it loads from file:// without fetch). Both load on first use.

   A query is words: each is looked up stemmed (so "reinforcement" finds "Reinforcing"),
   stop words ("how", "do", "I") are left out, a word of four letters or more also matches
   within one or two typos, and the word being typed also matches as a prefix. A word in a
   title or rule heading counts ten times one in the text; on a game's page that game's
   hits come first. Results are built with DOM nodes and textContent only. */
(function () {
  "use strict";
  var here = document.currentScript && document.currentScript.src;
  var base = here ? here.replace(/search\.js(\?.*)?$/, "") : "assets/";
  var KIND = { game: "Game", rule: "Rule", clarification: "Clarification", term: "Glossary", example: "Worked example" };
  var CURRENT = document.body.getAttribute("data-game") || "";
  var HERE_BOOST = 5;
  var prepared = null;
  var waiting = [];
  var loading = false;

  function load(src, done, fail) {
    var s = document.createElement("script");
    s.src = base + src;
    s.onload = done;
    s.onerror = fail;
    document.head.appendChild(s);
  }

  function withIndex(cb) {
    if (prepared) { cb(prepared); return; }
    waiting.push(cb);
    if (loading) return;
    loading = true;
    var failed = function () { loading = false; };
    load("lunr.min.js", function () {
      load("search-index.js", function () {
        var data = window.WARBOOK_SEARCH || { games: {}, items: [], index: null };
        prepared = { idx: window.lunr.Index.load(data.index), items: data.items, games: data.games };
        var w = waiting; waiting = [];
        w.forEach(function (f) { f(prepared); });
      }, failed);
    }, failed);
  }

  /* the query's words, as lunr tokenises them, without stop words */
  function words(query) {
    var lunr = window.lunr;
    return lunr.tokenizer(query).map(function (t) { return lunr.trimmer(t); })
      .filter(function (t) { return t && t.toString().length && lunr.stopWordFilter(t); })
      .map(function (t) { return t.toString(); });
  }

  /* hits for `query`: [{it, game, score, terms}] best first; `only` keeps one game's */
  function search(db, query, only) {
    var lunr = window.lunr;
    var ws = words(query);
    if (!ws.length) return [];
    var raw = db.idx.query(function (q) {
      ws.forEach(function (w, n) {
        var stem = lunr.stemmer(new lunr.Token(w)).toString();
        q.term(w, { boost: 10 });  // through the search pipeline: stemmed
        if (n === ws.length - 1 && w.length >= 2) {
          q.term(w, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING, boost: 2 });
        }
        if (w.length >= 4) {
          q.term(stem, { usePipeline: false, editDistance: w.length >= 8 ? 2 : 1, boost: 1 });
        }
      });
    });
    var out = [];
    raw.forEach(function (r) {
      var it = db.items[Number(r.ref)];
      if (only && it.g !== only) return;
      out.push({ it: it, game: db.games[it.g] || it.g, terms: Object.keys(r.matchData.metadata),
                 score: r.score * (it.g === CURRENT ? HERE_BOOST : 1), n: Number(r.ref) });
    });
    out.sort(function (a, b) { return b.score - a.score || a.n - b.n; });
    return out;
  }

  /* does a word of the text match one of the index terms (stems) that matched? */
  function matches(word, terms) {
    var w = word.toLowerCase().replace(/[\u2019']s$/, "");
    for (var k = 0; k < terms.length; k++) {
      var t = terms[k];
      if (t.length < 2) continue;
      if (w === t || (w.length >= t.length && w.indexOf(t) === 0)) return true;
      if (t.length > 2 && /i$/.test(t) && w.indexOf(t.slice(0, -1) + "y") === 0) return true;
    }
    return false;
  }

  var WORD = /[A-Za-z0-9\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F.'\u2019]*/g;

  /* text with each matching word marked */
  function marked(text, terms) {
    var frag = document.createDocumentFragment();
    var last = 0, m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) {
      var w = m[0].replace(/[.'\u2019]+$/, "");
      if (!matches(w, terms)) continue;
      if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
      var mk = document.createElement("mark");
      mk.textContent = w;
      frag.appendChild(mk);
      last = m.index + w.length;
    }
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  function snippet(text, terms) {
    var size = 160, at = -1, m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) {
      if (matches(m[0].replace(/[.'\u2019]+$/, ""), terms)) { at = m.index; break; }
    }
    if (at < 0 || text.length <= size) return text.length > size ? text.slice(0, size) + "\u2026" : text;
    var start = Math.max(0, at - 50);
    if (start > 0) { var sp = text.indexOf(" ", start); if (sp >= 0 && sp < at) start = sp + 1; }
    var end = Math.min(text.length, start + size);
    return (start > 0 ? "\u2026" : "") + text.slice(start, end) + (end < text.length ? "\u2026" : "");
  }

  /* remember what matched, so the page the reader lands on marks those words */
  function remember(hit) {
    try {
      window.sessionStorage.setItem("warbook-highlight", JSON.stringify({ u: hit.it.u, terms: hit.terms }));
    } catch (e) { /* storage unavailable: no marks on landing */ }
    if (window.warbookHighlight) window.setTimeout(window.warbookHighlight, 0);
  }

  function item(hit) {
    var li = document.createElement("li");
    li.className = "hit hit-" + hit.it.k;
    var a = document.createElement("a");
    a.href = hit.it.u;
    a.addEventListener("click", function () { remember(hit); });
    var title = document.createElement("span");
    title.className = "hit-title";
    title.appendChild(marked(hit.it.t, hit.terms));
    var meta = document.createElement("span");
    meta.className = "hit-meta";
    meta.textContent = hit.game + " \u00b7 " + (KIND[hit.it.k] || hit.it.k);
    a.appendChild(title);
    a.appendChild(meta);
    if (hit.it.x) {
      var sn = document.createElement("span");
      sn.className = "hit-text";
      sn.appendChild(marked(snippet(hit.it.x, hit.terms), hit.terms));
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
  var onlyHere = document.getElementById("search-only");
  var MAX = 8;

  function close() { if (box) box.hidden = true; }

  function links() { return Array.prototype.slice.call(box.querySelectorAll("a, input")); }

  var shown = null;  /* the query and scope the list now shows */

  function update() {
    var q = input.value;
    if (!q.trim()) { close(); list.textContent = ""; status.textContent = ""; shown = null; return; }
    withIndex(function (db) {
      if (input.value !== q) return;
      var only = onlyHere && onlyHere.checked ? CURRENT : "";
      /* the same query again keeps the list, and with it the reader's place in it */
      if (shown === only + "\n" + q) { box.hidden = false; return; }
      shown = only + "\n" + q;
      var hits = search(db, q, only);
      list.textContent = "";
      hits.slice(0, MAX).forEach(function (h) { list.appendChild(item(h)); });
      if (!hits.length) {
        var none = document.createElement("li");
        none.className = "hit-none";
        none.textContent = "Nothing found for \u201c" + q.trim() + "\u201d.";
        list.appendChild(none);
      } else if (hits.length > MAX) {
        var more = document.createElement("li");
        more.className = "hit-more";
        var a = document.createElement("a");
        a.href = "search.html?q=" + encodeURIComponent(q.trim()) + (only ? "&g=" + encodeURIComponent(only) : "");
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
      timer = setTimeout(function () { timer = null; update(); }, 60);
    });
    if (onlyHere) onlyHere.addEventListener("change", update);
    input.addEventListener("focus", function () { withIndex(function () {}); });
    input.addEventListener("click", function () {
      if (input.value.trim() && list.childNodes.length) box.hidden = false;
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") {
        /* a reader quicker than the pause after typing: show this query's hits first,
           so the list is not rebuilt under the link they move to */
        if (timer !== null) { clearTimeout(timer); timer = null; update(); }
        var ls = list.querySelectorAll("a");
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
  var pageGame = document.getElementById("search-page-game");
  var pageList = document.getElementById("search-page-list");
  var pageStatus = document.getElementById("search-page-status");
  if (pageInput && pageList) {
    var render = function () {
      var q = pageInput.value;
      var only = pageGame ? pageGame.value : "";
      if (!q.trim()) { pageList.textContent = ""; pageStatus.textContent = "Type a word or a rule number, such as \u201cwar\u201d or \u201c4.2\u201d."; return; }
      withIndex(function (db) {
        if (pageInput.value !== q) return;
        var hits = search(db, q, only);
        pageList.textContent = "";
        hits.forEach(function (h) { pageList.appendChild(item(h)); });
        var where = only ? " in " + (db.games[only] || only) : "";
        pageStatus.textContent = hits.length
          ? plural(hits.length, "result") + " for \u201c" + q.trim() + "\u201d" + where
          : "Nothing found for \u201c" + q.trim() + "\u201d" + where + ".";
      });
    };
    var params = new URLSearchParams(window.location.search);
    pageInput.value = params.get("q") || "";
    if (pageGame) pageGame.value = params.get("g") || "";
    var keep = function () {
      try {
        var qs = [];
        if (pageInput.value.trim()) qs.push("q=" + encodeURIComponent(pageInput.value.trim()));
        if (pageGame && pageGame.value) qs.push("g=" + encodeURIComponent(pageGame.value));
        window.history.replaceState(null, "", "search.html" + (qs.length ? "?" + qs.join("&") : ""));
      } catch (e) { /* some file:// setups refuse: the results still show */ }
    };
    var t2 = null;
    pageInput.addEventListener("input", function () {
      clearTimeout(t2);
      t2 = setTimeout(function () { render(); keep(); }, 80);
    });
    if (pageGame) pageGame.addEventListener("change", function () { render(); keep(); });
    render();
    if (!pageInput.value) pageInput.focus();
  }
})();
