"""YAML that remembers where each value was written, read safely from untrusted files.

Content errors must name the file, line and column of what is wrong, so mappings and
lists loaded here carry the 1-based position of every key and item:
``node.pos(key)`` gives ``(line, col)`` of a mapping value or list item, and ``node.at(key)``
a :class:`Located` that, for a text value, also knows where each of the value's characters
stands in the file (so an error inside the text points at its real column).

Content is untrusted, so the reading is bounded and every way it can fail is a located
:class:`Diagnostic`, never an exception of PyYAML's or Python's:

- only regular files inside the content folder are read (no FIFO, device or link out of it),
  at most :data:`MAX_FILE_BYTES`, as UTF-8 without control characters (the first bad byte
  or character is reported at its own line and column), and no text value holds one
  written as an escape (``"\\x00"``);
- more than :data:`MAX_VALUES` values written in one file, nesting deeper than
  :data:`MAX_DEPTH`, aliases that would expand to more than
  :data:`MAX_NODES` values, keys that are lists or mappings, numbers of more than
  :data:`MAX_DIGITS` digits, ``!!int abc`` and the tags content has no use for
  (``!!pairs``, ``!!omap``, ``!!set``, ``!!binary``) are errors;
- a syntax error is explained in plain words, with the line and a caret under the column.
"""

from __future__ import annotations

import bisect
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, Located

#: the largest content file read (the shipped ones are under 20 kB)
MAX_FILE_BYTES = 2 * 1024 * 1024
#: the deepest nesting of lists and mappings (the shipped content goes 6 deep)
MAX_DEPTH = 64
#: how many values a document may hold once its aliases are expanded (alias bombs)
MAX_NODES = 100_000
#: how many values (texts, numbers, lists, mappings) one file may write (the largest shipped
#: file writes 703): more only makes the parser slow (a 2 MB file of '- {}' lines takes
#: seconds), so it is counted first with libyaml's fast parser where PyYAML has it
MAX_VALUES = 20_000
#: the most digits a number may have
MAX_DIGITS = 40
#: characters YAML allows in a file (its printable set); rules.md is held to the same
NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                           "\U00010000-\U0010FFFF]")


class TextSpan:
    """Where a text (scalar) value stands in its file: the file's text and the value's start
    and end offsets in it. ``locate`` turns an offset in the value into the file's line and
    column by finding the same word in the source (which works for plain, quoted, literal
    and folded values alike)."""

    __slots__ = ("source", "start", "end")

    def __init__(self, source: "Source", start: int, end: int):
        self.source = source
        self.start = start
        self.end = end

    def locate(self, value: str, offset: int) -> tuple[int, int] | None:
        m = re.compile(r"\S{1,40}").match(value, offset)
        if m is None:
            return None
        token = m.group()
        k, pos = 0, value.find(token)
        while 0 <= pos < offset:
            k += 1
            pos = value.find(token, pos + len(token))
        text = self.source.text
        at = text.find(token, self.start, self.end)
        for _ in range(k):
            if at < 0:
                return None
            at = text.find(token, at + len(token), self.end)
        if at < 0:
            return None
        return self.source.line_col(at)


class Source:
    """A file's text with the offsets its lines start at."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_col(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1


class LocDict(dict):
    """A mapping that remembers the position of itself and of each value."""

    path: str = ""
    line: int = 0
    col: int = 0

    def __init__(self, *a: Any, **kw: Any):
        super().__init__(*a, **kw)
        self.positions: dict[Any, tuple[int, int]] = {}
        self.key_positions: dict[Any, tuple[int, int]] = {}
        self.spans: dict[Any, TextSpan] = {}

    def pos(self, key: Any) -> tuple[int, int]:
        return self.positions.get(key, (self.line, self.col))

    def key_pos(self, key: Any) -> tuple[int, int]:
        return self.key_positions.get(key, self.pos(key))

    def at(self, key: Any) -> Located:
        line, col = self.pos(key)
        return Located(self.path, line, col, span=self.spans.get(key))


class LocList(list):
    """A list that remembers the position of itself and of each item."""

    path: str = ""
    line: int = 0
    col: int = 0

    def __init__(self, *a: Any):
        super().__init__(*a)
        self.positions: list[tuple[int, int]] = []
        self.spans: dict[int, TextSpan] = {}

    def pos(self, index: int) -> tuple[int, int]:
        if 0 <= index < len(self.positions):
            return self.positions[index]
        return (self.line, self.col)

    def at(self, index: int) -> Located:
        line, col = self.pos(index)
        return Located(self.path, line, col, span=self.spans.get(index))


# --------------------------------------------------------------------------- reading
def read_text(path: Path, shown: str, root: Path | None = None) -> str:
    """The text of a content file, or a located :class:`Diagnostic`: the file must be a
    regular file (a FIFO would block, a device never end), inside ``root`` once links are
    followed (:func:`builder.contentpath.resolve`), at most :data:`MAX_FILE_BYTES`, UTF-8,
    and free of control characters."""
    if root is not None:  # the one resolver: links may not lead out of the folder
        from .contentpath import resolve

        path = resolve(root, path, shown)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
                     | (os.O_NOFOLLOW if root is not None else 0))
    except OSError as e:
        why = "a link that leads back to itself (a symlink loop)" if e.errno == 40 else e.strerror
        raise Diagnostic(shown, 1, 1, f"cannot read: {why or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Diagnostic(shown, 1, 1, "not a regular file (a folder, FIFO or device); "
                             "content files must be plain text files")
        if info.st_size > MAX_FILE_BYTES:
            raise Diagnostic(shown, 1, 1, f"the file is larger than "
                             f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise Diagnostic(shown, 1, 1, f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise Diagnostic(shown, 1, 1, f"the file is larger than "
                         f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
    return decode(data, shown)


def decode(data: bytes, shown: str) -> str:
    """``data`` as UTF-8 text, or a Diagnostic at the first byte that is not UTF-8 or the
    first control character (at its own line and column)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        col = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        raise Diagnostic(shown, line, col, f"not UTF-8 text: the byte 0x{data[e.start]:02x} "
                         f"cannot start or continue a character here; save the file as "
                         f"UTF-8") from None
    m = NOT_PRINTABLE.search(text)
    if m:
        line, col = Source(text).line_col(m.start())
        raise Diagnostic(shown, line, col, f"a control character (U+{ord(m.group()):04X}) "
                         f"is not allowed in content; delete it")
    return text


# --------------------------------------------------------------------------- the loader
class _Constructing:
    """What both loaders share: every failure of a constructor turned into a
    :class:`yaml.MarkedYAMLError` at the value's position."""

    src_path = ""
    source: "Source"

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except (yaml.YAMLError, _Refused):
            raise
        except (ValueError, TypeError, OverflowError, RecursionError, AttributeError) as e:
            raise _Refused(f"this value cannot be read ({type(e).__name__})",
                           node.start_mark) from None


class _Loader(_Constructing, yaml.SafeLoader):
    """PyYAML's safe loader (pure Python) with positions kept, bounded nesting and alias
    expansion: it reads every document libyaml does not (:func:`_c_node`), and says what
    is wrong with a document in PyYAML's words."""

    def compose_document(self):
        self._depth = 0
        self._values = 0
        self._aliases: list[tuple[yaml.Node, yaml.Mark]] = []
        node = super().compose_document()
        if self._aliases:
            _check_expansion(node, self._aliases)
        return node

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            node = super().compose_node(parent, index)
            self._aliases.append((node, event.start_mark))
            return node
        self._depth += 1
        self._values += 1
        try:
            if self._values > MAX_VALUES:
                raise _Refused(_too_many_values(), self.peek_event().start_mark)
            if self._depth > MAX_DEPTH:
                raise _Refused(f"lists and mappings nested more than {MAX_DEPTH} deep",
                               self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

class _Refused(yaml.MarkedYAMLError):
    def __init__(self, problem: str, mark: yaml.Mark):
        super().__init__(None, None, problem, mark)


def _too_many_values() -> str:
    return (f"this file writes more than {MAX_VALUES:,} values (texts, numbers, lists, "
            f"mappings); at most {MAX_VALUES:,} values per file")


def _c_node(text: str) -> tuple[yaml.Node | None, bool]:
    """The document's nodes, composed by libyaml (ten times the speed of the pure Python
    loader, the same nodes and the same positions), when PyYAML has libyaml: ``(node,
    True)``. Its events are read first, so that a file of more than MAX_VALUES values or
    nesting deeper than MAX_DEPTH is refused (at the same value as the pure loader) before
    anything is built. A document with anchors or aliases, or one libyaml cannot read, is
    left to the pure loader, which bounds their expansion and explains an error in its own
    words: ``(None, False)``."""
    if not getattr(yaml, "__with_libyaml__", False):
        return None, False
    depth = values = 0
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                return None, False
            if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent,
                                  yaml.MappingStartEvent)):
                values += 1
                if values > MAX_VALUES:
                    raise _Refused(_too_many_values(), event.start_mark)
                if depth + 1 > MAX_DEPTH:
                    raise _Refused(f"lists and mappings nested more than {MAX_DEPTH} deep",
                                   event.start_mark)
                if not isinstance(event, yaml.ScalarEvent):
                    depth += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
        loader = _CLoader(text)
        try:
            return loader.get_single_node(), True
        finally:
            loader.dispose()
    except _Refused:
        raise
    except yaml.YAMLError:
        return None, False


def _check_expansion(root: yaml.Node, aliases: list) -> None:
    """Refuse a document whose aliases would expand to more than MAX_NODES values (or that
    refers to itself), before anything walks it expanded."""
    sizes: dict[int, int] = {}
    busy: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in busy:
            raise OverflowError
        busy.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        else:
            children = []
        for child in children:
            total += size(child)
            if total > MAX_NODES:
                break
        busy.discard(key)
        sizes[key] = total
        return total

    try:
        too_big = size(root) > MAX_NODES
    except OverflowError:
        raise _Refused("an alias (*name) inside the value it names: it would never end",
                       aliases[0][1]) from None
    if too_big:
        node, mark = max(aliases, key=lambda a: sizes.get(id(a[0]), 0))
        raise _Refused(f"aliases (*name) here would expand to more than {MAX_NODES:,} values",
                       mark)


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _span(loader: _Loader, node: yaml.Node) -> TextSpan | None:
    if isinstance(node, yaml.ScalarNode):
        return TextSpan(loader.source, node.start_mark.index, node.end_mark.index)
    return None


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LocDict:
    loader.flatten_mapping(node)
    out = LocDict()
    out.path = loader.src_path
    out.line, out.col = _mark(node)
    for knode, vnode in node.value:
        if not isinstance(knode, yaml.ScalarNode):
            raise _Refused("a key must be a plain word or number, not a list or mapping",
                           knode.start_mark)
        key = loader.construct_object(knode, deep=True)
        if key in out:
            raise _Refused(f"the key '{_short(key)}' is written twice", knode.start_mark)
        out[key] = loader.construct_object(vnode, deep=True)
        out.positions[key] = _mark(vnode)
        out.key_positions[key] = _mark(knode)
        span = _span(loader, vnode)
        if span is not None:
            out.spans[key] = span
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LocList:
    out = LocList()
    out.path = loader.src_path
    out.line, out.col = _mark(node)
    for i, item in enumerate(node.value):
        out.append(loader.construct_object(item, deep=True))
        out.positions.append(_mark(item))
        span = _span(loader, item)
        if span is not None:
            out.spans[i] = span
    return out


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    digits = sum(c.isdigit() for c in node.value)
    if digits > MAX_DIGITS:
        raise _Refused(f"a number of {digits} digits; numbers in content have at most "
                       f"{MAX_DIGITS}", node.start_mark)
    try:
        return yaml.SafeLoader.construct_yaml_int(loader, node)
    except ValueError:
        raise _Refused(f"'{_short(node.value)}' is not a whole number", node.start_mark) from None


def _construct_float(loader: _Loader, node: yaml.ScalarNode) -> float:
    if len(node.value) > 2 * MAX_DIGITS:
        raise _Refused(f"a number of {len(node.value)} characters; numbers in content are "
                       f"shorter", node.start_mark)
    try:
        return yaml.SafeLoader.construct_yaml_float(loader, node)
    except ValueError:
        raise _Refused(f"'{_short(node.value)}' is not a number", node.start_mark) from None


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> str:
    """A text; a control character written as an escape in double quotes (``"\\x01"``,
    ``"\\u0000"``) is refused like one written in the file."""
    value = loader.construct_scalar(node)
    m = NOT_PRINTABLE.search(value)
    if m:
        raise _Refused(f"a control character (U+{ord(m.group()):04X}), written as an escape, "
                       f"is not allowed in content; delete it", node.start_mark)
    return value


def _construct_as_text(loader: _Loader, node: yaml.ScalarNode) -> str:
    """Dates and times stay text: content has no dates, and a date-like word is a word."""
    return loader.construct_scalar(node)


def _refuse_tag(loader: _Loader, node: yaml.Node) -> Any:
    raise _Refused(f"the YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not "
                   f"used in content; write a plain list or mapping", node.start_mark)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _construct_float)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_as_text)
_Loader.add_constructor("tag:yaml.org,2002:str", _construct_str)
for _tag in ("pairs", "omap", "set", "binary"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse_tag)
_Loader.add_constructor(None, _refuse_tag)
# YAML 1.1 reads "on", "off", "yes", "no" as booleans; in game content they are words
# (a player may choose "no"). Keep only true/false as booleans.
_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


class _CLoader(_Constructing, yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False)
               else yaml.SafeLoader):
    """libyaml's parser and composer with the same constructors and resolvers as
    :class:`_Loader`; used only on documents :func:`_c_node` has vetted."""

    yaml_constructors = _Loader.yaml_constructors
    yaml_multi_constructors = _Loader.yaml_multi_constructors
    yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers
    yaml_path_resolvers = _Loader.yaml_path_resolvers


# --------------------------------------------------------------------------- syntax errors
#: PyYAML's words for a syntax error (a piece of its "problem" text) -> plain words
PLAIN_WORDS = (
    ("mapping values are not allowed here",
     "a ': ' here would start a mapping inside a value; put the value in quotes if it "
     "holds ': '"),
    ("sequence entries are not allowed here",
     "a '- ' list item cannot stand here; start the list on the next line, indented"),
    ("expected <block end>",
     "this line is not indented like the lines above it (or a list and a mapping are mixed "
     "at one level)"),
    ("did not find expected key", "this line is not indented like the keys above it"),
    ("did not find expected '-' indicator",
     "this line is not indented like the list items above it"),
    ("could not find expected ':'",
     "a key without ':' after it, or a quote or bracket opened above and never closed"),
    ("found character '\\t' that cannot start any token",
     "a tab; indent YAML with spaces only"),
    ("that cannot start any token",
     "this character cannot start a plain value; put the value in quotes"),
    ("found undefined alias", "an alias (*name) with no anchor (&name) before it"),
    ("found duplicate anchor", "an anchor (&name) used twice"),
    ("found unexpected end of stream",
     "the file ends inside a quoted value; close the quote"),
    ("found unknown escape character",
     "an unknown \\-escape inside double quotes; write \\\\ for a backslash, or use single "
     "quotes"),
    ("expected ',' or ']'",
     "a list in [ ] is not closed here, or one of its items needs quotes"),
    ("expected ',' or '}'",
     "a mapping in { } is not closed here, or one of its values needs quotes"),
    ("expected chomping or indentation indicators",
     "after | or > only a line break (or a comment) may follow"),
    ("expected a comment or a line break", "unexpected text after the value on this line"),
    ("expected the node content", "a value is missing here"),
    ("expected alphabetic or numeric character",
     "an anchor or alias name (&name, *name) must be letters and digits"),
    ("found another document",
     "a second YAML document ('---'); a content file holds one document"),
    ("expected <document start>",
     "text after the end of the document; a content file holds one document"),
    ("found a tab character", "a tab; indent YAML with spaces only"),
    ("while scanning a simple key", "a key without ':' after it"),
)


#: what PyYAML's context says was open -> plain words
CONTEXT_WORDS = (("flow sequence", "list in [ ]"), ("flow mapping", "mapping in { }"),
                 ("block sequence", "list"), ("block mapping", "mapping"),
                 ("quoted scalar", "quoted value"), ("block scalar", "| or > text"))


def plain_words(problem: str, context: str) -> str:
    text = f"{context or ''} {problem or ''}"
    for raw, plain in PLAIN_WORDS:
        if raw in text:
            return plain
    return "this YAML cannot be read here"


def _caret(source: Source, line: int, col: int) -> str:
    """The line of the file and a caret under ``col`` (tabs shown as spaces)."""
    if not 1 <= line <= len(source.starts):
        return ""
    start = source.starts[line - 1]
    end = source.text.find("\n", start)
    shown = source.text[start:end if end >= 0 else len(source.text)].rstrip("\r")
    shown = shown.replace("\t", " ")
    if len(shown) > 100:  # keep a long line's part around the column
        left = max(0, col - 60)
        shown, col = shown[left:left + 100], col - left
    return f"{shown}\n{' ' * (col - 1)}^"


def _short(value: Any) -> str:
    text = str(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def load_yaml(path: Path, display: str | None = None, root: Path | None = None) -> Any:
    """Load a YAML file (with ``root``, only if it lies inside ``root``); raise
    :class:`Diagnostic` with the file, line and column on any problem."""
    shown = display or str(path)
    text = read_text(path, shown, root)
    return load_yaml_text(text, shown)


def load_yaml_text(text: str, shown: str) -> Any:
    """Load YAML from ``text`` (already read), as :func:`load_yaml`."""
    source = Source(text)
    loader = None
    try:
        node, composed = _c_node(text)
        if composed:
            if node is None:  # an empty document
                return None
            builder = _CLoader("")
            builder.src_path = shown
            builder.source = source
            return builder.construct_document(node)
        loader = _Loader(text)
        loader.src_path = shown
        loader.source = source
        return loader.get_single_data()
    except _Refused as e:
        mark = e.problem_mark
        raise Diagnostic(shown, mark.line + 1, mark.column + 1, f"YAML: {e.problem}") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        words = plain_words(e.problem, e.context)
        ctx = e.context_mark
        if mark is e.problem_mark and ctx is not None and ctx.line + 1 < line:
            context = e.context or ""
            what = next((plain for raw, plain in CONTEXT_WORDS if raw in context), "value")
            words += f" (the {what} began on line {ctx.line + 1})"
        raise Diagnostic(shown, line, col, f"YAML syntax: {words}",
                         detail=_caret(source, line, col)) from None
    except yaml.reader.ReaderError as e:  # a character the reader refuses (already checked)
        line, col = source.line_col(min(e.position, len(text)))
        raise Diagnostic(shown, line, col, "a character YAML does not allow") from None
    except yaml.YAMLError as e:
        raise Diagnostic(shown, 1, 1, f"YAML: {_short(e)}") from None
    except RecursionError:
        raise Diagnostic(shown, 1, 1, "lists and mappings nested too deep") from None
    finally:
        if loader is not None:
            loader.dispose()


# --------------------------------------------------------------------------- plain values
def plain_data(value: Any) -> Any:
    """Loaded YAML as plain data: every :class:`LocDict` a ``dict`` and every
    :class:`LocList` a ``list`` (keys and texts unchanged), for the model."""
    if isinstance(value, dict):
        return {k: plain_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_data(v) for v in value]
    return value


def located_paths(node: Any) -> tuple[dict[tuple, Located], dict[tuple, Located]]:
    """Where each value of a loaded document was written, by key path (``()`` the document
    itself, ``("setup", "piles", "p1", 2)`` a card of a pile), and where each mapping key
    was written: the plain positions the model keeps (``builder.model.Positions``)."""
    values: dict[tuple, Located] = {}
    keys: dict[tuple, Located] = {}
    if not isinstance(node, (LocDict, LocList)):
        return values, keys
    values[()] = Located(node.path, node.line, node.col)
    pending: list[tuple[tuple, Any]] = [((), node)]
    while pending:
        path, parent = pending.pop()
        if isinstance(parent, LocDict):
            for key, child in parent.items():
                values[path + (key,)] = parent.at(key)
                keys[path + (key,)] = Located(parent.path, *parent.key_pos(key))
                if isinstance(child, (LocDict, LocList)):
                    pending.append((path + (key,), child))
        else:
            for index, child in enumerate(parent):
                values[path + (index,)] = parent.at(index)
                if isinstance(child, (LocDict, LocList)):
                    pending.append((path + (index,), child))
    return values, keys
