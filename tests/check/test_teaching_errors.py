"""Errors that teach (issue 11, part 4): each message class, pinned word for word.

Each case copies one game with one of its shipped examples, makes the one mistake a
designer makes, and reads the check's first error. The places (line:col) are found in the
broken file's text by the test; the expected words were written by hand from the example
and the game's rules (War: ties start a war of three soldiers and a general; Battle Lines'
rule and state names from its rules.md and docs/games.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from builder.check import run_check

ROOT = Path(__file__).resolve().parents[2]


def broken(tmp: Path, slug: str, example: str, old: str, new: str) -> tuple[list, str, str]:
    """(errors, the broken file's path as reported, its text) after replacing ``old``."""
    root = tmp / "content"
    shutil.copytree(ROOT / "content" / slug, root / slug,
                    ignore=shutil.ignore_patterns("examples"))
    (root / slug / "examples").mkdir()
    (root / "index.yaml").write_text(f"games: [{slug}]\n")
    text = (ROOT / "content" / slug / "examples" / example).read_text()
    assert text.count(old) >= 1, old
    text = text.replace(old, new, 1)
    (root / slug / "examples" / example).write_text(text)
    errors = run_check(root).diagnostics.errors
    return errors, f"{slug}/examples/{example}", text


def place(text: str, needle: str, line_has: str | None = None) -> str:
    """line:col of ``needle`` (on the first line containing ``line_has``, or needle)."""
    for row, ln in enumerate(text.splitlines(), 1):
        if (line_has or needle) in ln:
            return f"{row}:{ln.index(needle) + 1}"
    raise AssertionError(needle)


def first(errors: list, path: str) -> str:
    assert errors, "no error"
    return errors[0].format().split("\n")[0].split(path, 1)[1]


def test_an_event_mismatch_shows_the_event_as_yaml_beside_the_closest_one(tmp_path):
    errors, path, text = broken(tmp_path, "war", "02-one-war.yaml",
                                "{kind: take, player: p1, count: 10}",
                                "{kind: take, player: p2, count: 10}")
    at = place(text, "{kind: take, player: p2")
    d = errors[0].format()
    assert first(errors, path) == (f":{at}: error: example 'war-one-war', step 1: events: no "
                                   f"event {{kind: take, player: p2, count: 10}} among the "
                                   f"step's events")
    lines = [ln.strip() for ln in d.splitlines()]
    i = lines.index("expected (event 6 of 6 listed):")
    assert lines[i + 1] == "{kind: take, player: p2, count: 10}"
    # the closest event: the 8th of 9 (two turn-ups, the war, two soldiers and two
    # generals come first), North's take of all ten cards
    assert lines[i + 2] == "closest event the engine produced (event 8 of 9):"
    assert lines[i + 3] == ("{kind: take, player: p1, rule: war, cards: [8S, 2C, 3C, 4C, QH, "
                            "8D, 6S, 7S, 9S, JC], count: 10}")
    assert lines[i + 4].split() == ["field", "expected", "got"]
    assert lines[i + 5].split() == ["kind:", "take", "take"]
    assert lines[i + 6].split() == ["player:", "p2", "p1", "<-", "differs"]
    assert lines[i + 7].split() == ["count:", "10", "10"]
    assert "events of this step (9):" in lines
    assert "5. {kind: reveal, player: p1, rule: war, cards: [QH], role: general}" in lines
    assert "'kind'" not in d and "None" not in d  # no Python reprs


def test_a_misspelt_event_kind_is_unknown_with_a_suggestion(tmp_path):
    errors, path, text = broken(tmp_path, "war", "02-one-war.yaml", "- war\n", "- wra\n")
    assert first(errors, path).startswith(
        f":{place(text, 'wra', '- wra')}: error: example 'war-one-war', step 1: events: "
        f"unknown event kind 'wra'; did you mean 'war'? (this game's events: ")


def test_a_misspelt_rule_id_gets_a_suggestion(tmp_path):
    errors, path, text = broken(tmp_path, "battle-lines", "05-no-matching-suit.yaml",
                                "capture, capture-all]", "capture, capture-al]")
    assert first(errors, path) == (f":{place(text, 'capture-al]')}: error: unknown rule id "
                                   f"'capture-al'; did you mean 'capture-all'?")


def test_a_misspelt_rule_in_an_event_gets_a_suggestion(tmp_path):
    errors, path, text = broken(tmp_path, "battle-lines", "05-no-matching-suit.yaml",
                                "flank: left, rule: reinforce-suit}",
                                "flank: left, rule: reinforce-sut}")
    assert first(errors, path) == (
        f":{place(text, '{kind: may-reinforce')}: error: example "
        f"'battle-lines-no-matching-suit', step 1: events: unknown rule id 'reinforce-sut'; "
        f"did you mean 'reinforce-suit'?")
    assert len(errors) == 1          # that one error, not a missing event besides


def test_a_misspelt_state_key_gets_a_suggestion(tmp_path):
    errors, path, text = broken(tmp_path, "battle-lines", "05-no-matching-suit.yaml",
                                "p2.captured: [8D", "p2.captued: [8D")
    assert first(errors, path).startswith(
        f":{place(text, 'p2.captued')}: error: example 'battle-lines-no-matching-suit', "
        f"step 2: unknown state 'p2.captued'; did you mean 'p2.captured'? (this game has: ")


def test_a_misspelt_option_gets_a_suggestion(tmp_path):
    errors, path, text = broken(tmp_path, "battle-lines", "08-turn-cap.yaml",
                                "max_turns:", "max_turn:")
    assert first(errors, path) == (
        f":{place(text, 'max_turn:')}: error: example 'battle-lines-turn-cap': unknown option "
        f"'max_turn' (this game's options: max_turns); did you mean 'max_turns'?")


def test_a_misspelt_card_gets_a_suggestion(tmp_path):
    errors, path, text = broken(tmp_path, "war", "02-one-war.yaml", "JC, 10H]", "JC, 1OH]")
    assert first(errors, path) == (
        f":{place(text, '1OH')}: error: example 'war-one-war': unknown card '1OH' (a card is "
        f"a rank A 2-10 J Q K then a suit C D H S, e.g. QD or 10H); did you mean '10H'?")


def test_values_are_shown_as_yaml(tmp_path):
    errors, path, text = broken(tmp_path, "battle-lines", "06-last-turn.yaml",
                                "last-turn: true", "last-turn: false")
    at = place(text, "false", "last-turn: false")
    assert first(errors, path).endswith("last-turn: expected false, got true")
    assert f":{at}: error:" in first(errors, path)
    assert "expected: false\n" in errors[0].format().replace("    ", "")
    assert "True" not in errors[0].format() and "False" not in errors[0].format()


def test_a_duplicate_card_names_both_places(tmp_path):
    errors, path, text = broken(tmp_path, "war", "02-one-war.yaml",
                                "p2.deck: [8D,", "p2.deck: [8S,")
    second = place(text, "8S", "p2.deck: [8S")
    once = place(text, "8S", "p1.deck: [8S")
    assert first(errors, path) == (
        f":{second}: error: example 'war-one-war': card 8S is in the setup more than once "
        f"(the game has one of each card): here in p2.deck, and first in p1.deck at "
        f"{errors[0].path}:{once}")


def test_an_event_without_a_kind_is_not_called_unknown(tmp_path):
    errors, path, text = broken(tmp_path, "war", "02-one-war.yaml",
                                "{kind: take, player: p1, count: 10}", "{player: p2, count: 10}")
    assert first(errors, path) == (
        f":{place(text, '{player: p2')}: error: example 'war-one-war', step 1: events: no "
        f"event {{player: p2, count: 10}} among the step's events")


def test_a_misspelt_card_of_a_games_own_deck_gets_one_suggestion(tmp_path):
    """Happy Families plays its own deck, whose reader already names the nearest card: the
    check adds no second "did you mean" of its own."""
    errors, path, text = broken(tmp_path, "happy-families", "01-an-ask.yaml",
                                "p1.hand: [CRUMB-MR,", "p1.hand: [CRUMB-MX,")
    assert first(errors, path) == (
        f":{place(text, 'CRUMB-MX')}: error: example 'happy-families-an-ask': unknown card "
        f"'CRUMB-MX' (not in the families deck); did you mean 'CRUMB-MR'?")
