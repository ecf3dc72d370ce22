"""The rules' version and date (index.yaml's ``book.version`` and ``book.date``) and a game's
list of changes (game.yaml's ``changes:``), issue 27 item 9: read and validated with
located errors, printed on the rulebook's cover and in its "Changes to the rules", and on
the website."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from builder.check import run_check
from builder.render.present import day_text, rules_line

ROOT = Path(__file__).resolve().parents[2]


def errors_for(tmp_path: Path, book: str = "", changes: str = "") -> list[str]:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "peace", content / "peace")
    game = content / "peace" / "game.yaml"
    game.write_text(game.read_text() + changes)
    (content / "index.yaml").write_text("games: [peace]\nbook:\n  title: T\n" + book)
    report = run_check(content)
    return [d.format().split("\n")[0].replace(str(content) + "/", "")
            for d in report.diagnostics if d.severity == "error"]


def test_the_shipped_version_and_changes_are_read():
    report = run_check(ROOT / "content")
    book = report.content.book
    assert (book.version, book.date) == ("1.1", "2026-11-28")
    (change,) = report.content.game("winning-the-battle").changes
    assert (change.date, change.rule) == ("2026-11-28", "opt-stones")
    assert report.content.game("war").changes == []


def test_a_good_list_is_read_newest_first(tmp_path: Path):
    assert errors_for(tmp_path, '  version: "2.0"\n  date: 2026-12-01\n', """changes:
  - {date: 2026-01-05, rule: trick-cap, text: The cap was raised.}
  - {date: "2026-11-30", rule: lower-takes, text: "Now worded as in [[trick-cap]]."}
""") == []
    report = run_check(tmp_path / "content")
    peace = report.content.game("peace")
    assert [(c.date, c.rule) for c in peace.changes] == [("2026-11-30", "lower-takes"),
                                                         ("2026-01-05", "trick-cap")]


@pytest.mark.parametrize("book, expected", [
    ("  version: 1.10\n", 'index.yaml:4:12: error: book.version must be text: put it in quotes, '
                          'such as version: "1.2"'),
    ("  version: 2\n  date: 28/11/2026\n", "index.yaml:5:9: error: book.date must be a date "
                                           "written YYYY-MM-DD, such as 2026-11-28, got "
                                           "'28/11/2026'"),
    ("  date: 2026-02-30\n", "index.yaml:4:9: error: book.date must be a day of the calendar, "
                             "got '2026-02-30'"),
    ("  version: " + "x" * 41 + "\n", "index.yaml:4:12: error: book.version must be at most 40 "
                                      "characters"),
])
def test_a_bad_version_or_date_is_a_located_error(tmp_path: Path, book: str, expected: str):
    errors = errors_for(tmp_path, book)
    assert len(errors) == 1 and errors[0].startswith(expected), errors


@pytest.mark.parametrize("entry, expected", [
    ("  - {rule: trick-cap, text: x}", "peace/game.yaml:{line}:5: error: change: 'date' is "
                                       "missing (the day it was made, such as date: 2026-11-28)"),
    ("  - {date: 2026-11-28, text: x}", "peace/game.yaml:{line}:5: error: change: 'rule' is "
                                        "missing (the id of the rule it changed"),
    ("  - {date: 2026-11-28, rule: trick-cap}", "peace/game.yaml:{line}:5: error: change: "
                                                "'text' is missing"),
    ("  - {date: 2026-11-28, rule: trik-cap, text: x}",
     "peace/game.yaml:{line}:30: error: change: unknown rule id 'trik-cap'; did you mean "
     "'trick-cap'?"),
    ("  - {date: 2026-11-31, rule: trick-cap, text: x}",
     "peace/game.yaml:{line}:12: error: change: date must be a day of the calendar"),
    ("  - {date: 2026-11-28, rule: trick-cap, text: x, by: me}",
     "peace/game.yaml:{line}:50: error: change: unknown key 'by'"),
    ("  - a sentence", "peace/game.yaml:{line}:5: error: a change is a mapping"),
    ("  - {date: 2026-11-28, rule: trick-cap, text: 'See [[no-such]].'}",
     "peace/game.yaml:{line}:"),
])
def test_a_bad_change_is_a_located_error_with_a_hint(tmp_path: Path, entry: str,
                                                    expected: str):
    line = len((ROOT / "content" / "peace" / "game.yaml").read_text().splitlines()) + 2
    errors = errors_for(tmp_path, changes=f"changes:\n{entry}\n")
    assert len(errors) == 1 and errors[0].startswith(expected.format(line=line)), errors


def test_changes_must_be_a_list(tmp_path: Path):
    errors = errors_for(tmp_path, changes="changes: {date: 2026-11-28}\n")
    assert len(errors) == 1 and "changes must be a list of entries" in errors[0]


def test_the_printed_line():
    class Book:
        version, date = "1.1", "2026-11-28"
    assert day_text("2026-03-01") == "1 March 2026"
    assert rules_line(Book) == "Rules version 1.1, 28 November 2026"
    Book.date = ""
    assert rules_line(Book) == "Rules version 1.1"
    Book.version, Book.date = "", "2026-01-09"
    assert rules_line(Book) == "Rules of 9 January 2026"
    Book.date = ""
    assert rules_line(Book) == ""


@pytest.mark.slow
def test_the_book_and_the_site_print_them(built: Path):
    text = subprocess.run(["pdftotext", "-layout",
                           str(built / "pdf" / "winning-the-battle-rules.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    cover = text.split("\f")[0]
    assert "This edition" in cover and "Rules version 1.1, 28 November 2026" in cover
    changes = text[text.rindex("Changes to the rules"):]
    assert "28 November 2026: 6.1 More stones, p." in " ".join(changes.split())
    war = subprocess.run(["pdftotext", str(built / "pdf" / "war-rules.pdf"), "-"],
                         capture_output=True, text=True, check=True).stdout
    assert "Rules version 1.1" in war and "Changes to the rules" not in war
    page = (built / "site" / "winning-the-battle.html").read_text()
    assert '<h2 class="rule-h rule-h1 plain" id="changes">Changes to the rules</h2>' in page
    assert ('<time datetime="2026-11-28">28 November 2026</time>: <a class="xref" '
            'href="#opt-stones">6.1 More stones</a>') in page
    assert '<li><a href="#changes">Changes to the rules</a></li>' in page   # its contents
    assert "Rules version 1.1, 28 November 2026. Made with warbook" in \
        (built / "site" / "index.html").read_text()
