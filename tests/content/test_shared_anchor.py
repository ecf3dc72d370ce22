"""A rule, an example and a glossary term each have a place in the book and on the website
named by the game and an id (the rule's id, ``ex-`` and the example's id, ``term-`` and the
term): a rule whose id is one of the others' place names is a located error, not a book
whose links land on the wrong one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import copy_shipped_game, edit_once

from builder.check import run_check


@pytest.mark.parametrize("rid, whose", [("ex-war-plain-trick", "example 'war-plain-trick'"),
                                        ("term-soldier", "the glossary's term 'Soldier'")])
def test_a_rule_named_as_an_example_or_a_term_is_a_located_error(tmp_path: Path, rid, whose):
    root = copy_shipped_game(tmp_path, "war")
    rules = root / "war" / "rules.md"
    text = edit_once(rules, "{#golden-chance}", "{#" + rid + "}")
    for path in (root / "war").rglob("*"):
        if path.is_file() and path.suffix in (".md", ".yaml") and "[[golden-chance]]" in path.read_text():
            path.write_text(path.read_text().replace("[[golden-chance]]", f"[[{rid}]]"))
    line = text[:text.index(rid)].count("\n") + 1
    errors = run_check(root).diagnostics.errors
    assert [(Path(e.path), e.line) for e in errors] == [(rules, line)], \
        [e.format() for e in errors]
    (e,) = errors
    assert f"rule id '{rid}' is also the place name of {whose}" in e.message
    assert e.message.endswith("give the rule another id")
