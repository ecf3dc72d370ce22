"""The two YAML loaders agree: libyaml (the fast path every alias-free document takes) and
PyYAML's pure Python loader (documents with anchors or aliases, errors, and Pythons without
libyaml) give the same values at the same lines, columns and text spans."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from builder import yamlsrc
from builder.yamlsrc import Source, load_yaml_text

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "content").rglob("*.yaml"))


def pure(text: str) -> object:
    loader = yamlsrc._Loader(text)
    loader.src_path, loader.source = "x", Source(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def shape(value) -> object:
    """A value with everything the loader records: each mapping's and list's position, its
    items' and keys' positions, and its texts' spans."""
    if isinstance(value, dict):
        return ("map", value.line, value.col,
                [(k, value.pos(k), value.key_pos(k),
                  (value.spans[k].start, value.spans[k].end) if k in value.spans else None,
                  shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", value.line, value.col,
                [(value.pos(i), (value.spans[i].start, value.spans[i].end)
                  if i in value.spans else None, shape(v)) for i, v in enumerate(value)])
    return (type(value).__name__, value)


def test_libyaml_is_there():
    """The fast path is not silently off: the test environment's PyYAML has libyaml."""
    assert yaml.__with_libyaml__


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT / "content")))
def test_every_shipped_file_loads_the_same_both_ways(path: Path):
    text = path.read_text()
    node, composed = yamlsrc._c_node(text)
    assert composed and node is not None
    assert shape(load_yaml_text(text, "x")) == shape(pure(text))


@pytest.mark.parametrize("text", [
    "a: é😀x\nb: [1, 'ü😀', {c: d}]\n😀key: |\n  x😀\n  y\n",
    "- 1\n- 2.5\n- true\n- no\n- 2026-11-26\n- ~\n- '0x10'\n- 0x10\n",
    "a: >\n  folded\n  text\n\nb: \"esc\\u00e9\"\nc: {x: [1, {y: z}]}\n",
    "x: 1\r\ny:\r\n  - a\r\n  - b\r\n",
])
def test_tricky_texts_load_the_same_both_ways(text: str):
    assert shape(load_yaml_text(text, "x")) == shape(pure(text))


def test_a_document_with_an_alias_takes_the_pure_loader():
    """Anchors and aliases are left to the loader that bounds their expansion."""
    assert yamlsrc._c_node("a: &x [1, 2]\nb: *x\n") == (None, False)
    assert load_yaml_text("a: &x [1, 2]\nb: *x\n", "x") == {"a": [1, 2], "b": [1, 2]}
