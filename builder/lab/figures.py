"""The figures every rulebook and game page prints ("By the numbers"), cached.

A game's figures are played once and kept in a cache file named by a hash of everything
that can change them: the game's ``game.yaml`` and ``engine.py`` (if it has one), the
source of its engine module, of the engine core and of this package, and the sizes below.
A build whose games and engines did not change reads the cache and plays nothing.

The cache lives outside the content folder (which is the designer's) and outside the
output (which a build replaces): ``$WARBOOK_CACHE`` if set, else
``$XDG_CACHE_HOME/warbook/figures`` (by default ``~/.cache/warbook/figures``). A cache
that cannot be written is not an error: the figures are played again next time.

Sizes: ``BOOK_GAMES`` games per line-up for the game as printed, ``OPTION_GAMES`` for
each option value, ``SEARCH_GAMES`` for line-ups with the search bot. The skill line-ups
are the ladder's steps (heuristic against random, search against heuristic, the search
bot for the game as printed only), which keeps a cold build's figures within the issue's
two minutes.
``WARBOOK_LAB_GAMES=N`` scales them all down to at most N (the test suite uses it); the
sizes are part of the hash, so small figures never stand in for full ones.

The figures are a stage of their own, between the check and the renderers:
:func:`book_figures` takes the check's report and returns a new :class:`BookFigures`
(every game's figures by slug), which the renderers receive; nothing is written into the
report.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from .. import faults
from ..cache import cache_dir
from ..errors import WarbookError
from ..model import Content, Game
from .simulate import book_report

log = logging.getLogger("warbook.lab.figures")

BOOK_GAMES = 2000
OPTION_GAMES = 300
SEARCH_GAMES = 60
SEED = 0
VERSION = "2"


def sizes() -> tuple[int, int, int]:
    cap = os.environ.get("WARBOOK_LAB_GAMES")
    n = int(cap) if cap and cap.isdigit() and int(cap) > 0 else None
    if n is None:
        return BOOK_GAMES, OPTION_GAMES, SEARCH_GAMES
    return min(BOOK_GAMES, n), min(OPTION_GAMES, n), min(SEARCH_GAMES, n)


def _source(obj) -> bytes:
    try:
        return Path(inspect.getsourcefile(obj)).read_bytes()
    except (TypeError, OSError):
        return b""


def key(game: Game) -> str:
    h = hashlib.sha256()
    h.update(f"v{VERSION} seed {SEED} sizes {sizes()}\n".encode())
    folder = Path(game.dir)
    for name in ("game.yaml", "engine.py"):
        p = folder / name
        if p.is_file():
            h.update(name.encode() + b"\0" + p.read_bytes())
    h.update(json.dumps(game.option_defaults(), sort_keys=True, default=str).encode())
    gd = game.gamedef
    h.update(_source(gd.new_game))
    from ..engine import core
    h.update(_source(core))
    from .. import resources

    here = resources.package_folder() / "lab"  # the lab's own modules, as installed
    for p in sorted(here.glob("*.py")):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:20]


def figures(game: Game, workers: int | None = None) -> dict | None:
    """The game's figures, from the cache or played now. None if it has no engine."""
    if game.gamedef is None:
        return None
    k = key(game)
    path = cache_dir() / f"{game.slug}-{k}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    games, option_games, search_games = sizes()
    log.info(f"simulating {game.slug}: {games:,} games per line-up (the figures are cached "
             f"in {cache_dir()})")
    report = book_report(game, workers=workers)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(report, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return report


def all_figures(content: Content, workers: int | None = None) -> dict[str, dict]:
    out = {}
    for g in content.games:
        f = figures(g, workers=workers)
        if f is not None:
            out[g.slug] = f
    return out


class FiguresError(WarbookError):
    """A game's engine could not be played by the lab (a designer's engine that fails)."""


@dataclass(frozen=True)
class BookFigures:
    """What the figures stage hands the renderers: each game's figures by slug (None for a
    game without an engine). Read-only; the check's report is left as the check made it."""

    by_slug: Mapping[str, dict | None] = field(default_factory=dict)

    def of(self, slug: str) -> dict | None:
        """The game's figures, or None (no engine, or not measured)."""
        return self.by_slug.get(slug)

    #: the slugs whose figures are from an earlier version of the game (shown marked as
    #: such by ``build --quick`` and ``serve`` while the lab measures them again)
    stale: frozenset[str] = frozenset()

    def is_stale(self, slug: str) -> bool:
        """True when the game's figures were measured on an earlier version of it."""
        return slug in self.stale


def book_figures(report) -> BookFigures:
    """The figures stage: every game of the check's ``report`` played once (then cached),
    since the website shows every game even when one game is built. Raises
    :class:`FiguresError` when a game's engine cannot be simulated."""
    found: dict[str, dict | None] = {}
    for game_report in report.games:
        game = game_report.game
        try:
            found[game.slug] = figures(game)
        except faults.EngineFault:  # a fault of the game's own code, said at its line
            raise
        except Exception as e:  # noqa: BLE001 - a designer's engine that cannot be simulated
            fault = faults.from_exception(e)
            if fault is not None:
                raise fault from None
            raise FiguresError(f"{game.slug}: the balance lab could not play the game on its "
                               f"engine: {type(e).__name__}: {e}") from None
    return BookFigures(MappingProxyType(found))
