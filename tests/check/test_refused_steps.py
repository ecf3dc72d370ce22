"""Examples that show a move the rules forbid (issue 24, item 7): a step with ``refused:
RULE-ID`` must be refused by the engine citing that rule; the state stays as it was, the
rule counts as exercised, and the book and site print the step as not allowed.

High Five (tests/fixtures/high-five): North holds KS and 4D, South KH and 9C; rule ``play``
(1.1 A round) lets each play a card from their own hand.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from builder.check import run_check
from builder.render.book.pdf import BookRenderer
from builder.render.site.pages import render_site
from builder.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "high-five"
EXAMPLE = "high-five/examples/01-a-short-game.yaml"
FIRST_STEP = "  - decide: {p1: KS, p2: KH}\n"


def with_step(tmp_path: Path, step: str, rules: str = "[play, higher-scores, tie, most-points]"
              ) -> Path:
    """High Five with ``step`` written before its example's first step."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content / "high-five")
    (content / "index.yaml").write_text("games: [high-five]\n")
    path = content / EXAMPLE
    text = path.read_text()
    assert text.count(FIRST_STEP) == 1
    text = text.replace(FIRST_STEP, step + FIRST_STEP)
    text = text.replace("rules: [play, higher-scores, tie, most-points]", f"rules: {rules}")
    path.write_text(text)
    return content


def errors(content: Path) -> list[str]:
    report = run_check(content)
    return [d.format().split("\n")[0].replace(str(content) + "/", "")
            for d in report.diagnostics.errors]


REFUSED = "  - decide: {p1: QS, p2: KH}\n    refused: play\n"


def test_a_refused_step_replays_and_changes_nothing(tmp_path):
    content = with_step(tmp_path, REFUSED + "    comment: North holds no queen.\n")
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    replay = report.games[0].replays[0]
    assert replay.status == "pass"
    first, second = replay.steps[0], replay.steps[1]
    assert first.kind == "refused" and first.events == []
    assert first.refusal == ("p1", "play", "QS is not allowed here; the legal choices are "
                                           "KS, 4D")
    # the table as it was: both kings still in hand, then played by the next step
    assert [str(c) for c in first.view["p1.hand"]] == ["KS", "4D"]
    assert second.kind == "decision" and second.index == 2
    assert "play" in replay.rules_cited


def test_a_rule_shown_only_by_a_refusal_counts_as_exercised(tmp_path):
    """An example of one refused step that lists only rule 'play' passes: its refusal
    exercises the rule (without it the check says the replay never applies it)."""
    content = with_step(tmp_path, REFUSED, rules="[play]")
    path = content / EXAMPLE
    text = path.read_text()
    path.write_text(text[:text.index(FIRST_STEP)])
    report = run_check(content)
    assert report.ok, [d.format() for d in report.diagnostics]
    assert report.games[0].coverage["play"] == ["high-five-short-game"]


@pytest.mark.parametrize("step, line, col, said", [
    ("  - decide: {p1: KS, p2: KH}\n    refused: play\n", 11, 13,
     "example 'high-five-short-game', step 1: the engine accepted this decision, but the "
     "step says it is refused by rule 1.1 A round [play]"),
    ("  - decide: {p1: QS, p2: KH}\n    refused: tie\n", 12, 14,
     "example 'high-five-short-game', step 1: the engine refuses this decision by rule "
     "1.1 A round [play], not 1.3 Equal cards [tie]: p1: QS is not allowed here; the legal "
     "choices are KS, 4D"),
    ("  - decide: {p1: KS}\n    refused: play\n", 11, 13,
     "example 'high-five-short-game', step 1: the engine accepted this decision, but the "
     "step says it is refused by rule 1.1 A round [play] (write the decisions of p2 too: "
     "the engine judges the players' decisions together)"),
])
def test_a_refusal_the_engine_does_not_make_is_an_error(tmp_path, step, line, col, said):
    content = with_step(tmp_path, step)
    got = errors(content)
    assert got[0] == f"{EXAMPLE}:{line}:{col}: error: {said}", got


@pytest.mark.parametrize("step, line, col, said", [
    ("  - decide: {p1: QS, p2: KH}\n    refused: plya\n", 12, 14,
     "refused: must be the id of the rule that forbids the decision, got 'plya'; did you "
     "mean 'play'?"),
    ("  - refused: play\n", 11, 14,
     "refused: is for a decision the rules forbid; write that decision with decide:"),
    ("  - decide: {p1: QS, p2: KH}\n    refused: play\n    expect: {p1.points: 0}\n", 13, 13,
     "a refused step changes nothing, so it has no expect:; write what happens next in the "
     "following step"),
])
def test_a_refused_step_written_wrong_is_said_at_its_line(tmp_path, step, line, col, said):
    """(The replay's own errors that follow, "example '...', step 1: ...", left aside.)"""
    got = [e for e in errors(with_step(tmp_path, step)) if ": error: example '" not in e]
    assert got == [f"{EXAMPLE}:{line}:{col}: error: {said}"]


def test_the_book_and_the_site_print_the_step_as_not_allowed(tmp_path):
    content = with_step(tmp_path, REFUSED + "    comment: North holds no queen.\n")
    report = run_check(content)
    assert report.ok
    renderer = BookRenderer(Settings(content, tmp_path / "out"))
    _view, html = renderer.book_html(report.games[0])
    block = re.search(r'<div class="ex-step ex-refused">(.*?)</div>\s*</div>', html, re.S)
    assert block, "no refused step in the book"
    text = " ".join(re.sub(r"<[^>]+>", " ", block.group(1)).split())
    assert text.startswith("Step 1 (not allowed) North tries Q")   # Q♠, as a card
    assert ". Q" in text and "is not allowed here; the legal choices are K" in text
    assert "See 1.1 A round" in text and "The table stays as it was." in text
    assert "North holds no queen." in text
    site = render_site(report, tmp_path / "build", Settings(content, tmp_path / "out"))
    page = (site / "high-five.html").read_text()
    assert 'class="tag tag-refused">not allowed</span>' in page
    refusal = re.search(r'<div class="narration refusal">(.*?)</div>', page, re.S).group(1)
    assert "Not allowed" in refusal and 'href="#play"' in refusal.replace("high-five/", "")


def test_record_leaves_a_refused_step_without_expectations(tmp_path):
    """warbook record fills in what each step changes; a refused step changes nothing, so
    it gets no expect: (which the check would refuse)."""
    from builder.record import load_game, record_example

    content = with_step(tmp_path, REFUSED)
    game = load_game(content, "high-five")
    ex = game.examples[0]
    text = record_example(game, ex, "by hand")
    steps = text.split("steps:", 1)[1].split("\n  - ")
    assert "refused: play" in steps[1] and "expect" not in steps[1]
    assert "expect" in steps[2]


def test_a_refused_step_with_a_decide_of_the_wrong_kind_is_said_not_crashed(tmp_path):
    got = errors(with_step(tmp_path, "  - decide: QS\n    refused: play\n"))
    assert got[0] == (f"{EXAMPLE}:11:13: error: decide: must map each deciding player (p1, "
                      "p2, ...) to a decision")
