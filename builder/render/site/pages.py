"""Stage 3c: the rules website, ``output/site``.

Static files only, every link relative, so the site works from ``file://`` as well as from
any static host:

* ``index.html``: what the games are, the comparison table and every PDF;
* ``<slug>.html``: one page per game, rendered from the same :class:`~.present.GameView` as
  the rulebook (rules with permalinks, clarifications, worked examples, glossary);
* ``search.html`` and ``assets/search-index.js``: search over every game, offline (the
  index is a script assigning a global, so no ``fetch`` is needed);
* ``cards/*.svg``: each card image written once (a game's own cards in
  ``cards/<slug>/<deck>/``); ``assets/``: CSS, scripts, fonts;
* ``404.html``, which a host shows at any depth, so nothing on it is relative: its links
  and assets are absolute under the site's address (``--site-url``), or, without one, its
  links start at the host's root and its stylesheet, fonts and pictures are inside it
  (:func:`standalone`).

Content is data: Markdown goes through :mod:`.markup` (which escapes any HTML), plain
strings through Jinja's autoescaping, and the search index is JSON with every ``<`` written
as ``\\u003c``, so no content can put markup or a script into a page.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import logging
import os
import re
import shutil
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable, Iterable

from markupsafe import Markup, escape

from ... import __version__
from ...model import Game
from ...settings import Settings
from ..errors import RenderError
from ..faces import Faces
from ..fonts import find as find_font
from ..markup import XREF, Markdown, plain
from ..present import GameView, Links, Presenter, rules_line
from ..templating import environment, helper, overrides_of, template_file
from . import pictures, webfonts

log = logging.getLogger("warbook.render.site.pages")

#: the PDFs, inside the site (``site/pdf``: hard links to, or copies of, the build's own
#: ``pdf/`` files), so the site is whole with ``site/`` as the web root
PDF = "pdf"

#: static files copied from templates/site into site/assets (lunr.js with its licence)
ASSETS = ("site.css", "theme.js", "site.js", "search.js", "mark.svg", "lunr.min.js", "lunr.LICENSE")
#: the web fonts (the book's typefaces), subset and written as site/assets/fonts/<stem>.woff2
FONT_FILES = ("EBGaramond-Regular.ttf", "EBGaramond-Italic.ttf", "EBGaramond-Bold.ttf",
              "Cabin-Regular.otf", "Cabin-Italic.otf", "Cabin-SemiBold.otf", "Cabin-Bold.otf")

#: ids a game page uses for itself (templates/site/_base and game); a rule id, glossary
#: anchor or example anchor equal to one of these is refused with a clear message
PAGE_IDS = frozenset({
    "main", "site-header", "games-nav", "search-q", "search-results", "search-status",
    "search-list", "theme-toggle", "menu-toggle", "toc", "toc-jump", "to-top", "downloads",
    "options-table",
    "worked-examples", "glossary", "quick-reference", "changes",
})

#: a colour the stylesheet may be given as it is (a game's accent, for its charts' series)
_CSS_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def css_colour(value: str | None, default: str = "#9b1c26") -> str:
    """``value`` if it is a #rgb or #rrggbb colour, else ``default``: nothing else reaches
    a style attribute."""
    return value if isinstance(value, str) and _CSS_COLOUR.fullmatch(value) else default


NUMBER_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
                8: "Eight", 9: "Nine", 10: "Ten", 11: "Eleven", 12: "Twelve"}


class SiteError(RenderError):
    """A problem with the content that only the website notices (an id clash)."""


# --------------------------------------------------------------------------- links
def site_links() -> Links:
    """Anchors are the rule ids themselves, so a permalink is ``<slug>.html#<rule-id>``;
    every cross-reference stays on its game's page; cards are ``cards/<reference>.svg``
    (``cards/QD.svg``; a game's own card ``cards/high-colours/colours/R6.svg``)."""
    return Links(anchor=lambda slug, rid: rid,
                 href=lambda slug, rid: f"#{rid}",
                 card=lambda code: f"cards/{code}.svg")


def page_name(slug: str) -> str:
    return f"{slug}.html"


def short_title(title: str) -> str:
    """The name in the header's game list: "Winning the Battle, Losing the War" becomes
    "Winning the Battle"."""
    return title.split(",")[0].strip()


# --------------------------------------------------------------------------- glossary terms
_SKIP_TAGS = {"a", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "script", "style"}
_TAG = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"<\s*(/?)\s*([a-zA-Z][a-zA-Z0-9]*)")


@dataclass
class TermLink:
    term: str
    href: str
    title: str  # the definition in plain text, shown on hover


def term_pattern(terms: Iterable[str]) -> re.Pattern[str] | None:
    """One regular expression for every term, longest first, case-insensitive, allowing a
    plural ``s``/``es`` on the last word and any whitespace between words."""
    parts = []
    for t in sorted(set(terms), key=lambda s: (-len(s), s.lower())):
        words = t.split()
        if not words:
            continue
        parts.append(r"\s+".join(re.escape(w) for w in words))
    if not parts:
        return None
    # not inside a word, a number or a character reference such as &rsquo; / &#8217;
    return re.compile(r"(?<![\w&#\-])(" + "|".join(parts) + r")(?:s|es)?(?![\w\-])", re.I)


def link_terms(body: str, terms: list[TermLink], pattern: re.Pattern[str] | None) -> Markup:
    """Link the first occurrence of each glossary term in one rule's rendered HTML.

    Works on text between tags only, never inside a tag, a link, code or a heading, so the
    markup the renderer made is left exactly as it was."""
    if pattern is None or not body:
        return Markup(body)
    by_name = {t.term.lower(): t for t in terms}
    done: set[str] = set()
    skip = 0
    out = []
    for piece in _TAG.split(str(body)):
        if not piece:
            continue
        if piece.startswith("<"):
            m = _TAG_NAME.match(piece)
            if m and m.group(2).lower() in _SKIP_TAGS and not piece.endswith("/>"):
                skip += -1 if m.group(1) else 1
                skip = max(skip, 0)
            out.append(piece)
            continue
        if skip:
            out.append(piece)
            continue

        def repl(m: re.Match[str]) -> str:
            key = " ".join(m.group(1).lower().split())
            t = by_name.get(key)
            if t is None or key in done:
                return m.group(0)
            done.add(key)
            return (f'<a class="term" href="{escape(t.href)}" title="{escape(t.title)}">'
                    f"{m.group(0)}</a>")

        out.append(pattern.sub(repl, piece))
    return Markup("".join(out))


# --------------------------------------------------------------------------- search index
class _Text(HTMLParser):
    """The text of an HTML fragment: tags dropped (a block or a line break between
    words), character references decoded."""

    BREAKS = {"p", "br", "li", "ul", "ol", "div", "h1", "h2", "h3", "h4", "h5", "h6",
              "table", "tr", "td", "th", "dt", "dd", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        self.handle_starttag(tag, [])

    def handle_data(self, data):
        self.parts.append(data)


def html_text(fragment: str) -> str:
    """Rendered HTML (a summary, a table cell) as the plain text a reader sees: no tags,
    no character references (``&rsquo;`` is ’), one space between words."""
    p = _Text()
    p.feed(str(fragment or ""))
    p.close()
    return " ".join("".join(p.parts).split())


def search_text(text: str, index: dict) -> str:
    """Markdown as plain text for the index, with each ``[[rule-id]]`` written as the
    rule's number and title (as the page shows it), not as the bare id, and character
    references written as the characters they stand for (as the page shows them)."""
    def label(m: re.Match[str]) -> str:
        r = index.get(m.group(1))
        return r.label if r is not None else m.group(1)

    return html.unescape(plain(re.sub(XREF, label, text or "")))


def search_records(views: list[GameView], games: list[Game]) -> list[dict[str, Any]]:
    """Every rule, glossary entry and worked example of every game, as the search script
    reads them: kind, game slug, title, href, text."""
    recs: list[dict[str, Any]] = []
    for g, model in zip(views, games):
        page = page_name(g.slug)
        index = model.rule_index()
        # the summary is rendered HTML and the table cells may hold character references:
        # the index holds the text a reader sees, never markup (a snippet shows it as is)
        about = [g.tagline, html_text(g.summary), g.credit] + [html_text(v) for v in g.compare.values()]
        recs.append({"k": "game", "g": g.slug, "t": g.title, "u": page,
                     "x": " ".join(a for a in about if a)})
        for r in g.all_rules:
            title = f"{r.number} {r.title}"
            recs.append({"k": "rule" if r.part != "clarifications" else "clarification",
                         "g": g.slug, "t": title, "u": f"{page}#{r.anchor}",
                         "x": search_text(index[r.id].body, index), "l": r.level})
        terms = {t.term: t for t in model.glossary}
        for t in g.glossary:
            recs.append({"k": "term", "g": g.slug, "t": t.term, "u": f"{page}#{t.anchor}",
                         "x": search_text(terms[t.term].definition, index)})
        examples = {e.id: e for e in model.examples}
        for e in g.examples:
            ex = examples[e.id]
            text = " ".join([ex.intro] + [s.comment for s in ex.steps] + [ex.outro])
            recs.append({"k": "example", "g": g.slug, "t": f"Example {e.number}: {e.title}",
                         "u": f"{page}#{e.anchor}", "x": search_text(text, index)})
    return recs


#: how much more a hit of each kind weighs than a worked example's (lunr document boost):
#: a game's own page (its title is the page's title) twice, so "war" finds the War page
#: before the glossary's "War" and the rules headed "War"
KIND_BOOST = {"game": 2.0, "rule": 1.6, "clarification": 1.3, "term": 1.6, "example": 1.0}
#: field boosts: a word in a title or rule heading counts ten times one in the text
#: and a word of its permalink (a rule's id, "win-all-cards"; a game's page name,
#: "battle-lines") four times
FIELDS = [{"field_name": "t", "boost": 10}, {"field_name": "a", "boost": 4}, {"field_name": "x"}]


def boost(record: dict[str, Any]) -> float:
    """A hit's weight by kind; a rule three levels down (4.4.1) weighs less than the part
    or section above it (4, 4.4), which names the subject more broadly."""
    b = KIND_BOOST.get(record["k"], 1.0)
    if record["k"] == "rule" and record.get("l", 1) >= 3:
        b = KIND_BOOST["clarification"]
    return b


def permalink_words(record: dict[str, Any]) -> str:
    """The words of an entry's address: a rule's or a term's anchor ("win all cards",
    "term reserve"), a game's page name ("battle lines"); none for an example, whose
    anchor only repeats the game's slug."""
    page, _, anchor = record["u"].partition("#")
    if record["k"] == "example":
        return ""
    if record["k"] == "game":
        return page.removesuffix(".html").replace("-", " ")
    return anchor.replace("-", " ")


def search_index(records: list[dict[str, Any]]) -> dict[str, Any]:
    """A lunr index of ``records`` (refs are their positions), prebuilt with lunr.py the
    way MkDocs does, serialised for lunr.js 2.3.9 (``assets/lunr.min.js``): words are
    trimmed, stop words dropped and each word stemmed (Porter), so "reinforcement" and
    "Reinforcing" meet at "reinforc"."""
    from lunr import lunr

    docs = [({"id": str(i), "t": r["t"], "x": r["x"], "a": permalink_words(r)}, {"boost": boost(r)})
            for i, r in enumerate(records)]
    return lunr(ref="id", fields=FIELDS, documents=docs).serialize()


def js_assign(name: str, data: Any) -> str:
    """``window.NAME = <json>;`` safe to load as a script: no ``<`` (so never ``</script>``
    or ``<!--``), and U+2028/2029 escaped for older parsers."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    return f"window.{name}={text};\n"


# --------------------------------------------------------------------------- the site
class PdfLinks:
    """Where the PDFs are, relative to the site. When the build has written its PDFs
    (``pdf/`` beside ``site/`` in the staging folder) only those are linked, and any PDF
    the site does not know by name is listed too; without a ``pdf/`` folder (the site
    rendered on its own) the standard names are linked."""

    LABELS = {"pnp-deck-gutterfold": "Print-and-play deck, gutter-fold layout"}

    def __init__(self, pdf_dir: Path | None, known: set[str]):
        self.present = None
        self.pdf_dir = pdf_dir
        if pdf_dir is not None and pdf_dir.is_dir():
            self.present = {p.stem for p in pdf_dir.glob("*.pdf")}
        self.known = known

    def __call__(self, name: str) -> str:
        if self.present is not None and name not in self.present:
            return ""
        return f"{PDF}/{name}.pdf"

    def href_function(self) -> Callable[[str], str]:
        """``pdf(name)`` for the templates: a function over the names alone (the
        templates never hold this object, which knows the folder)."""
        present = None if self.present is None else frozenset(self.present)

        def pdf(name: str) -> str:
            if present is not None and name not in present:
                return ""
            return f"{PDF}/{name}.pdf"

        return helper(pdf)

    def extras(self) -> list[tuple[str, str]]:
        if not self.present:
            return []
        out = []
        for name in sorted(self.present - self.known):
            label = self.LABELS.get(name) or name.replace("-", " ").capitalize()
            out.append((f"{PDF}/{name}.pdf", label))
        return out


class SiteRenderer:
    def __init__(self, templates: Path | None = None, figures=None) -> None:
        self.templates = templates
        #: the balance lab's figures (``lab.figures.BookFigures``), or None: no numbers
        self.figures = figures
        self.env = environment(templates)
        self.env.filters["span"] = lambda widths: round(sum(widths), 3)
        self.env.filters["words"] = lambda n: NUMBER_WORDS.get(n, str(n))
        self.env.filters["widest"] = lambda e: max(
            [sum(e.setup.widths)] + [sum(s.diagram.widths) for s in e.steps])
        self.env.globals.update(version=__version__,
                                page_name=helper(page_name), short_title=helper(short_title),
                                describe=helper(describe))

    # ------------------------------------------------------------------ views
    def views(self, report) -> list[GameView]:
        presenter = Presenter(site_links(), self.figures)
        views = []
        for gr in report.games:
            v = presenter.game(gr)
            self.check_ids(v)
            self.link_glossary(v)
            reps = {r.example.id: r for r in gr.replays}
            for e in v.examples:
                rep = reps[e.id]
                # per step, per narrated event: the cards it names (the viewer marks them)
                e.event_cards = [[[str(c) for c in ev.cards] for ev in s.events if ev.text]
                                 for s in rep.steps]
            views.append(v)
        return views

    def check_ids(self, v: GameView) -> None:
        seen: dict[str, str] = {}
        ids = [(r.anchor, f"rule {r.number}") for r in v.all_rules]
        ids += [(t.anchor, f"glossary term '{t.term}'") for t in v.glossary]
        ids += [(e.anchor, f"example '{e.id}'") for e in v.examples]
        for anchor, what in ids:
            if anchor in PAGE_IDS:
                raise SiteError(f"{v.slug}: the {what} has the id '{anchor}', which the "
                                f"website uses for its own page structure; rename it")
            if anchor in seen:
                raise SiteError(f"{v.slug}: the {what} and the {seen[anchor]} share the id "
                                f"'{anchor}'")
            seen[anchor] = what

    def link_glossary(self, v: GameView) -> None:
        terms = [TermLink(t.term, f"#{t.anchor}", t.text) for t in v.glossary]
        pattern = term_pattern(t.term for t in terms)
        for r in v.all_rules:
            r.body = link_terms(r.body, terms, pattern)

    # ------------------------------------------------------------------ pages
    def nav(self, views: list[GameView]) -> list[dict[str, str]]:
        return [{"slug": g.slug, "title": g.title, "short": short_title(g.title),
                 "href": page_name(g.slug)} for g in views]

    def render(self, report, out: Path, pdf_dir: Path | None = None,
               site_url: str | None = None) -> dict[str, int]:
        views = self.views(report)
        site_url = normalise_url(site_url)
        nav = self.nav(views)
        known = {"compendium", "pnp-deck"} | {f"{g.slug}-{k}" for g in views
                                                for k in ("rules", "components")}
        pdfs = PdfLinks(pdf_dir, known)
        title = report.content.book.title
        logo = report.content.book.logo
        mark = "assets/logo" + Path(logo).suffix.lower() if logo else "assets/mark.svg"
        self.env.globals.update(pdf=pdfs.href_function(), extra_pdfs=pdfs.extras(), site_title=title,
                                brand_mark=mark, site_url=site_url, base_href="",
                                rules_version=rules_line(report.content.book))
        intro = Markdown(lambda rid: None).block(report.content.intro)
        pages = {
            "index.html": self.env.get_template("site/index.html.j2").render(
                games=views, nav=nav, current="", intro=intro, page_title=title, page="index.html",
                words=dataclasses.asdict(report.content.words),
                preview="assets/preview/index.png",
                description=report.content.book.subtitle or f"Rules, worked examples and "
                            f"printable sheets for {', '.join(g.title for g in views)}."),
            "search.html": self.env.get_template("site/search.html.j2").render(
                games=views, nav=nav, current="", page_title=f"Search · {title}", page="search.html",
                preview="assets/preview/index.png",
                description="Search the rules, glossaries and worked examples of every game."),
        }
        game_t = self.env.get_template("site/game.html.j2")
        accents = {gr.game.slug: gr.game.accent for gr in report.games}
        for g in views:
            pages[page_name(g.slug)] = game_t.render(
                g=g, nav=nav, current=g.slug, page_title=f"{g.title} · {title}",
                accent=css_colour(accents.get(g.slug)),
                page=page_name(g.slug), preview=f"assets/preview/{g.slug}.png",
                description=f"Rules of {g.title}: {g.tagline}",
                result_text=helper(lambda res, g=g: result_text(res, g.names)))
        # a missing page: served by static hosts for any path, at any depth, so nothing on
        # it is relative to its address: absolute links and assets when the site's address
        # is known, else links from the host's root and the assets written into the page
        # (standalone(), once the assets are written)
        pages["404.html"] = self.env.get_template("site/404.html.j2").render(
            games=views, nav=nav, current="", page_title=f"Page not found · {title}", page="",
            preview="assets/preview/index.png", description="This page does not exist.")
        for name, text in pages.items():
            if name != "404.html":
                (out / name).write_text(text, encoding="utf-8")
        self.write_host_files(out, sorted(n for n in pages if n != "404.html"), site_url)

        assets = out / "assets"
        assets.mkdir()
        scripts = []
        for name in ASSETS:
            shutil.copyfile(template_file(f"site/{name}", self.templates), assets / name)
            if name.endswith(".js") and name != "lunr.min.js":
                scripts.append((assets / name).read_text(encoding="utf-8"))
        if logo is not None:
            shutil.copyfile(logo, assets / ("logo" + Path(logo).suffix.lower()))
        records = search_records(views, [gr.game for gr in report.games])
        (assets / "search-index.js").write_text(
            js_assign("WARBOOK_SEARCH", {
                "games": {g.slug: short_title(g.title) for g in views},
                "items": records, "index": search_index(records)}),
            encoding="utf-8")
        self.write_fonts(assets / "fonts", list(pages.values()) + scripts
                         + [r["t"] + r["x"] for r in records])
        faces = Faces(report.content.root)
        for gr in report.games:
            faces.add(gr.game)
        ncards = self.write_cards(out / "cards", views, faces)
        self.link_pdfs(pdfs, out / PDF)
        self.write_pictures(assets, report, views, mark=assets / Path(mark).name)
        missing = pages["404.html"]
        (out / "404.html").write_text(missing if site_url else standalone(missing, assets),
                                      encoding="utf-8")
        return {"pages": len(pages), "cards": ncards}

    @staticmethod
    def write_host_files(out: Path, pages: list[str], site_url: str) -> None:
        """``robots.txt`` always; ``sitemap.xml`` when the site's address is known (a
        sitemap lists absolute addresses)."""
        robots = "User-agent: *\nAllow: /\n"
        if site_url:
            robots += f"Sitemap: {site_url}sitemap.xml\n"
            urls = "".join(f"  <url><loc>{escape(site_url + ('' if p == 'index.html' else p))}</loc></url>\n"
                           for p in pages)
            (out / "sitemap.xml").write_text(
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                f"{urls}</urlset>\n", encoding="utf-8")
        (out / "robots.txt").write_text(robots, encoding="utf-8")

    @staticmethod
    def write_pictures(assets: Path, report, views: list[GameView], mark: Path) -> None:
        """The preview image of each page (Open Graph, Twitter) and the PNG icons."""
        title = report.content.book.title
        accents = {gr.game.slug: gr.game.accent for gr in report.games}
        previews = [pictures.Preview("index.png", "warbook", title,
                                     report.content.book.subtitle or "", report.content.book.accent
                                     or "#9b1c26")]
        previews += [pictures.Preview(f"{g.slug}.png", title, g.title, g.tagline,
                                      accents.get(g.slug) or "#9b1c26") for g in views]
        folder = assets / "preview"
        folder.mkdir()
        for name, data in pictures.render(previews, mark).items():
            (folder / name if name in {p.name for p in previews} else assets / name).write_bytes(data)

    def write_fonts(self, folder: Path, texts: list[str]) -> None:
        """Each web font, subset to the characters of ``texts``, as WOFF2."""
        folder.mkdir()
        chars = webfonts.characters(texts)
        for name in FONT_FILES:
            data = webfonts.cached_woff2(find_font(name), chars)
            (folder / (Path(name).stem + ".woff2")).write_bytes(data)

    @staticmethod
    def link_pdfs(pdfs: "PdfLinks", folder: Path) -> None:
        """The build's PDFs inside the site: a hard link each (no copy on disk) where the
        file system allows, else a copy."""
        if not pdfs.present:
            return
        folder.mkdir()
        for name in sorted(pdfs.present):
            src, dst = pdfs.pdf_dir / f"{name}.pdf", folder / f"{name}.pdf"
            try:
                os.link(src, dst)
            except OSError:
                shutil.copyfile(src, dst)

    def write_cards(self, folder: Path, views: list[GameView], faces: Faces | None = None) -> int:
        """Each card image that any diagram shows, written once, in its compact style
        (``faces``: every game's own decks, added; the French 52 alone without)."""
        faces = faces if faces is not None else Faces()
        folder.mkdir()
        refs: set[str] = set()
        for g in views:
            for e in g.examples:
                for d in [e.setup] + [s.diagram for s in e.steps]:
                    for row in d.rows:
                        for z in row:
                            if z is not None:
                                refs.update(c.art for c in z.cards)
        for ref in sorted(refs):
            path = folder / f"{ref}.svg"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(faces.svg(ref, "compact"), encoding="utf-8")
        return len(refs)


# --------------------------------------------------------------------------- the 404 page
#: what standalone() writes into the page as data: addresses
DATA_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2"}
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="/assets/([\w.-]+\.css)">')
_ASSET_REF = re.compile(r'(href|src)="/assets/([\w.-]+)"')
_CSS_URL = re.compile(r"""url\(\s*(["']?)([\w./-]+)\1\s*\)""")
_FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}\n?")
_ITALIC = re.compile(r"font-style:\s*italic")


def data_url(data: bytes, suffix: str) -> str:
    return f"data:{DATA_TYPES[suffix.lower()]};base64,{base64.b64encode(data).decode('ascii')}"


def standalone(page: str, assets: Path) -> str:
    """The 404 page of a site whose address is unknown, made whole in itself: a host
    shows it at any depth under a path the build cannot know, where no link to
    ``assets/`` could be right. Its stylesheet (``/assets/site.css``) is written into a
    ``<style>``, each upright web font the stylesheet names as a data: address cut to the
    page's own characters, and each picture the page shows (``/assets/mark.svg``, the logo) as
    a data: address, so it makes no request at all. The page's links stay as the
    template wrote them (from the host's root)."""
    chars = webfonts.characters([page])
    sources = {Path(name).stem: name for name in FONT_FILES}
    inside = assets.resolve()

    def embedded(path: Path) -> str | None:
        path = path.resolve()
        if path.suffix.lower() not in DATA_TYPES or inside not in path.parents or not path.is_file():
            return None
        if path.suffix.lower() == ".woff2" and path.stem in sources:
            return data_url(webfonts.cached_woff2(find_font(sources[path.stem]), chars), ".woff2")
        return data_url(path.read_bytes(), path.suffix)

    def css_url(m: re.Match[str]) -> str:
        data = embedded(assets / m.group(2))
        return m.group(0) if data is None else f'url("{data}")'

    def stylesheet(m: re.Match[str]) -> str:
        path = assets / m.group(1)
        if not path.is_file():
            return m.group(0)
        # the page sets nothing in italic: its italic faces are left out (the browser
        # would slant the upright one), a quarter of what the page would weigh
        css = _FONT_FACE.sub(lambda f: "" if _ITALIC.search(f.group(0)) else f.group(0),
                             path.read_text(encoding="utf-8"))
        css = _CSS_URL.sub(css_url, css)
        # no "</style>" can end the element early, whatever a content stylesheet holds
        return "<style>\n" + css.replace("</", "<\\/") + "</style>"

    def picture(m: re.Match[str]) -> str:
        data = embedded(assets / m.group(2))
        return m.group(0) if data is None else f'{m.group(1)}="{data}"'

    return _ASSET_REF.sub(picture, _STYLESHEET.sub(stylesheet, page))


def normalise_url(url: str | None) -> str:
    """The site's public address with one trailing slash ("" when unknown). Only http(s)
    addresses are taken: the value ends up in the pages' head."""
    if not url:
        return ""
    url = url.strip()
    if not re.match(r"^https?://[^\s/?#<>\"']+(/[^\s?#<>\"']*)?$", url):
        raise SiteError(f"site URL '{url}': expected an http:// or https:// address such as "
                        f"https://example.org/rules/")
    return url.rstrip("/") + "/"


def describe(d, lead: str) -> str:
    """The table in words, for the diagram's accessible name: each zone with its owner and
    what lies there."""
    parts = []
    for row in d.rows:
        for z in row:
            if z is None:
                continue
            name = f"{z.owner}'s {z.label.lower()}" if z.owner else z.label
            if z.seen:
                name += f" ({z.seen})"
            if z.style == "pile" and z.count is not None:
                what = f"{z.count} card{'s' if z.count != 1 else ''}"
            elif z.cards:
                what = ", ".join(c.alt for c in z.cards)
            else:
                what = "empty"
            parts.append(f"{name}: {what}")
    return f"{lead}. " + "; ".join(parts) + "." if parts else lead


def result_text(result: str, names: dict[str, str]) -> str:
    if not result or result == "none":
        return ""
    if result == "draw":
        return "The game ends in a draw."
    return f"{names.get(result, result)} wins the game."


def render_site(report, staging: Path, settings: Settings, *, figures=None) -> Path:
    """Write the whole website into ``staging / "site"`` and return that folder; its
    absolute address is ``settings.site_url``, its "By the numbers" come from ``figures``
    (``lab.figures.BookFigures``, or None)."""
    t0 = time.perf_counter()
    out = Path(staging) / "site"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    counts = SiteRenderer(overrides_of(report.content.root), figures).render(
        report, out, pdf_dir=Path(staging) / "pdf", site_url=settings.site_url)
    if log.isEnabledFor(logging.INFO):
        files = sum(1 for p in out.rglob("*") if p.is_file())
        log.info(f"wrote site/ ({counts['pages']} pages, {counts['cards']} card images, "
                 f"{files} files) in {time.perf_counter() - t0:.2f} s")
    return out


__all__ = ["render_site", "SiteRenderer", "site_links", "link_terms", "term_pattern",
           "search_records", "js_assign", "SiteError"]

