/* warbook site: theme toggle, games menu, the "/" shortcut and the example viewer. Everything here is an enhancement: without it the page shows every step. */
(function () {
  "use strict";
  var root = document.documentElement;

  /* ---------------------------------------------------------------- theme */
  /* three states, in turn: follow the system, dark, light (then back to the system) */
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  var toggle = document.getElementById("theme-toggle");
  var NEXT = { system: "dark", dark: "light", light: "system" };
  var SAY = { system: "follows the system", dark: "dark", light: "light" };
  function mode() { return root.getAttribute("data-theme") || "system"; }
  function isDark() {
    var t = root.getAttribute("data-theme");
    return t ? t === "dark" : dark.matches;
  }
  function syncTheme() {
    if (!toggle) return;
    var m = mode(), label = "Theme: " + SAY[m] + (m === "system" ? " (" + (isDark() ? "dark" : "light") + ")" : "")
      + ". Switch to " + SAY[NEXT[m]];
    toggle.setAttribute("data-mode", m);
    toggle.setAttribute("data-dark", isDark() ? "true" : "false");
    toggle.title = label;
    var vh = toggle.querySelector(".vh");
    if (vh) vh.textContent = label;
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      var want = NEXT[mode()];
      if (want === "system") root.removeAttribute("data-theme");
      else root.setAttribute("data-theme", want);
      try {
        if (want === "system") window.localStorage.removeItem("warbook-theme");
        else window.localStorage.setItem("warbook-theme", want);
      } catch (e) { /* not kept */ }
      syncTheme();
    });
    if (dark.addEventListener) dark.addEventListener("change", syncTheme);
    syncTheme();
  }

  /* ---------------------------------------------------------------- games menu */
  var header = document.getElementById("site-header");
  var menu = document.getElementById("menu-toggle");
  if (menu && header) {
    menu.addEventListener("click", function () {
      var open = header.classList.toggle("menu-open");
      menu.setAttribute("aria-expanded", open ? "true" : "false");
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && header.classList.contains("menu-open")) {
        header.classList.remove("menu-open");
        menu.setAttribute("aria-expanded", "false");
        menu.focus();
      }
    });
  }

  /* ---------------------------------------------------------------- where am I (contents) */
  var toc = document.getElementById("toc");
  if (toc && window.matchMedia) {
    var wide = window.matchMedia("(min-width: 60rem)");
    /* beside the text on a wide screen, folded away above it on a narrow one */
    var details = toc.querySelector("details");
    var fold = function () { if (details) details.open = wide.matches; };
    fold();
    toc.classList.add("ready");
    if (wide.addEventListener) wide.addEventListener("change", fold);
    toc.addEventListener("click", function (e) {
      if (!wide.matches && details && e.target.closest && e.target.closest("a")) details.open = false;
    });
    /* the header's "Contents" (shown when the contents are not beside the text): unfold
       them, then the link takes the reader there; a chosen entry folds them again */
    var jump = document.getElementById("toc-jump");
    if (jump) {
      jump.addEventListener("click", function () {
        if (details) details.open = true;
        if (header && header.classList.contains("menu-open")) {
          header.classList.remove("menu-open");
          if (menu) menu.setAttribute("aria-expanded", "false");
        }
      });
    }
    var entries = [];
    var tocLinks = toc.querySelectorAll('a[href^="#"]');
    for (var j = 0; j < tocLinks.length; j++) {
      var el = document.getElementById(decodeURIComponent(tocLinks[j].getAttribute("href").slice(1)));
      if (el) entries.push({ link: tocLinks[j], el: el });
    }
    var current = null, queued = false;
    var spy = function () {
      queued = false;
      if (!wide.matches) return;
      var line = Math.min(140, window.innerHeight * 0.2), found = null;
      for (var k = 0; k < entries.length; k++) {
        if (entries[k].el.getBoundingClientRect().top <= line) found = entries[k];
        else break;
      }
      if (found === current) return;
      if (current) current.link.removeAttribute("aria-current");
      current = found;
      if (!current) return;
      current.link.setAttribute("aria-current", "location");
      var box = toc.getBoundingClientRect(), r = current.link.getBoundingClientRect();
      if (r.top < box.top + 40 || r.bottom > box.bottom - 40) {
        toc.scrollTop += r.top - box.top - box.height / 3;
      }
    };
    window.addEventListener("scroll", function () {
      if (!queued) { queued = true; window.requestAnimationFrame(spy); }
    }, { passive: true });
    spy();
  }

  /* ---------------------------------------------------------------- "/" focuses search */
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var q = document.getElementById("search-q");
    if (q) { e.preventDefault(); q.focus(); q.select(); }
  });

  /* ---------------------------------------------------------------- example viewer */
  /* Steps one at a time; inside a step, its events one at a time (the cards each event
     names are marked on the table); the cards that moved since the step before are
     marked; the step's own link is the counter, and stepping keeps the address on it. */
  function zonesOf(step) {
    var at = {};
    var imgs = step.querySelectorAll("img.card[data-card]");
    for (var k = 0; k < imgs.length; k++) {
      var code = imgs[k].getAttribute("data-card");
      var zone = imgs[k].closest(".zone");
      if (code !== "back" && zone) at[code] = zone.getAttribute("data-zone");
    }
    return at;
  }

  function Viewer(el) {
    this.el = el;
    this.steps = Array.prototype.slice.call(el.querySelectorAll(".steps > .step"));
    this.last = this.steps.length - 1;
    this.count = el.querySelector(".viewer-count");
    this.prev = el.querySelector(".vprev");
    this.next = el.querySelector(".vnext");
    this.bar = el.querySelector(".viewer-progress span");
    var self = this;
    /* the cards that moved: in another zone than the step before, or new on the table
       (a card the diagram marks shows its marks instead, which the key under it explains:
       the note says "Outlined" only when a card is) */
    var before = zonesOf(this.steps[0]);
    for (var s = 1; s < this.steps.length; s++) {
      var now = zonesOf(this.steps[s]);
      var imgs = this.steps[s].querySelectorAll("img.card[data-card]");
      var moved = 0;
      for (var k = 0; k < imgs.length; k++) {
        var code = imgs[k].getAttribute("data-card");
        if (code !== "back" && before[code] !== now[code]) {
          imgs[k].classList.add("moved");
          if (!imgs[k].closest(".card-marked")) moved++;
        }
      }
      if (moved) {
        var note = this.steps[s].querySelector(".moved-note");
        if (note) note.hidden = false;
      }
      before = now;
    }
    /* inside a step, its moments one at a time: 0 is the step as drawn (its diagram,
       as the book prints it); then the table before the step, after each event (the cards
       the event names are marked) and after the step, each the table the engine recorded
       at that moment (a <template> the page carries; -1: none, the step's own stands) */
    this.steps.forEach(function (step) {
      var lines = step.querySelectorAll(".narration li");
      var box = step.querySelector(".narration");
      var holder = step.querySelector(".moments");
      var at = holder ? holder.getAttribute("data-at").split(" ").map(Number) : [];
      var kept = holder ? holder.querySelectorAll("template") : [];
      var drawn = step.querySelector(".step-table");
      if (!box || !lines.length || (lines.length < 2 && !kept.length)) return;
      var last = kept.length ? lines.length + 2 : lines.length;
      var bar = document.createElement("div");
      bar.className = "event-bar";
      var back = document.createElement("button");
      back.type = "button"; back.className = "ebtn eprev"; back.textContent = "\u2039";
      back.setAttribute("aria-label", "Previous moment");
      var fwd = document.createElement("button");
      fwd.type = "button"; fwd.className = "ebtn enext"; fwd.textContent = "\u203a";
      fwd.setAttribute("aria-label", "Next moment");
      var say = document.createElement("span");
      say.className = "event-count";
      say.setAttribute("aria-live", "polite");
      bar.appendChild(back); bar.appendChild(say); bar.appendChild(fwd);
      var lab = box.querySelector(".label");
      box.insertBefore(bar, lab ? lab.nextSibling : box.firstChild);
      var showing = null;
      var table = function (k) {   /* the k-th kept table in place of the step's own */
        if (showing) { showing.parentNode.removeChild(showing); showing = null; }
        var other = k >= 0 ? kept[k] : null;
        if (drawn) drawn.classList.toggle("moment-hidden", !!other);
        if (!other) return;
        showing = other.content.firstElementChild.cloneNode(true);
        showing.classList.add("moment-table");
        if (drawn) drawn.parentNode.insertBefore(showing, drawn);
      };
      step.eventAt = 0;
      var show = function (n) {
        n = Math.max(0, Math.min(last, n));
        step.eventAt = n;
        /* with moments: 1 before the step, 2..L+1 the events, L+2 after it */
        var ev = kept.length ? n - 1 : n;
        var named = {};
        for (var k = 0; k < lines.length; k++) {
          lines[k].classList.toggle("event-now", k === ev - 1);
          lines[k].classList.toggle("event-later", n > 0 && k >= ev);
          if (k === ev - 1) (lines[k].getAttribute("data-cards") || "").split(" ").forEach(function (c) { if (c) named[c] = true; });
        }
        if (kept.length) table(n > 0 ? at[n - 1] : -1);
        var imgs = step.querySelectorAll("img.card[data-card]");
        for (var j = 0; j < imgs.length; j++) imgs[j].classList.toggle("named", !!named[imgs[j].getAttribute("data-card")]);
        step.classList.toggle("by-event", n > 0);
        say.textContent = n === 0 ? lines.length + " event" + (lines.length === 1 ? "" : "s")
          : kept.length && n === 1 ? "Before the step"
          : kept.length && n === last ? "After the step"
          : "Event " + ev + " of " + lines.length;
        back.setAttribute("aria-disabled", n === 0 ? "true" : "false");
        fwd.setAttribute("aria-disabled", n === last ? "true" : "false");
      };
      back.addEventListener("click", function () { show(step.eventAt - 1); });
      fwd.addEventListener("click", function () { show(step.eventAt + 1); });
      show(0);
    });
    el.querySelector(".viewer-controls").hidden = false;
    el.classList.add("enhanced");
    el.tabIndex = 0;
    this.prev.addEventListener("click", function () { self.go(self.at - 1, true); });
    this.next.addEventListener("click", function () { self.go(self.at + 1, true); });
    el.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var to = null;
      if (e.key === "ArrowRight") to = self.at + 1;
      else if (e.key === "ArrowLeft") to = self.at - 1;
      else if (e.key === "Home") to = 0;
      else if (e.key === "End") to = self.last;
      else if (e.key === "." || e.key === ",") {
        var b = self.steps[self.at].querySelector(e.key === "." ? ".enext" : ".eprev");
        if (b) { e.preventDefault(); b.click(); }
        return;
      }
      if (to === null) return;
      e.preventDefault();
      self.go(to, true);
    });
    this.at = -1;
    this.go(0, false);
  }
  Viewer.prototype.go = function (i, user) {
    i = Math.max(0, Math.min(this.last, i));
    if (i === this.at) return;
    this.at = i;
    for (var k = 0; k < this.steps.length; k++) {
      this.steps[k].classList.toggle("current", k === i);
    }
    this.count.textContent = this.steps[i].getAttribute("data-label");
    this.count.setAttribute("href", "#" + this.steps[i].id);
    this.prev.setAttribute("aria-disabled", i === 0 ? "true" : "false");
    this.next.setAttribute("aria-disabled", i === this.last ? "true" : "false");
    this.el.setAttribute("data-at", String(i));
    if (this.bar) this.bar.style.width = (this.last ? (100 * i) / this.last : 100) + "%";
    if (user) {
      try { window.history.replaceState(null, "", "#" + this.steps[i].id); } catch (e) { /* file:// may refuse */ }
    }
  };

  var viewers = [];
  var all = document.querySelectorAll(".viewer");
  for (var i = 0; i < all.length; i++) viewers.push(new Viewer(all[i]));

  /* a link to one step (#ex-...-s3) opens the viewer at that step */
  function followHash() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (!target || !target.classList.contains("step")) return;
    for (var v = 0; v < viewers.length; v++) {
      var at = viewers[v].steps.indexOf(target);
      if (at >= 0) { viewers[v].go(at, false); target.scrollIntoView({ block: "start", behavior: "instant" }); }
    }
  }
  window.addEventListener("hashchange", followHash);
  followHash();

  /* ---------------------------------------------------------------- search landing */
  /* the words a search result matched are marked where the reader lands */
  function unmark() {
    var old = document.querySelectorAll("mark.landed");
    for (var k = 0; k < old.length; k++) {
      var m = old[k], p = m.parentNode;
      p.replaceChild(document.createTextNode(m.textContent), m);
      p.normalize();
    }
  }
  function wordMatches(word, terms) {
    var w = word.toLowerCase().replace(/[\u2019']s$/, "");
    for (var k = 0; k < terms.length; k++) {
      var t = terms[k];
      if (t.length < 2) continue;
      if (w.indexOf(t) === 0) return true;
      if (t.length > 2 && /i$/.test(t) && w.indexOf(t.slice(0, -1) + "y") === 0) return true;
    }
    return false;
  }
  function markIn(el, terms) {
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, null);
    var nodes = [], n;
    while ((n = walker.nextNode())) {
      if (!n.parentNode.closest(".permalink, .viewer-controls, .event-bar, script, style")) nodes.push(n);
    }
    var re = /[A-Za-z0-9\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F'\u2019]*/g, count = 0;
    nodes.forEach(function (node) {
      var text = node.nodeValue, last = 0, m, frag = null;
      re.lastIndex = 0;
      while ((m = re.exec(text)) !== null) {
        if (!wordMatches(m[0], terms)) continue;
        frag = frag || document.createDocumentFragment();
        if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
        var mk = document.createElement("mark");
        mk.className = "landed";
        mk.textContent = m[0];
        frag.appendChild(mk);
        last = m.index + m[0].length;
        count++;
      }
      if (!frag) return;
      if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
      node.parentNode.replaceChild(frag, node);
    });
    return count;
  }
  function landing() {
    var saved;
    try { saved = JSON.parse(window.sessionStorage.getItem("warbook-highlight") || "null"); } catch (e) { return; }
    if (!saved || !saved.u) return;
    var parts = saved.u.split("#"), page = parts[0], id = parts[1] || "";
    var path = window.location.pathname;
    var here = path.slice(path.lastIndexOf("/") + 1) || "index.html";
    if (here !== page || decodeURIComponent(window.location.hash.slice(1)) !== id) return;
    try { window.sessionStorage.removeItem("warbook-highlight"); } catch (e) { /* kept */ }
    unmark();
    var el = id ? document.getElementById(id) : document.getElementById("main");
    if (!el) return;
    if (el.tagName === "H2" && el.parentNode.tagName === "SECTION") {
      /* a part's heading: its heading and own text, not every rule under it */
      markIn(el, saved.terms);
      var body = el.nextElementSibling;
      if (body && body.classList.contains("rule-body")) markIn(body, saved.terms);
    } else {
      markIn(el, saved.terms);
    }
  }
  window.warbookHighlight = landing;
  window.addEventListener("hashchange", function () { window.setTimeout(landing, 0); });
  landing();

  /* ---------------------------------------------------------------- glossary popovers */
  /* a term in the rules opens its definition in place, by tap, click or key (Enter);
     Escape, the close button or a click elsewhere closes it; without a script the link
     goes to the glossary entry */
  var pop = null, popFrom = null;
  function closePop(refocus) {
    if (!pop) return;
    pop.parentNode.removeChild(pop);
    pop = null;
    if (popFrom) {
      popFrom.setAttribute("aria-expanded", "false");
      if (refocus) popFrom.focus();
    }
    popFrom = null;
  }
  function openPop(link) {
    var id = decodeURIComponent(link.getAttribute("href").slice(1));
    var entry = document.getElementById(id);
    if (!entry) return false;
    closePop(false);
    pop = document.createElement("div");
    pop.className = "term-pop";
    pop.id = "term-pop";
    pop.setAttribute("role", "dialog");
    var dt = entry.querySelector("dt");
    pop.setAttribute("aria-label", dt ? dt.textContent : "Definition");
    pop.tabIndex = -1;
    var head = document.createElement("p");
    head.className = "term-pop-title";
    head.textContent = dt ? dt.textContent : "";
    var close = document.createElement("button");
    close.type = "button";
    close.className = "term-pop-close";
    close.setAttribute("aria-label", "Close");
    close.textContent = "\u00d7";
    close.addEventListener("click", function () { closePop(true); });
    pop.appendChild(close);
    pop.appendChild(head);
    var dd = entry.querySelector("dd");
    if (dd) {
      var body = dd.cloneNode(true);
      body.removeAttribute("id");
      var ids = body.querySelectorAll("[id]");
      for (var k = 0; k < ids.length; k++) ids[k].removeAttribute("id");
      var see = body.querySelector(".see");
      if (see) see.parentNode.removeChild(see);
      var div = document.createElement("div");
      div.className = "term-pop-body";
      while (body.firstChild) div.appendChild(body.firstChild);
      pop.appendChild(div);
    }
    var more = document.createElement("a");
    more.className = "term-pop-more";
    more.href = "#" + id;
    more.textContent = "Glossary entry \u2192";
    more.addEventListener("click", function () { closePop(false); });
    pop.appendChild(more);
    document.body.appendChild(pop);
    var r = link.getBoundingClientRect();
    var w = pop.offsetWidth, vw = document.documentElement.clientWidth;
    var left = Math.max(8, Math.min(vw - w - 8, r.left + window.scrollX - 16 + (r.left < 0 ? 0 : 0)));
    pop.style.left = left + "px";
    var below = r.bottom + window.scrollY + 6;
    if (r.bottom + pop.offsetHeight + 12 > window.innerHeight && r.top > pop.offsetHeight + 12) {
      below = r.top + window.scrollY - pop.offsetHeight - 6;
    }
    pop.style.top = below + "px";
    popFrom = link;
    link.setAttribute("aria-expanded", "true");
    link.setAttribute("aria-controls", "term-pop");
    pop.focus({ preventScroll: true });
    return true;
  }
  var termLinks = document.querySelectorAll("a.term");
  for (var t = 0; t < termLinks.length; t++) {
    var tl = termLinks[t];
    tl.removeAttribute("title");
    tl.setAttribute("aria-expanded", "false");
    tl.setAttribute("aria-haspopup", "dialog");
    tl.addEventListener("click", function (e) {
      if (e.ctrlKey || e.metaKey || e.shiftKey) return;
      if (popFrom === this) { e.preventDefault(); closePop(false); return; }
      if (openPop(this)) e.preventDefault();
    });
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && pop) { e.preventDefault(); closePop(true); }
  });
  document.addEventListener("click", function (e) {
    if (pop && !pop.contains(e.target) && !(e.target.closest && e.target.closest("a.term"))) closePop(false);
  });
  document.addEventListener("focusin", function (e) {
    if (pop && !pop.contains(e.target) && e.target !== popFrom) closePop(false);
  });
})();
