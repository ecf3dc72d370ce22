"""The build: a passing check's report, through the figures stage and every product, into
the output folder.

:func:`build` holds the output's lock; :func:`render_into` is the pipeline: the parts the
products declare (:mod:`.products`) are keyed from their inputs, those unchanged since the
previous build are carried over, the balance figures are measured (their own stage,
:func:`builder.lab.figures.book_figures`), every product renders its due parts into a
staging folder in three phases, the manifest is written and the staging folder is
published in one atomic exchange (:mod:`.publication`). A build that fails or is
interrupted, at any moment, leaves the previous output whole.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import time
from pathlib import Path

from .. import incremental as inc
from .. import lock, machine
from ..check import Report
from ..diagnostics import Diagnostic, suggest
from ..render.errors import RenderError
from ..settings import Settings
from .errors import BuildError
from .products import PRODUCTS, Job, key_of, parts_of, pdf_stamps, product_of
from .publication import make_staging, publish

log = logging.getLogger("warbook.build")

#: the phases every product is called through, in this order (see :mod:`.products`)
PHASES = ("begin", "render", "finish")


def build(report: Report, settings: Settings, *, game: str | None = None,
          reuse: bool = True, site_only: bool = False, quick: bool = False,
          cluster: str | None = None) -> int:
    """Render everything into ``settings.output`` (see :func:`render_into`), holding the
    output's lock (:mod:`builder.lock`); returns 0. Raises :class:`BuildError` (and leaves
    the output as it was) when any stage fails, when another live process is building into
    the output, and when the machine fails (a full disk, a read-only, immutable or busy
    folder, a file missing or refused: :mod:`builder.machine` names the cause and the path
    as the user knows it)."""
    out = Path(settings.output)
    machine.track_writes()
    try:
        with lock.hold(out, "warbook build"):
            return render_into(report, settings, game=game, reuse=reuse, site_only=site_only,
                               quick=quick, cluster=cluster)
    except lock.Busy as e:
        raise BuildError(str(e)) from None
    except lock.CannotLock as e:
        raise BuildError(f"cannot lock the output {e.out}: {machine.describe(e.error)}") from None
    except OSError as e:
        if not machine.is_machine(e):
            raise
        raise BuildError(machine.describe(e)) from None


def render_into(report: Report, settings: Settings, *, game: str | None, reuse: bool,
                site_only: bool, quick: bool = False, cluster: str | None = None) -> int:
    """Render everything into ``settings.output``; returns 0. Raises :class:`BuildError`
    (and leaves the output as it was) when any stage fails, in this process or a forked one.

    With ``reuse`` (the default), every part of the build whose inputs did not change since
    the previous build into the output (see :mod:`builder.incremental`) is carried over
    instead of rendered again. ``game`` renders that game's rulebook, components and the
    website; the compendium and the deck are carried over from the previous output as they
    are. ``site_only`` renders the website alone and carries everything else over
    (``serve`` shows the new page first, then builds the rest). With
    ``settings.print_shop`` (a CMYK ICC profile) the build also writes ``print-shop/``; a
    build without it leaves no ``print-shop/`` behind, so no copy outlives its PDF.

    The balance figures are the first stage (:func:`builder.lab.figures.book_figures`),
    before any input is hashed: figures measured now are written beside the content, and
    the parts' keys must see them. ``quick`` plays nothing: a game whose figures are not
    current prints its previous ones, marked stale. The manifest keeps each game's figures'
    fingerprint, so a part that prints them is rendered again when they change (wherever
    they are kept), and whether any were stale (a plain build then measures them)."""
    from ..render import fonts
    from ..render.book.glyphs import face

    fonts.use(report.content.book.fonts)   # the content's own typefaces, if it has them
    face.cache_clear()
    for path in fonts.replaced_files():  # still there since the check? (OSError if not)
        with open(path, "rb"):
            pass

    games = report.games
    if game is not None:
        games = [g for g in games if g.game.slug == game]
        if not games:
            slugs = [g.game.slug for g in report.games]
            raise BuildError(f"no game '{game}' (games: {', '.join(slugs)}){suggest(game, slugs)}")
    out = Path(settings.output)
    from ..lab.figures import FiguresError, book_figures

    try:
        # every game: the website shows all; stale figures are played on ``cluster``'s
        # workers when one is given (a Dask scheduler's address), else on this machine
        figures = book_figures(report, out=out, quick=quick, cluster=cluster)
    except FiguresError as e:
        raise BuildError(str(e)) from None
    inputs = inc.Inputs(report.content.root, settings.key())
    old = inc.Manifest.read(out) if reuse else inc.Manifest()
    new = inc.Manifest(check=dict(old.check))
    parts = ["site"] if site_only else parts_of([g.game.slug for g in games],
                                                whole=game is None)
    keys = {p: key_of(p, inputs) for p in parts if not product_of(p).late}
    reused = {p for p in keys if reuse and old.intact(p, keys[p], out)}
    if game is not None or site_only:  # carried over as they are, keys and all
        new.units.update(kept_as_they_are(old, keys, out))
    shown = figures.fingerprint()
    old = with_figures_changed(old, parts, shown)
    reused = {p for p in reused if old.intact(p, keys[p], out)}
    staging = make_staging(out)
    t0 = time.perf_counter()
    job = Job(report=report, settings=settings, figures=figures, games=games,
              staging=staging, out=out, inputs=inputs, old=old, reuse=reuse, keys=keys,
              reused=reused)
    try:
        job.pdf_dir.mkdir()
        keep_figures(figures, staging)
        carried = linked_over(parts, reused, new.units)
        for p in carried:
            inc.link_into(out, staging, (old.units[p].get("files") or {}).keys())
        job.todo = {product.name: [p for p in parts if product_of(p) is product
                                   and p not in reused] for product in PRODUCTS}
        for phase in PHASES:
            for product in PRODUCTS:
                getattr(product, phase)(job, job.todo[product.name])
        with open(staging / ".replace-dirs", "a") as f:
            f.write("".join(f"{p.replaces}\n" for p in PRODUCTS if p.replaces))
        for p in parts:
            product = product_of(p)
            files = sorted(f for f in product.files(p, staging) if f.is_file())
            new.units[p] = {"key": keys[p], "files": inc.stat_files(staging, files),
                            **product.record(p, job), **printed(p, shown)}
        new.check = {"ok": True, "games": [g.game.slug for g in report.games],
                     "figures": {"cap": figures_cap(), "stale": sorted(figures.pending)}}
        new.write(staging)
        publish(staging, out)
    except (RenderError, Diagnostic) as e:  # a template's fault is a located Diagnostic
        raise BuildError(str(e), located=isinstance(e, Diagnostic)) from None
    finally:
        for child in job.children:
            child.kill()
        shutil.rmtree(staging, ignore_errors=True)
    rebuilt = [p for p in parts if p not in reused]
    if reused:
        n = sum(len(old.units[p].get("files") or {}) for p in reused)
        log.info(f"reused {len(reused)} of {len(parts)} parts unchanged ({n} files): "
                 f"{', '.join(sorted(reused))}")
    for note in job.notes:
        log.info(note)
    total = sum(len(e.get("files") or {}) for e in new.units.values())
    log.info(f"built {', '.join(rebuilt) or 'nothing'} into {out} "
             f"({total} files in place) in {time.perf_counter() - t0:.1f} s")
    return 0


#: the products whose parts print the balance figures (``book:<slug>`` prints its game's;
#: the compendium and the website print every game's)
PRINT_FIGURES = ("book", "compendium", "site")


def figures_cap():
    from ..lab.figures import cap

    return cap()


def printed(part: str, shown: dict[str, str]) -> dict:
    """What the manifest keeps of the figures a part prints (nothing for a part that
    prints none): ``book:<slug>`` its game's fingerprint, the compendium and the website
    every game's (``shown``: :meth:`BookFigures.fingerprint`)."""
    kind, _, slug = part.partition(":")
    if kind not in PRINT_FIGURES:
        return {}
    if slug:
        return {"figures": shown.get(slug, "none")}
    return {"figures": hashlib.sha256(json.dumps(shown, sort_keys=True).encode())
            .hexdigest()[:20]}


def with_figures_changed(old: "inc.Manifest", parts: list[str],
                         shown: dict[str, str]) -> "inc.Manifest":
    """The previous manifest as this build may reuse it: a part of ``parts`` that printed
    other figures than this build's (a game's measured again, or no longer stale) is not
    reused. The figures' file is an input of the game's parts when it is kept in the
    content folder, but not when it is kept in the cache or the output, and a quick
    build's stale mark is in no file at all."""
    units = dict(old.units)
    for p in parts:
        want = printed(p, shown)
        if p in units and want and units[p].get("figures") != want["figures"]:
            units[p] = {**units[p], "key": None}
    return inc.Manifest(units=units, check=old.check)


def keep_figures(figures, staging: Path) -> None:
    """The figures this build keeps in its output (the content folder could not be
    written): ``figures/<slug>.json`` in the staging folder, so they are published with
    it and read from the output next time."""
    from ..lab.figures import OUTPUT_DIR, file_text

    for slug, record in sorted(figures.to_output.items()):
        path = staging / OUTPUT_DIR / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(file_text(record), encoding="utf-8")


def kept_as_they_are(old: "inc.Manifest", keys: dict, out: Path) -> dict:
    """The previous build's parts that a partial build (``build --game``, the site alone)
    does not make, still whole in ``out``: they stay in the new manifest as they were."""
    return {p: entry for p, entry in old.units.items()
            if p not in keys and old.intact(p, entry.get("key"), out)}


def linked_over(parts: list[str], reused: set[str], units: dict) -> list[str]:
    """The parts whose files are linked from the previous output into the staging folder:
    this build's parts whose inputs did not change, and the parts it does not make but
    keeps (``units``: the new manifest so far), linked before any product is made: the
    website ships the PDFs it finds beside it in the staging folder."""
    return [p for p in parts if p in reused] + [p for p in units if p not in parts]


def up_to_date(settings: Settings, quick: bool = False) -> int | None:
    """If the previous whole build into ``settings.output`` was made from exactly these
    inputs and its files are untouched, the number of its files (nothing needs doing, not
    even the check: the same inputs passed it); else None. Cheap: it hashes the inputs and
    stats the outputs, and loads no renderer. A build that printed stale figures (or none
    where a game has an engine: ``--quick``) is never up to date for a plain build, nor is
    one whose figures were played with another ``WARBOOK_LAB_GAMES``."""
    out = Path(settings.output)
    old = inc.Manifest.read(out)
    if not old.units or not old.check.get("ok"):
        return None
    if not quick:
        figures = old.check.get("figures")
        if not isinstance(figures, dict) or figures.get("stale") \
                or figures.get("cap") != figures_cap():
            return None
    inputs = inc.Inputs(settings.content_root, settings.key())
    if sorted(old.check.get("games") or []) != inputs.slugs:
        return None
    parts = parts_of(inputs.slugs, whole=True)
    if set(parts) != set(old.units):
        return None
    # the PDFs the build's parts wrote, as the website's key saw them (a PDF left in the
    # output by another build, which no part owns, was not beside the website then)
    owned = {f for p in parts for f in (old.units[p].get("files") or {})}
    pdfs = [s for s in pdf_stamps(out / "pdf") if f"pdf/{s.split(':', 1)[0]}" in owned]
    for p in parts:
        if not old.intact(p, key_of(p, inputs, pdfs), out):
            return None
    return sum(len(old.units[p].get("files") or {}) for p in parts)
