"""How an expected value is compared with the engine's, and how both are shown when they
differ (the two strings an error message prints). Each case is worked by hand from the
content format's rules (docs/content-format.md, "expect"): a number against a pile is its
size, a list against a pile is its exact contents top first, words are compared without
regard to case or surrounding spaces. Then the events: what an event's ``text:`` matches
(the narration, with names, or the text as written), in which order events are expected,
which event is shown as the closest when none matches, and how the state before a failed
step is written out."""

from __future__ import annotations

import pytest

from builder.check import compare, describe_state
from builder.engine.core import Card, Event
from builder.events import match_events, missing_event_detail

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


# --------------------------------------------------------------------------- events and the state shown
# How an expected event is matched (its text, its cards, its order), which event is shown as
# the closest when none matches, and how the state before a failed step is written out.
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
    detail = missing_event_detail([{"kind": "reveal", "player": "p3", "text": "Cy"}], 0, TURN, NAMES)
    lines = [ln.strip() for ln in detail.splitlines()]
    assert "closest event the engine produced (event 1 of 2):" in lines
    text_line = next(ln for ln in lines if ln.startswith("text:"))
    assert text_line.split() == ["text:", "Cy", "Ann", "turns", "up", "KS", "<-", "differs"]

def test_an_event_listed_out_of_order_is_said_to_be_out_of_order():
    """The reveal by Ann comes before the take; listed after it, it is out of order (found
    by its narrated words, with the names in), not missing."""
    events = TURN + [ev("take", "p1", "higher-takes", [KS, QH], "{p1} takes both", count=2)]
    assert match_events([{"kind": "take"}, {"text": "Ann turns up"}], events, NAMES) == \
        "no event {text: Ann turns up} after the ones listed before it (the events are " \
        "expected in this order)"

def test_cards_written_as_one_code_match_no_event():
    """``cards:`` is a list of card codes (docs/content-format.md); a bare code is not a
    list, so no event matches it and the event is reported missing."""
    assert match_events([{"kind": "reveal", "cards": "KS"}], TURN, NAMES).startswith("no event")
    assert match_events([{"kind": "reveal", "cards": ["KS"]}], TURN, NAMES) == ""

def test_the_closest_event_is_of_the_kind_expected_first():
    """{kind: take, player: p2}: the reveal by p2 and the take by p1 each agree on one field;
    the take is shown, since an event of the expected kind comes first."""
    events = TURN + [ev("take", "p1", "higher-takes", [KS, QH], "{p1} takes both", count=2)]
    detail = missing_event_detail([{"kind": "take", "player": "p2"}], 0, events, NAMES)
    assert "closest event the engine produced (event 3 of 3):" in detail, detail

@pytest.mark.parametrize("spec, closest", [
    ({"kind": "reveal", "player": "p2", "cards": ["ZZ"]}, 2),   # kind and player as expected
    ({"kind": "take", "player": "p2"}, 2),                      # no take: the one by p2
])
def test_the_closest_event_has_the_most_fields_as_expected(spec, closest):
    """Of the two reveals (Ann's KS, then Bo's QH), the one that agrees on more of the
    expected fields is shown, though it comes second."""
    detail = missing_event_detail([spec], 0, TURN, NAMES)
    assert f"closest event the engine produced (event {closest} of 2):" in detail, detail

def test_the_field_table_is_laid_out_in_columns():
    """The names as wide as the longest one with its colon, a space, the expected values
    in 16 characters, a space, then what the engine gave (and a mark where it differs)."""
    detail = missing_event_detail([{"kind": "take", "player": "p2"}], 0, TURN, NAMES)
    lines = detail.splitlines()
    i = lines.index("  {kind: reveal, player: p2, rule: turn-up, cards: [QH]}")
    assert lines[i + 1:i + 4] == ["  field   expected         got",
                                  "  kind:   take             reveal   <- differs",
                                  "  player: p2               p2"]

def test_the_closest_events_fields_show_what_the_engine_gave():
    """The field table under a missing event shows each expected field beside the closest
    event's value: its rule, its cards, its data."""
    events = [ev("take", "p1", "higher-takes", [KS, QH], "{p1} takes both", count=2)]
    detail = missing_event_detail([{"kind": "take", "rule": "war", "cards": ["KS"], "count": 3}], 0,
                        events, NAMES)
    rows = {ln.split()[0]: ln.split()[1:] for ln in detail.splitlines()
            if ln.startswith("  ") and ln.split()[0] in ("kind:", "rule:", "cards:", "count:")}
    assert rows["rule:"] == ["war", "higher-takes", "<-", "differs"], detail
    assert rows["cards:"] == ["[KS]", "[KS,", "QH]", "<-", "differs"], detail
    assert rows["count:"] == ["3", "2", "<-", "differs"], detail
    assert rows["kind:"] == ["take", "take"], detail

@pytest.mark.parametrize("want,got", [("true", True), (True, "true"), ("no", False)])
def test_yes_and_no_are_not_words(want, got):
    """A state that is yes/no is compared as a value: the quoted word "true" is not it."""
    assert compare(want, got)[0] is False

@pytest.mark.parametrize("want, got", [("3", 3), (3, "3"), ("P1", "p1")])
def test_a_quoted_number_or_a_word_in_capitals_still_matches(want, got):
    """A value is compared as the designer wrote it, whatever the quoting or case: 3 and
    "3" are the same number in YAML's eyes here, and p1 is P1."""
    assert compare(want, got)[0] is True

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
