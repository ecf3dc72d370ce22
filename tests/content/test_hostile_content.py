"""Hostile and broken content files (issue 13): each failure the issue lists is a located
error with a message in plain words, never a traceback, a hang or a silent acceptance.

The cases break the small High Five folder of tests/helpers.py (as
tests/content/test_content_errors.py does); each expected position is counted by hand on the
case's own text (``col`` finds a piece on a line). The YAML loader's messages
(builder/yamlsrc.py) are pinned here, as content.py's are there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# High Five and its helpers (tests/helpers.py); the cases below write its files' paths short
from helpers import (
    EXAMPLE,
    EXAMPLE_FILE,
    GAME,
    GAME_FILE,
    GLOSSARY,
    GLOSSARY_FILE,
    INDEX_FILE,
    ROOT,
    RULES,
    RULES_FILE,
    col,
    errors,
    nth,
    replace,
)


def write(root: Path, name: str, data: str | bytes) -> None:
    path = root / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)


# --------------------------------------------------------------------------- YAML
def test_a_complex_key(content: Path):
    write(content, "high-five/game.yaml", "? [a, b]\n: 1\n" + GAME)
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:1:3: error: YAML: a key must be a plain word or number, not a list or mapping"]


def test_a_list_of_lists_where_rule_ids_belong(content: Path):
    line = "  see: [[higher-scores]]"
    write(content, "high-five/glossary.yaml", replace(GLOSSARY, nth(GLOSSARY, 3), line))
    assert errors(content, GLOSSARY_FILE) == [
        f"{GLOSSARY_FILE}:3:{col(line, '[[')}: error: glossary entry: 'see' must be a rule id or a list "
        "of rule ids"]


def test_a_list_where_a_card_belongs(content: Path):
    from builder.check import run_check

    write(content, "high-five/examples/01-short.yaml",
          replace(EXAMPLE, "p1: [KS, 4D]", "p1: [[KS], 4D]"))
    got = [d.format() for d in run_check(Path("content")).diagnostics.errors]
    assert len(got) == 1 and got[0].startswith(f"{EXAMPLE_FILE}:7:3: error: example 'short-game': "
                                               "expected a card such as QD or 10H"), got


@pytest.mark.parametrize("char", ["\x0b", "\x07", "\ufffe", "\x00"])
def test_a_control_character_in_yaml(content: Path, char: str):
    line = "title: Hi" + char + "gh Five"
    write(content, "high-five/game.yaml", replace(GAME, "title: High Five", line))
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:2:{line.index(char) + 1}: error: a control character (U+{ord(char):04X}) is not "
        "allowed in content; delete it"]


def test_a_control_character_in_rules(content: Path):
    write(content, "high-five/rules.md", replace(RULES, "Both players", "Both\x07players"))
    assert errors(content, RULES_FILE) == [
        f"{RULES_FILE}:5:5: error: a control character (U+0007) is not allowed in content; delete it"]


def test_a_byte_that_is_not_utf8_in_yaml(content: Path):
    # line 4: "compare: ..." with a Latin-1 e-acute in "Ten cards": at its own line and column
    text = GAME.replace("deck: Ten cards", "deck: T\xe9n cards").encode("latin-1")
    write(content, "high-five/game.yaml", text)
    line = nth(GAME, 4)
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:4:{col(line, 'en cards')}: error: not UTF-8 text: the byte 0xe9 cannot start or "
        "continue a character here; save the file as UTF-8"]


def test_a_byte_that_is_not_utf8_in_rules(content: Path):
    write(content, "high-five/rules.md",
          replace(RULES, "Both players", "B\u00f6th pl\xe9ayers").encode("utf-8")
          .replace(b"pl\xc3\xa9ayers", b"pl\xe9ayers"))
    # the column counts characters: "B", the two-byte "ö" as one, "th pl", then the byte (8)
    assert errors(content, RULES_FILE)[0] == (
        f"{RULES_FILE}:5:8: error: not UTF-8 text: the byte 0xe9 cannot start or continue a character "
        "here; save the file as UTF-8")


def test_nesting_a_thousand_deep(content: Path):
    write(content, "high-five/game.yaml", GAME + "time: " + "[" * 1000 + "]" * 1000 + "\n")
    # the file's own mapping is the first level, so the 64th '[' opens the 65th
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:7:{len('time: ') + 64}: error: YAML: lists and mappings nested more than 64 deep"]


def test_a_number_of_five_thousand_digits(content: Path):
    write(content, "high-five/game.yaml", GAME + "time: " + "9" * 5001 + "\n")
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:7:7: error: YAML: a number of 5001 digits; numbers in content have at most 40"]


def test_a_tagged_number_that_is_not_one(content: Path):
    write(content, "high-five/game.yaml", GAME + "time: !!int abc\n")
    assert errors(content, GAME_FILE) == [f"{GAME_FILE}:7:7: error: YAML: 'abc' is not a whole number"]


@pytest.mark.parametrize("tag", ["!!pairs", "!!omap", "!!set", "!!binary", "!custom"])
def test_a_tag_content_has_no_use_for(content: Path, tag: str):
    value = "aGk=" if tag == "!!binary" else "{high-five: 1}" if tag == "!!set" else \
        "[high-five: 1]"
    write(content, "index.yaml", f"games: {tag} {value}\n")
    assert errors(content, INDEX_FILE) == [
        f"{INDEX_FILE}:1:8: error: YAML: the YAML tag {tag} is not used in content; write a plain list "
        "or mapping"]


def test_an_alias_bomb(content: Path):
    bomb = "".join(f"{k}: &{k} [" + ", ".join([f"*{p}" if p else "1"] * 10) + "]\n"
                   for p, k in zip(["", "a", "b", "c", "d"], "abcde"))
    write(content, "high-five/game.yaml", GAME + bomb)
    got = errors(content, GAME_FILE)
    # the aliases to d (10^4 values each) take the document past 100,000 values
    assert got == [f"{GAME_FILE}:11:8: error: YAML: aliases (*name) here would expand to more than "
                   "100,000 values"]


def test_an_alias_inside_its_own_value(content: Path):
    write(content, "high-five/game.yaml", GAME + "time: &a [*a]\n")
    assert errors(content, GAME_FILE) == [
        f"{GAME_FILE}:7:11: error: YAML: an alias (*name) inside the value it names: it would never end"]


def test_a_large_value_is_never_printed_whole(content: Path):
    write(content, "high-five/game.yaml", GAME + "accent: " + "x" * 100_000 + "\n")
    got = errors(content, GAME_FILE)
    assert len(got) == 1 and len(got[0]) < 200
    assert got[0].endswith("got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'")


# --------------------------------------------------------------------------- syntax, plainly
SYNTAX = [
    ("slug: high-five: x", 1, "slug: high-five: x".index(": x") + 1,
     "a ': ' here would start a mapping inside a value; put the value in quotes if it holds ': '"),
    ("title: 'High Five", 7, 1,
     "the file ends inside a quoted value; close the quote (the quoted value began on line 2)"),
    ("players:\n\t min: 2", 4, 1, "a tab; indent YAML with spaces only"),
    ("title: @High", 2, 8,
     "this character cannot start a plain value; put the value in quotes"),
    ("time: *nowhere", 7, 7, "an alias (*name) with no anchor (&name) before it"),
    ("time: \"\\q\"", 7, 9,
     "an unknown \\-escape inside double quotes; write \\\\ for a backslash, or use single quotes"),
]


@pytest.mark.parametrize("edit,line,column,words", SYNTAX,
                         ids=["colon-in-value", "unclosed-quote", "tab", "at-sign",
                              "alias-without-anchor", "unknown-escape"])
def test_a_syntax_error_in_plain_words(content: Path, edit, line, column, words):
    key = edit.split(":")[0]
    old = next((ln for ln in GAME.splitlines() if ln.startswith(key + ":")), None)
    text = (GAME.replace(old, edit) if old and "players" not in key else
            GAME.replace("players: {min: 2, max: 2}", edit) if "players" in key else
            GAME + edit + "\n")
    write(content, "high-five/game.yaml", text)
    report_lines = errors(content, GAME_FILE)
    assert report_lines == [f"{GAME_FILE}:{line}:{column}: error: YAML syntax: {words}"]


def test_the_syntax_error_shows_the_line_and_a_caret(content: Path):
    from builder.check import run_check

    write(content, "high-five/game.yaml", GAME.replace("slug: high-five", "slug: high-five: x"))
    report = run_check(Path("content"))
    assert report.diagnostics.errors[0].format().splitlines()[1:] == [
        "    slug: high-five: x",
        "                   ^"]


# --------------------------------------------------------------------------- the file system
def test_a_fifo_among_the_examples(content: Path):
    os.mkfifo(content / "high-five" / "examples" / "02-fifo.yaml")
    assert errors(content, "content/high-five/examples/02-fifo.yaml") == [
        "content/high-five/examples/02-fifo.yaml:1:1: error: not a regular file (a folder, FIFO "
        "or device); content files must be plain text files"]


def test_a_folder_named_like_an_example(content: Path):
    (content / "high-five" / "examples" / "02-folder.yaml").mkdir()
    assert errors(content, "content/high-five/examples/02-folder.yaml") == [
        "content/high-five/examples/02-folder.yaml:1:1: error: not a regular file (a folder, "
        "FIFO or device); content files must be plain text files"]


@pytest.mark.parametrize("name", ["high-five/rules.md", "high-five/glossary.yaml",
                                  "high-five/game.yaml", "index.yaml"])
def test_a_link_out_of_the_content_folder(content: Path, name: str):
    outside = content.parent / "elsewhere"
    outside.write_text((content / name).read_text())
    (content / name).unlink()
    (content / name).symlink_to(outside)
    assert errors(content, f"content/{name}") == [
        f"content/{name}:1:1: error: this is a link to a file outside the content folder; put "
        "the file itself inside the folder"]


def test_a_link_inside_the_content_folder_is_allowed(content: Path):
    shared = content / "shared-glossary.yaml"
    shared.write_text(GLOSSARY)
    (content / "high-five" / "glossary.yaml").unlink()
    (content / "high-five" / "glossary.yaml").symlink_to(shared)
    assert errors(content) == []


def test_a_game_folder_linked_from_outside(content: Path):
    real = content.parent / "outside-game"
    (content / "high-five").rename(real)
    (content / "high-five").symlink_to(real)
    got = errors(content)
    assert got and all("outside the content folder" in g for g in got)
    assert got[0].startswith("content/high-five/game.yaml:1:1: error: this is a link")


@pytest.mark.parametrize("name", ["high-five/glossary.yaml",
                                  "high-five/examples/02-loop.yaml"])
def test_a_link_loop(content: Path, name: str):
    path = content / name
    if path.exists():
        path.unlink()
    path.symlink_to(path.name)
    assert errors(content, f"content/{name}") == [
        f"content/{name}:1:1: error: cannot read: a link that leads back to itself (a symlink "
        "loop)"]


# --------------------------------------------------------------------------- decisions
def test_a_chance_outcome_that_cannot_be_read(tmp_path: Path, monkeypatch):
    """``chance:`` in a form the chance node cannot read (Battle's reshuffle takes a list of
    cards): a located error at the chance line."""
    import shutil

    from builder.check import run_check

    monkeypatch.chdir(tmp_path)
    root = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "battle", root / "battle")
    (root / "index.yaml").write_text("games: [battle]\n")
    path = root / "battle" / "examples" / "05-reshuffle.yaml"
    lines = path.read_text().split("\n")
    n = next(i for i, ln in enumerate(lines) if "chance:" in ln)
    for bad in ("shuffled", "[ZZ, 7S, 6S]"):
        lines[n] = lines[n].split("chance:")[0] + "chance: " + bad
        path.write_text("\n".join(lines))
        report = run_check(Path("content"))
        got = [d.format().splitlines()[0] for d in report.diagnostics.errors]
        assert len(got) == 1, got
        assert got[0].startswith(f"content/battle/examples/05-reshuffle.yaml:{n + 1}:"
                                 f"{lines[n].index(bad) + 1}: error: example "), got
        assert ": chance: " in got[0]


# --------------------------------------------------------------------------- the CLI
def test_the_cli_reports_hostile_yaml_with_exit_status_1(content: Path):
    write(content, "high-five/game.yaml", GAME + "time: !!int abc\n")
    proc = subprocess.run([sys.executable, "-m", "builder", "check", "--content", "content"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert f"{GAME_FILE}:7:7: error: YAML: 'abc' is not a whole number" in proc.stderr


# --------------------------------------------------------------------------- linear passes
PASSES = textwrap.dedent("""
    import sys
    sys.path.insert(0, "bench")
    from textpasses import lines, loader_passes
    for label, line in lines(1_000_000).items():
        for name, fn in loader_passes().items():
            fn(line)
    print("done")
""")


def test_every_text_pass_finishes_on_megabyte_lines():
    """Each loader pass and the plain-text reduction run over 1 MB pathological lines (the
    inputs of bench/textpasses.py, which reports their times). A quadratic pass would run
    for hours; the timeout only keeps a regression from hanging the suite, it measures
    nothing."""
    proc = subprocess.run([sys.executable, "-c", PASSES], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "done", proc.stderr
