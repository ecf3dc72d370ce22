"""What several test files share (no test file imports another): plain constants, functions
and one fixture, imported by name (``from helpers import ...``; pytest puts tests/ on the
import path through tests/conftest.py).

- the repository (``ROOT``) and ``run_warbook``, the real command line in a subprocess;
- High Five, the small content folder written out line by line (``BASE``: file -> text, and
  each file's text and path as messages print it), so that a test breaking one file can count
  each expected line and column by hand; the ``content`` fixture writes it into a fresh
  working folder, ``errors`` reads the check's errors back, ``col``/``nth``/``replace`` count
  and edit lines of a case's text;
- the narration's house style (``house_style_problems``), which the narration, the state
  lines and the property tests hold the engines' words to;
- what docs/games.md documents for each game (``documented_events_and_rules``), the page a
  designer writes expectations from.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# builder is imported inside the functions that need it: conftest.py imports this module
# before it sets the environment the package reads (the lab's sizes, mutmut's mutant)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
#: High Five's own engine and example (docs/writing-an-engine.md builds it)
FIXTURE = FIXTURES / "high-five"


def run_warbook(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """``python -m builder ARGS`` from the repository, its output captured as text."""
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def warbook_here(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``warbook ARGS`` in this process from ``cwd``, its output captured: the code under
    test is the code the test imported (what mutation testing mutates), not an installed
    copy."""
    import contextlib
    import io
    import os

    from builder import cli

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(list(args))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["warbook", *args], status, out.getvalue(),
                                       err.getvalue())


# --------------------------------------------------------------------------- High Five
#: the paths of High Five's files as the check's messages print them (the texts below are
#: these files' contents, line by line)
GAME_FILE = "content/high-five/game.yaml"
RULES_FILE = "content/high-five/rules.md"
GLOSSARY_FILE = "content/high-five/glossary.yaml"
EXAMPLE_FILE = "content/high-five/examples/01-short.yaml"
INDEX_FILE = "content/index.yaml"

INDEX = "games: [high-five]\n"
GAME = """\
slug: high-five
title: High Five
players: {min: 2, max: 2}
compare: {players: "2", deck: Ten cards, choices: A card, win: More points, length: Five rounds}
quickref:
  - Play a card; the higher card scores.
"""
RULES = """\
# Playing {#playing}

## A round {#play}

Both players choose a card from their hand and reveal the two together.

## Scoring {#higher-scores}

The higher card (ace high) scores its player a point.

## Equal cards {#tie}

If the two cards are equal, nobody scores.

# The end {#end}

## More points {#most-points}

When the hands are empty, the player with more points wins; equal points is a draw.
"""
GLOSSARY = """\
- term: Point
  definition: What the higher card of a round scores.
  see: [higher-scores]
"""
EXAMPLE = """\
id: short-game
title: A two-round game
rules: [play, higher-scores, tie, most-points]
options:
  hand: 2
setup:
  hands:
    p1: [KS, 4D]
    p2: [KH, 9C]
steps:
  - decide: {p1: KS, p2: KH}
    expect:
      events: [reveal, reveal, tie]
      p1.points: 0
  - decide: {p1: 4D, p2: 9C}
    expect:
      p2.points: 1
      result: p2
"""
BASE = {"index.yaml": INDEX, "high-five/game.yaml": GAME, "high-five/rules.md": RULES,
        "high-five/glossary.yaml": GLOSSARY, "high-five/examples/01-short.yaml": EXAMPLE}


def col(line: str, text: str) -> int:
    """The 1-based column where ``text`` first starts on ``line``."""
    assert text in line, (text, line)
    return line.index(text) + 1


def nth(text: str, n: int) -> str:
    """Line ``n`` (1-based) of ``text``."""
    return text.splitlines()[n - 1]


def replace(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.fixture()
def content(tmp_path: Path, monkeypatch) -> Path:
    """The base folder written under ``content/`` in a fresh working folder (so the paths in
    messages read ``content/high-five/...``)."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "content"
    for name, text in BASE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    shutil.copyfile(FIXTURE / "engine.py", root / "high-five" / "engine.py")
    return root


#: how the replay's own messages begin (``example 'ID', step N: ...``, ``example 'ID' lists
#: rule ...``); the loader's never do. A broken example may also fail its replay: those
#: follow-on errors are check.py's, not content.py's, and are left out here.
REPLAY_MESSAGE = re.compile(r"^\S+: error: example '")


def errors(root: Path, path: str | None = None) -> list[str]:
    """The first line of each error the check reports (in ``path`` only, if given), less
    the replay's follow-on errors."""
    from builder.check import run_check

    report = run_check(Path(root.name))
    lines = [d.format().splitlines()[0] for d in report.diagnostics.errors]
    return [ln for ln in lines if (path is None or ln.startswith(path + ":"))
            and not REPLAY_MESSAGE.match(ln)]


# --------------------------------------------------------------------------- shipped games
def copy_shipped_game(tmp_path: Path, slug: str) -> Path:
    """A content folder under ``tmp_path`` holding one shipped game (``content/SLUG``) and
    an index listing it alone; its path."""
    root = tmp_path / "content"
    shutil.copytree(ROOT / "content" / slug, root / slug)
    (root / "index.yaml").write_text(f"games: [{slug}]\n")
    return root


def edit_once(path: Path, old: str, new: str) -> str:
    """Replace ``old``, which must occur exactly once in the file, by ``new``; the new
    text."""
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return path.read_text()


# --------------------------------------------------------------------------- positions
def card_list(text: str) -> list:
    """``"KS 10H 2C"``: those cards, in that order (``builder.engine.core.Card``)."""
    from builder.engine.core import parse_cards

    return parse_cards(text.split())


def state_from_piles(game, piles: dict[str, str], **extra):
    """A state of ``game`` made by its own ``from_setup``, as an example's ``setup:`` would:
    ``piles`` maps a pile to its cards written as one string (``{"p1.hand": "3H 9C"}``),
    ``options=`` picks the options (the game's defaults otherwise), any other keyword is
    another setup entry (``stones=``, ...)."""
    return game.from_setup(game.resolve(extra.pop("options", {})),
                           {"piles": {k: v.split() for k, v in piles.items()}, **extra})


# --------------------------------------------------------------------------- narration
#: the players' names the renderers fill in for p1..p6 (Happy Families seats six)
PLAYER_NAMES = {"p1": "Ann", "p2": "Bea", "p3": "Cyd", "p4": "Dot", "p5": "Eve", "p6": "Fay"}
#: a card code as the engines' text writes it (KS, 10H)
CARD_CODE = r"(?:10|[AJQK2-9])[CDHS]"
NOUNS = "card|pair|point|stone|turn|round|trick|soldier|battle|diamond|war"


def house_style_problems(text: str) -> list[str]:
    """What in ``text`` breaks the house style (issue 14): a sentence starts with a capital
    (or a number or card) and ends as a sentence; no leftover ``{p1}``, ``None`` or capitals
    that are not a card; articles, numbers and verbs agree. Empty when it reads well."""
    found = []
    if not re.match(rf"^(?:[A-Z0-9]|{CARD_CODE})", text):
        found.append("does not start with a capital")
    if not re.search(r"[.!:)]$", text):
        found.append("does not end a sentence")
    for leftover in ("{", "}", "None", "  "):
        if leftover in text:
            found.append(f"holds {leftover!r}")
    for word in re.findall(r"\b[A-Z]{2,}\b", text):
        if not re.fullmatch(CARD_CODE, word):
            found.append(f"capitals {word!r}")
    for word in re.findall(r"\b[A-Z]{2,}[a-z]\w*|\b[a-z]+[A-Z]\w*", text):   # "CARDs", "cardS"
        found.append(f"capitals {word!r}")
    for wrong in re.findall(r"\b(?:decks is|deck are|cards is|card are)\b", text):
        found.append(f"{wrong!r}: the verb does not agree")
    if re.search(r"[a-z,:] (?:A|An) [a-z]", text):                  # "Both show A king"
        found.append("a capital article inside a sentence")
    if re.search(r"\ba (?:8|11|18|80|ace|eight|A\b|A[CDHS]\b|8[CDHS]\b)", text):
        found.append("'a' before a vowel sound")
    if re.search(r"\ban (?:[2-79]\b|10\b|[JQK]\b|[2-79JQK][CDHS]\b|king|queen|jack|two|three)",
                 text):
        found.append("'an' before a consonant sound")
    if re.search(rf"(?<![\d.])1 (?:{NOUNS})s\b", text):
        found.append("'1' with a plural")
    if re.search(rf"(?<![\d.])(?:0|[2-9]|\d\d+) (?:{NOUNS})\b(?!s)", text):
        found.append("a number above 1 with a singular")
    return found


# --------------------------------------------------------------------------- docs/games.md
def games_page_sections() -> dict[str, str]:
    """The page's text per game, by its ``## Title`` heading."""
    text = (ROOT / "docs" / "games.md").read_text()
    parts = re.split(r"(?m)^## (.+)$", text)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def games_page_table(section: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the table under ``### heading`` in a section."""
    body = section.split(f"### {heading}\n", 1)[1].split("\n### ", 1)[0]
    rows = [ln for ln in body.splitlines() if ln.startswith("| ")]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows[2:]]


def documented_events_and_rules(slug: str) -> tuple[dict[str, set[str]], set[str]]:
    """(event kind -> its data fields, rule ids) as the page gives them."""
    from builder.engine.registry import registered_engines

    title = registered_engines()[slug].title
    page = games_page_sections()
    section = page.get(title) or next(
        (v for k, v in page.items() if k.endswith(title) or title.endswith(k)), None)
    assert section is not None, f"docs/games.md has no section for {title}"
    events = {}
    for kind, data, _meaning in games_page_table(section, "Events"):
        fields = re.sub(r"\([^)]*\)", "", data)       # value lists in brackets are not fields
        events[kind.strip("`")] = set(re.findall(r"`([a-z0-9_.-]+)`", fields))
    rules = {row[0].strip("`") for row in games_page_table(section, "Rule ids")}
    return events, rules
