/* warbook site: theme toggle, games menu, the "/" shortcut and the example viewer. Everything here is an enhancement: without it the page shows every step. */
(function () {
  "use strict";
  var root = document.documentElement;

  /* ---------------------------------------------------------------- theme */
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  var toggle = document.getElementById("theme-toggle");
  function isDark() {
    var t = root.getAttribute("data-theme");
    return t ? t === "dark" : dark.matches;
  }
  function syncTheme() {
    if (!toggle) return;
    var on = isDark();
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.title = on ? "Switch to the light theme" : "Switch to the dark theme";
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      var want = isDark() ? "light" : "dark";
      root.setAttribute("data-theme", want);
      try { window.localStorage.setItem("warbook-theme", want); } catch (e) { /* not kept */ }
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
  function Viewer(el) {
    this.el = el;
    this.steps = Array.prototype.slice.call(el.querySelectorAll(".steps > .step"));
    this.last = this.steps.length - 1;
    this.count = el.querySelector(".viewer-count");
    this.prev = el.querySelector(".vprev");
    this.next = el.querySelector(".vnext");
    this.bar = el.querySelector(".viewer-progress span");
    var self = this;
    el.querySelector(".viewer-controls").hidden = false;
    el.classList.add("enhanced");
    el.tabIndex = 0;
    this.prev.addEventListener("click", function () { self.go(self.at - 1); });
    this.next.addEventListener("click", function () { self.go(self.at + 1); });
    el.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var to = null;
      if (e.key === "ArrowRight") to = self.at + 1;
      else if (e.key === "ArrowLeft") to = self.at - 1;
      else if (e.key === "Home") to = 0;
      else if (e.key === "End") to = self.last;
      if (to === null) return;
      e.preventDefault();
      self.go(to);
    });
    this.at = -1;
    this.go(0);
  }
  Viewer.prototype.go = function (i) {
    i = Math.max(0, Math.min(this.last, i));
    if (i === this.at) return;
    this.at = i;
    for (var k = 0; k < this.steps.length; k++) {
      this.steps[k].classList.toggle("current", k === i);
    }
    this.count.textContent = this.steps[i].getAttribute("data-label");
    this.prev.setAttribute("aria-disabled", i === 0 ? "true" : "false");
    this.next.setAttribute("aria-disabled", i === this.last ? "true" : "false");
    this.el.setAttribute("data-at", String(i));
    if (this.bar) this.bar.style.width = (this.last ? (100 * i) / this.last : 100) + "%";
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
      if (at >= 0) { viewers[v].go(at); target.scrollIntoView({ block: "start", behavior: "instant" }); }
    }
  }
  window.addEventListener("hashchange", followHash);
  followHash();
})();
