"""The rules website (``output/site``): built once per session from the shipped content,
then checked two ways.

* In a real browser: Playwright driving Debian's ``chromium`` package (never a downloaded
  browser). A missing browser FAILS these tests; they never skip.
* Without a browser: a pure-Python link checker (every internal link and ``#anchor``
  resolves), the search index, ids, scripts and escaping.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[3]
CONTENT = ROOT / "content"
SERIOUS = {"serious", "critical"}


# --------------------------------------------------------------------------- building
# (the fixtures site, pages and browser are in conftest.py, shared with test_site_phone.py)


def url(site: Path, page: str) -> str:
    """A file:// URL for a page, keeping any ?query and #fragment."""
    path, sep, rest = re.split(r"([?#])", page, maxsplit=1) + ["", ""][: 2 * ("?" not in page and "#" not in page)]
    return (site / path).as_uri() + sep + rest


# --------------------------------------------------------------------------- HTML parsing
class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.refs: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.scripts: list[dict[str, str | None]] = []
        self.handlers: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"])
        for k, v in attrs:
            if k.startswith("on"):
                self.handlers.append(f"<{tag} {k}>")
        for attr in ("href", "src"):
            if a.get(attr) is not None:
                self.refs.append((tag, attr, a[attr]))
        if tag == "script":
            self.scripts.append(a)


@functools.lru_cache(maxsize=None)
def parse(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@functools.lru_cache(maxsize=None)
def site_address(site: Path) -> str:
    """The public address the site was built for (``--site-url``), from its home page's
    canonical link; "" when it was built without one."""
    m = re.search(r'<link rel="canonical" href="([^"]+)"', (site / "index.html").read_text(encoding="utf-8"))
    return m.group(1) if m else ""


def check_ref(site: Path, page: Path, ref: str) -> str | None:
    """None if ``ref`` (found on ``page``) resolves, else what is wrong."""
    home = site_address(site)
    if home and ref.startswith(home):  # the site's own public address (--site-url)
        ref, page = ref[len(home):] or "index.html", site / "index.html"
    parts = urlsplit(ref)
    if parts.scheme or parts.netloc:
        return f"external reference {ref!r} (the site must be self-contained)"
    if not parts.path:
        target = page
    else:
        target = (page.parent / unquote(parts.path)).resolve()
    try:
        target.relative_to(site.resolve())
    except ValueError:
        return f"{ref!r} leaves the site"
    if not target.exists():
        return f"{ref!r}: no file {target}"
    if parts.fragment:
        if target.suffix != ".html":
            return f"{ref!r}: a fragment on a non-page"
        if unquote(parts.fragment) not in parse(target).ids:
            return f"{ref!r}: no id '{parts.fragment}' in {target.name}"
    return None


# --------------------------------------------------------------------------- pure Python
def test_every_internal_link_and_anchor_resolves(site: Path):
    problems = []
    checked = 0
    for page in sorted(site.glob("*.html")):
        for tag, attr, ref in parse(page).refs:
            checked += 1
            if page.name == "404.html":  # shown at any depth: links from the host's root,
                if ref.startswith("data:image/") and tag in ("img", "link"):  # pictures inside
                    continue
                assert ref.startswith(("/", "#")) and not ref.startswith("//"), f"404.html: {ref!r}"
                ref = ref.lstrip("/") or "index.html"
            err = check_ref(site, page, ref)
            if err:
                problems.append(f"{page.name}: <{tag} {attr}> {err}")
    for css in site.rglob("*.css"):
        for ref in re.findall(r"url\(\s*['\"]?([^'\")]+)", css.read_text(encoding="utf-8")):
            checked += 1
            if not ref.startswith("data:") and not (css.parent / ref).exists():
                problems.append(f"{css.name}: url({ref}) is missing")
    assert checked > 1000
    assert not problems, "\n".join(problems[:40])


def test_every_pdf_is_linked_from_the_home_page(site: Path):
    home = {ref for tag, attr, ref in parse(site / "index.html").refs if tag == "a"}
    pdfs = sorted(p.name for p in (site.parent / "pdf").glob("*.pdf"))
    assert "compendium.pdf" in pdfs and "pnp-deck.pdf" in pdfs
    missing = [name for name in pdfs if f"pdf/{name}" not in home]
    assert not missing, missing
    for page in site.glob("*.html"):
        if page.stem not in ("index", "search", "404"):
            refs = {ref for tag, attr, ref in parse(page).refs}
            assert f"pdf/{page.stem}-rules.pdf" in refs and f"pdf/{page.stem}-components.pdf" in refs
    # the site ships them: the same files as the build's pdf/ folder (hard links or copies)
    for name in pdfs:
        shipped = site / "pdf" / name
        assert shipped.read_bytes() == (site.parent / "pdf" / name).read_bytes(), name


def test_link_checker_catches_broken_links(site: Path, tmp_path: Path):
    page = site / "war.html"
    assert check_ref(site, page, "#no-such-rule")
    assert check_ref(site, page, "battle.html#no-such-rule")
    assert check_ref(site, page, "nope.html")
    assert check_ref(site, page, "https://example.org/x.js")
    assert check_ref(site, page, "../secret.txt")
    assert check_ref(site, page, "../pdf/war-rules.pdf")  # outside the web root
    assert check_ref(site, page, "battle.html#turn") is None
    assert check_ref(site, page, "pdf/war-rules.pdf") is None


def test_search_index_targets_resolve(site: Path, report):
    text = (site / "assets/search-index.js").read_text(encoding="utf-8")
    assert text.startswith("window.WARBOOK_SEARCH=") and "<" not in text
    data = json.loads(text[len("window.WARBOOK_SEARCH="):].rstrip().rstrip(";"))
    items = data["items"]
    kinds = {k: sum(1 for i in items if i["k"] == k) for k in ("game", "rule", "clarification", "term", "example")}
    assert kinds["game"] == len(report.games)
    games = report.games
    assert kinds["rule"] + kinds["clarification"] == sum(len(g.game.rule_index()) for g in games)
    assert kinds["term"] == sum(len(g.game.glossary) for g in games)
    assert kinds["example"] == sum(len(g.replays) for g in games)
    assert set(data["games"]) == {g.game.slug for g in games}
    bad = [i["u"] for i in items if check_ref(site, site / "index.html", i["u"])]
    assert not bad, bad[:10]


def test_ids_are_unique_on_every_page(site: Path):
    for page in site.glob("*.html"):
        ids = parse(page).ids
        dupes = {i for i in ids if ids.count(i) > 1}
        assert not dupes, f"{page.name}: {sorted(dupes)[:10]}"


def test_every_rule_has_a_permalink(site: Path, report):
    for gr in report.games:
        page = site / f"{gr.game.slug}.html"
        p = parse(page)
        html = page.read_text(encoding="utf-8")
        toc = html[html.index('<nav class="toc"'):html.index("</nav>", html.index('<nav class="toc"'))]
        for rid in gr.game.rule_index():
            assert rid in p.ids, f"{page.name}: no anchor for rule {rid}"
            assert f'class="permalink" href="#{rid}"' in html, f"{page.name}: no permalink for {rid}"
            assert f'href="#{rid}"' in toc, f"{page.name}: rule {rid} is not in the contents"
        for r in gr.replays:
            assert f"ex-{r.example.id}" in p.ids


def test_only_our_scripts_and_no_inline_handlers(site: Path):
    allowed = {"assets/theme.js", "assets/site.js", "assets/search.js"}
    for page in site.glob("*.html"):
        p = parse(page)
        srcs = {s.get("src") for s in p.scripts}
        assert srcs <= allowed, f"{page.name}: {srcs - allowed}"
        assert not p.handlers, f"{page.name}: {p.handlers[:5]}"
        text = page.read_text(encoding="utf-8")
        assert text.count("<script") == len(p.scripts)
        assert "javascript:" not in text.lower()


def test_glossary_terms_are_linked_in_rules(site: Path):
    html = (site / "winning-the-battle.html").read_text(encoding="utf-8")
    # 4.3 Outflanking defines "extra cards" and "cover": both link to the glossary
    block = html[html.index('id="outflank"'):html.index('id="stop-early"')]
    assert 'class="term" href="#term-extra-card"' in block
    assert 'class="term" href="#term-cover"' in block
    # never inside a heading
    for h in re.findall(r"<h[1-6][^>]*>.*?</h[1-6]>", html, re.S):
        assert 'class="term"' not in h


def test_link_terms_is_careful_with_markup():
    from builder.render.site.pages import TermLink, link_terms, term_pattern

    terms = [TermLink("Stone", "#term-stone", 'A "counter" <b>'), TermLink("Extra card", "#term-extra-card", "x"),
             TermLink("Card", "#term-card", "y")]
    pat = term_pattern(t.term for t in terms)
    html = ('<p>Take a <a class="xref" href="#s">stone rule</a>, then <code>stone</code>; '
            'two stones and extra cards and a card, stone&rsquo;s end &amp; more.</p>')
    out = str(link_terms(html, terms, pat))
    assert '<a class="xref" href="#s">stone rule</a>' in out
    assert "<code>stone</code>" in out
    assert '<a class="term" href="#term-stone" title="A &#34;counter&#34; &lt;b&gt;">stones</a>' in out
    assert '<a class="term" href="#term-extra-card" title="x">extra cards</a>' in out
    assert '<a class="term" href="#term-card" title="y">card</a>' in out
    assert out.count('href="#term-stone"') == 1  # the first occurrence only
    assert "&rsquo;" in out and "&amp;" in out


def test_plain_strings_cannot_inject_markup(tmp_path: Path):
    """Titles, taglines and table cells are plain text: whatever they hold is escaped in the
    pages and in the search index (Markdown with raw HTML is refused by the loader, see
    test_check.py::test_raw_html_is_refused)."""
    from builder.check import run_check
    from builder.render.site.pages import render_site
    from builder.settings import Settings

    root = tmp_path / "content"
    root.mkdir()
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    game = root / "war/game.yaml"
    clean = game.read_text()
    text = re.sub(r"^tagline: .*$", 'tagline: "</script><script>alert(1)</script>"', clean, count=1, flags=re.M)
    text = re.sub(r"^title: .*$", 'title: "War <img src=x onerror=alert(2)>"', text, count=1, flags=re.M)
    game.write_text(text)
    # the loader refuses markup in these strings, naming the line ...
    rep = run_check(root)
    assert not rep.ok
    errors = [d for d in rep.diagnostics.errors if "raw HTML" in d.message]
    assert {d.line for d in errors} >= {2, 6}, [str(d) for d in errors]
    # ... and should such strings reach the renderer anyway, they are escaped
    game.write_text(clean)
    rep = run_check(root)
    assert rep.ok, [str(d) for d in rep.diagnostics.errors]
    model = rep.content.games[0]
    model.tagline = "</script><script>alert(1)</script>"
    model.title = "War <img src=x onerror=alert(2)>"
    model.glossary[0].term = "Deck</script>"
    out = render_site(rep, tmp_path / "build", Settings(root, tmp_path / "output"))
    for f in out.rglob("*"):
        if f.suffix in (".html", ".js"):
            body = f.read_text(encoding="utf-8")
            assert "<script>alert" not in body, f
            assert "<img src=x" not in body, f
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in (out / "war.html").read_text()
    index = (out / "assets/search-index.js").read_text()
    assert "<" not in index and "\\u003c/script\\u003e" in index


def test_a_rule_id_the_page_needs_is_refused(tmp_path: Path):
    from builder.check import run_check
    from builder.render.site.pages import SiteError, render_site
    from builder.settings import Settings

    root = tmp_path / "content"
    root.mkdir()
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    rules = root / "war/rules.md"
    rules.write_text(rules.read_text().replace("{#golden-rules-decide}", "{#glossary}", 1))
    rep = run_check(root)
    assert rep.ok, [str(d) for d in rep.diagnostics.errors]
    with pytest.raises(SiteError, match="war: the rule 1.1 has the id 'glossary'"):
        render_site(rep, tmp_path / "build", Settings(root, tmp_path / "output"))




# --------------------------------------------------------------------------- browser
class Watch:
    """Console errors, page errors, failed requests and HTTP errors of one page."""

    def __init__(self, page):
        self.problems: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"), d.dismiss()))


@pytest.fixture()
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


def open_page(ctx, site: Path, page: str):
    pg = ctx.new_page()
    watch = Watch(pg)
    pg.goto(url(site, page))
    pg.wait_for_load_state("load")
    return pg, watch


def test_every_page_loads_cleanly(browser, site, pages):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        for name in pages:
            pg, watch = open_page(ctx, site, name)
            # use the search box too, so the index script is loaded on every page (but the
            # 404 page, which has no script: its box sends the words to the search page)
            if name != "404.html":
                pg.fill("#search-q", "war")
                pg.wait_for_selector("#search-results:not([hidden]) .hit")
            lazy = pg.eval_on_selector_all("img.card", "xs => xs.every(x => x.getAttribute('loading') === 'lazy')")
            assert lazy, name
            # card images load lazily (when their step shows): load them all now
            broken = pg.evaluate("""Promise.all(Array.from(document.images).map(i => {
                i.loading = 'eager'; return i.decode().then(() => i.naturalWidth > 0 ? null : i.src, () => i.src); }))
                .then(r => r.filter(Boolean))""")
            fonts = pg.evaluate("document.fonts.ready.then(f => Array.from(f)"
                                ".filter(x => x.status === 'error').map(x => x.family))")
            assert not broken, f"{name}: images not loaded: {broken[:5]}"
            assert not fonts, f"{name}: fonts failed: {fonts}"
            assert not watch.problems, f"{name}: {watch.problems}"
            pg.close()
    finally:
        ctx.close()


def test_search_outflank_finds_the_rule_and_lands_on_it(context, site):
    pg, watch = open_page(context, site, "index.html")
    pg.click("#search-q")
    pg.keyboard.type("outflank")
    hit = pg.locator('#search-results a[href="winning-the-battle.html#outflank"]')
    hit.wait_for()
    text = hit.inner_text()
    assert "Outflanking" in text and "Winning the Battle" in text
    first = pg.locator("#search-results .hit a").first.get_attribute("href")
    assert first == "winning-the-battle.html#outflank"
    hit.click()
    pg.wait_for_url("**/winning-the-battle.html#outflank")
    pg.wait_for_function("document.getElementById('outflank').matches(':target')")
    pg.wait_for_function("""(() => { const r = document.getElementById('outflank').getBoundingClientRect();
        return r.top >= -1 && r.top < window.innerHeight / 2; })()""")
    assert "Outflanking" in pg.locator("#outflank h3").inner_text()
    assert not watch.problems, watch.problems


def test_search_page_lists_every_hit(context, site):
    pg, watch = open_page(context, site, "search.html?q=outflank")
    pg.wait_for_selector("#search-page-list .hit")
    hrefs = pg.eval_on_selector_all("#search-page-list a", "as => as.map(a => a.getAttribute('href'))")
    assert hrefs[0] == "winning-the-battle.html#outflank"
    assert "winning-the-battle.html#term-outflank" in hrefs
    assert any(h.startswith("winning-the-battle.html#ex-") for h in hrefs)
    assert "result" in pg.inner_text("#search-page-status")
    pg.fill("#search-page-q", "zzzzqqq")
    pg.wait_for_function("document.getElementById('search-page-status').textContent.includes('Nothing found')")
    assert not watch.problems, watch.problems


def test_search_arrow_before_the_pause(context, site):
    """A reader who presses the down arrow before the pause after typing keeps their place:
    the list is the final query's and is not rebuilt under the focused link."""
    pg, watch = open_page(context, site, "war.html")
    pg.keyboard.press("/")
    pg.keyboard.type("gen", delay=120)
    pg.wait_for_selector("#search-results:not([hidden]) .hit a")
    pg.keyboard.type("eral")          # no pause: the list still shows "gen"'s hits
    pg.keyboard.press("ArrowDown")
    first = pg.evaluate("document.activeElement.getAttribute('href')")
    assert first and "#" in first
    pg.wait_for_timeout(300)          # past the pause the typing started
    assert pg.evaluate("document.activeElement.getAttribute('href')") == first
    assert pg.input_value("#search-q") == "general"
    assert not watch.problems, watch.problems


def test_search_keyboard(context, site):
    pg, watch = open_page(context, site, "war.html")
    pg.keyboard.press("/")
    assert pg.evaluate("document.activeElement.id") == "search-q"
    pg.keyboard.type("general")
    pg.wait_for_selector("#search-results:not([hidden]) .hit a")
    pg.keyboard.press("ArrowDown")
    first = pg.evaluate("document.activeElement.getAttribute('href')")
    assert first and first.startswith(("war.html#", "deck-management.html#"))
    pg.keyboard.press("ArrowDown")
    assert pg.evaluate("document.activeElement.getAttribute('href')") != first
    pg.keyboard.press("Escape")
    assert pg.locator("#search-results").is_hidden()
    assert pg.evaluate("document.activeElement.id") == "search-q"
    assert not watch.problems, watch.problems


def viewer_state(pg, sel):
    return pg.evaluate("""sel => { const v = document.querySelector(sel);
        const shown = Array.from(v.querySelectorAll('.step')).filter(s => s.offsetParent !== null);
        return {count: v.querySelector('.viewer-count').textContent, shown: shown.map(s => s.id),
                prev: v.querySelector('.vprev').getAttribute('aria-disabled'),
                next: v.querySelector('.vnext').getAttribute('aria-disabled')}; }""", sel)


def test_example_viewer_buttons_and_keys(context, site, report):
    gr = next(g for g in report.games if g.game.slug == "winning-the-battle")
    rep = next(r for r in gr.replays if r.example.id.endswith("outflanking"))
    n = len(rep.steps)
    ex = f"ex-{rep.example.id}"
    sel = f"#{ex} .viewer"
    pg, watch = open_page(context, site, f"winning-the-battle.html#{ex}")
    s = viewer_state(pg, sel)
    assert s == {"count": "Setup", "shown": [f"{ex}-setup"], "prev": "true", "next": "false"}
    pg.click(f"{sel} .vnext")
    s = viewer_state(pg, sel)
    assert s["count"] == f"Step 1 of {n}" and s["shown"] == [f"{ex}-s1"] and s["prev"] == "false"
    for i in range(2, n + 1):
        pg.click(f"{sel} .vnext")
    s = viewer_state(pg, sel)
    assert s["count"] == f"Step {n} of {n}" and s["shown"] == [f"{ex}-s{n}"] and s["next"] == "true"
    pg.click(f"{sel} .vnext", force=True)  # past the end (aria-disabled): stays
    assert viewer_state(pg, sel)["count"] == f"Step {n} of {n}"
    pg.click(f"{sel} .vprev")
    assert viewer_state(pg, sel)["count"] == f"Step {n - 1} of {n}"
    # keys: focus stays on the button (aria-disabled, never disabled), arrows step
    pg.keyboard.press("ArrowRight")
    assert viewer_state(pg, sel)["count"] == f"Step {n} of {n}"
    pg.keyboard.press("ArrowLeft")
    pg.keyboard.press("ArrowLeft")
    assert viewer_state(pg, sel)["count"] == f"Step {n - 2} of {n}"
    pg.keyboard.press("Home")
    assert viewer_state(pg, sel)["count"] == "Setup"
    pg.keyboard.press("End")
    assert viewer_state(pg, sel)["count"] == f"Step {n} of {n}"
    # the viewer itself takes focus from the keyboard
    pg.focus(sel)
    pg.keyboard.press("Home")
    pg.keyboard.press("ArrowRight")
    assert viewer_state(pg, sel)["count"] == f"Step 1 of {n}"
    # the visible step shows the engine's narration and the designer's note for that step
    step1 = pg.locator(f"#{ex}-s1")
    narration = step1.locator(".narration").inner_text()
    names = gr.game.player_names
    assert rep.steps[0].events[0].narrate(names) in narration
    assert step1.locator(".comment").is_visible()
    assert step1.locator(".table-diagram img.card").count() > 0
    assert not watch.problems, watch.problems


def test_every_viewer_counts_the_engine_steps(context, site, report):
    for gr in report.games:
        pg, watch = open_page(context, site, f"{gr.game.slug}.html")
        got = pg.evaluate("""Array.from(document.querySelectorAll('.example')).map(e => {
            const v = e.querySelector('.viewer');
            v.querySelector('.vnext').click();
            return [e.id, Number(v.dataset.steps), v.querySelector('.viewer-count').textContent,
                    v.querySelectorAll('.step').length]; })""")
        want = [(f"ex-{r.example.id}", len(r.steps)) for r in gr.replays]
        assert [(g[0], g[1]) for g in got] == want
        for eid, n, count, lis in got:
            assert count == f"Step 1 of {n}" and lis == n + 1, (eid, count, lis)
        assert not watch.problems, watch.problems
        pg.close()


def test_step_links_open_the_viewer_at_that_step(context, site):
    pg, watch = open_page(context, site, "war.html#ex-war-plain-trick-s2")
    assert viewer_state(pg, "#ex-war-plain-trick .viewer")["shown"] == ["ex-war-plain-trick-s2"]
    pg.evaluate("location.hash = '#ex-war-plain-trick-s1'")
    pg.wait_for_function("document.getElementById('ex-war-plain-trick-s1').offsetParent !== null")
    assert viewer_state(pg, "#ex-war-plain-trick .viewer")["count"] == "Step 1 of 2"
    assert not watch.problems


def test_stepping_keeps_the_step_in_the_address_and_links_it(context, site):
    pg, watch = open_page(context, site, "war.html")
    v = "#ex-war-plain-trick .viewer"
    assert pg.get_attribute(f"{v} a.viewer-count", "href") == "#ex-war-plain-trick-setup"
    pg.click(f"{v} .vnext")
    assert pg.evaluate("location.hash") == "#ex-war-plain-trick-s1"
    assert pg.get_attribute(f"{v} a.viewer-count", "href") == "#ex-war-plain-trick-s1"
    pg.click(f"{v} .vnext")
    assert pg.evaluate("location.hash") == "#ex-war-plain-trick-s2"
    # the link, opened afresh, shows that step
    pg2, _ = open_page(context, site, "war.html" + pg.evaluate("location.hash"))
    assert viewer_state(pg2, v)["shown"] == ["ex-war-plain-trick-s2"]
    assert not watch.problems


def test_events_inside_a_step_and_the_cards_that_moved(context, site, report):
    """Battle Lines' first example is one step of many events: the viewer walks them one at
    a time and marks the cards each names; the cards that moved are outlined."""
    gr = next(g for g in report.games if g.game.slug == "battle-lines")
    rep = gr.replays[0]
    step = rep.steps[0]
    events = [e for e in step.events if e.text]
    assert len(events) >= 5
    ex = f"ex-{rep.example.id}"
    pg, watch = open_page(context, site, f"battle-lines.html#{ex}-s1")
    s1 = pg.locator(f"#{ex}-s1")
    assert s1.locator(".event-count").inner_text() == f"{len(events)} events"
    # the deal puts every card on the table anew: each face-up card in the step moved
    moved = s1.locator("img.card.moved").count()
    assert moved == s1.locator('img.card:not([data-card="back"])').count() > 0
    first_named = [str(c) for c in events[0].cards]
    s1.locator(".enext").click()
    assert s1.locator(".event-count").inner_text() == "Before the step"
    assert s1.locator("img.card.named").count() == 0
    s1.locator(".enext").click()
    assert s1.locator(".event-count").inner_text() == f"Event 1 of {len(events)}"
    named = pg.eval_on_selector_all(f"#{ex}-s1 img.card.named", "xs => xs.map(x => x.dataset.card)")
    assert sorted(set(named)) == sorted(c for c in set(first_named) if c in named) and set(named) <= set(first_named)
    # the page prints card codes as a player reads them: 9C as 9♣ (the suits by hand)
    said = re.sub(r"\b(10|[2-9AJQK])([CDHS])\b",
                  lambda m: m.group(1) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[m.group(2)],
                  events[0].narrate(gr.game.player_names))
    assert s1.locator(".narration li.event-now").inner_text() == said
    assert s1.locator(".narration li.event-later").count() == len(events) - 1
    pg.keyboard.press(".")
    assert s1.locator(".event-count").inner_text() == f"Event 2 of {len(events)}"
    assert not watch.problems


#: in the page: every step's moments, the viewer's "Next" taking it to the step, then
#: walked with the step's own "next moment" button from the step as drawn to after the
#: step: at each, the places of the table then shown (each place's card codes, "back" for
#: a card face down, and a pile's count)
MOMENTS_JS = """() => Array.from(document.querySelectorAll('.step')).filter(st => st.querySelector('.moments'))
  .map(st => {
    const seen = () => {
      const tables = Array.from(st.querySelectorAll('.step-table')).filter(t => t.offsetParent !== null);
      if (tables.length !== 1) return 'tables shown: ' + tables.length;
      const out = {};
      for (const z of tables[0].querySelectorAll('.zone[data-zone]')) {
        const n = z.querySelector('.zone-count');
        out[z.dataset.zone] = [Array.from(z.querySelectorAll('img.card')).map(i => i.dataset.card),
                               n ? n.textContent : null];
      }
      return out;
    };
    const next = st.closest('.viewer').querySelector('.vnext');
    for (let k = 0; k < 400 && !st.classList.contains('current'); k++) next.click();
    const fwd = st.querySelector('.enext');
    const got = [];
    for (let k = 0; k < 400 && fwd.getAttribute('aria-disabled') !== 'true'; k++) {
      fwd.click();
      got.push([st.querySelector('.event-count').textContent, seen()]);
    }
    return [st.id, got];
  })"""


def drawn(zones) -> dict:
    """The places of a table as the site draws them (a pile of none shows no card)."""
    out = {}
    for z in zones:
        codes = [] if z.style == "pile" and z.count == 0 else \
            [str(c) if up else "back" for c, up in z.cards]
        count = (f"{z.count} card{'s' if z.count != 1 else ''}"
                 if z.style == "pile" and z.count is not None and codes else None)
        out[z.id] = [codes, count]
    return out


def test_the_viewer_shows_the_engine_s_table_at_every_moment(browser, site, report):
    """Issue 27, item 9: in every step of every game, the viewer shows the table before
    the step, after each event (as the engine recorded it when it made the event) and
    after the step, one table at a time, walked with the step's own buttons."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    walked = 0
    try:
        for gr in report.games:
            pg, watch = open_page(ctx, site, f"{gr.game.slug}.html")
            got = dict(pg.evaluate(MOMENTS_JS))
            for rep in gr.replays:
                before = rep.initial_table
                for i, s in enumerate(rep.steps, 1):
                    after = s.after if s.after is not None else s.table
                    told = [e for e in s.events if e.text]
                    sid = f"ex-{rep.example.id}-s{i}"
                    if s.refusal is None and told:
                        want = [["Before the step", drawn(before)]]
                        want += [[f"Event {k} of {len(told)}",
                                  drawn(e.moment if e.moment is not None else s.table)]
                                 for k, e in enumerate(told, 1)]
                        want.append(["After the step", drawn(after)])
                        assert got.pop(sid) == want, sid
                        walked += len(want)
                    before = after
            assert not got, f"{gr.game.slug}: steps with moments no replay has: {sorted(got)}"
            assert not watch.problems, watch.problems
            pg.close()
    finally:
        ctx.close()
    assert walked > 1000  # 939 events and two moments a step, in the shipped games


def test_without_javascript_every_step_is_listed(browser, site):
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        pg = ctx.new_page()
        pg.goto(url(site, "battle.html"))
        steps = pg.locator(".step")
        total = steps.count()
        assert total > 20
        visible = pg.evaluate("Array.from(document.querySelectorAll('.step'))"
                              ".filter(s => s.offsetParent !== null).length")
        assert visible == total
        assert pg.locator(".viewer-controls").first.is_hidden()
        assert pg.locator(".step-title").first.is_visible()
        # the games list stays reachable without the menu button's script
        assert pg.locator("#games-nav a").first.is_visible()
    finally:
        ctx.close()


def test_no_horizontal_scroll_at_360(browser, site, pages):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
    try:
        for name in pages:
            pg, watch = open_page(ctx, site, name)
            wide = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            assert pg.evaluate(wide) <= 0, name
            # every step of every example, in turn (the widest tables are mid-example)
            over = pg.evaluate("""() => { const bad = [];
                for (const v of document.querySelectorAll('.viewer')) {
                  const next = v.querySelector('.vnext');
                  for (let i = 0; i <= Number(v.dataset.steps); i++) {
                    const step = v.querySelector('.step.current');
                    const d = step.querySelector('.table-diagram');
                    if (document.documentElement.scrollWidth > document.documentElement.clientWidth
                        || (d && d.scrollWidth > d.clientWidth + 1)
                        || step.scrollWidth > step.clientWidth + 1)
                      bad.push(step.id);
                    next.click();
                  }
                }
                return bad; }""")
            assert not over, f"{name}: overflowing at 360 px: {over[:5]}"
            if pg.locator("#menu-toggle").is_visible():
                pg.click("#menu-toggle")
                assert pg.locator("#games-nav a").first.is_visible()
                assert pg.evaluate(wide) <= 0, name
            assert not watch.problems, f"{name}: {watch.problems}"
            pg.close()
    finally:
        ctx.close()


def background_luminance(pg) -> float:
    rgb = pg.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_dark_mode_follows_the_system(browser, site):
    for scheme, dark in (("dark", True), ("light", False)):
        ctx = browser.new_context(color_scheme=scheme)
        try:
            pg, watch = open_page(ctx, site, "war.html")
            lum = background_luminance(pg)
            assert (lum < 0.2) if dark else (lum > 0.8), (scheme, lum)
            assert pg.get_attribute("#theme-toggle", "data-dark") == ("true" if dark else "false")
            assert pg.get_attribute("#theme-toggle", "data-mode") == "system"
            assert not watch.problems
        finally:
            ctx.close()


def test_theme_toggle_is_remembered(browser, site):
    ctx = browser.new_context(color_scheme="light")
    try:
        pg, watch = open_page(ctx, site, "index.html")
        assert background_luminance(pg) > 0.8
        pg.click("#theme-toggle")
        assert pg.get_attribute("html", "data-theme") == "dark"
        assert background_luminance(pg) < 0.2
        pg.goto(url(site, "battle.html"))
        assert pg.get_attribute("html", "data-theme") == "dark"
        assert background_luminance(pg) < 0.2
        assert pg.get_attribute("#theme-toggle", "data-mode") == "dark"
        pg.click("#theme-toggle")
        pg.reload()
        assert pg.get_attribute("html", "data-theme") == "light"
        assert background_luminance(pg) > 0.8
        # the third press goes back to following the system, and that is remembered too
        pg.click("#theme-toggle")
        assert pg.get_attribute("html", "data-theme") is None
        assert pg.get_attribute("#theme-toggle", "data-mode") == "system"
        assert "follows the system" in pg.get_attribute("#theme-toggle", "title")
        pg.reload()
        assert pg.get_attribute("html", "data-theme") is None
        assert not watch.problems
    finally:
        ctx.close()


def test_keyboard_navigation(context, site):
    pg, watch = open_page(context, site, "index.html")
    pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.className") == "skip-link"
    assert pg.locator(".skip-link").is_visible()
    pg.keyboard.press("Enter")
    pg.wait_for_function("document.activeElement.id === 'main'")
    # on to a game, then a rule, by keyboard alone
    for _ in range(40):
        pg.keyboard.press("Tab")
        if pg.evaluate("document.activeElement.getAttribute('href')") == "battle-lines.html":
            break
    else:
        pytest.fail("could not reach the Battle Lines link with Tab")
    pg.keyboard.press("Enter")
    pg.wait_for_url("**/battle-lines.html")
    toc_link = pg.locator('#toc a[href="#reinforce"]')
    toc_link.focus()
    pg.keyboard.press("Enter")
    pg.wait_for_function("document.getElementById('reinforce').matches(':target')")
    assert not watch.problems


def test_any_rule_in_three_taps_on_a_phone(browser, site):
    """The game, its (folded) contents, the rule."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    try:
        pg, watch = open_page(ctx, site, "index.html")
        pg.tap('.game-card a[href="ultimate.html"]')
        pg.wait_for_url("**/ultimate.html")
        assert pg.locator("#toc ol ol a").first.is_hidden()
        pg.tap("#toc summary")
        link = pg.locator("#toc ol ol a").nth(5)
        target = link.get_attribute("href")
        link.tap()
        pg.wait_for_function(f"document.getElementById('{target[1:]}').matches(':target')")
        # the rule is in view below the header that stays at the top, which keeps the search
        top = pg.evaluate(f"document.getElementById('{target[1:]}').getBoundingClientRect().top")
        head = pg.evaluate("document.getElementById('site-header').getBoundingClientRect().bottom")
        assert head <= top < 740 / 2, (head, top)
        assert pg.locator("#search-q").is_visible()
        assert not watch.problems
    finally:
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_print_stylesheet(browser, site, scheme):
    """Print is light paper whatever the system's or the reader's theme."""
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    pg, watch = open_page(context, site, "winning-the-battle.html")
    if scheme == "dark":
        pg.click("#theme-toggle")  # the reader's own dark choice, on top of the system's
        assert pg.get_attribute("html", "data-theme") == "dark"
    pg.emulate_media(media="print")
    assert pg.locator(".site-header").is_hidden()
    assert pg.locator("#games-nav").is_hidden()  # (a sibling of the header, not in it)
    assert pg.locator("#toc").is_hidden()
    total = pg.locator(".step").count()
    visible = pg.evaluate("Array.from(document.querySelectorAll('.step')).filter(s => s.offsetParent !== null).length")
    assert visible == total
    assert background_luminance(pg) > 0.95
    ink = pg.evaluate("getComputedStyle(document.querySelector('.rule-body p')).color")
    assert sum(int(x) for x in re.findall(r"\d+", ink)[:3]) < 3 * 80, ink  # dark text
    pg.emulate_media(media="screen")
    assert not watch.problems
    context.close()


#: the axe rules whose outcome depends on the colours alone: what the dark theme changes
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def axe_violations(pg, rules: list[str] | None = None) -> list[str]:
    """axe's serious and critical findings on the page; ``rules``: only those rules."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    results = Axe().run(pg, options=options)
    out = []
    for v in results.response["violations"]:
        if v.get("impact") in SERIOUS:
            nodes = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                              for n in v["nodes"][:3])
            out.append(f"{v['id']} ({v['impact']}): {v['help']} [{nodes}]")
    return out


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(browser, site, pages, scheme):
    """Every page in both themes; in the dark one only the rules the colours decide
    (``COLOUR_RULES``: the theme changes nothing else)."""
    ctx = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    try:
        problems = []
        for name in pages:
            pg, watch = open_page(ctx, site, name)
            if name == "search.html":
                pg.fill("#search-page-q", "battle")
                pg.wait_for_selector("#search-page-list .hit")
            assert not watch.problems, f"{name}: {watch.problems}"
            problems += [f"{name}: {v}" for v in axe_violations(
                pg, COLOUR_RULES if scheme == "dark" else None)]
            pg.close()
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()


def test_axe_on_a_phone_with_menu_search_and_viewer(browser, site):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")
    try:
        pg, watch = open_page(ctx, site, "deck-management.html")
        pg.locator(".viewer .vnext").first.click()
        pg.locator(".step.current .enext").first.click()
        pg.locator('.rule-body a.term').first.click()  # a glossary popover
        pg.wait_for_selector(".term-pop")
        pg.click("#menu-toggle")  # (the open search covers the page below the header)
        pg.fill("#search-q", "war")
        pg.wait_for_selector("#search-results:not([hidden]) .hit")
        assert not watch.problems  # (axe's own requests for the CSS fail on file://)
        problems = axe_violations(pg)
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass


def test_works_from_a_static_http_host(browser, site):
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        ctx = browser.new_context()
        try:
            pg = ctx.new_page()
            watch = Watch(pg)
            for name in ("index.html", "battle-lines.html", "search.html?q=reserve"):
                # wait for the icon too: leaving a page while it loads aborts it
                pg.goto(base + name, wait_until="networkidle")
            pg.wait_for_selector("#search-page-list .hit")
            pg.fill("#search-q", "outflank")
            pg.locator('#search-results a[href="winning-the-battle.html#outflank"]').click()
            pg.wait_for_url("**/winning-the-battle.html#outflank")
            assert not watch.problems, watch.problems
        finally:
            ctx.close()
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------- search ranking
#: (page the search starts from, query, the result expected first). Worked out by reading
#: the content, not by running the search: each names the entry a reader means.
QUERIES = [
    ("search.html", "outflank", "winning-the-battle.html#outflank"),
    ("search.html", "reinforcement", "battle-lines.html#term-reinforcing"),  # the glossary's "Reinforcing"
    ("search.html", "reinforcment", "battle-lines.html#term-reinforcing"),   # misspelt
    ("search.html", "stoens", "winning-the-battle.html#term-stone"),          # two letters swapped
    ("search.html", "permadeath", "battle.html"),                             # the game's own tagline
    ("search.html", "dross", "deck-management.html"),
    ("search.html", "outflanks", "winning-the-battle.html#outflank"),        # the glossary's "Outflank", inflected
    ("war.html", "how do I win", "war.html#win-all-cards"),                 # stop words dropped
    ("battle-lines.html", "reserve", "battle-lines.html#term-reserve"),
]


def results(pg, page: str, query: str) -> list[str]:
    if page == "search.html":
        pg.fill("#search-page-q", query)
        pg.wait_for_function(
            "q => document.getElementById('search-page-status').textContent.includes('for \u201c' + q + '\u201d')",
            arg=query)
        return pg.eval_on_selector_all("#search-page-list .hit a", "as => as.map(a => a.getAttribute('href'))")
    pg.fill("#search-q", query)
    pg.wait_for_selector("#search-results:not([hidden]) .hit a")
    return pg.eval_on_selector_all("#search-list .hit a", "as => as.map(a => a.getAttribute('href'))")


def test_search_ranks_the_expected_result_first(context, site):
    wrong = []
    for page, query, want in QUERIES:
        pg, watch = open_page(context, site, page)
        got = results(pg, page, query)
        if not got or got[0] != want:
            wrong.append(f"{page} {query!r}: want {want}, got {got[:3]}")
        assert not watch.problems, watch.problems
        pg.close()
    assert not wrong, "\n".join(wrong)


def test_a_glossary_form_finds_the_glossary_entry(context, site):
    """"reinforcement" and "outflanked" are forms of the glossary's "Reinforcing" and
    "Outflank": each entry is among the first three hits, with the rules whose headings
    say the word."""
    pg, watch = open_page(context, site, "search.html")
    first = results(pg, "search.html", "reinforcement")[:3]
    assert "battle-lines.html#term-reinforcing" in first and "battle-lines.html#reinforce-section" in first
    first = results(pg, "search.html", "outflanked")[:3]
    assert "winning-the-battle.html#term-outflank" in first and "winning-the-battle.html#outflank" in first


def test_search_matches_words_not_fragments(context, site):
    """"ace" finds aces, never only "face" or "place"; every hit has a word that starts
    with "ace" in its title or text."""
    text = (site / "assets/search-index.js").read_text(encoding="utf-8")
    items = json.loads(text[len("window.WARBOOK_SEARCH="):].rstrip().rstrip(";"))["items"]
    by_url = {i["u"]: i for i in items}
    pg, watch = open_page(context, site, "search.html?q=ace")
    pg.wait_for_selector("#search-page-list .hit")
    hrefs = pg.eval_on_selector_all("#search-page-list .hit a", "as => as.map(a => a.getAttribute('href'))")
    assert hrefs
    loose = [h for h in hrefs if not re.search(r"\bace", by_url[h]["t"] + " " + by_url[h]["x"], re.I)]
    assert not loose, loose
    # the matched words are marked in the results
    marks = pg.eval_on_selector_all("#search-page-list mark", "ms => ms.map(m => m.textContent.toLowerCase())")
    assert marks and all(m.startswith("ace") for m in marks), marks[:10]


def test_search_filters_by_game(context, site):
    pg, watch = open_page(context, site, "search.html?q=war&g=battle")
    pg.wait_for_selector("#search-page-list .hit")
    hrefs = pg.eval_on_selector_all("#search-page-list .hit a", "as => as.map(a => a.getAttribute('href'))")
    assert hrefs and all(h.startswith("battle.html") for h in hrefs)
    # on a game's page, "Only <game>" keeps its own hits
    pg, watch = open_page(context, site, "battle-lines.html")
    pg.fill("#search-q", "war")
    pg.wait_for_selector("#search-results:not([hidden]) .hit a")
    pg.check("#search-only")
    pg.wait_for_function("""Array.from(document.querySelectorAll('#search-list .hit a'))
        .every(a => a.getAttribute('href').startsWith('battle-lines.html'))""")
    assert not watch.problems


def test_matched_words_are_marked_where_a_result_lands(context, site):
    pg, watch = open_page(context, site, "search.html?q=reinforcement")
    pg.wait_for_selector("#search-page-list .hit")
    pg.locator('#search-page-list a[href="battle-lines.html#term-reinforcing"]').click()
    pg.wait_for_url("**/battle-lines.html#term-reinforcing")
    pg.wait_for_selector("#term-reinforcing mark.landed")
    marks = pg.eval_on_selector_all("mark.landed", "ms => ms.map(m => m.textContent)")
    assert marks and all(m.lower().startswith("reinforc") for m in marks), marks
    assert pg.evaluate("Array.from(document.querySelectorAll('mark.landed'))"
                       ".every(m => m.closest('#term-reinforcing'))")
    assert not watch.problems


# --------------------------------------------------------------------------- phones
def test_first_rule_within_two_screens_at_360(browser, site, report):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    try:
        for gr in report.games:
            pg, watch = open_page(ctx, site, f"{gr.game.slug}.html")
            top = pg.evaluate("document.querySelector('.game-body .rule-h').getBoundingClientRect().top + scrollY")
            assert top < 2 * 740, (gr.game.slug, top)
            # the header stays on screen far down the page
            pg.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
            assert pg.evaluate("document.getElementById('site-header').getBoundingClientRect().top") == 0
            pg.wait_for_selector("#to-top:not([hidden])")
            pg.close()
    finally:
        ctx.close()


def test_glossary_term_opens_by_tap_and_by_key(browser, site):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    try:
        pg, watch = open_page(ctx, site, "winning-the-battle.html")
        term = pg.locator('#outflank a.term[href="#term-cover"]')
        definition = pg.locator("#term-cover dd").inner_text().split("\n")[0]
        term.scroll_into_view_if_needed()
        y = pg.evaluate("scrollY")
        term.tap()
        pop = pg.locator(".term-pop")
        pop.wait_for()
        assert definition[:40] in pop.inner_text()
        assert pg.evaluate("scrollY") == y  # no jump to the glossary
        assert term.get_attribute("aria-expanded") == "true"
        box = pop.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
        pg.keyboard.press("Escape")
        assert pop.count() == 0 and term.get_attribute("aria-expanded") == "false"
        # by key: focus the term, Enter opens, focus moves into the popover, Escape returns
        term.focus()
        pg.keyboard.press("Enter")
        pop.wait_for()
        assert pg.evaluate("document.activeElement.classList.contains('term-pop')")
        pg.keyboard.press("Escape")
        assert pop.count() == 0
        assert pg.evaluate("document.activeElement.getAttribute('href')") == "#term-cover"
        # the popover's own link still goes to the entry
        term.tap()
        pg.locator(".term-pop-more").tap()
        pg.wait_for_function("document.getElementById('term-cover').matches(':target')")
        assert not watch.problems
    finally:
        ctx.close()


def test_no_request_leaves_the_web_root(browser, site, pages):
    """Served over HTTP with site/ as the root: every page, its assets, the search (lunr and
    the index) and every PDF link answer 200, and nothing is asked of another host."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        ctx = browser.new_context()
        seen: list[str] = []
        try:
            pg = ctx.new_page()
            watch = Watch(pg)
            pg.on("request", lambda r: seen.append(r.url))
            for name in pages:
                pg.goto(base + name, wait_until="networkidle")
                if name != "404.html":  # (no script there: see test_404_*)
                    pg.fill("#search-q", "war")
                    pg.wait_for_selector("#search-results:not([hidden]) .hit")
                for href in pg.eval_on_selector_all('a[href$=".pdf"]', "as => as.map(a => a.href)"):
                    r = ctx.request.head(href)
                    assert r.status == 200, href
                    seen.append(href)
            assert not watch.problems, watch.problems
            outside = [u for u in seen if not u.startswith(base)]
            assert not outside, outside[:5]
            assert any(u.endswith("lunr.min.js") for u in seen) and any(u.endswith(".woff2") for u in seen)
            r = ctx.request.get(base + "no-such-page.html")
            assert r.status == 404
        finally:
            ctx.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
@pytest.mark.build
def test_site_url_adds_absolute_addresses(tmp_path: Path):
    """With the site's public address: canonical links, Open Graph and Twitter tags with
    the game's preview image, sitemap.xml, robots.txt and 404.html's <base>."""
    from builder.check import run_check
    from builder.render.site.pages import render_site
    from builder.settings import Settings

    root = tmp_path / "content"
    root.mkdir()
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    rep = run_check(root)
    assert rep.ok
    out = render_site(rep, tmp_path / "build", Settings(root, tmp_path / "output",
                                                        site_url="https://example.org/rules"))
    war = (out / "war.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://example.org/rules/war.html">' in war
    assert '<meta property="og:image" content="https://example.org/rules/assets/preview/war.png">' in war
    assert '<meta name="twitter:card" content="summary_large_image">' in war
    assert '<meta property="og:title" content="War · ' in war
    from PIL import Image
    with Image.open(out / "assets/preview/war.png") as im:
        assert im.size == (1200, 630)
    with Image.open(out / "assets/apple-touch-icon.png") as im:
        assert im.size == (180, 180)
    assert '<link rel="canonical" href="https://example.org/rules/">' in (out / "index.html").read_text()
    assert re.findall(r"<loc>(.*?)</loc>", (out / "sitemap.xml").read_text()) == [
        "https://example.org/rules/", "https://example.org/rules/search.html", "https://example.org/rules/war.html"]
    missing = (out / "404.html").read_text()
    assert '<link rel="stylesheet" href="https://example.org/rules/assets/site.css">' in missing
    assert '<a href="https://example.org/rules/war.html">' in missing and "<base" not in missing
    # without it: no absolute address anywhere, no sitemap
    plain = render_site(rep, tmp_path / "build2", Settings(root, tmp_path / "output"))
    assert "example.org" not in (plain / "war.html").read_text() and not (plain / "sitemap.xml").exists()
    assert "canonical" not in (plain / "war.html").read_text()
    missing = (plain / "404.html").read_text()
    assert "<base" not in missing and '<a href="/war.html">' in missing
    assert "<style>" in missing and '"/assets/' not in missing and "<script" not in missing


def test_games_menu_on_one_line_at_768(browser, site):
    ctx = browser.new_context(viewport={"width": 768, "height": 900})
    try:
        pg, watch = open_page(ctx, site, "battle-lines.html")
        tops = pg.eval_on_selector_all("#games-nav li", "ls => ls.map(l => Math.round(l.getBoundingClientRect().top))")
        assert len(tops) == 8 and len(set(tops)) == 1, tops    # the eight shipped games
        assert pg.evaluate("document.documentElement.scrollWidth") <= 768
        assert not watch.problems
    finally:
        ctx.close()


# --------------------------------------------------------------------------- the 404 page
class _Host(_Quiet):
    """A static host serving ``site`` under ``prefix`` ("/rules/"): a missing file is
    answered 404 with the site's own 404.html, at any depth, as GitHub Pages, Netlify or
    an S3 website do."""

    site: Path
    prefix = "/"

    def translate_path(self, path):
        path = urlsplit(path).path
        if not path.startswith(self.prefix):
            return str(self.site / ".no-such-file")
        return super().translate_path("/" + path[len(self.prefix):])

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (self.site / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class Host:
    """``with Host(prefix) as h``: a server on 127.0.0.1 (``h.base``, no slash at the end)
    that serves ``h.site`` (set it before the first request) under ``prefix``."""

    def __init__(self, prefix: str, site: Path | None = None):
        self.site = site
        host = self

        class Handler(_Host):
            def __init__(self, *args, **kwargs):
                self.site, self.prefix = host.site, prefix
                super().__init__(*args, directory=str(host.site), **kwargs)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def open_missing(ctx, address: str):
    """The 404 page at ``address``, loaded; (page, every request's URL, the problems: a
    failed request or an HTTP error other than the page's own 404)."""
    pg = ctx.new_page()
    seen: list[str] = []
    problems: list[str] = []
    pg.on("request", lambda r: seen.append(r.url))
    pg.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    pg.on("response", lambda r: r.status >= 400 and r.url != address
          and problems.append(f"HTTP {r.status}: {r.url}"))
    pg.on("console", lambda m: m.type == "error" and m.location.get("url") != address
          and problems.append(f"console: {m.text} ({m.location.get('url')})"))
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    response = pg.goto(address, wait_until="networkidle")
    assert response.status == 404, address
    assert "Page not found" in pg.title()
    return pg, seen, problems


def assert_styled(pg) -> None:
    """The site's stylesheet applies (the 404 page's own rule, the page colours) and its
    two typefaces are loaded."""
    style = pg.evaluate("""() => ({
        width: getComputedStyle(document.querySelector('main.missing')).maxWidth,
        ground: getComputedStyle(document.body).backgroundColor,
        heading: getComputedStyle(document.querySelector('h1')).fontFamily,
        brand: getComputedStyle(document.querySelector('.brand-mark')).width})""")
    assert style["width"] == "736px", style  # .missing { max-width: 46rem }
    assert style["ground"] != "rgba(0, 0, 0, 0)" and style["brand"] == "30px", style
    assert style["heading"].startswith("Cabin"), style
    fonts = pg.evaluate("document.fonts.ready.then(f => Array.from(f)"
                        ".filter(x => x.status === 'loaded').map(x => x.family.replace(/\"/g, '')))")
    assert "Cabin" in fonts and "EB Garamond" in fonts, fonts
    assert pg.evaluate("document.querySelector('.brand-mark').naturalWidth") > 0


@pytest.mark.parametrize("prefix", ["/", "/rules/"])
def test_404_page_is_whole_at_any_depth_without_the_site_address(browser, site, prefix):
    """Built without --site-url, a host may show the 404 page at any depth under a path the
    build cannot know: it is styled, with its typefaces and pictures, and asks for
    nothing (all of it is in the page). Its links start at the host's root, so they lead
    home wherever the site is the root."""
    with Host(prefix, site) as host:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            for address in (f"{host.base}{prefix}x/y/z/nothing", f"{host.base}{prefix}nothing.html"):
                pg, seen, problems = open_missing(ctx, address)
                assert_styled(pg)
                assert not problems, problems
                assert seen == [address], seen  # nothing but the page itself
                if prefix == "/":
                    pg.click("main a.button:text('All games')")
                    pg.wait_for_url(f"{host.base}/index.html")
                    assert pg.locator(".game-card").count() >= 8
                pg.close()
        finally:
            ctx.close()


@pytest.mark.slow
@pytest.mark.build
def test_404_page_works_at_any_depth_under_the_site_address(browser, tmp_path: Path):
    """Built with --site-url (here the test host's own address, under /rules/), the 404
    page links to its stylesheet, pictures and pages absolutely: styled, no failed
    request, at depth 4 as at depth 1, its links lead to the site's pages, and its
    links within the page stay on it."""
    from builder.check import run_check
    from builder.render.site.pages import render_site
    from builder.settings import Settings

    root = tmp_path / "content"
    root.mkdir()
    shutil.copytree(CONTENT / "war", root / "war")
    (root / "index.yaml").write_text("games: [war]\n")
    rep = run_check(root)
    assert rep.ok
    with Host("/rules/") as host:
        host.site = render_site(rep, tmp_path / "build",
                                Settings(root, tmp_path / "output", site_url=f"{host.base}/rules/"))
        ctx = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            for address in (f"{host.base}/rules/x/y/z/nothing", f"{host.base}/rules/nothing.html"):
                pg, seen, problems = open_missing(ctx, address)
                assert_styled(pg)
                assert not problems, problems
                assert f"{host.base}/rules/assets/site.css" in seen
                assert all(u.startswith(f"{host.base}/rules/") for u in seen), seen
                # "Skip to content" stays on the page (a <base> would send it home)
                assert pg.evaluate("document.querySelector('.skip-link').href") == address + "#main"
                assert pg.evaluate("document.documentElement.scrollWidth") <= 360
                pg.click("main a.button:text('All games')")
                pg.wait_for_url(f"{host.base}/rules/index.html")
                assert pg.locator(".game-card").count() == 1
                pg.go_back()
                pg.click("main .browse a:text('War')")
                pg.wait_for_url(f"{host.base}/rules/war.html")
                pg.close()
        finally:
            ctx.close()


# --------------------------------------------------------------------------- search: names, text, phrases
def index_items(site: Path) -> list[dict]:
    text = (site / "assets/search-index.js").read_text(encoding="utf-8")
    return json.loads(text[len("window.WARBOOK_SEARCH="):].rstrip().rstrip(";"))["items"]


def test_a_game_page_ranks_first_for_its_name(context, site, report):
    """A game's name (its title, or the short name the menu shows) finds its own page
    first, before the glossary's entry or the rules headed with that word ("war" found
    the War page 13th), from the search page and from another game's page."""
    from builder.render.site.pages import short_title

    pg, watch = open_page(context, site, "search.html")
    wrong = []
    for gr in report.games:
        want = f"{gr.game.slug}.html"
        for name in dict.fromkeys([gr.game.title, short_title(gr.game.title), gr.game.title.lower()]):
            got = results(pg, "search.html", name)
            if not got or got[0] != want:
                wrong.append(f"{name!r}: want {want}, got {got[:3]}")
    assert not wrong, "\n".join(wrong)
    pg, watch = open_page(context, site, "battle-lines.html")
    assert results(pg, "battle-lines.html", "war")[0] == "war.html"
    assert not watch.problems


#: markup or a character reference (&rsquo; &#8217;) where a reader should see text
MARKUP = re.compile(r"<[A-Za-z/!]|&(#[0-9]+|#x[0-9a-f]+|[a-z][a-z0-9]*);", re.I)


def test_search_shows_text_never_markup(context, site):
    bad = [f"{i['u']}: {MARKUP.search(i['t'] + ' ' + i['x']).group(0)}" for i in index_items(site)
           if MARKUP.search(i["t"] + " " + i["x"])]
    assert not bad, bad[:10]
    pg, watch = open_page(context, site, "search.html")
    for query in ("war", "peace", "battle lines", "families", "other's"):
        results(pg, "search.html", query)
        shown = pg.eval_on_selector_all("#search-page-list .hit-title, #search-page-list .hit-text",
                                        "xs => xs.map(x => x.textContent)")
        assert shown
        assert not [t for t in shown if MARKUP.search(t)], [t for t in shown if MARKUP.search(t)][:3]
    # the War page's hit reads as the home page does: the summary's words, not "<pTwo"
    assert "war.html" in results(pg, "search.html", "classic")
    text = pg.locator('#search-page-list a[href="war.html"] .hit-text').text_content()
    assert "Two players split a deck" in text and "<p" not in text
    assert not watch.problems


def test_quoted_words_are_a_phrase(context, site):
    """"deck management" in double quotes finds the entries where those words stand side
    by side in that order (a title or a text), marks the phrase whole, and ranks the game
    of that name first; without quotes every entry with either word is found."""
    by_url = {i["u"]: i for i in index_items(site)}
    side_by_side = re.compile(r"(?<![A-Za-z0-9])deck\W+management(?![A-Za-z0-9])", re.I)
    pg, watch = open_page(context, site, "search.html")
    words = results(pg, "search.html", "deck management")
    phrase = results(pg, "search.html", '"deck management"')
    assert phrase and phrase[0] == "deck-management.html", phrase[:3]
    apart = [h for h in phrase if not side_by_side.search(by_url[h]["t"] + " | " + by_url[h]["x"])]
    assert not apart, apart
    assert set(phrase) < set(words)
    marks = pg.eval_on_selector_all("#search-page-list mark", "ms => ms.map(m => m.textContent)")
    assert marks and all(side_by_side.fullmatch(m) for m in marks), marks[:5]
    # a phrase of many hits ("face-down" is the phrase too): each has it, and only those
    near = re.compile(r"(?<![A-Za-z0-9])face\W+down(?![A-Za-z0-9])", re.I)
    hits = results(pg, "search.html", '"face down"')
    assert len(hits) > 20 and not [h for h in hits if not near.search(by_url[h]["t"] + " | " + by_url[h]["x"])]
    assert sorted(hits) == sorted(u for u, i in by_url.items() if near.search(i["t"]) or near.search(i["x"]))
    # curly quotes (a phone's keyboard) are quotes too; the other order is another phrase
    assert results(pg, "search.html", "\u201cdeck management\u201d") == phrase
    pg.fill("#search-page-q", '"management deck"')
    pg.wait_for_function("document.getElementById('search-page-status').textContent.startsWith('Nothing found')")
    # in the header's box, while the phrase is still being typed (no closing quote yet)
    pg, watch = open_page(context, site, "war.html")
    assert results(pg, "war.html", '"deck manag')[0] == "deck-management.html"
    assert not watch.problems
