"""Stage 3: render a passing check into the output folder.

Everything is rendered into a staging folder beside the output first; only when every file
has been written are they moved into place, one atomic rename each. A build that fails or is
interrupted therefore leaves the previous output exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
import traceback
from pathlib import Path

from .check import Report
from .render.errors import RenderError
from .render.templating import overrides_of


class BuildError(Exception):
    """The build failed and published nothing; the message says why (shown by the CLI).
    ``internal`` marks a bug in warbook (an unexpected exception in a forked stage), which
    the CLI reports like one in its own process: as an internal error, exit status 2."""

    def __init__(self, message: str, internal: bool = False):
        super().__init__(message)
        self.internal = internal


def _staging(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    d = out.parent / f".{out.name}.staging-{os.getpid()}"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    return d


def publish(staging: Path, out: Path) -> list[Path]:
    """Move every staged file into ``out`` with an atomic rename; directories named in a
    ``.replace-dirs`` list are swapped whole (old copy removed only after the new one is in)."""
    out.mkdir(parents=True, exist_ok=True)
    moved = []
    whole = set()
    marker = staging / ".replace-dirs"
    if marker.exists():
        whole = {line.strip() for line in marker.read_text().splitlines() if line.strip()}
        marker.unlink()
    for name in sorted(whole):
        src, dst = staging / name, out / name
        if not src.exists():
            continue
        old = out / f".{name}.old-{os.getpid()}"
        if dst.exists():
            os.replace(dst, old)
        os.replace(src, dst)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)
        moved.append(dst)
    for src in sorted(staging.rglob("*")):
        if src.is_dir():
            continue
        rel = src.relative_to(staging)
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
        moved.append(dst)
    return moved


def build(report: Report, out: Path, paper: str = "a4", game: str | None = None,
          ink: str = "full", quiet: bool = False, four_colour: bool = False) -> int:
    """Render everything into ``out``; returns 0. Raises :class:`BuildError` (and leaves
    ``out`` as it was) when any stage fails, in this process or a forked one."""
    from .render import fonts
    from .render.book.glyphs import face
    from .render.pnp import components
    from .render.site import pages as site

    fonts.use(report.content.book.fonts)   # the content's own typefaces, if it has them
    face.cache_clear()

    def say(msg: str) -> None:
        if not quiet:
            print(msg)

    games = report.games
    if game is not None:
        games = [g for g in games if g.game.slug == game]
        if not games:
            known = ", ".join(g.game.slug for g in report.games)
            raise BuildError(f"no game '{game}' (games: {known})")
    staging = _staging(out)
    t0 = time.perf_counter()
    children: list[Forked] = []
    try:
        pdf_dir = staging / "pdf"
        pdf_dir.mkdir()
        # The component sheets need nothing from the rulebooks: they are drawn in a child
        # process while the rulebooks are laid out.
        children.append(Forked("component sheets", lambda: components.render_all(
            report, games, staging, paper=paper, ink=ink, whole=game is None, say=say)))
        render_pdfs(report, games, pdf_dir, paper=paper, four_colour=four_colour,
                    compendium=game is None, say=say, children=children)
        for child in children:
            child.join()
        if game is None:  # the website links the PDFs that now exist
            site.render_site(report, staging, say=say)
            with open(staging / ".replace-dirs", "a") as f:
                f.write("site\n")
        moved = publish(staging, out)
    except RenderError as e:
        raise BuildError(str(e)) from None
    finally:
        for child in children:
            child.kill()
        shutil.rmtree(staging, ignore_errors=True)
    say(f"built {len(moved)} files into {out} in {time.perf_counter() - t0:.1f} s")
    return 0


def book_cost(gr) -> int:
    """A rulebook's cost to lay out, as a rank: its worked examples' steps (each a diagram
    and a few paragraphs) dominate; the rules add about as much as a dozen steps."""
    return 12 + sum(1 + len(r.steps) for r in gr.replays)


def render_pdfs(report: Report, games: list, pdf_dir: Path, *, paper: str = "a4",
                four_colour: bool = False, compendium: bool = True, say=print,
                children: list | None = None) -> int:
    """Write ``<slug>-rules.pdf`` for each game and, with ``compendium``, bind
    ``compendium.pdf`` from them. Returns the number of pages written.

    The rulebooks are shared between this process and one forked child, so both cores
    work: each takes the next book from one queue, the costliest first, writes its HTML,
    lays it out and writes it, until none is left; so both finish within a book of each
    other whatever the books cost. This process first lays out the compendium's front
    matter (its page numbers are filled in when the parts are bound)."""
    import multiprocessing

    from .render.book.pdf import BookRenderer

    books = BookRenderer(paper=paper, four_colour=four_colour,
                         templates=overrides_of(report.content.root),
                         accent=report.content.book.accent, logo=report.content.book.logo)
    order = sorted(games, key=lambda gr: -book_cost(gr))
    next_book = multiprocessing.get_context("fork").Value("i", 0)

    def take():
        with next_book.get_lock():
            i = next_book.value
            next_book.value += 1
        return order[i] if i < len(order) else None

    def write() -> list:
        infos = []
        while (gr := take()) is not None:
            g, html = books.book_html(gr)
            info = books.write_book(g, html, pdf_dir / f"{g.slug}-rules.pdf")
            say(f"wrote pdf/{info.path.name} ({info.count} pages)")
            infos.append(info)
        return infos

    child = Forked("rulebooks", write) if len(order) > 1 else None
    if child is not None and children is not None:
        children.append(child)
    front = None
    try:
        if compendium:
            views = [books.view(gr) for gr in games]
            front = books.layout_front(books.front_html(views, report.content.intro,
                                                         report.content.book))
        infos = write()
        infos += child.join() if child is not None else []
    finally:
        if child is not None:
            child.kill()
    by_slug = {i.slug: i for i in infos}
    infos = [by_slug[gr.game.slug] for gr in games]
    pages = sum(i.count for i in infos)
    if front is not None:
        n = books.bind_compendium(front, infos, pdf_dir / "compendium.pdf")
        say(f"wrote pdf/compendium.pdf ({n} pages)")
        pages += n
    return pages


class Forked:
    """A piece of the build run in a forked child process (on the machine's other core).
    Forking shares what the parent has loaded (fonts, card images, templates) without
    copying or pickling it. ``join`` returns what the work returned (pickled back through a
    pipe).

    The child's exit status says whether it succeeded; the pipe carries its result, or the
    message of the error that stopped it. A child that exits with any status but 0 (an
    error, ``sys.exit(n)``, a signal), or that ends without sending a result, makes ``join``
    raise :class:`BuildError`, so the build fails and publishes nothing."""

    def __init__(self, name: str, work):
        import multiprocessing

        self.name = name
        ctx = multiprocessing.get_context("fork")
        self._receive, send = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_run_child, args=(work, send), name=name)
        self.process.start()
        send.close()
        self._result = None
        self._done = False

    def join(self):
        if not self._done:
            try:
                sent = self._receive.recv()
            except EOFError:  # the child ended before sending anything
                sent = None
            self.process.join()
            self._done = True
            code = self.process.exitcode
            if code != 0 or sent is None:
                if sent is not None and sent[0] in ("error", "internal"):
                    raise BuildError(f"{self.name}: {sent[1]}", internal=sent[0] == "internal")
                if code is not None and code < 0:
                    why = f"stopped by signal {-code}"
                else:
                    why = f"the process ended with exit status {code} and sent no result"
                raise BuildError(f"{self.name}: {why}")
            self._result = sent[1]
        return self._result

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _run_child(work, send) -> None:
    """The forked child: run ``work`` and send ``("result", value)``; on an error send
    ``("error", message)`` (``("internal", message)`` for a bug rather than a render error)
    and exit with status 1, with no traceback (the parent raises the message;
    WARBOOK_DEBUG=1 prints the traceback too). ``sys.exit`` in the work ends
    the child with its status and sends nothing."""
    try:
        result = work()
    except KeyboardInterrupt:  # the parent is interrupted too, and says so
        os._exit(130)
    except Exception as e:  # noqa: BLE001 - whatever stops the child fails the build
        if isinstance(e, (BuildError, RenderError)) and not getattr(e, "internal", False):
            kind, message = "error", str(e)
        else:
            kind, message = "internal", f"internal error: {type(e).__name__}: {e}"
        if os.environ.get("WARBOOK_DEBUG"):
            traceback.print_exc()
        send.send((kind, message))
        send.close()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)
    send.send(("result", result))
    send.close()
    sys.stdout.flush()
    sys.stderr.flush()
