"""Nothing in a content folder vanishes silently (issue 22, item 6).

A file where the loader expects a folder (and the reverse), a misspelt file the loader would
skip, and a name or title that cannot be seen are located errors and exit 1. The wording
and position of each message is pinned in tests/content/test_content_errors.py (``kind-*``,
``name-*``); here what the designer sees from the command line, and the rule for names
(builder/names.py) character by character.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builder.check import run_check
from builder.names import name_problem

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"


@pytest.fixture()
def content(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, tmp_path / "content" / "high-five")
    (tmp_path / "content" / "index.yaml").write_text("games: [high-five]\n")
    return tmp_path / "content"


def check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", "check", *args],
                          capture_output=True, text=True, timeout=120)


def test_a_file_named_examples_is_an_error_not_a_game_without_examples(content: Path):
    """The issue's case: before, every example vanished and the check exited 0."""
    shutil.rmtree(content / "high-five" / "examples")
    (content / "high-five" / "examples").write_text("id: lost\n")
    run = check("--content", "content")
    assert run.returncode == 1
    assert "content/high-five/examples:1:1: error: 'examples' must be a folder" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("target", ["game.yaml", "nowhere.yaml"])
def test_a_game_yaml_that_is_a_dead_link_is_said_at_the_link(content: Path, target: str):
    """A game.yaml linked to itself (a loop) or to nothing: before, the game vanished and
    the only error was index.yaml's "no game folder" (found by the fuzz, seed 5057)."""
    game_file = content / "high-five" / "game.yaml"
    game_file.unlink()
    game_file.symlink_to(target)
    errors = [f"{d.path}:{d.line}: {d.message}" for d in run_check(Path("content")).diagnostics.errors]
    assert len(errors) == 1, errors
    assert errors[0].startswith("content/high-five/game.yaml:1: cannot read: ")


def test_a_file_given_as_the_content_folder_says_so(content: Path):
    (content.parent / "notes.txt").write_text("not a folder\n")
    run = check("--content", "notes.txt")
    assert run.returncode == 1
    assert "notes.txt:0:0: error: the content folder is a file, not a folder" in run.stderr


def test_an_example_saved_as_yml_is_not_skipped(content: Path):
    (content / "high-five" / "examples" / "01-a-short-game.yaml").rename(
        content / "high-five" / "examples" / "01-a-short-game.yml")
    report = run_check(Path("content"))
    assert [d.path for d in report.diagnostics.errors] == [
        "content/high-five/examples/01-a-short-game.yml"]


def test_hidden_files_in_examples_are_left_alone(content: Path):
    """An editor's swap file is not an example, nor an error."""
    (content / "high-five" / "examples" / ".01-a-short-game.yaml.swp").write_text("x")
    assert run_check(Path("content")).diagnostics.errors == []


def test_a_zero_width_term_is_refused_and_left_out(content: Path):
    glossary = content / "high-five" / "glossary.yaml"
    glossary.write_text(glossary.read_text().replace("term: Point", "term: \u200b", 1))
    report = run_check(Path("content"))
    assert [d.message for d in report.diagnostics.errors] == [
        "glossary entry: the term holds an invisible character (U+200B ZERO WIDTH SPACE); "
        "delete it"]
    assert "\u200b" not in [t.term for t in report.content.games[0].glossary]


@pytest.mark.parametrize("name", [
    "Point", "Ruby", "Café", "北風", "A B", "Jet\u00a0Black",   # a no-break space is a space
    "\U0001F468\u200d\U0001F469",                               # an emoji sequence
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",          # Persian: a non-joiner inside
    "e\u0301",                                                   # a letter and its accent
])
def test_a_visible_name_is_accepted(name):
    assert name_problem(name) == ""


@pytest.mark.parametrize("name, problem", [
    ("\u200b", "U+200B ZERO WIDTH SPACE"), ("\ufeff", "U+FEFF"), ("\u2060", "U+2060"),
    ("\u00ad", "U+00AD SOFT HYPHEN"), ("\u202e", "RIGHT-TO-LEFT OVERRIDE"),
    ("\u2066Ruby\u2069", "LEFT-TO-RIGHT ISOLATE"),
    ("Po\u200bint", "U+200B"),                   # inside a visible name: refused too
    ("\u200dRuby", "U+200D"),                     # a joiner joins nothing at the start
    ("Ruby\x01", "control character (U+0001)"),
    ("\ue000", "U+E000"),                         # private use: no font draws it
    (" \u00a0\u3000 ", "has no visible character"),
    ("\u3164", "has no visible character"), ("\u2800", "has no visible character"),
    ("\u0301", "has no visible character"),       # an accent on nothing
])
def test_an_invisible_name_is_refused(name, problem):
    assert problem in name_problem(name)


@pytest.mark.parametrize("file, old, new, message", [
    ("game.yaml", "quickref:\n  - Both players choose a card from their hand and reveal them "
     "together.\n  - The higher card scores a point; equal cards score nothing.\n  - After the "
     "last round, more points wins.\n", "quickref: {}\n", "quickref must be a list of lines"),
    ("game.yaml", "  names: {p1: North, p2: South}", "  names: []",
     "players.names must map p1, p2, ... to names"),
    ("glossary.yaml", "  see: [higher-scores]", "  see: {}",
     "glossary entry: 'see' must be a rule id or a list of rule ids"),
    ("examples/01-a-short-game.yaml", "rules: [play, higher-scores, tie, most-points]",
     "rules: {}", "rules must be a list of rule ids"),
])
def test_an_empty_value_of_the_wrong_kind_is_refused(content: Path, file, old, new, message):
    """Issue 24's bad input: `quickref: {}`, `names: []`, `see: {}` were read as nothing."""
    path = content / "high-five" / file
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    report = run_check(Path("content"))
    assert [d.message for d in report.diagnostics.errors] == [message]


@pytest.mark.parametrize("event, message", [
    ("{kind: score, player: null}", "events: player: must be a player id (p1, p2), got null"),
    ("{kind: score, 3: x}", "events: the field 3 is not a field name"),
])
def test_an_event_field_of_the_wrong_kind_is_a_located_error(content: Path, event, message):
    """Issue 24: `player: null` in an expected event ended as "internal error: TypeError"."""
    path = content / "high-five" / "examples" / "01-a-short-game.yaml"
    old = "{kind: score, player: p2, points: 1}"
    path.write_text(path.read_text().replace(old, event))
    report = run_check(Path("content"))
    assert [d.message.split(": ", 1)[1] for d in report.diagnostics.errors] == [message]
    assert report.diagnostics.errors[0].line == 19
