"""The website far down a long page, on a phone (360 px) and a desktop (1280 px), and its
colours in both themes: measured in Debian's chromium (Playwright), as test_site.py is.

* The header stays at the top (sticky) at both widths, and an example's Previous/Next
  controls, which stick too, stay below it: their boxes never meet.
* The contents can be reached from anywhere: a "Contents" control in the header opens
  them (by key too); without a script the contents are there to read.
* The "Top" link covers no text at any scroll position.
* The charts ("By the numbers") and the suit signs keep a WCAG contrast of at least
  4.5:1 (the charts' bars 3:1) against the ground they are drawn on, in light and dark,
  whether dark comes from the system or from the site's theme toggle.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_site import open_page, url

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {360: PHONE, 1280: DESKTOP}


@pytest.fixture(scope="session")
def game_pages(pages) -> list[str]:
    out = [p for p in pages if p not in {"index.html", "search.html", "404.html"}]
    assert len(out) >= 3, out
    return out


def intersects(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def box(pg, selector: str) -> dict:
    return pg.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
                       " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }", selector)


# --------------------------------------------------------------------------- WCAG contrast
def luminance(rgb: tuple[float, float, float]) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_is_wcags():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((0xc0, 0x39, 0x2b), (0x16, 0x18, 0x1b)) == pytest.approx(3.27, abs=.01)
    assert contrast((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=.01)


#: in the page: any CSS colour as sRGB bytes (a 1-pixel canvas reads oklab, color-mix()
#: and the rest alike), and the ground an element is painted on (the backgrounds of it and
#: its ancestors, composited, down to the page's)
COLOURS_JS = """
window.__rgba = (css) => {
  const c = window.__cv || (window.__cv = document.createElement('canvas'));
  c.width = c.height = 1;
  const x = c.getContext('2d', {willReadFrequently: true});
  x.clearRect(0, 0, 1, 1); x.fillStyle = '#000'; x.fillStyle = css; x.fillRect(0, 0, 1, 1);
  const d = x.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
};
window.__ground = (el) => {
  const layers = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    const c = window.__rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let out = [255, 255, 255];
  for (const c of layers.reverse()) out = out.map((v, i) => c[i] * c[3] + v * (1 - c[3]));
  return out;
};
"""


def inks(pg, selector: str, prop: str) -> list[dict]:
    """Every element matching ``selector`` that is drawn with words (or, for a fill
    without words, a shape), with its ``prop`` colour and its ground."""
    pg.evaluate(COLOURS_JS)
    return pg.evaluate("""([sel, prop]) => Array.from(document.querySelectorAll(sel))
      .filter(e => getComputedStyle(e).visibility !== 'hidden')
      .filter(e => e.tagName.toLowerCase() !== 'text' || e.textContent.trim())
      .map(e => ({what: (e.textContent || e.tagName).trim().slice(0, 30),
                  ink: window.__rgba(getComputedStyle(e)[prop]).slice(0, 3),
                  ground: window.__ground(e.closest('svg') ? e.closest('svg').parentElement : e)}))""",
                       [selector, prop])


def themed(browser, system: str, toggle: int, **kw):
    """A context with the system's ``system`` scheme and a page opener that presses the
    theme toggle until it is where ``toggle`` presses from the start take it (system ->
    dark -> light): the choice is remembered from page to page."""
    ctx = browser.new_context(color_scheme=system, **kw)
    want = [None, "dark", "light"][toggle]

    def opener(site_path: Path, name: str):
        pg, watch = open_page(ctx, site_path, name)
        for _ in range(3):
            if pg.get_attribute("html", "data-theme") == want:
                break
            pg.click("#theme-toggle")
        assert pg.get_attribute("html", "data-theme") == want
        return pg, watch
    return ctx, opener


#: (system scheme, presses of the toggle, the theme shown): dark both ways, light both ways
THEMES = [("light", 0, "light"), ("dark", 0, "dark"), ("light", 1, "dark"), ("dark", 2, "light")]


# --------------------------------------------------------------------------- far down a page
def scroll_into_last_viewer(pg) -> float:
    """Scroll so that the last example's viewer has started above the top of the screen
    (its controls, which stick, are at work); returns the scroll position."""
    return pg.evaluate("""() => {
      const v = Array.from(document.querySelectorAll('.viewer')).pop();
      const top = v.getBoundingClientRect().top + scrollY;
      window.scrollTo(0, top + Math.min(160, v.offsetHeight / 3));
      return scrollY; }""")


@pytest.mark.parametrize("width", [360, 1280])
def test_example_controls_stay_below_the_header(browser, site, game_pages, width):
    ctx = browser.new_context(viewport=SIZES[width])
    try:
        for name in game_pages[:4]:  # the rule is the site's: four games show it
            pg, watch = open_page(ctx, site, name)
            y = scroll_into_last_viewer(pg)
            assert y > 4 * SIZES[width]["height"], (name, y)  # far down the page
            head = box(pg, "#site-header")
            # the header is on screen: it sticks to the top, at this width too
            assert head["top"] == 0 and head["bottom"] > 0, (name, width, head)
            # a compact one: at most a tenth of the screen
            assert head["bottom"] <= SIZES[width]["height"] / 10 + 1, (name, head)
            controls = pg.evaluate("""() => {
                const r = Array.from(document.querySelectorAll('.viewer-controls')).pop().getBoundingClientRect();
                return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }""")
            assert not intersects(head, controls), (name, width, head, controls)
            assert controls["top"] < SIZES[width]["height"] / 3, (name, controls)  # stuck near the top
            pg.wait_for_timeout(50)
            # a step jumped to (#ex-...-s2) lands below the header and the controls
            step = pg.evaluate("Array.from(document.querySelectorAll('.viewer')).pop()"
                               ".querySelectorAll('.step')[1].id")
            pg.evaluate(f"window.location.hash = '#{step}'")
            pg.wait_for_function(f"document.getElementById('{step}').classList.contains('current')")
            pg.wait_for_timeout(50)
            top = pg.evaluate(f"document.getElementById('{step}').getBoundingClientRect().top")
            controls = pg.evaluate("""() => document.getElementById('%s').closest('.viewer')
                .querySelector('.viewer-controls').getBoundingClientRect().bottom""" % step)
            assert top >= controls - 1 and top >= head["bottom"] - 1, (name, step, top, controls, head)
            assert not watch.problems, watch.problems
            pg.close()
    finally:
        ctx.close()


def test_desktop_contents_stay_below_the_header(browser, site, game_pages):
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        pg, watch = open_page(ctx, site, game_pages[0])
        scroll_into_last_viewer(pg)
        head, toc = box(pg, "#site-header"), box(pg, "#toc")
        assert head["top"] == 0 and toc["top"] >= head["bottom"] - 1, (head, toc)
        assert toc["bottom"] <= DESKTOP["height"] + 1, toc
        assert not watch.problems
    finally:
        ctx.close()


@pytest.mark.parametrize("key", [False, True], ids=["tap", "key"])
def test_phone_reaches_the_contents_from_far_down(browser, site, game_pages, key):
    ctx = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        for name in game_pages[:3]:
            pg, watch = open_page(ctx, site, name)
            scroll_into_last_viewer(pg)
            control = pg.locator("#toc-jump")
            assert control.is_visible(), name
            c = box(pg, "#toc-jump")
            assert 0 <= c["top"] and c["bottom"] <= PHONE["height"], (name, c)
            assert "Contents" in (control.text_content() or "") + (control.get_attribute("aria-label") or "")
            if key:
                control.focus()
                pg.keyboard.press("Enter")
            else:
                control.tap()
            # the contents are open and on screen, below the header; an entry takes the reader there
            entry = pg.locator("#toc ol ol a").first
            entry.wait_for(state="visible")
            pg.wait_for_timeout(100)
            e, head = box(pg, "#toc ol ol a"), box(pg, "#site-header")
            assert head["bottom"] - 1 <= e["top"] and e["bottom"] <= PHONE["height"], (name, e, head)
            target = entry.get_attribute("href")[1:]
            if key:
                entry.focus()
                pg.keyboard.press("Enter")
            else:
                entry.tap()
            pg.wait_for_function(f"document.getElementById('{target}').matches(':target')")
            assert not watch.problems, watch.problems
            pg.close()
    finally:
        ctx.close()


def test_without_a_script_the_contents_are_there(browser, site, game_pages):
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        pg = ctx.new_page()
        pg.goto(url(site, game_pages[0]))
        assert pg.locator("#toc ol ol a").first.is_visible()
        # far down, the header's link goes to them (a plain link: no script needed)
        pg.keyboard.press("End")
        pg.wait_for_timeout(100)
        assert pg.evaluate("scrollY") > 10 * PHONE["height"]
        assert pg.locator("#toc-jump").count() == 1, "no contents control in the header"
        pg.click("#toc-jump")
        pg.wait_for_timeout(100)
        assert pg.locator("#toc ol ol a").first.is_visible()
        assert 0 <= box(pg, "#toc ol ol a")["top"] < PHONE["height"]
    finally:
        ctx.close()


TEXT_BOXES_JS = """(skip) => {
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const no = document.querySelector(skip);
  let n;
  while ((n = walker.nextNode())) {
    if (!n.nodeValue.trim() || (no && (no.contains(n) ))) continue;
    const p = n.parentElement, cs = getComputedStyle(p);
    if (cs.visibility === 'hidden' || p.closest('.vh, [hidden], script, style')) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects()) {
      if (b.width < 1 || b.height < 1 || b.bottom < 0 || b.top > innerHeight) continue;
      out.push({left: b.left, right: b.right, top: b.top, bottom: b.bottom, text: n.nodeValue.trim().slice(0, 40)});
    }
  }
  return out; }"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_top_link_covers_no_text(browser, site, game_pages, width):
    ctx = browser.new_context(viewport=SIZES[width])
    try:
        for name in game_pages[:2]:
            pg, watch = open_page(ctx, site, name)
            height = pg.evaluate("document.documentElement.scrollHeight")
            seen = 0
            for k in range(1, 13):
                pg.evaluate(f"window.scrollTo(0, {height * k / 12})")
                pg.wait_for_timeout(60)
                top = pg.locator("#to-top")
                if not top.is_visible():
                    continue
                t = box(pg, "#to-top")
                if t["bottom"] < 0 or t["top"] > SIZES[width]["height"]:
                    continue
                seen += 1
                covered = [b for b in pg.evaluate(TEXT_BOXES_JS, "#to-top") if intersects(t, b)]
                assert not covered, (name, width, k, t, covered[:3])
            assert seen, f"{name}: the Top link was never on screen"
            assert not watch.problems
            pg.close()
    finally:
        ctx.close()


# --------------------------------------------------------------------------- colours
@pytest.mark.parametrize("system,presses,shown", THEMES)
def test_charts_read_in_both_themes(browser, site, game_pages, system, presses, shown):
    ctx, opener = themed(browser, system, presses, viewport=DESKTOP)
    try:
        checked = 0
        for name in game_pages[:4]:  # the rule is the site's: four games show it
            pg, watch = opener(site, name)
            lum = pg.evaluate("getComputedStyle(document.body).backgroundColor")
            assert (shown == "dark") == (sum(int(x) for x in lum[4:-1].split(",")[:3]) < 3 * 80), (name, lum)
            texts = inks(pg, ".numbers-svg svg text", "fill")
            bars = inks(pg, ".numbers-svg svg .color-0 rect", "fill")
            lines = inks(pg, ".numbers-svg svg .axis .line:not(.guide)", "stroke")
            if not texts:
                pg.close()
                continue
            checked += 1
            low = [(t["what"], round(contrast(t["ink"], t["ground"]), 2)) for t in texts
                   if contrast(t["ink"], t["ground"]) < 4.5]
            assert not low, (name, shown, texts[0]["ink"], texts[0]["ground"], low[:5])
            assert bars, name
            faint = [(b["ink"], round(contrast(b["ink"], b["ground"]), 2)) for b in bars + lines
                     if contrast(b["ink"], b["ground"]) < 3]
            assert not faint, (name, shown, faint[:5])
            assert not watch.problems
            pg.close()
        assert checked >= 3
    finally:
        ctx.close()


@pytest.mark.parametrize("system,presses,shown", THEMES)
def test_suit_signs_read_in_both_themes(browser, site, game_pages, system, presses, shown):
    ctx, opener = themed(browser, system, presses, viewport=DESKTOP)
    try:
        counted = {"red": 0, "black": 0}
        for name in game_pages[:4]:  # the rule is the site's: four games show it
            pg, watch = opener(site, name)
            for colour in counted:
                signs = inks(pg, f".suit-{colour} .suit", "color")
                counted[colour] += len(signs)
                low = sorted({(tuple(s["ink"]), tuple(round(g) for g in s["ground"]),
                               round(contrast(s["ink"], s["ground"]), 2))
                              for s in signs if contrast(s["ink"], s["ground"]) < 4.5})
                assert not low, (name, shown, colour, low[:5])
            assert not watch.problems
            pg.close()
        assert counted["red"] > 20 and counted["black"] > 20, counted
    finally:
        ctx.close()


# --------------------------------------------------------------------------- diagrams
#: in the page: every piece of every table diagram that must stand clear of the others
#: (a zone's label, its count and its note, as the words themselves take up room; each
#: card, empty place, stone and stone count), and every pair of them that meets. The cards
#: of one zone may overlap (a fan, a stack); nothing else may, by more than half a pixel.
DIAGRAM_CLASHES_JS = """() => {
  const words = e => { const r = document.createRange(); r.selectNodeContents(e);
                       return r.getBoundingClientRect(); };
  const out = {diagrams: 0, pieces: 0, clashes: []};
  document.querySelectorAll('.table-diagram').forEach((d, n) => {
    if (!d.getClientRects().length) return;
    out.diagrams += 1;
    const items = [];
    d.querySelectorAll('.zone').forEach(z => {
      if (getComputedStyle(z).visibility === 'hidden') return;
      const id = z.dataset.zone || '?';
      for (const sel of ['.zone-label', '.zone-count', '.zone-note']) {
        const e = z.querySelector(sel);
        if (e && e.textContent.trim()) items.push([id, 'words', e.textContent.trim(), words(e)]);
      }
      z.querySelectorAll('.zone-cards img.card, .zone-none, .token, .token-count').forEach(e =>
        items.push([id, 'piece', e.dataset.card || e.className, e.getBoundingClientRect()]));
    });
    out.pieces += items.length;
    for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
      const [a, b] = [items[i], items[j]];
      if (a[0] === b[0] && a[1] === 'piece' && b[1] === 'piece') continue;
      const w = Math.min(a[3].right, b[3].right) - Math.max(a[3].left, b[3].left);
      const h = Math.min(a[3].bottom, b[3].bottom) - Math.max(a[3].top, b[3].top);
      if (w > .5 && h > .5) out.clashes.push(`diagram ${n + 1}: ${a[0]} ${a[1]} '${a[2]}' `
                                            + `meets ${b[0]} ${b[1]} '${b[2]}'`);
    }
  });
  return out;
}"""


#: the widths the diagrams are measured at (issue 27: 320 to 1600 px)
CLASH_WIDTHS = [320, 360, 1000, 1280, 1600]


def test_no_diagram_s_words_meet_its_cards_or_each_other(browser, site, game_pages):
    """Every step's table diagram on every game's page (without a script, so that every
    step is laid out), and every moment's the viewer may show, at each of CLASH_WIDTHS: no
    zone's words run into a card, a stone or other words. Each page is loaded once and
    then given each width in turn (the layout follows the window as the CSS sets it; no
    script runs to remember the first). Winning the Battle's stones zones once set their
    label, stones and count in one card-sized box, so that "Stones in the middle" lay over
    the 8 cards of the deck above it and "3 stones" over North's label, in all 22 steps."""
    ctx = browser.new_context(viewport={**SIZES.get(CLASH_WIDTHS[0], DESKTOP),
                                        "width": CLASH_WIDTHS[0]}, java_script_enabled=False)
    try:
        diagrams = dict.fromkeys(CLASH_WIDTHS, 0)
        for name in game_pages:
            pg, _watch = open_page(ctx, site, name)
            # the viewer's moments too (each a <template> the script shows in the step's
            # place): laid out here under their step's table
            pg.evaluate("() => { for (const t of document.querySelectorAll('.moments template'))"
                        " t.replaceWith(t.content.cloneNode(true));"
                        " for (const m of document.querySelectorAll('.moments')) m.hidden = false; }")
            for width in CLASH_WIDTHS:
                pg.set_viewport_size({**SIZES.get(width, DESKTOP), "width": width})
                assert pg.evaluate("() => window.innerWidth") == width
                found = pg.evaluate(DIAGRAM_CLASHES_JS)
                assert not found["clashes"], (name, width, found["clashes"][:6])
                assert found["diagrams"] == 0 or found["pieces"] > 4 * found["diagrams"], \
                    (name, width, found)
                diagrams[width] += found["diagrams"]
            pg.close()
        # the steps' tables and their moments, at every width
        assert all(n > 1000 for n in diagrams.values()), diagrams
    finally:
        ctx.close()
