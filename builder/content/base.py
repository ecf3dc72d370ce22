"""Stage 1, what every reader of a content file shares: where the content folder is, the
run's diagnostics, reading a YAML or text file with located errors, and the checks of one
field (present, of a kind, valid by a validator of :mod:`builder.content.fields`, a visible
name, a file inside the folder).

Each reader (:mod:`.index`, :mod:`.book`, :mod:`.fonts`, :mod:`.game`, :mod:`.rules`,
:mod:`.glossary`, :mod:`.examples`, :mod:`.kit`, :mod:`.balance`) is a :class:`Reader` over
one kind of file or section; every problem is collected as a located diagnostic, and the
reader goes on so that one run reports them all.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Iterable

from ..contentpath import Refused, rel, resolve
from ..diagnostics import Diagnostic, Diagnostics, Located, describe
from ..names import name_problem
from ..yamlsrc import LocDict, load_yaml, read_text
from . import fields

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def or_default(data: dict, key: str, default: Any) -> Any:
    """``data[key]``, or ``default`` when it is left out or written empty (``key:``); a
    value of the wrong kind (``quickref: {}``, ``see: {}``, ``names: []``) is kept, so that
    its reader refuses it instead of taking it for nothing."""
    value = data.get(key)
    return default if value is None else value


#: how require() names the kinds it is given
_KIND_WORDS = {"str": "text", "dict": "a mapping"}

class Reader:
    """The shared base of the content readers: the content folder, the diagnostics, and
    the checks of one file or field."""

    def __init__(self, root: Path, diags: Diagnostics):
        self.root = root
        self.diags = diags

    def show(self, path: Path) -> str:
        return rel(path, self.root)

    def yaml(self, path: Path) -> Any:
        """A content YAML file's data; None after a located error (an empty file is one)."""
        shown = self.show(path)
        try:
            # (``builder.serve.remember_yaml`` replaces this module's load_yaml)
            data = load_yaml(path, shown, root=self.root)
        except Diagnostic as d:
            self.diags.append(d)
            return None
        if data is None:
            self.diags.error(Located(shown, 1), "the file is empty (or holds only comments)")
        return data

    def text_file(self, path: Path) -> str | None:
        """A content text file's text; None after a located error."""
        try:
            return read_text(path, self.show(path), root=self.root)
        except Diagnostic as d:
            self.diags.append(d)
            return None

    def require(self, data: LocDict, key: str, kind: type | tuple, what: str) -> Any:
        if key not in data:
            self.diags.error(Located(data.path, data.line, data.col), f"{what}: '{key}' is missing")
            return None
        value = data[key]
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.diags.error(data.at(key), f"{what}: '{key}' must be {_KIND_WORDS[names]}, "
                             f"got {describe(value)}")
            return None
        return value

    def field(self, data: LocDict, key: Any, check: Callable[[Any], Any], what: str) -> Any:
        """``data[key]`` through a validator of :mod:`.fields`; None after a located error
        (``what`` then the validator's words, at the value)."""
        try:
            return check(data.get(key))
        except ValueError as e:
            self.diags.error(data.at(key), f"{what} {e}")
            return None

    def unknown_keys(self, data: LocDict, allowed: Iterable[str], what: str,
                     skip: Iterable[str] = ()) -> bool:
        """See :func:`.fields.unknown_keys`."""
        return fields.unknown_keys(self.diags, data, allowed, what, skip)

    def unknown_key(self, data: LocDict, key: Any, allowed: Iterable[str], what: str) -> None:
        """See :func:`.fields.unknown_key`."""
        fields.unknown_key(self.diags, data, key, allowed, what)

    def text(self, data: LocDict, key: str, what: str) -> str:
        """An optional text field (a number is taken as its text): '' when absent, or after
        a located error when it is a list, mapping or true/false."""
        value = data.get(key)
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.diags.error(data.at(key), f"{what}: '{key}' must be text, got "
                             f"{describe(value)}; quote a text that contains ': '")
            return ""
        return str(value)

    def colour(self, data: LocDict, key: Any, what: str) -> str | None:
        return self.field(data, key, fields.colour, what)

    def visible_name(self, value: str, where: Located, what: str) -> bool:
        """Whether a name or title can be seen (see builder/names.py); False after a located
        error naming ``what``."""
        problem = name_problem(value)
        if problem:
            self.diags.error(where, f"{what} {problem}")
        return not problem

    def content_file(self, data: LocDict, key: Any, what: str, types: tuple[str, ...]):
        """A file named by ``data[key]``, inside the content folder and of one of ``types``;
        its resolved path, or None after a located error."""
        value = data[key]
        where = data.at(key)
        if not isinstance(value, str) or not value.strip():
            self.diags.error(where, f"{what} must be the path of a file in the content folder, "
                             f"got {describe(value)}")
            return None
        try:  # the one resolver: a link may stay inside the folder, never lead out of it
            real = resolve(self.root, self.root / value, where.path, kind="plain files")
        except Refused as e:
            if e.reason == "missing":
                self.diags.error(where, f"{what}: no file '{value}' in the content folder")
            elif e.reason == "outside":
                self.diags.error(where, f"{what}: '{value}' is outside the content folder "
                                 f"(or a link); put the file inside it")
            else:
                self.diags.error(where, f"{what}: '{value}': {e.message}")
            return None
        if not real.is_file() or real.suffix.lower() not in types:
            self.diags.error(where, f"{what}: '{value}' must be a {' or '.join(types)} file")
            return None
        return real
