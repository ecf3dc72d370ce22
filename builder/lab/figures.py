"""The figures every rulebook and game page prints ("By the numbers"), kept beside the
content they are measured from.

Each game's figures are played once and stored in ``content/<slug>/figures.json`` (a small
file, sorted keys and indented, so that it travels with the game, in its repository, and
its changes read as a diff). The file holds:

- ``version``: the lab's :data:`VERSION`, bumped by hand whenever the lab's algorithm
  changes (a file of another version is never read: it is measured again);
- ``key``: a hash of everything the figures depend on (:func:`key`): the game's
  ``game.yaml``, its ``engine.py`` (if any) and the card files its engine reads, the source
  of its engine's module, of the engine core, the printed options, the lab's version, the
  books' policy (``simulate.BOOK_POLICY``) and the seed. Not the lab's source: a comment
  edited in the lab does not make every committed file stale (the version does that);
- ``seed`` and ``cap``: the seed, and ``WARBOOK_LAB_GAMES`` when the figures were played
  (None: the full policy). Full figures stand in for a capped request; capped figures
  never stand in for full ones or for a larger cap;
- ``checksum``: a hash of the figures' canonical JSON, so that a file edited by hand is
  noticed (and measured again) rather than printed;
- ``figures``: what ``simulate.book_report`` returned.

A build whose figures are current reads them and plays nothing. Stale or missing figures
are measured again by ``warbook build`` and written back atomically (a temporary file
renamed over the old one). ``warbook build --quick`` (and ``warbook serve``, which then
measures them in the background) prints the previous figures of a game whose key no longer
matches, marked as such (:attr:`BookFigures.stale`), and plays nothing.

Where they are kept: the content folder; with ``$WARBOOK_CACHE`` set (the tests, CI) they
are written there instead (``<slug>-<key>.json``) and read from the content folder first,
then there. A content folder that cannot be written (read-only) makes the build keep them
in the output, ``<output>/figures/<slug>.json``, where they are read next time. Nothing is
written anywhere else.

A figures file that is not JSON, edited by hand, made for another game or by another
version of the lab is ignored with a note (logger ``warbook.lab.figures``) and measured
again: never trusted, never a traceback.

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
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .. import faults
from ..cache import env_cache
from ..errors import WarbookError
from ..model import Content, Game
from .simulate import BOOK_POLICY, env_cap
from .simulate import BOOK_SEED as SEED

log = logging.getLogger("warbook.lab.figures")

#: the lab's version: bump it by hand whenever the lab measures differently (every
#: figures file of another version is then measured again)
VERSION = "3"
#: a game's figures file, in its content folder
FILE = "figures.json"
#: the output's folder of figures kept there (a content folder that cannot be written)
OUTPUT_DIR = "figures"
#: the fields of a figures file
FIELDS = ("about", "cap", "checksum", "figures", "game", "key", "seed", "version")
ABOUT = ("the balance figures of this game's By the numbers, measured by `warbook build`; "
         "do not edit (a change is noticed and measured again)")


cap = env_cap  # WARBOOK_LAB_GAMES, as the books' policy reads it


def _source(obj) -> bytes:
    try:
        return Path(inspect.getsourcefile(obj)).read_bytes()
    except (TypeError, OSError):
        return b""


def _card_files(game: Game) -> list[Path]:
    """The deck files the game's engine plays (``decks:`` in game.yaml), if it plays its
    own cards."""
    folder = Path(game.dir)
    out = []
    for deck in game.decks or ():
        shown = Path(getattr(deck, "file", "") or "")  # as messages show it: from the content
        parts = shown.parts
        inside = [folder.joinpath(*parts[i + 1:]) for i in range(len(parts) - 1, -1, -1)
                  if parts[i] == folder.name]  # the path after the game's folder
        for p in inside + [folder.parent / shown, folder / shown.name]:
            if parts and p.is_file():
                out.append(p)
                break
    return out


def key(game: Game) -> str:
    """The hash of everything the game's figures depend on (see the module's comment):
    the same for a copy of the game in another folder."""
    from ..engine import core

    h = hashlib.sha256()
    h.update(f"lab {VERSION}\npolicy {BOOK_POLICY}\nseed {SEED}\n".encode())
    folder = Path(game.dir)
    for name in ("game.yaml", "engine.py"):
        p = folder / name
        if p.is_file():
            h.update(name.encode() + b"\0" + p.read_bytes() + b"\0")
    for p in _card_files(game):
        h.update(b"cards\0" + p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    h.update(json.dumps(game.option_defaults(), sort_keys=True, default=str).encode())
    if game.gamedef is not None:
        h.update(b"\0engine\0" + _source(game.gamedef.new_game))
    h.update(b"\0core\0" + _source(core))
    return h.hexdigest()[:20]


def canonical(figures: Any) -> str:
    """The figures as canonical JSON (sorted keys, no spaces): what the checksum hashes."""
    return json.dumps(figures, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def checksum(figures: Any) -> str:
    return hashlib.sha256(canonical(figures).encode()).hexdigest()[:32]


def record_of(game: Game, figures: dict, k: str | None = None,
              capped: int | None = None) -> dict:
    """The figures file's data for ``figures`` just played (``k``: the game's key, computed
    if not given; ``capped``: the cap they were played with)."""
    figures = json.loads(canonical(figures))  # as read back: lists, string keys
    return {"about": ABOUT, "cap": capped, "checksum": checksum(figures), "figures": figures,
            "game": game.slug, "key": k or key(game), "seed": SEED, "version": VERSION}


def file_text(record: dict) -> str:
    """A figures file's text: JSON, sorted keys, indented two spaces a level, a list of
    plain values on one line (a histogram's ``[rounds, games]`` pairs one a line), so
    that a diff of two measurements reads line by line."""
    return _dumped(record, "") + "\n"


def _dumped(value: Any, indent: str) -> str:
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = (f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_dumped(value[k], inner)}"
                 for k in sorted(value, key=str))
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, (list, tuple)) and any(isinstance(v, (dict, list, tuple))
                                                for v in value):
        return "[\n" + ",\n".join(inner + _dumped(v, inner) for v in value) + f"\n{indent}]"
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def covers(made: int | None, asked: int | None) -> bool:
    """Whether figures played with the cap ``made`` stand in for a request with ``asked``:
    full ones for anything; capped ones for a capped request up to their cap."""
    return made is None or asked is not None and made >= asked


# --------------------------------------------------------------------------- notes
_noted: set[tuple[str, str]] = set()


#: why each file last read was ignored (``check_note`` says it as the check's warning)
_why: dict[str, str] = {}
#: set while the check asks: its warning says why, so nothing is logged beside it
_quiet = False


def _note(path: Path, text: str, level: int = logging.WARNING) -> None:
    """Say ``path: text`` once per process (serve reads the same file at every rebuild)."""
    _why[str(path)] = text
    if _quiet:
        return
    try:
        stamp = str(path.stat().st_mtime_ns)
    except OSError:
        stamp = ""
    mark = (str(path), text + stamp)
    if mark not in _noted:
        _noted.add(mark)
        log.log(level, f"{path}: {text}")


# --------------------------------------------------------------------------- reading
def read(path: Path, game: Game) -> dict | None:
    """The figures file at ``path`` if it is one this lab can trust for ``game`` (its key
    may be another: the caller compares it); None when there is none, or after a note
    saying why it is ignored (it is then measured again)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        _note(path, f"cannot be read ({(e.strerror or str(e)).lower()}); the figures are "
                    f"measured again")
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        _note(path, f"is not a figures file (not JSON: {e}); the figures are measured again")
        return None
    if not isinstance(data, dict) or not isinstance(data.get("figures"), dict):
        _note(path, "is not a figures file (no figures in it); the figures are measured again")
        return None
    if data.get("version") != VERSION:
        _note(path, f"is from another version of the balance lab ({data.get('version')!r}; "
                    f"this one is {VERSION!r}); the figures are measured again", logging.INFO)
        return None
    made = data.get("cap")
    if (data.get("game") != game.slug or not isinstance(data.get("key"), str)
            or data.get("seed") != SEED
            or not (made is None or isinstance(made, int) and not isinstance(made, bool)
                    and made > 0)):
        _note(path, f"is not {game.slug}'s figures file (its game, key, seed or cap is "
                    f"not one the lab writes); the figures are measured again")
        return None
    try:
        same = data.get("checksum") == checksum(data["figures"])
    except ValueError:  # NaN or infinity: not from the lab
        same = False
    if not same:
        _note(path, "was edited by hand (its checksum does not match its figures); the "
                    "figures are measured again")
        return None
    return data


def _cache_files(cache: Path, slug: str) -> list[Path]:
    """The game's files in the cache folder, newest first."""
    pattern = re.compile(rf"^{re.escape(slug)}-[0-9a-f]{{20}}\.json$")
    try:
        found = [p for p in cache.iterdir() if pattern.match(p.name)]
    except OSError:
        return []

    def newest(p: Path) -> int:
        try:
            return -p.stat().st_mtime_ns
        except OSError:
            return 0
    return sorted(found, key=newest)


#: figures measured by this process that could not be written anywhere yet (a content
#: folder that cannot be written, in ``serve``): slug -> record, read before the files;
#: the next build keeps them in its output
_unplaced: dict[str, dict] = {}


@dataclass(frozen=True)
class Found:
    """A game's figures file as found: its data, where (``content``, ``cache``,
    ``output``, ``memory``) and whether it is current (its key matches, and its cap covers
    the one asked)."""

    record: dict
    where: str
    path: Path | None
    current: bool


def lookup(game: Game, out: Path | str | None = None, k: str | None = None) -> Found | None:
    """The game's current figures if any place holds them, else the most recent trusted
    ones (stale: another key, or too small a cap), else None. Read in this order: the
    content folder, ``$WARBOOK_CACHE``, the output's ``figures/`` (``out``)."""
    k = k or key(game)
    asked = cap()
    candidates: list[tuple[str, Path | None, dict | None]] = []
    memo = _unplaced.get(game.slug)
    if memo is not None:
        candidates.append(("memory", None, memo))
    candidates.append(("content", Path(game.dir) / FILE, None))
    cache = env_cache()
    if cache is not None:
        exact = cache / f"{game.slug}-{k}.json"
        candidates.append(("cache", exact, None))
        candidates += [("cache", p, None) for p in _cache_files(cache, game.slug) if p != exact]
    if out is not None:
        candidates.append(("output", Path(out) / OUTPUT_DIR / f"{game.slug}.json", None))
    stale: Found | None = None
    for where, path, data in candidates:
        if data is None:
            data = read(path, game)
        if data is None:
            continue
        if data["key"] == k and covers(data.get("cap"), asked):
            return Found(data, where, path, True)
        if stale is None:
            stale = Found(data, where, path, False)
    return stale


def check_note(game: Game, out: Path | str | None = None) -> str | None:
    """What ``warbook check`` says of the game's figures file: None when it is current (or
    the game has no engine), else one sentence (stale, missing, or not to be trusted)."""
    global _quiet
    if game.gamedef is None:
        return None
    _quiet = True
    try:
        found = lookup(game, out)
    except OSError:
        found = None
    finally:
        _quiet = False
    if found is not None and found.current:
        return None
    if found is not None:
        if found.record.get("key") == key(game):
            return (f"{FILE} was measured with fewer games (WARBOOK_LAB_GAMES="
                    f"{found.record.get('cap')}); `warbook build` measures them again")
        return (f"{FILE} is from an earlier version of the game; `warbook build` measures "
                f"them again")
    path = Path(game.dir) / FILE
    if path.exists():
        why = _why.get(str(path), "").split("; the figures are measured")[0]
        return (f"{FILE} cannot be trusted" + (f": it {why}" if why else "")
                + "; `warbook build` measures them again")
    return f"{FILE} is missing; `warbook build` measures the figures"


# --------------------------------------------------------------------------- measuring
def measure(game: Game, workers: int | None = None, k: str | None = None,
            executor=None) -> dict:
    """Play the game's figures now (``simulate.book_report``, capped by
    ``WARBOOK_LAB_GAMES``) and return them as a figures file's data, under the key ``k``
    (the game's files as they were when it was loaded; computed now if not given).
    Raises :class:`FiguresError` (or the engine's located fault) when the lab cannot play
    the game. ``executor``: where the games are played (:mod:`.executor`, such as a Dask
    cluster); None, the local pool of ``workers``."""
    try:
        return _measure(game, workers, k, executor)
    except faults.EngineFault:  # a fault of the game's own code, said at its line
        raise
    except Exception as e:  # noqa: BLE001 - a designer's engine that cannot be simulated
        fault = faults.from_exception(e)
        if fault is not None:
            raise fault from None
        raise FiguresError(f"{game.slug}: the balance lab could not play the game on its "
                           f"engine: {type(e).__name__}: {e}") from None


def _measure(game: Game, workers: int | None, k: str | None, executor=None) -> dict:
    from . import simulate

    k = k or key(game)  # before playing: an edit during the games makes them stale
    capped = cap()
    log.info(f"simulating {game.slug}: each line-up until its rates are precise"
             + (f" (at most {capped:,} games, WARBOOK_LAB_GAMES)" if capped else ""))
    play = simulate.book_report
    try:
        takes_cap = "cap" in inspect.signature(play).parameters
    except (TypeError, ValueError):
        takes_cap = False
    there = {"executor": executor} if executor is not None else {}
    report = (play(game, workers=workers, cap=capped, **there) if takes_cap
              else play(game, workers=workers, **there))
    return record_of(game, report, k, capped)


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` atomically (a hidden temporary file beside it, renamed over
    it); an unchanged file is left as it is."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def place(game: Game, record: dict) -> Path | None:
    """Keep freshly measured figures where they belong: ``$WARBOOK_CACHE`` if set, else
    the game's content folder. Returns the file written, or None (after a note) when that
    place cannot be written: the build then keeps them in its output."""
    cache = env_cache()
    path = (cache / f"{game.slug}-{record['key']}.json" if cache is not None
            else Path(game.dir) / FILE)
    try:
        _write(path, file_text(record))
    except OSError as e:
        _unplaced[game.slug] = record
        where = "the figures cache" if cache is not None else "the content folder"
        log.warning(f"{game.slug}: cannot write {path} ({(e.strerror or str(e)).lower()}): "
                    f"{where} cannot be written, so the figures are kept in the output's "
                    f"{OUTPUT_DIR}/{game.slug}.json")
        return None
    _unplaced.pop(game.slug, None)
    return path


def figures(game: Game, workers: int | None = None, out: Path | str | None = None) -> dict | None:
    """The game's figures, current ones from where they are kept or played now (and kept).
    None if it has no engine."""
    if game.gamedef is None:
        return None
    k = key(game)
    found = lookup(game, out, k)
    if found is not None and found.current:
        return found.record["figures"]
    record = measure(game, workers)
    place(game, record)
    return record["figures"]


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

    #: the slugs whose figures are still to be measured (stale, or none yet): a quick
    #: build's, which played nothing
    pending: frozenset[str] = frozenset()
    #: figures files the build keeps in its output (``figures/<slug>.json``): the content
    #: folder (or the cache) could not be written
    to_output: Mapping[str, dict] = field(default_factory=dict)

    def fingerprint(self) -> dict[str, str]:
        """Each game's figures as the products print them, hashed (a stale one marked):
        the build manifest keeps it, so a product is rendered again when they change."""
        return {slug: (checksum(f) if f is not None else "none")
                + ("~stale" if slug in self.stale else "")
                for slug, f in sorted(self.by_slug.items())}


def book_figures(report, *, out: Path | str | None = None, quick: bool = False,
                 workers: int | None = None, cluster: str | None = None) -> BookFigures:
    """The figures stage: every game of the check's ``report`` (the website shows every
    game even when one game is built), read where they are kept (the content folder, the
    cache, the output ``out``: see :func:`lookup`) or played now and kept. With ``quick``
    nothing is played: a game without current figures shows its previous ones, marked
    stale (or none). Raises :class:`FiguresError` when a game's engine cannot be
    simulated. ``cluster``: a Dask scheduler's address, connected to only when some figures
    are to be played (a build whose figures are all current never reaches for it)."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        return _book_figures(report, out, quick, workers, cluster, stack)


def _book_figures(report, out, quick: bool, workers: int | None, cluster: str | None,
                  stack) -> BookFigures:
    executor = None
    found: dict[str, dict | None] = {}
    stale: set[str] = set()
    pending: set[str] = set()
    to_output: dict[str, dict] = {}
    for game_report in report.games:
        game = game_report.game
        slug = game.slug
        if game.gamedef is None:
            found[slug] = None
            continue
        k = key(game)
        had = lookup(game, out, k)
        if had is not None and had.current:
            found[slug] = had.record["figures"]
            if had.where == "memory":
                to_output[slug] = had.record
            continue
        if quick:
            pending.add(slug)
            if had is None:
                log.info(f"{slug}: no figures yet (none printed); `warbook build` "
                         f"measures them")
                found[slug] = None
            else:
                log.info(f"{slug}: the figures are from an earlier version of the game "
                         f"(printed marked as such); `warbook build` measures them again")
                found[slug] = had.record["figures"]
                stale.add(slug)
            continue
        if had is not None:
            log.info(f"{slug}: the figures in {had.path or 'memory'} are from an earlier "
                     f"version of the game; measuring them again")
        if cluster is not None and executor is None:
            from .connect import connect
            executor = stack.enter_context(connect(cluster, None))
        record = measure(game, workers, k, executor)
        if place(game, record) is None:
            to_output[slug] = record
        found[slug] = record["figures"]
    return BookFigures(MappingProxyType(found), frozenset(stale), frozenset(pending),
                       MappingProxyType(to_output))


def due(games: list[Game], out: Path | str | None = None) -> list[tuple[Game, str]]:
    """The games (with their keys) whose figures are not current: what ``serve`` measures
    in the background after a quick build."""
    todo = []
    for game in games:
        if game.gamedef is None:
            continue
        k = key(game)
        found = lookup(game, out, k)
        if found is None or not found.current:
            todo.append((game, k))
    return todo
