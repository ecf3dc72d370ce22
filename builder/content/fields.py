"""Stage 1, the field validators every reader shares (book, game, kit, example, balance).

A validator takes a value as YAML gave it and returns it (maybe converted: a colour made
lower-case, a size made floats) or raises :class:`ValueError` with what is wrong, worded to
follow the field's name: ``book.paper`` + ``must be one of a4, letter, got 'a5'; did you
mean 'a4'?``. :meth:`builder.content.base.Reader.field` reports that at the value's place.
Combinators (``whole(lo, hi)``, ``one_of(...)``) make validators from their bounds, as
MkDocs' ``config_options`` do. :func:`unknown_keys` is the one check of a mapping's keys.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable

from ..diagnostics import Diagnostics, Located, describe, suggest

COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")

#: marks a field without a default (the reader says it is missing)
REQUIRED = object()


def text(value: Any) -> str:
    """Some text (not blank); one line's spaces collapsed, a text of several lines kept."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"must be some text, got {describe(value)}")
    return " ".join(value.split()) if "\n" not in value.strip() else value.strip()


def line(limit: int, where: str) -> Callable[[Any], str]:
    """Some text of one line, at most ``limit`` characters (it is printed ``where``, and a
    longer one cannot fit there: said here, at its line, not by the build)."""
    def check(value: Any) -> str:
        out = text(value)
        if "\n" in out:
            raise ValueError(f"must be one line of text (it is printed {where}), got "
                             f"{out.count(chr(10)) + 1} lines")
        if len(out) > limit:
            raise ValueError(f"must be at most {limit} characters (it is printed {where}), "
                             f"got {len(out):,}")
        return out
    return check


def whole(lo: int, hi: int) -> Callable[[Any], int]:
    """A whole number from ``lo`` to ``hi`` (true and false are not numbers)."""
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"must be a whole number from {lo:,} to {hi:,}, got "
                             f"{describe(value)}")
        return value
    return check


DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def date(value: Any) -> str:
    """A day, written YYYY-MM-DD (as YAML reads it, a date; quoted, text), as ISO text."""
    import datetime

    if isinstance(value, datetime.datetime):
        value = value.date()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and DATE_RE.match(value.strip()):
        try:
            return datetime.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            raise ValueError(f"must be a day of the calendar, got '{value.strip()}'") from None
    raise ValueError(f"must be a date written YYYY-MM-DD, such as 2026-11-28, got "
                     f"{describe(value)}")


def one_of(*choices: str) -> Callable[[Any], str]:
    """One of a few names, with the closest as a suggestion."""
    def check(value: Any) -> str:
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, got {describe(value)}"
                             + suggest(value, choices))
        return value
    return check


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {describe(value)}")
    return value


def colour(value: Any) -> str:
    """A colour written ``#rrggbb``, returned lower-case."""
    if not isinstance(value, str) or not COLOUR_RE.match(value):
        raise ValueError(f"must be a colour written #rrggbb (such as \"#7a4b1e\"), got "
                         f"{describe(value)}")
    return value.lower()


def share(value: Any) -> float:
    """A share written ``52%`` or ``0.52`` (from 0 to 1)."""
    v = value
    if isinstance(v, str) and v.strip().endswith("%"):
        try:
            v = float(v.strip()[:-1]) / 100
        except ValueError:
            v = None
    elif isinstance(v, bool) or not isinstance(v, (int, float)):
        v = None
    if v is None or not 0 <= v <= 1:
        raise ValueError(f"must be a share such as 52% or 0.52, got {describe(value)}")
    return float(v)


def size_mm(value: Any) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"must be [width, height] in millimetres, got {describe(value)}")
    w, h = (float(v) for v in value)
    if not all(math.isfinite(v) and 20 <= v <= 400 for v in (w, h)):
        raise ValueError(f"must be 20 to 400 mm each way, got {describe(value)}")
    return w, h


def box_mm(value: Any) -> tuple[float, float, float, float]:
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            or not all(math.isfinite(float(v)) and 0 <= float(v) <= 400 for v in value)):
        raise ValueError(f"must be [x, y, width, height] in millimetres, got {describe(value)}")
    return tuple(float(v) for v in value)  # type: ignore[return-value]


def unknown_keys(diags: Diagnostics, data: Any, allowed: Iterable[str], what: str,
                 skip: Iterable[str] = ()) -> bool:
    """Report each key of a mapping that is not ``allowed`` (``skip`` names keys read
    elsewhere, such as a kit component's ``kind``), at the key, with the allowed keys and
    the closest; whether none was unknown."""
    allowed = sorted(set(allowed))
    unknown = [key for key in data if key not in allowed and key not in skip]
    for key in unknown:
        unknown_key(diags, data, key, allowed, what)
    return not unknown


def unknown_key(diags: Diagnostics, data: Any, key: Any, allowed: Iterable[str],
                what: str) -> None:
    """Report one key of a mapping that is not ``allowed``: ``what: unknown key 'k'
    (allowed: ...); did you mean ...?`` at the key (for a reader that reports its keys in
    the order written, among its other checks)."""
    allowed = sorted(set(allowed))
    line, col = data.key_pos(key)
    diags.error(Located(data.path, line, col),
                f"{what}: unknown key '{key}' (allowed: {', '.join(allowed)})"
                + suggest(key, allowed))
