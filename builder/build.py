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
          ink: str = "full", quiet: bool = False) -> int:
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
    try:
        from .render.pdf import BookRenderer

        pdf_dir = staging / "pdf"
        pdf_dir.mkdir()
        books = BookRenderer(paper=paper)
        docs = []
        for gr in games:
            doc = books.render_game(gr)
            n = books.write(doc, pdf_dir / f"{gr.game.slug}-rules.pdf")
            docs.append(doc)
            say(f"wrote pdf/{gr.game.slug}-rules.pdf ({n} pages)")
        if game is None:
            n = books.render_compendium(docs, report.content.intro, pdf_dir / "compendium.pdf")
            say(f"wrote pdf/compendium.pdf ({n} pages)")
        del docs
        extra = _optional_stages(report, games, staging, paper=paper, ink=ink, whole=game is None,
                                 say=say)
        moved = publish(staging, out)
    except FontMissing as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"built {len(moved)} files into {out} in {time.perf_counter() - t0:.1f} s"
        + (f" ({extra})" if extra else ""))
    return 0


def _optional_stages(report, games, staging, *, paper, ink, whole, say) -> str:
    """Component sheets and the website, when those renderers are present."""
    notes = []
    try:
        from .render import components
    except ImportError:
        components = None
    if components is not None:
        components.render_all(report, games, staging, paper=paper, ink=ink, whole=whole, say=say)
    try:
        from .render import site
    except ImportError:
        site = None
    if site is not None and whole:
        site.render_site(report, staging, say=say)
        with open(staging / ".replace-dirs", "a") as f:
            f.write("site\n")
    return "; ".join(notes)
