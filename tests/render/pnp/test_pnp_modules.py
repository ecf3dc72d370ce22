"""The print-and-play package is modules of one job each with no import circle (issue 23,
item 7): read from the source's import statements (function-level imports included), not
from the modules themselves; and its one entry point is ``builder.render.pnp.render_all``."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import builder.render.pnp as pnp

PACKAGE = Path(pnp.__file__).parent


def imports_within(path: Path) -> set[str]:
    """The sibling modules ``path`` imports (``from . import x``, ``from .x import y``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_no_import_circle():
    graph = {p.stem: imports_within(p) for p in PACKAGE.glob("*.py")}
    graph["__init__"].discard("render")   # the package exports the entry point

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join(path + (name,))
        for other in sorted(graph.get(name, ())):
            visit(other, path + (name,))

    for name in sorted(graph):
        visit(name, ())


def test_the_circle_finder_sees_a_circle(tmp_path):
    """The finder above can fail: a module importing a sibling inside a function counts."""
    (tmp_path / "a.py").write_text("def f():\n    from .b import g\n")
    assert imports_within(tmp_path / "a.py") == {"b"}


def test_components_module_is_gone_and_the_entry_takes_settings():
    assert not (PACKAGE / "components.py").exists()
    params = list(inspect.signature(pnp.render_all).parameters.values())
    assert [p.name for p in params] == ["report", "games", "staging", "settings", "whole"]
    assert params[-1].kind is inspect.Parameter.KEYWORD_ONLY


def test_no_paper_table_of_its_own():
    """Papers come from builder.settings.PAPERS alone."""
    from builder.render.pnp import layout

    assert not hasattr(layout, "PAPERS") and not hasattr(layout, "PAPER_NAMES")
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "215.9" not in text and '"letter"' not in text, path.name
