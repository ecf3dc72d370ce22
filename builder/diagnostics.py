"""Errors that point at a place in a content file, reported like a compiler's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import WarbookError


@dataclass(frozen=True)
class Located:
    path: str
    line: int
    col: int = 1
    #: for a YAML text value: where its characters are in the file (yamlsrc.TextSpan)
    span: Any = field(default=None, compare=False, repr=False)


class Diagnostic(WarbookError):
    """One problem in the content: ``path:line:col: error: message``.

    ``detail`` holds further lines (indented under the message), such as the state before a
    failed step.
    """

    def __init__(self, path: str, line: int, col: int, message: str,
                 severity: str = "error", detail: str = ""):
        super().__init__(message)
        self.path = path
        self.line = line
        self.col = col
        self.message = message
        self.severity = severity
        self.detail = detail

    @classmethod
    def at(cls, where: Located, message: str, **kw) -> "Diagnostic":
        return cls(where.path, where.line, where.col, message, **kw)

    def format(self) -> str:
        head = f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if self.detail:
            head += "\n" + "\n".join("    " + ln for ln in self.detail.splitlines())
        return head

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "col": self.col,
                "severity": self.severity, "message": self.message, "detail": self.detail}

    def __str__(self) -> str:
        return self.format()


class Diagnostics(list):
    """The problems of one run, in the order found."""

    def error(self, where: Located, message: str, detail: str = "") -> None:
        self.append(Diagnostic.at(where, message, detail=detail))

    def warning(self, where: Located, message: str) -> None:
        self.append(Diagnostic.at(where, message, severity="warning"))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.severity == "error"]


def describe(value: Any) -> str:
    """A value as a message shows it: short, never a Python repr of a structure."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):  # a short list of plain values as YAML writes it
        if all(v is None or isinstance(v, (str, int, float)) for v in value):
            shown = "[" + ", ".join(_plain(v) for v in value[:5]) + "]"
            if len(value) <= 4 and len(shown) <= 40:
                return shown
        return "a list"
    if isinstance(value, str):
        return "'" + (value if len(value) <= 40 else value[:37] + "...") + "'"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)[:40]


def closest(word: object, choices, cutoff: float = 0.6) -> str | None:
    """The choice closest to a misspelt ``word`` (as text), or None when none is close."""
    import difflib

    names = sorted({str(c) for c in choices})
    close = difflib.get_close_matches(str(word), names, n=1, cutoff=cutoff)
    return close[0] if close else None


def suggest(word: object, choices, cutoff: float = 0.6) -> str:
    """"; did you mean 'x'?" for the choice closest to a misspelt ``word``, or "": the one
    door to "did you mean" for every reader and message."""
    close = closest(word, choices, cutoff)
    return f"; did you mean '{close}'?" if close is not None else ""


def yaml_value(v: object) -> str:
    """A value as the designer writes it in YAML: ``false`` (not ``False``), ``null``,
    ``[KC, AS]``, ``{kind: take, count: 10}``; strings plain unless YAML needs quotes."""
    import yaml

    def plain(x):
        if isinstance(x, dict):
            return {str(k): plain(y) for k, y in x.items()}
        if isinstance(x, (list, tuple)):
            return [plain(y) for y in x]
        if isinstance(x, (bool, int, float, str)) or x is None:
            return x
        return str(x)

    text = yaml.safe_dump(plain(v), default_flow_style=True, width=1_000_000,
                          sort_keys=False, allow_unicode=True).strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    return text
