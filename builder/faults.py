"""Faults in a game's own code, said at their line.

A game's engine may be a designer's ``engine.py`` or a plugin's module: code warbook runs
but did not write. When that code raises while warbook runs a game (``check`` replaying an
example, the lab playing games for ``simulate``, ``build`` or ``check --balance``,
``record``), the fault is the designer's to fix, not a bug in warbook, and it is said so::

    content/crazy-eights/engine.py:42: error: KeyError: 'S9' in draw() (playing
    crazy-eights, game 'figures:0/seat/random:17', step 12)

with exit status 1. The line is found by walking the exception's traceback from the
innermost frame outwards to the first frame in a game's own code: an engine file loaded
from a content folder, or the package of a plugin an engine was loaded from (the engine
registry names them as it loads them). An exception raised inside warbook (with no game code in
its traceback) stays an internal error. What warbook was doing when it happened is added
to the exception as a note (:pep:`678`, ``add_note``) where the game is run, and printed
after the message.

A fault in a worker process reaches the parent as a :class:`Carried` (plain strings: any
exception pickles, a designer's too), so a failing worker can never leave a pool waiting.
"""

from __future__ import annotations

import builtins
import inspect
import traceback
from pathlib import Path
from typing import Any

from .contentpath import rel
from .diagnostics import suggest
from .errors import InternalError, WarbookError

#: the files and folders of games' own code: each engine file loaded from a content folder
#: and each plugin package an engine was loaded from (``builder.engine.registry`` adds them)
_GAME_CODE: set[Path] = set()


def add_game_code(path: Path) -> None:
    """Count a file (an ``engine.py``) or a folder (a plugin's package) as a game's code."""
    _GAME_CODE.add(Path(path).resolve())


def is_game_code(filename: str) -> bool:
    """Whether a frame's file is a game's own code (not warbook's, Python's or a test's)."""
    if filename.startswith("<") or not _GAME_CODE:  # <frozen ...>, <string>
        return False
    path = Path(filename).resolve()
    return any(path == code or code in path.parents for code in _GAME_CODE)


def shown(path: str | Path) -> str:
    """A path as a designer reads it (:func:`builder.contentpath.rel`)."""
    return rel(Path(path), Path.cwd())


def locate(exc: BaseException) -> tuple[str, int, str] | None:
    """``(file, line, function)`` of the innermost frame of the exception's traceback in a
    game's own code, or None when no frame is (the fault is warbook's)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if is_game_code(frame.filename):
            return shown(frame.filename), frame.lineno or 0, frame.name
    return None


def where_defined(fn: Any) -> tuple[str, int, str] | None:
    """``(file, line, name)`` where a game's function (a bot, ``max_steps``, a class) is
    written, or None when it is warbook's own."""
    target = getattr(fn, "__func__", fn)
    try:
        path = inspect.getsourcefile(target)
        _, line = inspect.getsourcelines(target)
    except (TypeError, OSError):
        return None
    if path is None or not is_game_code(path):
        return None
    return shown(path), line, getattr(target, "__qualname__", getattr(target, "__name__", "?"))


class EngineFault(WarbookError):
    """A fault of a game's own code, at its file and line. ``located``: the message starts
    with the place, ``path:line: error: ...``."""

    located = True

    def __init__(self, path: str, line: int, message: str, notes: tuple[str, ...] = ()):
        self.path, self.line, self.message, self.notes = path, line, message, tuple(notes)
        doing = "; ".join(notes)
        super().__init__(f"{path}:{line}: error: {message}" + (f" ({doing})" if doing else ""))


def _notes(exc: BaseException) -> tuple[str, ...]:
    return tuple(getattr(exc, "__notes__", ()) or ())


def _suggestion(exc: BaseException) -> str:
    """The name a misspelt attribute or name was probably meant to be, as Python's own
    traceback says it ("Did you mean: 'current_player'?"; Python 3.11 says so only in the
    traceback it prints, not in the message): the closest name the object has, or the
    failing frame sees; "" when none is close."""
    name = getattr(exc, "name", None)
    if not isinstance(name, str):
        return ""
    try:
        if isinstance(exc, AttributeError):
            obj = getattr(exc, "obj", None)
            if obj is None:
                return ""
            names = dir(obj)
        elif isinstance(exc, NameError):
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is None:
                return ""
            frame = tb.tb_frame
            names = [*frame.f_locals, *frame.f_globals, *dir(builtins)]
        else:
            return ""
        return suggest(name, [n for n in names if n != name], cutoff=0.7)
    except Exception:  # noqa: BLE001 - a designer's object whose __dir__ fails: no hint
        return ""


def exception_words(exc: BaseException) -> str:
    """An exception as one line: its type, its message (at most 300 characters) and the
    name a misspelt one was probably meant to be ("did you mean"). The kit's breaches
    (``builder.testing``) say a fault so too."""
    text = str(exc)
    if isinstance(exc, KeyError) and len(exc.args) == 1:
        text = repr(exc.args[0])
    text = " ".join(text.split())
    if len(text) > 300:
        text = text[:297] + "..."
    text += _suggestion(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def from_exception(exc: BaseException) -> EngineFault | None:
    """The exception as a fault of a game's code, or None when it is warbook's."""
    if isinstance(exc, WarbookError):
        return None
    if isinstance(exc, Carried):
        return exc.fault()
    place = locate(exc)
    if place is None:
        return None
    path, line, function = place
    in_fn = f" in {function}()" if function and not function.startswith("<") else ""
    return EngineFault(path, line, exception_words(exc) + in_fn, _notes(exc))


def blame(fn: Any, message: str, notes: tuple[str, ...] = ()) -> WarbookError:
    """An error about something a game's function did (a bot's illegal decision, a step
    bound passed): located at where ``fn`` is written when it is a game's own, else an
    internal error (a shipped engine's fault is a bug in warbook)."""
    place = where_defined(fn)
    if place is None:
        doing = "; ".join(notes)
        return InternalError(message + (f" ({doing})" if doing else ""))
    path, line, name = place
    return EngineFault(path, line, f"{message} (in {name})", notes)


class Carried(Exception):
    """An exception from a worker process as plain strings, so that it always pickles:
    where in a game's code it was raised (or nothing: warbook's own), what it was, and
    the notes. The parent turns it back with :meth:`fault` or :meth:`error`."""

    def __init__(self, path: str, line: int, message: str, notes: tuple[str, ...],
                 internal: bool):
        super().__init__(path, line, message, tuple(notes), internal)
        self.path, self.line, self.message = path, line, message
        self.notes_, self.internal = tuple(notes), internal

    @classmethod
    def of(cls, exc: BaseException) -> "Carried":
        if isinstance(exc, EngineFault):
            return cls(exc.path, exc.line, exc.message, exc.notes, False)
        if isinstance(exc, WarbookError):
            internal = getattr(exc, "exit_code", 1) == 2
            return cls("", 0, str(exc), _notes(exc), internal)
        fault = from_exception(exc)
        if fault is not None:
            return cls(fault.path, fault.line, fault.message, fault.notes, False)
        return cls("", 0, exception_words(exc), _notes(exc), True)

    def fault(self) -> EngineFault | None:
        return EngineFault(self.path, self.line, self.message, self.notes_) if self.path \
            else None

    def error(self) -> WarbookError:
        """The error to raise in the parent."""
        fault = self.fault()
        if fault is not None:
            return fault
        doing = "; ".join(self.notes_)
        text = self.message + (f" ({doing})" if doing else "")
        return InternalError(text) if self.internal else WarbookError(text)
