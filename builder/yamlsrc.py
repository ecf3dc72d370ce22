"""YAML that remembers where each value was written.

Content errors must name the file, line and column of what is wrong, so mappings and
lists loaded here carry the 1-based position of every key and item:
``node.pos(key)`` gives ``(line, col)`` of a mapping value or list item.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, Located


class LocDict(dict):
    """A mapping that remembers the position of itself and of each value."""

    path: str = ""
    line: int = 0
    col: int = 0

    def __init__(self, *a: Any, **kw: Any):
        super().__init__(*a, **kw)
        self.positions: dict[Any, tuple[int, int]] = {}
        self.key_positions: dict[Any, tuple[int, int]] = {}

    def pos(self, key: Any) -> tuple[int, int]:
        return self.positions.get(key, (self.line, self.col))

    def key_pos(self, key: Any) -> tuple[int, int]:
        return self.key_positions.get(key, self.pos(key))

    def at(self, key: Any) -> Located:
        line, col = self.pos(key)
        return Located(self.path, line, col)


class LocList(list):
    """A list that remembers the position of itself and of each item."""

    path: str = ""
    line: int = 0
    col: int = 0

    def __init__(self, *a: Any):
        super().__init__(*a)
        self.positions: list[tuple[int, int]] = []

    def pos(self, index: int) -> tuple[int, int]:
        if 0 <= index < len(self.positions):
            return self.positions[index]
        return (self.line, self.col)

    def at(self, index: int) -> Located:
        line, col = self.pos(index)
        return Located(self.path, line, col)


class _Loader(yaml.SafeLoader):
    pass


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LocDict:
    loader.flatten_mapping(node)
    out = LocDict()
    out.path = loader.src_path
    out.line, out.col = _mark(node)
    for knode, vnode in node.value:
        key = loader.construct_object(knode, deep=True)
        if key in out:
            line, col = _mark(knode)
            raise yaml.constructor.ConstructorError(
                None, None, f"the key '{key}' is written twice", knode.start_mark)
        out[key] = loader.construct_object(vnode, deep=True)
        out.positions[key] = _mark(vnode)
        out.key_positions[key] = _mark(knode)
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocList:
    out = LocList()
    out.path = loader.src_path
    out.line, out.col = _mark(node)
    for item in node.value:
        out.append(loader.construct_object(item, deep=True))
        out.positions.append(_mark(item))
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
# YAML 1.1 reads "on", "off", "yes", "no" as booleans; in game content they are words
# (a player may choose "no"). Keep only true/false as booleans.
_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    __import__("re").compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


def load_yaml(path: Path, display: str | None = None) -> Any:
    """Load a YAML file; raise :class:`Diagnostic` with the file and line on a syntax error."""
    shown = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise Diagnostic(shown, 1, 1, f"not UTF-8 text ({e.reason})") from None
    except OSError as e:
        raise Diagnostic(shown, 0, 0, f"cannot read: {e.strerror}") from None
    loader = _Loader(text)
    loader.src_path = shown
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = " ".join(x for x in (e.context, e.problem) if x) or "invalid YAML"
        raise Diagnostic(shown, line, col, f"YAML: {msg}") from None
    except yaml.YAMLError as e:
        raise Diagnostic(shown, 1, 1, f"YAML: {e}") from None
    finally:
        loader.dispose()
