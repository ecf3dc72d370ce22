"""The stated limits on what valid content may ask for (builder/limits.py,
docs/content-format.md "Limits"): each one reached is accepted, each one passed by one is a
located error that names the limit, found by the loader before any replay.

The exact file, line and column of each "just past" error is pinned by a case in
tests/content/test_content_errors.py (``limit-*``); here the two sides of each boundary.
The base folder is High Five (tests/fixtures/high-five), copied into a fresh working folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builder import limits
from builder.check import run_check
from builder.content import load_content
from builder.yamlsrc import MAX_VALUES

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"
SHORT = "01-a-short-game.yaml"
#: what a step of the fixture's short example is written as, once more (never replayed
#: when a limit is passed; the loader counts what is written)
EMPTY_STEP = "  - {}\n"


@pytest.fixture()
def game(tmp_path: Path, monkeypatch) -> Path:
    """High Five under ``content/high-five`` in a fresh working folder."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURE, tmp_path / "content" / "high-five")
    (tmp_path / "content" / "index.yaml").write_text("games: [high-five]\n")
    return tmp_path / "content" / "high-five"


def limit_errors(root: Path, limit: int) -> list[str]:
    """The loader's errors that name ``limit`` ("at most N ...")."""
    _, diags = load_content(root)
    return [d.format() for d in diags.errors if f"at most {limit:,} " in d.message]


def loader_errors(root: Path) -> list[str]:
    _, diags = load_content(root)
    return [d.format() for d in diags.errors]


def short_example(game: Path) -> str:
    return (game / "examples" / SHORT).read_text()


def steps_of(text: str) -> int:
    return len(re.findall(r"^  - ", text, flags=re.M))


# --------------------------------------------------------------------------- each limit
def with_steps(game: Path, n: int) -> None:
    text = short_example(game)
    (game / "examples" / SHORT).write_text(text + EMPTY_STEP * (n - steps_of(text)))


def with_repeat(game: Path, n: int) -> None:
    text = short_example(game)
    (game / "examples" / SHORT).write_text(text + f"  - repeat: {n - steps_of(text)}\n")


def with_examples(game: Path, n: int) -> None:
    text = short_example(game)
    for i in range(2, n + 1):
        (game / "examples" / f"{i:02d}-more.yaml").write_text(
            text.replace("id: high-five-short-game", f"id: more-{i}"))


def with_diagrams(game: Path, n: int) -> None:
    """Examples of ``{}`` steps making ``n`` diagrams with the short example's 3."""
    left, i = n - 3, 2
    while left:
        steps = min(limits.MAX_STEPS, left - 1)
        (game / "examples" / f"{i:02d}-big.yaml").write_text(
            f"id: big-{i}\ntitle: Big\nsetup: {{}}\nsteps:\n" + EMPTY_STEP * steps)
        left -= steps + 1
        i += 1


def with_terms(game: Path, n: int) -> None:
    (game / "glossary.yaml").write_text(
        "".join(f"- term: T{i}\n  definition: D.\n" for i in range(n)))


def with_glossary_chars(game: Path, n: int) -> None:
    """Terms and definitions of ``n`` characters in all (250 characters an entry, the last
    one longer by what is left)."""
    count = n // 250
    sizes = [250] * (count - 1) + [250 + n % 250]
    (game / "glossary.yaml").write_text("".join(
        f"- term: T{i:03d}\n  definition: {'d' * (size - 4)}\n" for i, size in enumerate(sizes)))


def with_rules(game: Path, n: int) -> None:
    text = (game / "rules.md").read_text()
    have = sum(1 for ln in text.splitlines() if ln.startswith("#"))
    (game / "rules.md").write_text(text + "".join(
        f"\n## Rule {i} {{#r-{i}}}\n\nText.\n" for i in range(n - have)))


def with_rules_chars(game: Path, n: int) -> None:
    text = (game / "rules.md").read_text().rstrip("\n") + "\n"
    room = n - len(text)
    paras = ["\n" + "r" * 2999 + "\n"] * (room // 3001)     # 3,001 characters each
    tail = room % 3001
    (game / "rules.md").write_text(text + "".join(paras) + ("\n" + "r" * (tail - 1)
                                                              if tail else ""))
    assert len((game / "rules.md").read_text()) == n


def with_example_chars(game: Path, n: int) -> None:
    """Words of ``n`` characters: the two comments and an intro (paragraphs of 2,000 'a'
    between blank lines)."""
    comments = re.findall(r"^    comment: (.*)$", short_example(game), flags=re.M)
    assert len(comments) == 2
    n -= sum(map(len, comments))
    words, left = [], n
    while left > 0:
        take = min(2000, left)
        words.append("a" * take)
        left -= take + 2
    intro = "\n\n".join(words)[:n]
    assert len(intro) == n and not intro.endswith("\n")
    body = "".join(f"  {ln}\n" if ln else "\n" for ln in intro.split("\n"))
    text = short_example(game).replace("title: A two-round game\n",
                                       "title: A two-round game\nintro: |-\n" + body)
    (game / "examples" / SHORT).write_text(text)


def with_setup_cards(game: Path, n: int) -> None:
    text = short_example(game)
    hand = "    p1: [" + ", ".join(["KS"] * (n - 2)) + "]\n"    # p2 holds two
    (game / "examples" / SHORT).write_text(text.replace("    p1: [KS, 4D]\n", hand))


def with_quickref(game: Path, n: int) -> None:
    text = (game / "game.yaml").read_text()
    have = 3
    (game / "game.yaml").write_text(text.replace(
        "  - After the last round, more points wins.\n",
        "  - After the last round, more points wins.\n" + "  - A line.\n" * (n - have)))


def with_games(game: Path, n: int) -> None:
    for i in range(1, n):
        other = game.parent / f"g{i:02d}"
        shutil.copytree(game, other)
        (other / "game.yaml").write_text((other / "game.yaml").read_text().replace(
            "slug: high-five", f"slug: g{i:02d}"))


def with_kit(game: Path, n: int) -> None:
    (game / "game.yaml").write_text((game / "game.yaml").read_text()
                                    + "kit:\n" + "  - {kind: player-aid}\n" * n)


def with_deck(game: Path, n: int) -> None:
    cards = ", ".join(["AS"] * n)
    (game / "game.yaml").write_text((game / "game.yaml").read_text()
                                    + f"kit:\n  - {{kind: deck, cards: [{cards}]}}\n")


def with_copies(game: Path, n: int) -> None:
    copies = ", ".join(["{who: x}"] * n)
    (game / "game.yaml").write_text(
        (game / "game.yaml").read_text()
        + f"kit:\n  - {{kind: mat, name: Mat, size: [200, 150], copies: [{copies}]}}\n")


BOUNDS = [
    ("steps", limits.MAX_STEPS, with_steps),
    ("steps-repeated", limits.MAX_STEPS, with_repeat),
    ("examples", limits.MAX_EXAMPLES, with_examples),
    ("diagrams", limits.MAX_DIAGRAMS, with_diagrams),
    ("terms", limits.MAX_TERMS, with_terms),
    ("glossary-chars", limits.MAX_GLOSSARY_CHARS, with_glossary_chars),
    ("rules", limits.MAX_RULES, with_rules),
    ("rules-chars", limits.MAX_RULES_CHARS, with_rules_chars),
    ("example-chars", limits.MAX_EXAMPLE_CHARS, with_example_chars),
    ("setup-cards", limits.MAX_SETUP_CARDS, with_setup_cards),
    ("quickref", limits.MAX_QUICKREF, with_quickref),
    ("games", limits.MAX_GAMES, with_games),
    ("kit", limits.MAX_KIT, with_kit),
    ("deck", limits.MAX_DECK_CARDS, with_deck),
    ("copies", limits.MAX_COPIES, with_copies),
]


@pytest.mark.parametrize("make, limit", [pytest.param(m, n, id=i) for i, n, m in BOUNDS])
def test_a_limit_reached_is_accepted(game: Path, make, limit):
    make(game, limit)
    assert loader_errors(game.parent) == []


@pytest.mark.parametrize("make, limit", [pytest.param(m, n, id=i) for i, n, m in BOUNDS])
def test_a_limit_passed_by_one_is_a_located_error_naming_it(game: Path, make, limit):
    make(game, limit + 1)
    found = limit_errors(game.parent, limit)
    assert len(found) == 1, found
    assert re.match(r"^content/[^:]+:\d+:\d+: error: .* has [\d,]+ .*; at most "
                    + f"{limit:,} ", found[0]), found[0]


def test_the_compendium_holds_at_most_its_diagrams(game: Path):
    """MAX_DIAGRAMS_ALL over all games: four games of 376 diagrams are 1,504."""
    with_diagrams(game, 376)
    with_games(game, 4)
    found = limit_errors(game.parent, limits.MAX_DIAGRAMS_ALL)
    assert len(found) == 1 and "diagrams per compendium" in found[0], found
    assert found[0].startswith("content/g03/examples/05-big.yaml:")     # the last game
    # 3 x 376 before it, then its examples of 3, 101, 101, 101 diagrams: 1,434; 05-big's
    # own diagram is the 1,435th and its 66th step (line 70) the 1,501st
    assert found == ["content/g03/examples/05-big.yaml:70:5: error: the compendium has 1,504 "
                     "diagrams; at most 1,500 diagrams per compendium (all games together) "
                     "(one per example and one per step as replayed); example 'big-5' passes "
                     "it here"]
    last = game.parent / "g03" / "examples" / "05-big.yaml"         # 4 steps fewer: 1,500
    last.write_text(last.read_text().replace(EMPTY_STEP * 4, "", 1))
    assert loader_errors(game.parent) == []


def test_an_example_past_a_limit_is_not_replayed(game: Path):
    """The loader leaves the example out: the check replays nothing of it."""
    with_steps(game, limits.MAX_STEPS + 1)
    report = run_check(Path("content"))
    assert [r.example.id for g in report.games for r in g.replays] == []
    assert report.content.games[0].examples == []


def test_a_file_of_more_values_than_the_bound_is_refused(game: Path):
    """yamlsrc.MAX_VALUES: one glossary entry with a see: list is 8 values and its items."""
    entry = "- term: Point\n  definition: What the higher card of a round scores.\n  see: ["
    for n, refused in ((MAX_VALUES - 8, False), (MAX_VALUES - 7, True)):
        (game / "glossary.yaml").write_text(entry + ", ".join(["play"] * n) + "]\n")
        found = limit_errors(game.parent, MAX_VALUES)
        assert bool(found) is refused, (n, found)
    assert found[0].startswith("content/high-five/glossary.yaml:3:")


def test_a_hundred_thousand_steps_are_refused_fast(game: Path):
    """The issue's example: refused by `warbook check` with exit 1 and a located error,
    without being replayed (the guard is only against a hang)."""
    (game / "examples" / "02-huge.yaml").write_text(
        "id: huge\ntitle: Huge\nsetup: {}\nsteps:\n" + EMPTY_STEP * 100_000)
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "builder", "check", "--content", "content"],
                         capture_output=True, text=True, timeout=120)
    took = time.monotonic() - start
    assert run.returncode == 1, run.stdout + run.stderr
    assert re.search(r"^content/high-five/examples/02-huge\.yaml:\d+:\d+: error: ", run.stderr,
                     flags=re.M), run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert took < 60, took


def test_every_limit_is_documented_with_its_value():
    """docs/content-format.md, "Limits", states each limit of builder/limits.py."""
    doc = (ROOT / "docs" / "content-format.md").read_text()
    section = doc.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for name in dir(limits):
        if name.startswith("MAX_"):
            value = getattr(limits, name)
            shown = (f"{value // (1024 * 1024)} MB" if name.endswith("_BYTES")
                     else f"{value:,}")
            assert shown in section and f"`{name}`" in section, name
