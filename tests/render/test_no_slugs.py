"""No renderer and no template knows a particular game (issue 10): the shipped games'
slugs appear in builder/render/ and templates/ as no string literal, so everything a game
looks like comes from its content and its engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SLUGS = set(yaml.safe_load((ROOT / "content" / "index.yaml").read_text())["games"])


def python_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def template_literals(path: Path) -> list[tuple[int, str]]:
    out = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        out += [(i, m.group(2)) for m in re.finditer(r"(['\"])([a-z0-9-]+)\1", line)]
    return out


def test_the_shipped_games_are_all_checked():
    assert {"war", "peace", "battle"} <= SLUGS  # the scan below has something to find


def test_no_renderer_or_template_names_a_game():
    hits = []
    for path in sorted((ROOT / "builder" / "render").rglob("*.py")):
        hits += [f"{path.relative_to(ROOT)}:{n}: {v!r}" for n, v in python_literals(path)
                 if v in SLUGS]
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.is_file() and path.suffix in (".j2", ".css", ".js", ".html", ".svg"):
            hits += [f"{path.relative_to(ROOT)}:{n}: {v!r}" for n, v in template_literals(path)
                     if v in SLUGS]
    assert hits == []


def test_the_scan_would_find_one(tmp_path: Path):
    sample = tmp_path / "x.py"
    sample.write_text('ACCENTS = {"battle": "#8c1c2e"}\n')
    assert (1, "battle") in python_literals(sample)
    tpl = tmp_path / "x.j2"
    tpl.write_text("{% if g.slug == 'ultimate' %}x{% endif %}\n")
    assert (1, "ultimate") in template_literals(tpl)
