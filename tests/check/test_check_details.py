"""The check's smaller promises, each stated from the content format (docs/content-format.md)
and worked by hand: what an event's ``text:`` matches, how a missing event is explained,
what a replayed step records for the renderers, and where a setup error points.

Written from the mutants of builder/check.py that the rest of the suite let live
(scripts/mutation.py check --survivors); each test names the promise, not the mutant."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.check import (Replayer, compare, describe_state, match_events, msg_detail,
                           run_check)
from builder.diagnostics import Diagnostics
from builder.engine.core import Card, Event

CONTENT = Path(__file__).resolve().parents[2] / "content"
KS, QH = Card("K", "S"), Card("Q", "H")


def ev(kind, player="", rule="", cards=(), text="", **data):
    return Event(kind=kind, player=player, rule=rule, cards=list(cards), text=text, data=data)


# An event's text is a template with player ids ({p1}); the narration puts names in.
TURN = [ev("reveal", "p1", "turn-up", [KS], "{p1} turns up KS"),
        ev("reveal", "p2", "turn-up", [QH], "{p2} turns up QH")]
NAMES = {"p1": "Ann", "p2": "Bo"}


@pytest.mark.parametrize("text", ["ANN TURNS UP", "ann turns up ks",   # the narration
                                  "{P1} Turns Up"])                    # the text as written
def test_text_matches_the_narration_or_the_written_text_in_any_case(text):
    assert match_events([{"kind": "reveal", "text": text}], TURN, NAMES) == ""


def test_text_that_neither_holds_is_missing():
    assert match_events([{"kind": "reveal", "text": "Ann takes"}], TURN, NAMES) \
        == "no event {kind: reveal, text: Ann takes} among the step's events"


def test_an_event_that_is_neither_a_kind_nor_a_mapping_cannot_be_read():
    assert match_events(["reveal", 5], TURN, NAMES) == "cannot read event 5"
    assert match_events([["reveal"]], TURN, NAMES, with_index=True) == \
        ("cannot read event [reveal]", 0)


def test_the_closest_event_is_the_first_of_equals_and_its_text_is_narrated():
    """Both reveals are as close to {kind: reveal, player: p3, text: Cy}: the first is
    shown, and its text field as the reader sees it, with names."""
    detail = msg_detail([{"kind": "reveal", "player": "p3", "text": "Cy"}], 0, TURN, NAMES)
    lines = [ln.strip() for ln in detail.splitlines()]
    assert "closest event the engine produced (event 1 of 2):" in lines
    text_line = next(ln for ln in lines if ln.startswith("text:"))
    assert text_line.split() == ["text:", "Cy", "Ann", "turns", "up", "KS", "<-", "differs"]


@pytest.mark.parametrize("want,got", [("true", True), (True, "true"), ("no", False)])
def test_yes_and_no_are_not_words(want, got):
    """A state that is yes/no is compared as a value: the quoted word "true" is not it."""
    assert compare(want, got)[0] is False


class _Viewed:
    def __init__(self, view):
        self._view = view

    def view(self):
        return self._view


def test_the_state_before_a_step_shows_each_kind_of_value():
    text = describe_state(_Viewed({"p1.deck": [KS, QH], "p2.deck": [], "order": ["p2", "p1"],
                                   "over": False}))
    assert text.splitlines() == ["state before the step:", "  p1.deck: [KS, QH] (2)",
                                 "  p2.deck: []", "  order: [p2, p1]", "  over: false"]


# --------------------------------------------------------------------------- whole checks
def copy(tmp_path: Path, slug: str) -> Path:
    root = tmp_path / "content"
    shutil.copytree(CONTENT / slug, root / slug)
    (root / "index.yaml").write_text(f"games: [{slug}]\n")
    return root


def edit(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return path.read_text()


def test_a_forced_step_records_the_only_action_and_the_table_after_it():
    """War's two plain tricks (content/war/examples/01-a-plain-trick.yaml): nobody decides,
    so the step records the only action each player has, turning up the top card; each diagram shows the two cards turned up, and the table after the trick is kept
    beside it because the winner has taken them."""
    report = run_check(CONTENT)
    war = next(g for g in report.games if g.game.slug == "war")
    rep = next(r for r in war.replays if r.example.id == "war-plain-trick")
    assert [s.kind for s in rep.steps] == ["forced", "forced"]
    assert [s.decisions for s in rep.steps] == [{"p1": "turn", "p2": "turn"}] * 2
    assert rep.steps[0].expected == ["events", "trick.winner", "p1.deck", "p2.deck"]
    first = rep.steps[0]
    shown = sorted(str(card) for z in first.table for card, _face_up in z.cards)
    assert shown == ["4D", "7H", "9C", "KS"]   # every card, two of them face up in the middle
    assert first.after is not None and first.after != first.table
    for g in report.games:
        for r in g.replays:
            for s in r.steps:
                assert s.after is None or s.after != s.table, (r.example.id, s.index)


def test_a_step_without_expectations_records_none(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("  - expect:\n      trick.winner: p2")] +
                    "  - comment: Now South's nine beats North's four.\n")
    report = run_check(root)
    assert report.ok, [d.format() for d in report.diagnostics]
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert rep.steps[1].expected == []


def test_an_unknown_state_key_fails_the_example_at_that_step(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "      trick.winner: p1\n", "      trick.winer: p1\n")
    report = run_check(root)
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert rep.status == "fail"
    assert len(rep.steps) == 1           # the second step is not replayed
    (e,) = report.diagnostics.errors
    assert (e.line, e.col) == (13, 7) and "unknown state 'trick.winer'" in e.message


def test_an_unreadable_chance_outcome_shows_the_state_before_it(tmp_path):
    root = copy(tmp_path, "battle")
    path = root / "battle" / "examples" / "05-reshuffle.yaml"
    edit(path, "  - chance: [KC, 7S, 6S]\n", "  - chance: {p2: KC}\n")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (46, 13) and "step 3: chance:" in e.message
    assert e.detail.startswith("state before the step:\n") and "p2.discard" in e.detail


def test_an_event_written_as_a_number_names_a_kind_of_this_game(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "events: [reveal, reveal, take, collect]", "events: [reveal, 5, take, collect]")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (12, 24)
    kinds = list(next(iter(run_check(CONTENT).games)).game.gamedef.event_kinds)
    assert f"an event is a kind such as '{kinds[0]}' or a mapping" in e.message
    assert e.message.endswith("got 5")


def test_a_recorded_draft_proves_nothing_until_reviewed(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "title: Two plain tricks\n", "title: Two plain tricks\ndraft: recorded\n")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (3, 8)            # at the draft: mark's value
    assert "example 'war-plain-trick' is an unreviewed draft" in e.message


def test_each_player_has_their_own_cards_where_the_game_says_so(tmp_path):
    """Winning the Battle gives each player a deck of their own (its engine's supply
    groups): the same card in both decks is right, twice in one player's cards is not."""
    root = copy(tmp_path, "winning-the-battle")
    path = root / "winning-the-battle" / "examples" / "01-plain-battles.yaml"
    edit(path, "p2.deck: [6S, 8D,", "p2.deck: [9H, 8D,")
    # (the battles now go otherwise, so the step expectations fail: not the setup)
    assert not any("in the setup more than" in d.message for d in run_check(root).diagnostics)
    edit(path, "p1.deck: [9H, 4C,", "p1.deck: [9H, 9H,")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (10, 19)           # the second 9H
    assert "card 9H is in the setup more than once (the game has one of each card) in p1's " \
           "cards: here in p1.deck, and first in p1.deck" in e.message


def test_an_option_error_points_at_the_option_or_else_the_options(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "setup:\n", "options:\n  aces: high\n  wins: higher\nsetup:\n")
    report = run_check(root)
    war = report.games[0].game
    ex = next(x for x in war.examples if x.id == "war-plain-trick")
    rp = Replayer(war, war.gamedef, Diagnostics())
    at = rp.setup_error_where(ex, ("options", "wins"))
    assert (Path(at.path).name, at.line, at.col) == ("01-a-plain-trick.yaml", 8, 3)
    at = rp.setup_error_where(ex, ("options", "war_cards"))  # not written: all the options
    assert (at.line, at.col) == (7, 3)
    at = rp.setup_error_where(ex, ("options",))
    assert (at.line, at.col) == (7, 3)


def test_events_written_as_one_word_are_not_a_list(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "events: [reveal, reveal, take, collect]", "events: reveal")
    (e,) = run_check(root).diagnostics.errors
    assert (e.line, e.col) == (12, 15)
    assert e.message.endswith("step 1: events: expected a list of event kinds"), e.message


def test_an_event_listed_out_of_order_is_said_to_be_out_of_order():
    """The reveal by Ann comes before the take; listed after it, it is out of order (found
    by its narrated words, with the names in), not missing."""
    events = TURN + [ev("take", "p1", "higher-takes", [KS, QH], "{p1} takes both", count=2)]
    assert match_events([{"kind": "take"}, {"text": "Ann turns up"}], events, NAMES) == \
        "no event {text: Ann turns up} after the ones listed before it (the events are " \
        "expected in this order)"


# --------------------------------------------------------------------------- more, from a third sample
def test_cards_written_as_one_code_match_no_event():
    """``cards:`` is a list of card codes (docs/content-format.md); a bare code is not a
    list, so no event matches it and the event is reported missing."""
    assert match_events([{"kind": "reveal", "cards": "KS"}], TURN, NAMES).startswith("no event")
    assert match_events([{"kind": "reveal", "cards": ["KS"]}], TURN, NAMES) == ""


def test_the_closest_event_is_of_the_kind_expected_first():
    """{kind: take, player: p2}: the reveal by p2 and the take by p1 each agree on one field;
    the take is shown, since an event of the expected kind comes first."""
    events = TURN + [ev("take", "p1", "higher-takes", [KS, QH], "{p1} takes both", count=2)]
    detail = msg_detail([{"kind": "take", "player": "p2"}], 0, events, NAMES)
    assert "closest event the engine produced (event 3 of 3):" in detail, detail


def test_the_closest_events_fields_show_what_the_engine_gave():
    """The field table under a missing event shows each expected field beside the closest
    event's value: its rule, its cards, its data."""
    events = [ev("take", "p1", "higher-takes", [KS, QH], "{p1} takes both", count=2)]
    detail = msg_detail([{"kind": "take", "rule": "war", "cards": ["KS"], "count": 3}], 0,
                        events, NAMES)
    rows = {ln.split()[0]: ln.split()[1:] for ln in detail.splitlines()
            if ln.startswith("  ") and ln.split()[0] in ("kind:", "rule:", "cards:", "count:")}
    assert rows["rule:"] == ["war", "higher-takes", "<-", "differs"], detail
    assert rows["cards:"] == ["[KS]", "[KS,", "QH]", "<-", "differs"], detail
    assert rows["count:"] == ["3", "2", "<-", "differs"], detail
    assert rows["kind:"] == ["take", "take"], detail


@pytest.mark.parametrize("want, got", [("3", 3), (3, "3"), ("P1", "p1")])
def test_a_quoted_number_or_a_word_in_capitals_still_matches(want, got):
    """A value is compared as the designer wrote it, whatever the quoting or case: 3 and
    "3" are the same number in YAML's eyes here, and p1 is P1."""
    assert compare(want, got)[0] is True


def test_an_unknown_state_lists_the_states_the_game_has(tmp_path):
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "      trick.winner: p1\n", "      trick.winer: p1\n")
    (e,) = run_check(root).diagnostics.errors
    assert "(this game has: p1.deck, p2.deck, tricks, trick.winner, " in e.message, e.message
    assert e.message.endswith(", events)")


def test_each_player_may_have_their_own_count_of_a_card(tmp_path):
    """A game's ``card_supply`` is asked per supply group (docs/writing-an-engine.md): here
    p1's cards may hold two nines of hearts and p2's only one."""
    from builder.check import card_supply

    import dataclasses

    wtb = run_check(copy(tmp_path, "winning-the-battle")).games[0].game
    ex = next(x for x in wtb.examples if x.id.endswith("plain-battles"))
    gd = dataclasses.replace(wtb.gamedef, card_supply=lambda o, group, card: 2 if group == "p1"
                             else 1)
    supply = card_supply(gd, {})
    assert (supply("p1", KS), supply("p2", KS)) == (2, 1)
    ex.setup["piles"]["p1.deck"][1] = "9H"          # a second 9H among p1's cards
    rp = Replayer(wtb, gd, Diagnostics())
    assert rp.check_setup_cards(ex, supply) is True
    ex.setup["piles"]["p2.deck"][0] = "8D"          # p2 already has an 8D
    assert rp.check_setup_cards(ex, supply) is False
    (e,) = rp.diags.errors
    assert "card 8D is in the setup more than once" in e.message


def test_an_option_with_a_wrong_value_says_so_without_a_hint(tmp_path):
    """A known option with a value the game does not have: the error is the engine's
    words, nothing after them; the example is an error (not replayed at all)."""
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "setup:\n", "options:\n  aces: sideways\nsetup:\n")
    report = run_check(root)
    (e,) = report.diagnostics.errors
    assert e.message.startswith("example 'war-plain-trick': ")
    assert e.message.endswith("'sideways'") or e.message.endswith(")"), e.message
    assert "None" not in e.message, e.message
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert rep.status == "error" and rep.steps == []


@pytest.mark.parametrize("new", ["  - decide: {p2: KC}\n    expect:\n", "  - expect:\n"])
def test_a_missing_chance_outcome_shows_the_state_before_it(tmp_path, new):
    """Battle's reshuffle (05-reshuffle.yaml, step 3) waits for the order the cards come
    out in; a step that decides instead, or says nothing, is told to write ``chance:``,
    with the state before the step under the message."""
    root = copy(tmp_path, "battle")
    path = root / "battle" / "examples" / "05-reshuffle.yaml"
    edit(path, "  - chance: [KC, 7S, 6S]\n    expect:\n", new)
    (e,) = run_check(root).diagnostics.errors
    assert "step 3: a chance event is pending" in e.message
    assert e.message.endswith("write its outcome with chance:"), e.message
    assert e.detail.startswith("state before the step:\n") and "p2.discard" in e.detail


def test_a_repeated_steps_comment_belongs_to_its_last_repetition(tmp_path):
    """docs/content-format.md: ``repeat: n`` replays a forced step n times and its comment
    belongs to the last repetition."""
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("steps:\n")] + "steps:\n  - repeat: 2\n    comment: "
                    "Two tricks go by.\n")
    report = run_check(root)
    assert report.ok, [d.format() for d in report.diagnostics]
    rep = next(r for r in report.games[0].replays if r.example.id == "war-plain-trick")
    assert [s.comment.strip() for s in rep.steps] == ["", "Two tricks go by."]
    assert [(s.round, s.repeat) for s in rep.steps] == [(1, 2), (2, 2)]


def test_a_repeated_step_that_fails_says_which_repetition(tmp_path):
    """The message of a repeated step names the repetition that failed ("(repeat 2 of
    2)"): only the last one is compared with ``expect:``."""
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    text = path.read_text()
    path.write_text(text[:text.index("steps:\n")] + "steps:\n  - repeat: 2\n    expect:\n"
                    "      tricks: 3\n")
    (e,) = run_check(root).diagnostics.errors
    assert "step 1 (repeat 2 of 2): tricks: expected 3, got 2" in e.message, e.message


def test_every_pile_of_a_setup_is_read(tmp_path):
    """A pile that is not a list is an error, and the piles after it are still read: a card
    written twice there is an error too."""
    root = copy(tmp_path, "war")
    path = root / "war" / "examples" / "01-a-plain-trick.yaml"
    edit(path, "    p1.deck: [KS, 4D]\n    p2.deck: [7H, 9C]\n",
         "    p1.deck: KS\n    p2.deck: [7H, 7H]\n")
    errors = run_check(root).diagnostics.errors
    assert [(e.line, e.col) for e in errors] == [(8, 14), (9, 19)], [e.format() for e in errors]
    assert errors[0].message == "pile 'p1.deck' must be a list of cards, top first"
    assert "card 7H is in the setup more than once" in errors[1].message


def test_a_setup_error_points_at_the_deepest_place_written(tmp_path):
    """A setup error names a path such as ("piles", "p1.deck", 3); it points at the deepest
    part of it the example writes: the card, else its pile, else the setup."""
    root = copy(tmp_path, "war")
    report = run_check(root)
    war = report.games[0].game
    ex = next(x for x in war.examples if x.id == "war-plain-trick")
    rp = Replayer(war, war.gamedef, Diagnostics())

    def at(where):
        loc = rp.setup_error_where(ex, where)
        return loc.line, loc.col

    assert at(("piles", "p1.deck", 1)) == (8, 19)      # 4D in "    p1.deck: [KS, 4D]"
    assert at(("piles", "p1.deck", 9)) == (8, 14)      # no tenth card: the pile's value
    assert at(("piles", "p1.deck", "top")) == (8, 14)
    assert at(("piles", "p3.deck")) == (8, 5)          # no such pile: the piles' value
    assert at(()) == (7, 3)                            # nothing more: the setup's value


def test_the_json_report_has_the_documented_fields_of_each_example():
    """docs/README.md, "JSON report": each example has exactly id, title, file, line,
    status, steps, result and rules; ``result`` is p1, p2, ... or draw if the replay ended
    the game, else none."""
    import re as _re

    page = (CONTENT.parent / "docs" / "README.md").read_text()
    row = next(ln for ln in page.splitlines() if ln.startswith("| `games[].examples[]`"))
    fields = _re.findall(r"`([a-z]+)` \(|`([a-z]+)`,|`([a-z]+)` \(sorted", row)
    documented = {f for tup in fields for f in tup if f}
    data = run_check(CONTENT).to_json()
    results = set()
    for g in data["games"]:
        for x in g["examples"]:
            assert set(x) == documented, (set(x) ^ documented)
            assert x["result"] in {"p1", "p2", "p3", "p4", "draw", "none"}, x
            results.add(x["result"])
    assert {"none", "p1", "p2"} <= results, results
