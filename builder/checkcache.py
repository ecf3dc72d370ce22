"""The check's cache: ``warbook check`` prints what it printed last time when nothing it
depends on has changed, in a few hundredths of a second, and re-checks only the games
that did change.

The verdicts are kept in the output folder, ``<output>/.cache/check/`` (one JSON file an
entry, named by its key), and only when that folder exists: the check never makes an
output folder of its own. A build keeps them (publication links every file of the
previous output it did not write into the new one, hidden folders included).

What an entry holds, and its key (a SHA-256 of everything the result depends on):

* the *load* entry: the games in the order the content folder gives them, each game's
  fingerprint (the ids of its examples as loaded) and every problem found while loading
  (``index.yaml``, each game's files, the content's templates). Its key covers the whole
  content folder and the base below;
* one *game* entry for each game: its verdict (title, each example's replay: status,
  steps, result, rules; rule coverage; whether its engine loaded), the problems its
  replay and engine check found and, once drawn, those of its card faces. Its key covers
  the base, the content folder outside the game folders (``index.yaml``, ``templates/``,
  fonts, logo: everything that is not a folder holding a ``game.yaml``), the game's own
  folder and its fingerprint (a game's examples can depend on the games before it: the
  compendium's limit on diagrams);
* the *base*: this format, warbook's version and every file of the installed package and
  its templates (by size and modification time), Python's version and executable, the
  installed distributions and ``.pth`` files of the site folders, the warbook engine
  plugins' entry points and their code (by size and time), the files of the font folders
  the commands name, every ``WARBOOK_*`` environment variable, the working folder (paths
  are shown relative to it) and the content folder as given and resolved.

Content files are hashed by their bytes (a link by where it points and, inside the
content folder, by what it leads to; nothing outside the content folder is read), so an
edit is never missed. A run whose keys changed while it ran, or during which anything was
written to standard output or error or a warning was shown (an engine's ``print``), stores
nothing. Each entry carries a checksum of its payload: a damaged or unreadable entry is a
miss, silently, and written again. The folder is pruned to :data:`MAX_ENTRIES` files
(least recently used first). Nothing here imports the check or the renderers: the
command line hands them in (:class:`Stages`).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable

from . import __version__, resources
from .cache import prune, write_whole
from .diagnostics import Diagnostic, Diagnostics, Located

#: the layout of an entry; a new one makes every old entry a miss
FORMAT = 1
#: where, inside the output folder
FOLDER = (".cache", "check")
#: the most entries kept (a game's entry is about 2 to 10 kB)
MAX_ENTRIES = 400
#: a content file larger than this is hashed by its size, time and inode, not read
READ_MAX = 32 * 1024 * 1024

PACKAGE = Path(__file__).resolve().parent


# --------------------------------------------------------------------------- hashing
def _file_bytes(h, path: str, st: os.stat_result) -> None:
    """A regular file's bytes (opened without blocking and checked to be one still)."""
    if st.st_size > READ_MAX:
        h.update(b"big:%d:%d:%d\n" % (st.st_size, st.st_mtime_ns, st.st_ino))
        return
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        h.update(b"error:%d\n" % (e.errno or 0))
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            h.update(b"changed kind\n")
            return
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        h.update(b"file:%d\0" % len(data))
        h.update(data)
    except OSError as e:
        h.update(b"error:%d\n" % (e.errno or 0))
    finally:
        os.close(fd)


def _inside(real: str, top: str) -> bool:
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def hash_entry(h, path: str, shown: str, top: str, seen: frozenset = frozenset()) -> None:
    """Everything under ``path`` (a file or a folder) into ``h``: names, kinds and bytes.
    A link counts by where it points, and is followed only where it leads inside ``top``
    (the content folder's real path); a link leading outside counts by its real path and
    kind alone (never read: the check refuses it). Anything but a regular file or a folder
    counts by its kind (a FIFO is never opened)."""
    h.update(shown.encode("utf-8", "surrogateescape") + b"\0")
    try:
        st = os.lstat(path)
    except OSError as e:
        h.update(b"error:%d\n" % (e.errno or 0))
        return
    if stat.S_ISLNK(st.st_mode):
        try:
            h.update(b"link:" + os.fsencode(os.readlink(path)) + b"\0")
            real = os.path.realpath(path)
            st = os.stat(path)
        except (OSError, RuntimeError) as e:
            h.update(b"broken:%d\n" % (getattr(e, "errno", 0) or 0))
            return
        if not _inside(real, top):
            h.update(b"outside:" + os.fsencode(real) + b":%d\n" % stat.S_IFMT(st.st_mode))
            return
    if stat.S_ISDIR(st.st_mode):
        real = os.path.realpath(path)
        if real in seen:
            h.update(b"loop\n")
            return
        try:
            names = sorted(os.listdir(path))
        except OSError as e:
            h.update(b"error:%d\n" % (e.errno or 0))
            return
        names = [n for n in names if n != "__pycache__"]  # an engine.py's bytecode
        h.update(b"dir:%d\n" % len(names))
        for name in names:
            hash_entry(h, os.path.join(path, name), f"{shown}/{name}", top, seen | {real})
    elif stat.S_ISREG(st.st_mode):
        _file_bytes(h, path, st)
    else:
        h.update(b"kind:%d\n" % stat.S_IFMT(st.st_mode))


def _stat_tree(h, folder: Path, skip: tuple[str, ...] = ("__pycache__",)) -> None:
    """Every file under ``folder`` (links to folders followed: the checkout's templates)
    by its name, size and modification time: the installed code, cheaply."""
    stack = [(str(folder), "")]
    seen: set[str] = set()
    while stack:
        path, shown = stack.pop()
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError as e:
            h.update(f"{shown}:error:{e.errno}\n".encode())
            continue
        for e in entries:
            if e.name in skip:
                continue
            try:
                st = e.stat()
            except OSError:
                h.update(f"{shown}/{e.name}:broken\n".encode())
                continue
            if stat.S_ISDIR(st.st_mode):
                stack.append((e.path, f"{shown}/{e.name}"))
            else:
                h.update(f"{shown}/{e.name}:{st.st_size}:{st.st_mtime_ns}\n"
                         .encode("utf-8", "surrogateescape"))


def _stat_path(h, path: Path) -> None:
    try:
        st = path.stat()
    except OSError:
        h.update(f"{path}:missing\n".encode())
        return
    if stat.S_ISDIR(st.st_mode):
        _stat_tree(h, path)
    else:
        h.update(f"{path}:{st.st_size}:{st.st_mtime_ns}\n".encode())


def _site(h) -> None:
    """The installed distributions (their names carry their versions), the ``.pth`` files
    and editable finders, and the code of every warbook engine plugin outside warbook."""
    plugins: set[str] = set()
    for entry in sys.path:
        if not entry or os.path.basename(entry) not in ("site-packages", "dist-packages"):
            continue
        try:
            names = sorted(os.listdir(entry))
        except OSError:
            continue
        h.update(f"site:{entry}\n".encode())
        for name in names:
            path = os.path.join(entry, name)
            if name.endswith((".dist-info", ".egg-info")):
                h.update(f"{name}\n".encode())
                try:
                    with open(os.path.join(path, "entry_points.txt"), "rb") as f:
                        text = f.read()
                except OSError:
                    continue
                if b"warbook.engines" in text:
                    h.update(text)
                    plugins.update(_plugin_modules(text.decode("utf-8", "replace")))
            elif name.endswith((".pth", ".egg-link")) or name.startswith("__editable__"):
                try:
                    st = os.stat(path)
                    h.update(f"{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
                except OSError:
                    pass
    for top in sorted(plugins - {__name__.split(".")[0]}):  # warbook's own: PACKAGE
        import importlib.util

        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        h.update(f"plugin:{top}\n".encode())
        if spec is None:
            continue
        for where in (spec.submodule_search_locations or []) or [spec.origin or ""]:
            if where:
                _stat_path(h, Path(where))


def _plugin_modules(text: str) -> set[str]:
    """The top-level modules the ``[warbook.engines]`` section of an entry_points.txt
    names."""
    found, inside = set(), False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            inside = line == "[warbook.engines]"
        elif inside and "=" in line:
            found.add(line.split("=", 1)[1].strip().split(":")[0].split(".")[0].strip())
    return found


def base_key(content: Path, extra: Iterable[Path] = ()) -> str:
    """Everything every entry depends on besides the content (the module's docstring)."""
    h = hashlib.sha256()
    h.update(f"format {FORMAT}\nwarbook {__version__}\npython {sys.version}\n"
             f"{sys.executable}\n{sys.implementation.cache_tag}\n".encode())
    _stat_tree(h, PACKAGE)
    _site(h)
    for path in extra:
        _stat_path(h, Path(path))
    for name in sorted(os.environ):
        if name.startswith("WARBOOK_"):
            h.update(f"env {name}={os.environ[name]}\n".encode("utf-8", "surrogateescape"))
    h.update(f"cwd {os.getcwd()}\ncontent {content}\n{os.path.realpath(content)}\n"
             .encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, separators=(",", ":")).encode()).hexdigest()


class Keys:
    """The keys of one content folder's entries, computed once (:meth:`make`)."""

    def __init__(self, base: str, project: str, folders: dict[str, str]):
        self.base = base
        self.project = project  # the content folder outside its game folders
        self.folders = folders  # each game folder (a folder holding a game.yaml) -> its hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Keys) and (self.base, self.project, self.folders) == \
            (other.base, other.project, other.folders)

    @classmethod
    def make(cls, content: Path, extra: Iterable[Path] = ()) -> "Keys":
        base = base_key(content, extra)
        top = os.path.realpath(content)
        project = hashlib.sha256()
        folders: dict[str, str] = {}
        games = set(game_folders(content))
        for name in sorted(os.listdir(content)):
            path = os.path.join(content, name)
            if name in games:
                h = hashlib.sha256()
                hash_entry(h, path, name, top)
                folders[name] = h.hexdigest()
            else:
                hash_entry(project, path, name, top)
        return cls(base, project.hexdigest(), folders)

    @property
    def load(self) -> str:
        return _digest("load", self.base, self.project, sorted(self.folders.items()))

    def game(self, slug: str, fingerprint: list) -> str | None:
        """The key of a game's entry; None for a game whose folder was not hashed (the
        reader found it otherwise: never cached)."""
        if slug not in self.folders:
            return None
        return _digest("game", self.base, self.project, slug, self.folders[slug], fingerprint)


def game_folders(content: Path) -> list[str]:
    """The folders of ``content`` that hold a ``game.yaml`` (none: no folder, no games,
    and nothing worth keeping: the check runs without its cache)."""
    try:
        names = sorted(os.listdir(content))
    except OSError:
        return []
    return [n for n in names if os.path.isdir(os.path.join(content, n))
            and os.path.lexists(os.path.join(content, n, "game.yaml"))]


def fingerprint(game: Any) -> list[str]:
    """What a game's check depends on that its folder alone does not say: the examples the
    reader kept (it stops at the compendium's limit on diagrams, counted over the games
    before)."""
    return [str(ex.id) for ex in game.examples]


# --------------------------------------------------------------------------- the store
class Store:
    """The entries in ``folder``: JSON, each with its key and a checksum of its payload."""

    def __init__(self, folder: Path):
        self.folder = folder

    @classmethod
    def of(cls, out: Path) -> "Store | None":
        """The store inside the output folder ``out``; None when there is no such folder
        (the check makes none)."""
        return cls(Path(out).joinpath(*FOLDER)) if Path(out).is_dir() else None

    def path(self, key: str) -> Path:
        return self.folder / f"{key[:40]}.json"

    def get(self, key: str | None, kind: str) -> dict | None:
        """The payload stored under ``key``; None for a miss, a damaged entry or one of
        another key or kind."""
        if key is None:
            return None
        path = self.path(key)
        try:
            with open(path, "rb") as f:
                entry = json.loads(f.read())
            payload = entry["payload"]
            if entry.get("format") != FORMAT or entry.get("key") != key \
                    or entry.get("kind") != kind or not isinstance(payload, dict) \
                    or entry.get("sum") != _digest(payload):
                return None
            os.utime(path)  # recently used: pruned last
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None
        return payload

    def put(self, key: str | None, kind: str, payload: dict) -> None:
        """Store ``payload`` (replacing the file in one step, :func:`.cache.write_whole`);
        any failure is silent."""
        if key is None:
            return
        try:
            text = json.dumps({"format": FORMAT, "kind": kind, "key": key,
                               "sum": _digest(payload), "payload": payload},
                              separators=(",", ":"))
            write_whole(self.path(key), text.encode("utf-8"))
        except (OSError, TypeError, ValueError, RecursionError):
            pass

    def prune(self, keep: int = MAX_ENTRIES) -> None:
        """Keep the ``keep`` most recently used entries; remove stopped runs' leftovers."""
        prune(self.folder, ".json", keep)


# --------------------------------------------------------------------------- records
def diag_record(d: Diagnostic) -> dict:
    return {"path": d.path, "line": d.line, "col": d.col, "severity": d.severity,
            "message": d.message, "detail": d.detail}


def diag_from(r: dict) -> Diagnostic:
    return Diagnostic(r["path"], r["line"], r["col"], r["message"], severity=r["severity"],
                      detail=r["detail"])


def diags_from(records: list) -> Diagnostics:
    out = Diagnostics()
    for r in records:
        if not isinstance(r, dict):
            raise TypeError("a damaged entry")
        out.append(diag_from(r))
    return out


def faithful(d: Diagnostic) -> bool:
    """Whether the stored form of ``d`` prints and reports exactly as ``d`` does."""
    try:
        again = diag_from(json.loads(json.dumps(diag_record(d))))
    except (TypeError, ValueError):
        return False
    return again.format() == d.format() and again.to_json() == d.to_json() \
        and again.severity == d.severity


# plain classes, not dataclasses: a warm check makes them, and making a dataclass costs a
# millisecond at import
class CachedExample:
    __slots__ = ("id", "title", "where")

    def __init__(self, id: str, title: str, where: Located):
        self.id, self.title, self.where = id, title, where


class CachedReplay:
    __slots__ = ("example", "status", "step_count", "result", "rules_cited")

    def __init__(self, example: CachedExample, status: str, step_count: int, result: str,
                 rules_cited: list):
        self.example, self.status, self.step_count = example, status, step_count
        self.result, self.rules_cited = result, rules_cited


class CachedGame:
    __slots__ = ("slug", "title", "gamedef")

    def __init__(self, slug: str, title: str, gamedef: Any):
        self.slug, self.title = slug, title
        #: what the command line asks of a game's engine: whether it loaded (None: not)
        self.gamedef = gamedef


class CachedGameReport:
    __slots__ = ("game", "replays", "coverage", "uncovered")

    def __init__(self, game: CachedGame, replays: list, coverage: dict, uncovered: list):
        self.game, self.replays, self.coverage, self.uncovered = game, replays, coverage, \
            uncovered


class CachedContent:
    __slots__ = ("root",)

    def __init__(self, root: str):
        self.root = root


class CachedReport:
    """A check's report as the command line prints it (``print_report``, ``--json``,
    ``--game``), made from stored verdicts: the games, their replays' outcomes and every
    problem, in the order a check finds them."""

    def __init__(self, content: CachedContent, games: list, diagnostics: Diagnostics):
        self.content, self.games, self.diagnostics = content, games, diagnostics

    @property
    def ok(self) -> bool:
        return not self.diagnostics.errors

    @property
    def example_count(self) -> int:
        return example_count(self)

    def counts(self) -> dict[str, int]:
        return counts(self)

    def to_json(self) -> dict[str, Any]:
        return report_json(self)


def game_record(gr: Any) -> dict:
    """A checked game (a ``check.GameReport``) as plain data."""
    return {
        "slug": gr.game.slug, "title": gr.game.title,
        "checked": gr.game.gamedef is not None,
        "replays": [{"id": r.example.id, "title": r.example.title,
                     "file": r.example.where.path, "line": r.example.where.line,
                     "status": r.status, "steps": r.step_count, "result": r.result,
                     "rules": sorted(r.rules_cited)} for r in gr.replays],
        "coverage": {rid: list(ex) for rid, ex in gr.coverage.items()},
        "uncovered": list(gr.uncovered),
    }


def game_from(r: dict) -> CachedGameReport:
    replays = [CachedReplay(CachedExample(x["id"], x["title"], Located(x["file"], x["line"])),
                            x["status"], x["steps"], x["result"], list(x["rules"]))
               for x in r["replays"]]
    game = CachedGame(r["slug"], r["title"], True if r["checked"] else None)
    return CachedGameReport(game, replays, dict(r["coverage"]), list(r["uncovered"]))


# --------------------------------------------------------------------------- the report
def counts(report: Any) -> dict[str, int]:
    out = {"pass": 0, "fail": 0, "error": 0}
    for game_report in report.games:
        for replay in game_report.replays:
            out[replay.status] += 1
    return out


def example_count(report: Any) -> int:
    return sum(len(game_report.replays) for game_report in report.games)


def game_json(game_report: Any) -> dict[str, Any]:
    return {
        "slug": game_report.game.slug, "title": game_report.game.title,
        "examples": [
            {"id": replay.example.id, "title": replay.example.title,
             "file": replay.example.where.path, "line": replay.example.where.line,
             "status": replay.status, "steps": replay.step_count,
             "result": replay.result, "rules": sorted(replay.rules_cited)}
            for replay in game_report.replays
        ],
        "rules": {rid: ex for rid, ex in game_report.coverage.items()},
        "uncovered": game_report.uncovered,
    }


def report_json(report: Any) -> dict[str, Any]:
    """``warbook check --json``: a report (the check's or a :class:`CachedReport`)."""
    c = counts(report)
    errors = len(report.diagnostics.errors)
    return {
        "ok": not errors,
        "summary": {"games": len(report.games), "examples": example_count(report),
                    "passed": c["pass"], "failed": c["fail"] + c["error"],
                    "errors": errors, "warnings": len(report.diagnostics) - errors},
        "games": [game_json(g) for g in report.games],
        "diagnostics": [d.to_json() for d in report.diagnostics],
    }


# --------------------------------------------------------------------------- a run
class Stages:
    """The check's stages, handed in by the command line (this module imports neither
    the check nor the renderers): ``load`` (the content folder -> the content and the
    problems found loading it), ``check_game`` (a loaded game and the diagnostics to add
    to -> its ``GameReport``), ``faces`` (the content and a loaded game -> the problems of
    its card faces), and ``extra``: the folders and files besides the package whose change
    changes a result (the fonts)."""

    def __init__(self, load: Callable[[Path], tuple[Any, Diagnostics]],
                 check_game: Callable[[Any, Diagnostics], Any],
                 faces: Callable[[Any, Any], list], extra: tuple = ()):
        self.load, self.check_game, self.faces, self.extra = load, check_game, faces, extra


class _Watch:
    """Whether anything was written to standard output or error, or a warning shown,
    while the stages ran (an engine's ``print``): such a run is not stored, as a warm run
    would not say it again."""

    class _Spy:
        def __init__(self, stream, watch):
            self._stream, self._watch = stream, watch

        def write(self, text):
            if text:
                self._watch.spoke = True
            return self._stream.write(text)

        def __getattr__(self, name):
            return getattr(self._stream, name)

    def __enter__(self):
        self.spoke = False
        self._saved = sys.stdout, sys.stderr, warnings.showwarning
        sys.stdout, sys.stderr = self._Spy(sys.stdout, self), self._Spy(sys.stderr, self)
        shown = warnings.showwarning

        def spy(*args, **kwargs):
            self.spoke = True
            return shown(*args, **kwargs)

        warnings.showwarning = spy
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr, warnings.showwarning = self._saved
        return False


class Outcome:
    """A check, from the store or done now: the report without the card faces' problems
    (:meth:`faces_of` adds them, so that ``--game`` narrows the rest first, as before),
    ``faces`` (slug -> the problems of its card faces, for the games asked for) and
    ``checked``: the games replayed in this run (none: all from the store), and ``kept``:
    "read" (all from the store), "stored", or why nothing was stored."""

    def __init__(self, report: CachedReport, faces: dict[str, list], checked: list[str],
                 kept: str):
        self.report, self.faces, self.checked, self.kept = report, faces, checked, kept

    def faces_of(self, games: Iterable[Any]) -> Diagnostics:
        out = Diagnostics()
        for g in games:
            out.extend(self.faces.get(g.game.slug, ()))
        return out


def cached_check(content: Path, out: Path | None, stages: Stages,
                 faces_for: str | None = None) -> Outcome:
    """The check of ``content`` (the card faces of ``faces_for`` only, or of every game),
    from the store in ``out`` where its entries hold, else done now (only the games whose
    entries do not hold are replayed) and stored."""
    resources.templates()  # the shipped ones all there (or an internal error), cache or not
    content = Path(content)
    store = Store.of(out) if out is not None else None
    keys = Keys.make(content, stages.extra) if store is not None else None

    def wanted(slug: str) -> bool:
        return faces_for is None or slug == faces_for

    if store is not None and keys is not None:
        hit = _from_store(store, keys, wanted)
        if hit is not None:
            return hit
    return _check_now(content, store, keys, stages, wanted)


def _from_store(store: Store, keys: Keys, wanted: Callable[[str], bool]) -> Outcome | None:
    load = store.get(keys.load, "load")
    if load is None:
        return None
    try:
        report = CachedReport(CachedContent(load["root"]), [], diags_from(load["diags"]))
        later, faces = Diagnostics(), {}
        for g in load["games"]:
            entry = store.get(keys.game(g["slug"], g["fingerprint"]), "game")
            if entry is None or wanted(g["slug"]) and entry.get("faces") is None:
                return None
            report.games.append(game_from(entry["verdict"]))
            later.extend(diags_from(entry["diags"]))
            if wanted(g["slug"]):
                faces[g["slug"]] = diags_from(entry["faces"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    report.diagnostics.extend(later)
    return Outcome(report, faces, [], "read")


def _usable(entry: dict | None) -> dict | None:
    """A game's stored entry if it can be read back whole, else None (a miss)."""
    if entry is None:
        return None
    try:
        game_from(entry["verdict"])
        diags_from(entry["diags"])
        if entry.get("faces") is not None:
            diags_from(entry["faces"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return entry


def _check_now(content: Path, store: Store | None, keys: Keys | None, stages: Stages,
               wanted: Callable[[str], bool]) -> Outcome:
    with _Watch() as watch:
        loaded, load_diags = stages.load(content)
        games = list(loaded.games)
        entries: dict[str, dict | None] = {}
        reports: dict[str, Any] = {}
        checks: dict[str, Diagnostics] = {}
        for game in games:  # every game's replay first, then the faces: a check's order
            key = keys.game(game.slug, fingerprint(game)) if keys is not None else None
            entry = _usable(store.get(key, "game")) if store is not None else None
            entries[game.slug] = entry
            if entry is None:
                checks[game.slug] = Diagnostics()
                reports[game.slug] = stages.check_game(game, checks[game.slug])
        faces: dict[str, list] = {}
        for game in games:
            if not wanted(game.slug):
                continue
            entry = entries[game.slug]
            if entry is not None and entry.get("faces") is not None:
                faces[game.slug] = diags_from(entry["faces"])
                continue
            faces[game.slug] = Diagnostics(stages.faces(loaded, game))
    report = CachedReport(CachedContent(str(loaded.root)), [], Diagnostics(load_diags))
    later = Diagnostics()
    records: dict[str, dict] = {}
    kept = "the run printed or warned" if watch.spoke else ""
    for game in games:
        entry = entries[game.slug]
        if game.slug in reports:
            record = game_record(reports[game.slug])
            cached = game_from(json.loads(json.dumps(record)))
            if game_json(cached) != game_json(reports[game.slug]) \
                    or not all(faithful(d) for d in checks[game.slug]):
                kept = kept or f"{game.slug}'s verdict cannot be stored as it is"
            records[game.slug] = {"verdict": record,
                                  "diags": [diag_record(d) for d in checks[game.slug]]}
        else:
            cached = game_from(entry["verdict"])
            checks[game.slug] = diags_from(entry["diags"])
        report.games.append(cached)
        later.extend(checks[game.slug])
    report.diagnostics.extend(later)
    if not all(faithful(d) for d in load_diags) \
            or not all(faithful(d) for found in faces.values() for d in found):
        kept = kept or "a problem cannot be stored as it is"
    if store is None or keys is None:
        kept = "no output folder"
    elif not kept and Keys.make(content, stages.extra) != keys:
        kept = "the content or warbook changed while it was checked"
    if not kept:
        for game in games:
            key = keys.game(game.slug, fingerprint(game))
            entry = entries[game.slug]
            if game.slug in records or entry is not None and entry.get("faces") is None \
                    and game.slug in faces:
                payload = records.get(game.slug) or dict(entry)
                payload["faces"] = ([diag_record(d) for d in faces[game.slug]]
                                    if game.slug in faces else None)
                store.put(key, "game", payload)
        store.put(keys.load, "load", {
            "root": str(loaded.root),
            "games": [{"slug": g.slug, "fingerprint": fingerprint(g)} for g in games],
            "diags": [diag_record(d) for d in load_diags]})
        store.prune()
    return Outcome(report, faces, sorted(reports), kept or "stored")
