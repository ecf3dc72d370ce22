"""The products a build writes, each behind one interface (:class:`Product`).

A product declares its *parts*, the units the incremental manifest keeps (``book:war``,
``compendium``, ``site``), what each part is made from (the inputs its key covers), the
files each part writes, and renders the parts it is given into the staging folder. The
build (:mod:`builder.build.pipeline`) calls three phases on every product of
:data:`PRODUCTS`, in that order, each with the product's parts that need rendering:

- ``begin``: start what runs beside the rest (in a forked child, on the other core), or
  what this process does while the children work;
- ``render``: this process's share of the work;
- ``finish``: collect what the children did, then what needs every PDF written (the
  print-shop copies, the website).

Adding a product is a subclass and a line in :data:`PRODUCTS`; nothing else names a kind
of part.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..check import GameReport, Report
from ..incremental import Inputs, Manifest, files_under, keep_unchanged, link_into
from ..render.templating import overrides_of
from ..settings import Settings
from .forked import Forked

if TYPE_CHECKING:
    from ..lab.figures import BookFigures

log = logging.getLogger("warbook.build.products")


@dataclass
class Job:
    """One build's state as the products see it: what to render from, where, what the
    previous output offers, and what the products hand each other (the rulebooks' shared
    renderer, the written books' page numbers, the forked children)."""

    report: Report
    settings: Settings
    figures: "BookFigures"
    games: list[GameReport]          # the games this build renders
    staging: Path
    out: Path
    inputs: Inputs
    old: Manifest                    # the previous build's (empty without reuse)
    reuse: bool
    keys: dict[str, str]             # part -> key (a late product adds its own)
    reused: set[str]                 # the parts carried over unchanged
    todo: dict[str, list[str]] = field(default_factory=dict)  # product -> parts to render
    children: list[Forked] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)            # said after the build
    books: "BookRun | None" = None
    book_infos: dict[str, Any] = field(default_factory=dict)  # slug -> BookInfo
    components: Forked | None = None

    @property
    def pdf_dir(self) -> Path:
        return self.staging / "pdf"

    def games_of(self, parts: list[str]) -> list[GameReport]:
        """The game reports of per-game parts (``book:war`` -> war's), in the build's order."""
        slugs = {p.partition(":")[2] for p in parts}
        return [gr for gr in self.games if gr.game.slug in slugs]

    def book_run(self) -> "BookRun":
        """The rulebooks' renderer, shared by the rulebooks and the compendium; made once,
        when first needed (it draws the diagrams' cards, so a build that writes no book
        never makes one)."""
        if self.books is None:
            self.books = BookRun(self.report, self.settings, self.figures, self.pdf_dir)
        return self.books


class Product:
    """One product of the build. Override what applies; every phase is a no-op here."""

    #: the parts' name: ``book`` names ``book:war``, ``compendium`` the one part
    name: str = ""
    #: one part per game (``book:war``, ``book:peace``) or one for the whole build
    per_game: bool = False
    #: made only by a build of every game (not by ``--game``): a compendium, the deck
    whole_only: bool = False
    #: a folder of the output this product replaces whole (a file of the previous output
    #: in it is not carried over into the new one)
    replaces: str | None = None
    #: the key depends on the PDFs this build writes: decided by the product in ``finish``
    late: bool = False

    def parts(self, slugs: list[str], whole: bool) -> list[str]:
        """The product's parts in a build of the games ``slugs`` (``whole``: every game)."""
        if not self.name or self.whole_only and not whole:
            return []
        return [f"{self.name}:{s}" for s in slugs] if self.per_game else [self.name]

    def covers(self, part: str, inputs: Inputs, pdfs: list[str]) -> list[Any]:
        """What ``part`` is made from, for its key (besides what every part is made from:
        see :meth:`Inputs.key`). ``pdfs``: the PDFs beside it, by name, size and time."""
        raise NotImplementedError(f"{type(self).__name__} declares no inputs")

    def files(self, part: str, folder: Path) -> list[Path]:
        """The files of ``part`` in an output (or staging) folder (may name absent ones)."""
        return []

    def record(self, part: str, job: Job) -> dict[str, Any]:
        """What the manifest keeps about a written part besides its key and files."""
        return {}

    def begin(self, job: Job, todo: list[str]) -> None:
        """Start rendering ``todo`` (the parts due) beside the other products."""

    def render(self, job: Job, todo: list[str]) -> None:
        """This process's rendering of ``todo``."""

    def finish(self, job: Job, todo: list[str]) -> None:
        """Collect what was started in ``begin``; render what needs every PDF written."""


def _slug(part: str) -> str:
    return part.partition(":")[2]


# --------------------------------------------------------------------------- rulebooks
class Rulebooks(Product):
    """``pdf/<slug>-rules.pdf``: one rulebook per game, shared between this process and a
    forked child (:class:`BookRun`). Made from the game's folder, the book templates, the
    paper and the four-colour cards."""

    name = "book"
    per_game = True

    def covers(self, part, inputs, pdfs):
        o = inputs.options
        return [inputs.game(_slug(part)), inputs.templates("book"), inputs.templates("cards"),
                o.get("paper"), o.get("four_colour")]

    def files(self, part, folder):
        return [folder / "pdf" / f"{_slug(part)}-rules.pdf"]

    def record(self, part, job):
        info = job.book_infos[_slug(part)]
        return {"book": {"title": info.title, "count": info.count, "pages": info.pages}}

    def begin(self, job, todo):
        if todo or job.todo.get("compendium"):
            job.book_run().start(job.games_of(todo), job.children)

    def render(self, job, todo):
        for gr in job.games:  # a rulebook carried over: what the compendium needs of it
            part = f"book:{gr.game.slug}"
            if part in job.reused:
                job.book_infos[gr.game.slug] = book_info(job.old.units[part], job.pdf_dir)
        if job.books is not None:
            job.book_infos.update(job.books.write_and_join())


class Compendium(Product):
    """``pdf/compendium.pdf``: the rulebooks bound behind one front matter, laid out by
    this process while the child writes rulebooks. Made from every game folder, the book
    templates, the paper and the four-colour cards."""

    name = "compendium"
    whole_only = True

    def covers(self, part, inputs, pdfs):
        o = inputs.options
        return [inputs.all_games(), inputs.templates("book"), inputs.templates("cards"),
                o.get("paper"), o.get("four_colour")]

    def files(self, part, folder):
        return [folder / "pdf" / "compendium.pdf"]

    def begin(self, job, todo):
        if todo:
            job.book_run().lay_out_front(job.games)

    def render(self, job, todo):
        if todo:
            job.book_run().bind([job.book_infos[gr.game.slug] for gr in job.games],
                                job.pdf_dir / "compendium.pdf")


# --------------------------------------------------------------------------- print and play
class ComponentSheets(Product):
    """``pdf/<slug>-components.pdf`` and ``png/<slug>/``: the print-and-play sheets, drawn
    in a forked child while the rulebooks are laid out (they need nothing from them), with
    the deck when it is due (one card-art cache for both). Made from the game's folder but
    its examples, the components templates, the paper and the ink."""

    name = "components"
    per_game = True

    def covers(self, part, inputs, pdfs):
        o = inputs.options
        return [inputs.game(_slug(part), examples=False), inputs.templates("components"),
                o.get("paper"), o.get("ink")]

    def files(self, part, folder):
        slug = _slug(part)
        return ([folder / "pdf" / f"{slug}-components.pdf"]
                + list((folder / "pdf").glob(f"{slug}-cards-gutterfold.pdf"))
                + files_under(folder / "png" / slug))

    def begin(self, job, todo):
        draw, deck = job.games_of(todo), bool(job.todo.get("deck"))
        if draw or deck:
            from ..render import pnp  # loaded only when sheets are drawn

            report, staging, settings = job.report, job.staging, job.settings
            job.components = Forked("component sheets", lambda: pnp.render_all(
                report, draw, staging, settings, whole=deck))
            job.children.append(job.components)

    def finish(self, job, todo):
        if job.components is not None:
            job.components.join()


class Deck(Product):
    """``pdf/pnp-deck*.pdf``, ``png/cards/``, ``png/cards-bleed/``, ``png/tts/``: the
    printable deck and its exports, drawn by the component sheets' child (see
    :class:`ComponentSheets`). Made from the components templates, the paper and the ink."""

    name = "deck"
    whole_only = True

    def covers(self, part, inputs, pdfs):
        o = inputs.options
        return [inputs.templates("components"), o.get("paper"), o.get("ink")]

    def files(self, part, folder):
        png = folder / "png"
        return (list((folder / "pdf").glob("pnp-deck*.pdf")) + files_under(png / "cards")
                + files_under(png / "cards-bleed") + files_under(png / "tts"))


# --------------------------------------------------------------------------- after the PDFs
class PrintShopCopies(Product):
    """``print-shop/``: a PDF/X-4 CMYK copy of every PDF, when the settings carry a colour
    profile. Not kept in the manifest (made again by every build that asks for it); a
    build without it removes the folder, so no copy outlives its PDF."""

    name = "print-shop"
    replaces = "print-shop"

    def parts(self, slugs, whole):
        return []

    def finish(self, job, todo):
        if job.settings.print_shop is not None:
            from ..render.printshop import separate_all

            separate_all(job.pdf_dir, job.staging / "print-shop", job.settings.print_shop)


class Site(Product):
    """``site/``: the rules website, which links the PDFs that exist, so its key names
    them and is known once they are written. Made from every game folder, the site
    templates, the PDFs beside it and the site's address. Cheap: rendered whole when its
    key changed, each page that came out the same keeping the previous file."""

    name = "site"
    replaces = "site"
    late = True

    def covers(self, part, inputs, pdfs):
        return [inputs.all_games(), inputs.templates("site"), inputs.templates("cards"),
                sorted(pdfs), inputs.options.get("site_url")]

    def files(self, part, folder):
        return files_under(folder / "site")

    def finish(self, job, todo):
        if not todo:
            return
        key = job.keys["site"] = job.inputs.key("site", self.covers(
            "site", job.inputs, pdf_stamps(job.pdf_dir)))
        if job.reuse and job.old.intact("site", key, job.out):
            job.reused.add("site")
            link_into(job.out, job.staging, job.old.units["site"]["files"].keys())
            job.notes.append("site/ reused")
            return
        from ..render.site.pages import render_site

        render_site(job.report, job.staging, job.settings, figures=job.figures)
        if job.reuse:
            kept, rewritten = keep_unchanged(job.out, job.staging, "site")
            job.notes.append(f"site/: {rewritten} files rewritten, {kept} unchanged")


#: every product, in the order the build calls them (and lists their parts)
PRODUCTS: list[Product] = [Rulebooks(), ComponentSheets(), Compendium(), Deck(),
                           PrintShopCopies(), Site()]
_BY_NAME = {p.name: p for p in PRODUCTS}


def product_of(part: str) -> Product:
    """The product a part belongs to (``book:war`` -> the rulebooks)."""
    return _BY_NAME[part.partition(":")[0]]


def parts_of(slugs: list[str], whole: bool) -> list[str]:
    """Every part of a build of these games (``whole``: the products of the whole build
    too)."""
    return [part for product in PRODUCTS for part in product.parts(slugs, whole)]


def key_of(part: str, inputs: Inputs, pdfs: list[str] = ()) -> str:
    """The part's key: what its product says it is made from, hashed."""
    return inputs.key(part, product_of(part).covers(part, inputs, list(pdfs)))


def pdf_stamps(pdf_dir: Path) -> list[str]:
    """The PDFs the website ships (``site/pdf`` links them), each by name, size and time:
    a rulebook written again is a new website, one carried over (a hard link) is not."""
    stamps = []
    for p in sorted(pdf_dir.glob("*.pdf")):
        st = p.stat()
        stamps.append(f"{p.name}:{st.st_size}:{st.st_mtime_ns}")
    return stamps


# --------------------------------------------------------------------------- the rulebooks' work
def book_cost(gr) -> int:
    """A rulebook's cost to lay out, as a rank: its worked examples' steps (each a diagram
    and a few paragraphs) dominate; the rules add about as much as a dozen steps."""
    return 12 + sum(1 + len(r.steps) for r in gr.replays)


def book_info(entry: dict, pdf_dir: Path):
    """A rulebook carried over, as the compendium needs it, from its manifest entry."""
    from ..render.book.pdf import BookInfo

    b = entry["book"]
    slug = next(iter(entry["files"])).split("/")[-1][:-len("-rules.pdf")]
    return BookInfo(slug=slug, title=b["title"], path=pdf_dir / f"{slug}-rules.pdf",
                    count=b["count"], pages=b["pages"])


class BookRun:
    """The rulebooks of one build, shared between this process and one forked child so
    both cores work: each takes the next book from one queue, the costliest first, writes
    its HTML, lays it out and writes it, until none is left; so both finish within a book
    of each other whatever the books cost. Meanwhile this process can lay out the
    compendium's front matter (its page numbers are filled in when the parts are bound)."""

    def __init__(self, report: Report, settings: Settings, figures: "BookFigures | None",
                 pdf_dir: Path):
        from ..render.book.pdf import BookRenderer
        from ..render.present import rules_line

        self.report = report
        self.pdf_dir = pdf_dir
        self.renderer = BookRenderer(settings, templates=overrides_of(report.content.root),
                                     accent=report.content.book.accent,
                                     logo=report.content.book.logo, figures=figures,
                                     content_root=report.content.root,
                                     rules=rules_line(report.content.book))
        self.order: list = []
        self.child: Forked | None = None
        self.front = None
        self.back = None  # the compendium's index, laid out with the front

    def start(self, games: list, children: list | None = None) -> None:
        """Queue ``games``' rulebooks, the costliest first, and fork the child that shares
        them (when there are two or more); ``children`` gets the child."""
        import multiprocessing

        self.order = sorted(games, key=lambda gr: -book_cost(gr))
        self._next = multiprocessing.get_context("fork").Value("i", 0)
        if len(self.order) > 1:
            self.child = Forked("rulebooks", self._write)
            if children is not None:
                children.append(self.child)

    def _take(self):
        with self._next.get_lock():
            i = self._next.value
            self._next.value += 1
        return self.order[i] if i < len(self.order) else None

    def _write(self) -> list:
        infos = []
        while (gr := self._take()) is not None:
            g, html = self.renderer.book_html(gr)
            info = self.renderer.write_book(g, html, self.pdf_dir / f"{g.slug}-rules.pdf")
            log.info(f"wrote pdf/{info.path.name} ({info.count} pages)")
            infos.append(info)
        return infos

    def write_and_join(self) -> dict:
        """This process's share of the queue, then the child's; every written book's
        ``BookInfo`` by slug. The child is stopped if this process fails."""
        try:
            infos = self._write()
            infos += self.child.join() if self.child is not None else []
        finally:
            if self.child is not None:
                self.child.kill()
        return {i.slug: i for i in infos}

    def lay_out_front(self, games: list) -> None:
        """Lay out the compendium's front matter for ``games``."""
        r = self.renderer
        views = [r.view(gr) for gr in games]
        content = self.report.content
        self.front = r.layout_front(r.front_html(views, content.intro, content.book,
                                                 content.words.compare_note))
        self.back = r.layout_front(r.index_html(views, content.book))

    def bind(self, infos: list, target: Path) -> int:
        """Bind the written rulebooks (``infos``, in order) behind the front matter."""
        n = self.renderer.bind_compendium(self.front, infos, target, self.back)
        log.info(f"wrote pdf/{target.name} ({n} pages)")
        return n


def render_pdfs(report: Report, games: list, pdf_dir: Path, settings: Settings, *,
                figures: "BookFigures | None" = None, compendium: bool = True,
                children: list | None = None, done: dict | None = None) -> dict:
    """Write ``<slug>-rules.pdf`` for each game and, with ``compendium``, bind
    ``compendium.pdf`` from them (the rulebooks and the compendium without the build
    around them: the benchmark's measure). ``done``: the rulebooks already in ``pdf_dir``
    (slug -> ``BookInfo``), not written again. Returns every game's BookInfo by slug."""
    done = dict(done or {})
    if not compendium and len(done) == len(games):
        return done
    run = BookRun(report, settings, figures, pdf_dir)
    run.start([gr for gr in games if gr.game.slug not in done], children)
    try:
        if compendium:
            run.lay_out_front(games)
        by_slug = {**run.write_and_join(), **done}
    finally:
        if run.child is not None:
            run.child.kill()
    if compendium:
        run.bind([by_slug[gr.game.slug] for gr in games], pdf_dir / "compendium.pdf")
    return by_slug
