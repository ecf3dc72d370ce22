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
from pathlib import Path

from .check import Report


class BuildError(Exception):
    pass


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
    from .render.fonts import FontMissing

    def say(msg: str) -> None:
        if not quiet:
            print(msg)

    games = report.games
    if game is not None:
        games = [g for g in games if g.game.slug == game]
        if not games:
            known = ", ".join(g.game.slug for g in report.games)
            print(f"error: no game '{game}' (games: {known})", file=sys.stderr)
            return 1
    staging = _staging(out)
    t0 = time.perf_counter()
    children: list[Forked] = []
    try:
        from .render import components, site
        from .render.pdf import BookRenderer

        pdf_dir = staging / "pdf"
        pdf_dir.mkdir()
        # The component sheets need nothing from the rulebooks: they are drawn on the
        # second core while this process lays out the books.
        children.append(Forked("component sheets", lambda: components.render_all(
            report, games, staging, paper=paper, ink=ink, whole=game is None, say=say)))
        books = BookRenderer(paper=paper, four_colour=four_colour)
        docs = []
        writer: Forked | None = None
        for gr in games:
            doc = books.render_game(gr)
            docs.append(doc)
            if writer is not None:
                writer.join()
            target = pdf_dir / f"{gr.game.slug}-rules.pdf"
            # writing a laid-out book is a third of its cost: hand it to a child
            writer = Forked(f"{gr.game.slug}-rules.pdf", lambda doc=doc, target=target: say(
                f"wrote pdf/{target.name} ({books.write(doc, target)} pages)"))
            children.append(writer)
        if game is None:
            n = books.render_compendium(docs, report.content.intro, pdf_dir / "compendium.pdf")
            say(f"wrote pdf/compendium.pdf ({n} pages)")
        del docs
        for child in children:
            child.join()
        if game is None:  # the website links the PDFs that now exist
            site.render_site(report, staging, say=say)
            with open(staging / ".replace-dirs", "a") as f:
                f.write("site\n")
        moved = publish(staging, out)
    except FontMissing as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        for child in children:
            child.kill()
        shutil.rmtree(staging, ignore_errors=True)
    say(f"built {len(moved)} files into {out} in {time.perf_counter() - t0:.1f} s")
    return 0


class Forked:
    """A piece of the build run in a forked child process (on the machine's other core).
    Forking shares the parent's laid-out documents without copying or pickling them. A
    child that fails makes ``join`` raise, so the build fails and publishes nothing."""

    def __init__(self, name: str, work):
        import multiprocessing

        self.name = name
        self.process = multiprocessing.get_context("fork").Process(
            target=_run_child, args=(work,), name=name)
        self.process.start()

    def join(self) -> None:
        self.process.join()
        if self.process.exitcode != 0:
            raise BuildError(f"{self.name}: failed (see the message above)")

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _run_child(work) -> None:
    from .render.components import ComponentError
    from .render.fonts import FontMissing

    try:
        work()
    except (BuildError, ComponentError, FontMissing) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.stdout.flush()
        os._exit(1)
    sys.stdout.flush()
    sys.stderr.flush()
