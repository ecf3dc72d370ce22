"""How an expected value is compared with the engine's, and how both are shown when they
differ (the two strings an error message prints). Each case is worked by hand from the
content format's rules (docs/content-format.md, "expect"): a number against a pile is its
size, a list against a pile is its exact contents top first, words are compared without
regard to case or surrounding spaces."""

from __future__ import annotations

import pytest

from builder.check import compare, match_events
from builder.engine.core import Card, Event

KS, QH, TEN_C = Card("K", "S"), Card("Q", "H"), Card("10", "C")


@pytest.mark.parametrize("want,got,result", [
    (2, [KS, QH], (True, "2 cards", "2 cards [KS, QH]")),
    (3, [KS, QH], (False, "3 cards", "2 cards [KS, QH]")),
    (0, [], (True, "0 cards", "0 cards []")),
    (["KS", "QH"], [KS, QH], (True, "[KS, QH]", "[KS, QH]")),
    (["QH", "KS"], [KS, QH], (False, "[QH, KS]", "[KS, QH]")),      # order matters
    (["KS"], [KS, QH], (False, "[KS]", "[KS, QH]")),
    (["10C"], [TEN_C], (True, "[10C]", "[10C]")),
    ([], [], (True, "[]", "[]")),
    (["p1", "p2"], ["p1", "p2"], (True, "[p1, p2]", "[p1, p2]")),   # a list of names
    ("KS", [KS], (False, "KS", "[KS]")),                            # a word is not a pile
    (7, 7, (True, "7", "7")),
    (7, 8, (False, "7", "8")),
    (1.5, 1.5, (True, "1.5", "1.5")),
    ("P1", "p1", (True, "P1", "p1")),
    ("  draw ", "draw", (True, "  draw ", "draw")),
    ("p2", "p1", (False, "p2", "p1")),
])
def test_compare(want, got, result):
    assert compare(want, got) == result


def test_a_pile_expectation_with_a_bad_card_names_it():
    match, want_s, got_s = compare(["KS", "ZZ"], [KS, QH])
    assert not match
    assert want_s.startswith("[KS, ZZ] (") and "ZZ" in want_s[8:]
    assert got_s == "[KS, QH]"


@pytest.mark.parametrize("want,got,match", [(True, True, True), (False, True, False),
                                            (True, 1, True), (1, True, True),
                                            (False, 0, True)])
def test_yes_and_no_compare_as_values(want, got, match):
    assert compare(want, got)[0] is match


def ev(kind, player="", rule="", cards=(), text="", **data):
    return Event(kind=kind, player=player, rule=rule, cards=list(cards), text=text, data=data)


EVENTS = [ev("reveal", "p1", "turn-up", [KS], "North turns up KS"),
          ev("reveal", "p2", "turn-up", [QH], "South turns up QH"),
          ev("take", "p1", "higher-takes", [KS, QH], "North takes both", count=2)]


@pytest.mark.parametrize("want,message", [
    (["reveal", "take"], ""),
    ([{"kind": "take", "player": "p1", "rule": "higher-takes", "count": 2}], ""),
    ([{"kind": "reveal", "cards": ["QH"]}], ""),
    ([{"kind": "reveal", "text": "SOUTH TURNS"}], ""),               # text: any case
    ([{"kind": "take", "count": 3}], "no event {kind: take, count: 3} among the step's events"),
    (["take", "reveal"], "no event reveal after the ones listed before it (the events are "
                         "expected in this order)"),                  # the order matters
    ([{"kind": "reveal", "cards": ["ZZ"]}],
     "no event {kind: reveal, cards: [ZZ]} among the step's events"),
    ([{"player": "p2"}], ""),                                         # any kind
    ("reveal", "expected a list of event kinds"),
])
def test_match_events(want, message):
    assert match_events(want, EVENTS) == message


def test_an_event_without_a_kind_is_shown_by_its_fields():
    message = match_events([{"player": "p3"}], EVENTS)
    assert message == "no event {player: p3} among the step's events"
    assert "None" not in message
