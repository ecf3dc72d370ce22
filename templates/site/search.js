/* warbook search: lunr.js (assets/lunr.min.js, MIT, see lunr.LICENSE) over an index that
   the build prebuilt with lunr.py (assets/search-index.js, a script that assigns
   window.WARBOOK_SEARCH, so it loads from file:// without fetch). Both load on first use.

   A query is words: each is looked up stemmed (so "reinforcement" finds "Reinforcing"),
   stop words ("how", "do", "I") are left out, a word of four letters or more also matches
   within one or two typos, and the word being typed also matches as a prefix. Words in
   double quotes ("deck management", or curly quotes) are a phrase: an entry is found only
   if its title or its text has those words in that order, next to each other. A game's
   own page weighs most for its name, then a word in a title or rule heading counts ten
   times one in the text (the index's boosts); on a game's page that game's hits come
   first. Results are built with DOM nodes and textContent only. */
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

  var LETTER = "A-Za-z0-9\u00C0-\u024F";
  var QUOTE = /["\u201c\u201d\u201e]([^"\u201c\u201d\u201e]*)(["\u201c\u201d\u201e]?)/g;

  /* the query's phrases (in double quotes; an unclosed quote runs to the end, its last
     word being typed) and its words outside quotes */
  function parse(query) {
    var phrases = [], rest = "", last = 0, m;
    QUOTE.lastIndex = 0;
    while ((m = QUOTE.exec(query)) !== null) {
      rest += query.slice(last, m.index) + " ";
      last = QUOTE.lastIndex;
      var ps = m[1].split(new RegExp("[^" + LETTER + "]+")).filter(Boolean);
      if (!ps.length) continue;
      /* the words in this order, anything but a letter or digit between them (a space, a
         hyphen, an apostrophe), not inside another word; the last a prefix while open */
      var open = !m[2] && last === query.length;
      phrases.push({
        re: new RegExp("(^|[^" + LETTER + "])(" + ps.join("[^" + LETTER + "]+") + ")"
                       + (open ? "" : "(?![" + LETTER + "])"), "gi"),
        words: words(ps.join(" ")), open: open });
    }
    rest += query.slice(last);
    return { words: words(rest), phrases: phrases };
  }

  /* [start, end] of each occurrence of a phrase in text */
  function phraseAt(text, phrases) {
    var out = [];
    phrases.forEach(function (p) {
      var m;
      p.re.lastIndex = 0;
      while ((m = p.re.exec(text)) !== null) {
        var start = m.index + m[1].length;
        out.push([start, start + m[2].length]);
        if (p.re.lastIndex === m.index) p.re.lastIndex++;
      }
    });
    return out.sort(function (a, b) { return a[0] - b[0]; });
  }

  function hasPhrases(it, phrases) {
    return phrases.every(function (p) {
      p.re.lastIndex = 0;
      var inTitle = p.re.test(it.t);
      p.re.lastIndex = 0;
      var inText = !inTitle && p.re.test(it.x || "");
      p.re.lastIndex = 0;
      return inTitle || inText;
    });
  }

  /* hits for `query`: [{it, game, score, terms, loose, phrases}] best first; `only` keeps
     one game's. `terms`: the index terms that matched (the landing page marks them);
     `loose`: those of the words outside quotes (marked one by one in the results). With
     a phrase, every entry is tried against it (the index knows words, not their order)
     and lunr's score of its words ranks the entries that have it. */
  function search(db, query, only) {
    var lunr = window.lunr;
    var parsed = parse(query);
    var ws = parsed.words, phrases = parsed.phrases;
    if (!ws.length && !phrases.length) return [];
    var stems = {}, inPhrase = {}, lookup = [];
    ws.forEach(function (w) { stems[lunr.stemmer(new lunr.Token(w)).toString()] = true; });
    phrases.forEach(function (p) {
      p.words.forEach(function (w, n) {
        var typing = p.open && n === p.words.length - 1;
        lookup.push({ w: w, typing: typing });
        if (!typing) inPhrase[lunr.stemmer(new lunr.Token(w)).toString()] = true;
      });
    });
    var found = {};
    if (ws.length || lookup.length) {
      db.idx.query(function (q) {
        lookup.forEach(function (r) {
          if (r.typing) q.term(r.w, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING, boost: 10 });
          else q.term(r.w, { boost: 10 });
        });
        ws.forEach(function (w, n) {
          var stem = lunr.stemmer(new lunr.Token(w)).toString();
          q.term(w, { boost: 10 });  // through the search pipeline: stemmed
          if (n === ws.length - 1 && w.length >= 2 && !phrases.length) {
            q.term(w, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING, boost: 2 });
          }
          if (w.length >= 4) {
            q.term(stem, { usePipeline: false, editDistance: w.length >= 8 ? 2 : 1, boost: 1 });
          }
        });
      }).forEach(function (r) { found[r.ref] = r; });
    }
    var refs = phrases.length ? db.items.map(function (it, n) { return String(n); }) : Object.keys(found);
    var out = [];
    refs.forEach(function (ref) {
      var it = db.items[Number(ref)], r = found[ref];
      if (only && it.g !== only) return;
      if (phrases.length && !hasPhrases(it, phrases)) return;
      var terms = r ? Object.keys(r.matchData.metadata) : [];
      out.push({ it: it, game: db.games[it.g] || it.g, terms: terms, phrases: phrases,
                 loose: terms.filter(function (t) { return stems[t] || !inPhrase[t]; }),
                 score: (r ? r.score : 0.001) * (it.g === CURRENT ? HERE_BOOST : 1), n: Number(ref) });
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

  /* text with each phrase and each matching word marked */
  function marked(text, terms, phrases) {
    var spans = phraseAt(text, phrases || []), m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(text)) !== null) {
      var w = m[0].replace(/[.'\u2019]+$/, "");
      if (matches(w, terms)) spans.push([m.index, m.index + w.length]);
    }
    spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    var frag = document.createDocumentFragment();
    var last = 0;
    spans.forEach(function (sp) {
      if (sp[0] < last) return;  /* inside a phrase already marked */
      if (sp[0] > last) frag.appendChild(document.createTextNode(text.slice(last, sp[0])));
      var mk = document.createElement("mark");
      mk.textContent = text.slice(sp[0], sp[1]);
      frag.appendChild(mk);
      last = sp[1];
    });
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    return frag;
  }

  function snippet(text, terms, phrases) {
    var size = 160, at = -1, m;
    var found = phraseAt(text, phrases || []);
    if (found.length) at = found[0][0];
    WORD.lastIndex = 0;
    while (at < 0 && (m = WORD.exec(text)) !== null) {
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
    title.appendChild(marked(hit.it.t, hit.loose, hit.phrases));
    var meta = document.createElement("span");
    meta.className = "hit-meta";
    meta.textContent = hit.game + " \u00b7 " + (KIND[hit.it.k] || hit.it.k);
    a.appendChild(title);
    a.appendChild(meta);
    if (hit.it.x) {
      var sn = document.createElement("span");
      sn.className = "hit-text";
      sn.appendChild(marked(snippet(hit.it.x, hit.loose, hit.phrases), hit.loose, hit.phrases));
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
      if (!q.trim()) { pageList.textContent = ""; pageStatus.textContent = "Type a word or a rule number, such as \u201cwar\u201d or \u201c4.2\u201d; words in double quotes are found side by side."; return; }
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
