"""Every part of an ``events:`` expectation is checked against what the engine did: its
kind, player, rule, cards and each data field; and an example id may be used once per
game. Each broken expectation must fail at its own line (issue 12: the checker's event
matching switched off, or its ``rule:`` ignored, went unnoticed before)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.check import run_check

ROOT = Path(__file__).resolve().parent.parent

def war_with(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    path = content / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if new.strip() in t)
    return content, line


def failures(content: Path) -> list[str]:
    report = run_check(content)
    return [d.format().split("\n")[0].replace(str(content) + "/", "")
            for d in report.diagnostics.errors]


# 01-a-plain-trick.yaml, step 1: North's king beats South's seven; the engine's events are
# reveal (p1, KS), reveal (p2, 7H), take (p1, rule higher-takes, count 2), collect (p1).
@pytest.mark.parametrize("broken", [
    "events: [reveal, reveal, collect, take]",                       # order
    "events: [reveal, reveal, war, take, collect]",                  # a kind that did not happen
    "events: [reveal, reveal, {kind: take, player: p2}, collect]",   # player
    "events: [reveal, reveal, {kind: take, rule: war}, collect]",    # rule
    "events: [{kind: reveal, cards: [7H]}, {kind: reveal, cards: [KS]}]",  # cards
    "events: [reveal, reveal, {kind: take, count: 3}, collect]",     # a data field
])
def test_a_broken_event_expectation_fails_at_its_line(tmp_path: Path, broken: str):
    content, line = war_with(tmp_path, "events: [reveal, reveal, take, collect]", broken)
    got = failures(content)
    assert len(got) == 1, got
    assert got[0].startswith(f"war/examples/01-a-plain-trick.yaml:{line}:"), got
    assert "example 'war-plain-trick', step 1: events: no " in got[0], got


def test_the_right_events_pass(tmp_path: Path):
    content, _ = war_with(tmp_path, "events: [reveal, reveal, take, collect]",
                          "events: [{kind: reveal, player: p1, cards: [KS]}, "
                          "{kind: take, player: p1, rule: higher-takes, count: 2}, collect]")
    assert failures(content) == []


def test_an_example_id_is_used_once_per_game(tmp_path: Path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "war", content / "war")
    (content / "index.yaml").write_text("games: [war]\n")
    examples = content / "war" / "examples"
    shutil.copyfile(examples / "01-a-plain-trick.yaml", examples / "09-again.yaml")
    got = failures(content)
    assert got == ["war/examples/09-again.yaml:1:1: error: example id 'war-plain-trick' is "
                   f"already used at {content}/war/examples/01-a-plain-trick.yaml:1"
                   .replace(str(content) + "/", "")], got
