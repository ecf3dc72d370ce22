"""Where engines come from: found, not listed.

A game's ``game.yaml`` names its engine (``engine: war``). The name is resolved in this
order:

1. ``engine.py`` in the game's own content folder, which defines a module-level ``GAME``
   (a :class:`~builder.engine.core.GameDef`). It is the designer's own code and is trusted
   like a ``conftest.py``: warbook imports and runs it. With such a file ``engine:`` may be
   left out.
2. An engine an installed package registers under the entry-point group
   ``warbook.engines`` (name = the engine's name, value = ``module:GAME``). warbook's own
   six engines are registered this way in its ``pyproject.toml``, so a separately
   installed plugin package is found exactly like them.

Hands on a :class:`GameDef`, or raises :class:`EngineError` whose message (and, for an
engine file, line) says what went wrong.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import traceback
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from .. import faults
from ..diagnostics import suggest
from ..errors import WarbookError
from .core import GameDef

log = logging.getLogger("warbook.engine.registry")

ENTRY_POINT_GROUP = "warbook.engines"
ENGINE_FILE = "engine.py"


class EngineError(WarbookError):
    """An engine that cannot be found or loaded. ``path``/``line`` point into an engine
    file when the error is in one."""

    def __init__(self, message: str, path: str | None = None, line: int = 0):
        super().__init__(message)
        self.path = path
        self.line = line


@lru_cache(maxsize=None)
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)
    return found


def available_engines() -> list[str]:
    """The names of the engines installed packages register, sorted."""
    return sorted(_entry_points())


def _check_gamedef(obj, where: str) -> GameDef:
    if not isinstance(obj, GameDef):
        raise EngineError(f"{where} must be a GameDef (builder.engine.core.GameDef), "
                          f"not {type(obj).__name__}")
    return obj


@lru_cache(maxsize=None)
def _installed(name: str) -> GameDef:
    ep = _entry_points()[name]
    log.debug(f"loading the {name} engine from {ep.value}")
    try:
        obj = ep.load()
    except Exception as e:  # noqa: BLE001 - a broken plugin is reported, not raised
        raise EngineError(f"the {name} engine ({ep.value}) failed to load: "
                          f"{type(e).__name__}: {e}") from None
    _note_plugin_code(ep.module)
    return _check_gamedef(obj, f"the {name} engine ({ep.value})")


def _note_plugin_code(module_name: str) -> None:
    """A plugin's package (or module) is a game's own code (:mod:`builder.faults`); an
    engine shipped in warbook is not."""
    top = module_name.split(".")[0]
    if top == __name__.split(".")[0]:
        return
    module = sys.modules.get(top)
    where = getattr(module, "__file__", None)
    if where:
        path = Path(where)
        faults.add_game_code(path.parent if path.name == "__init__.py" else path)


def load_engine_file(path: Path) -> GameDef:
    """Import a game folder's ``engine.py`` under a module name of its own and return its
    ``GAME``. An error in the file is reported with the file's line."""
    path = Path(path).resolve()
    log.debug(f"loading the engine file {path}")
    modname = "warbook_content_engine_" + "".join(
        c if c.isalnum() else "_" for c in path.parent.name) + f"_{abs(hash(str(path))):x}"
    faults.add_game_code(path)  # its exceptions are the designer's, said at their line
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise EngineError(f"cannot load {path.name}", str(path), 1)
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        sys.modules.pop(modname, None)
        raise EngineError(f"the engine file does not parse: {e.msg}", str(path),
                          e.lineno or 1) from None
    except Exception as e:  # noqa: BLE001 - the designer's code; reported at its line
        sys.modules.pop(modname, None)
        line = 1
        for frame in traceback.extract_tb(e.__traceback__):
            if Path(frame.filename).resolve() == path:
                line = frame.lineno or 1
        raise EngineError(f"the engine file failed to load: {type(e).__name__}: {e}",
                          str(path), line) from None
    made = _games_made_in(path, module)   # (name, line): GameDefs the file itself makes
    if not hasattr(module, "GAME"):
        hint = (f" (it makes {', '.join(n for n, _ in made)}: name the game GAME)"
                if made else "")
        raise EngineError(f"the engine file defines no GAME (a GameDef){hint}", str(path),
                          made[0][1] if made else 1)
    others = [(n, line) for n, line in made if n != "GAME" and vars(module)[n] is not module.GAME]
    if others:
        line = others[0][1]
        raise EngineError(f"the engine file defines more than one game (GAME and "
                          f"{', '.join(n for n, _ in others)}); an engine.py plays one "
                          f"game: move the other into its own game folder", str(path), line)
    return _check_gamedef(module.GAME, f"{path.name}'s GAME")


def _games_made_in(path: Path, module) -> list[tuple[str, int]]:
    """The names the engine file assigns at its top level that hold a GameDef, with their
    lines (a game imported from elsewhere, to build on, is not one the file makes)."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return []
    out = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            if isinstance(t, ast.Name) and isinstance(vars(module).get(t.id), GameDef) \
                    and t.id not in (n for n, _ in out):
                out.append((t.id, node.lineno))
    return out


def find_engine(name: str | None, game_dir: Path | None = None) -> GameDef:
    """The engine for ``name``: the game folder's ``engine.py`` first, then the installed
    engines. ``name`` may be ``None`` only when the folder has an engine file."""
    if game_dir is not None and (Path(game_dir) / ENGINE_FILE).is_file():
        return load_engine_file(Path(game_dir) / ENGINE_FILE)
    if name is None:
        raise EngineError("no engine: name one with 'engine:' or put an engine.py in the "
                          "game's folder")
    if name in _entry_points():
        return _installed(name)
    known = available_engines()
    raise EngineError(f"unknown engine '{name}' (available: {', '.join(known) or 'none'})"
                      f"{suggest(name, known)}")


def registered_engines() -> dict[str, GameDef]:
    """Every installed engine that loads, by name (for tests, benchmarks and simulation)."""
    out = {}
    for name in available_engines():
        out[name] = _installed(name)
    return out
