"""The kinds of decision every engine builds on (builder/engine/core.py): what each accepts,
how it reads a written decision, and the words of its refusals, which the check prints
when an example decides something the rules forbid. Worked by hand from each class's
contract."""

from __future__ import annotations

import random

import pytest

from builder.engine.core import (
    Card,
    DecisionFormatError,
    Event,
    IntRange,
    OneOf,
    OrderOf,
    SubsetOf,
    forced_value,
    parse_cards,
)


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def test_one_of_reads_values_and_cards():
    words = OneOf(["turn", "stop"], rule="r")
    assert words.parse(" STOP ") == "stop" and words.parse("nope") == "nope"
    assert words.contains("turn") and not words.contains("nope")
    assert words.refusal("nope") == ("r", "nope is not allowed here; the legal choices are "
                                          "turn, stop")
    assert words.refusal("turn") is None
    hand = OneOf(cards("KS 7H"), rule="play")
    assert hand.parse("ks") == Card("K", "S")
    assert hand.parse("2C") == Card("2", "C")            # a card, but not one of these
    with pytest.raises(DecisionFormatError, match="ZZ"):
        hand.parse("ZZ")
    assert not hand.is_forced() and OneOf(["turn"], rule="r").is_forced()


def test_a_mistyped_word_is_answered_with_the_word_it_is_close_to():
    suits = OneOf(["clubs", "diamonds", "hearts", "spades"], rule="eights")
    assert suits.refusal("diamods") == ("eights", "diamods is not allowed here; the legal "
                                        "choices are clubs, diamonds, hearts, spades "
                                        "(did you mean 'diamonds'?)")
    assert suits.refusal("moon")[1].endswith("hearts, spades")   # nothing close: no guess
    hand = OneOf(cards("KS 7H"), rule="play")                    # cards: no guess either
    assert "did you mean" not in hand.refusal(Card("K", "H"))[1]


def test_int_range():
    count = IntRange(1, 5, rule="c-draw-count", what="number of cards")
    assert count.parse("3") == 3 and count.parse(4) == 4
    for bad in (True, 2.5, [3], "three"):
        with pytest.raises(DecisionFormatError, match="expected a whole number"):
            count.parse(bad)
    assert [count.contains(v) for v in (0, 1, 5, 6, "3")] == [False, True, True, False, False]
    assert count.enumerate() == [1, 2, 3, 4, 5]
    assert count.describe() == "a number of cards from 1 to 5"
    assert IntRange(2, 2, rule="r").describe() == "2"
    assert count.why_illegal(7) == "7 is out of range: the number of cards must be from 1 to 5"
    rng = random.Random(3)
    assert {count.sample(rng) for _ in range(200)} == {1, 2, 3, 4, 5}


def test_subset_of():
    discard = SubsetOf(cards("2S 3H 3H KD"), 2, rule="discard", what="your cards")
    assert discard.parse(["2S", "3H"]) == tuple(cards("2S 3H"))
    assert discard.parse("none") == () and discard.parse(None) == ()
    with pytest.raises(DecisionFormatError, match="expected a list of cards"):
        discard.parse("2S")
    assert discard.contains(tuple(cards("3H 3H")))               # both copies may go
    assert not discard.contains(tuple(cards("2S 2S")))           # there is one 2S
    assert not discard.contains(tuple(cards("2S")))
    assert discard.why_illegal(tuple(cards("2S"))) == "1 card chosen, but exactly 2 must be"
    assert discard.why_illegal(tuple(cards("2S 3H KD"))) == \
        "3 cards chosen, but exactly 2 must be"
    assert discard.why_illegal(tuple(cards("2S AC"))) == \
        "AC not among your cards 2S 3H 3H KD"
    assert discard.describe() == "exactly 2 of your cards 2S 3H 3H KD"
    assert SubsetOf(cards("2S"), 0, rule="r").enumerate() == [()]
    assert SubsetOf(cards("2S 4D"), 2, rule="r").is_forced()
    assert forced_value(SubsetOf(cards("2S 4D"), 2, rule="r")) == tuple(cards("2S 4D"))


def test_order_of():
    shuffle = OrderOf(cards("KC 7S 6S"), rule="reshuffle", what="discard pile")
    assert shuffle.contains(tuple(cards("6S KC 7S")))
    assert not shuffle.contains(tuple(cards("6S KC")))
    assert shuffle.why_illegal(tuple(cards("KC 7S"))) == \
        "not an order of the discard pile KC 7S 6S: missing 6S"
    assert shuffle.why_illegal(tuple(cards("KC 7S 6S AD"))) == \
        "not an order of the discard pile KC 7S 6S: AD not among them"
    assert shuffle.describe() == "an order of the 3 discard pile KC 7S 6S"
    with pytest.raises(DecisionFormatError, match="top first"):
        shuffle.parse("KC")
    assert shuffle.enumerate() is None and not shuffle.is_forced()
    one = OrderOf(cards("9D"), rule="r")
    assert one.is_forced() and one.enumerate() == [tuple(cards("9D"))]
    assert forced_value(one) == tuple(cards("9D"))
    assert forced_value(OneOf(["turn"], rule="r")) == "turn"


def test_narration_names_the_players_or_numbers_them():
    ev = Event("reveal", "turn-up", "{p1} turns up KS against {p12}'s {card}.", "p1")
    assert ev.narrate({"p1": "Ann"}) == "Ann turns up KS against Player 12's {card}."
    assert ev.narrate() == "Player 1 turns up KS against Player 12's {card}."


# --------------------------------------------------------------------------- Parts
def eights_choice(hand: str, extra=("draw",)):
    """Crazy Eights' decision: a card or draw, then for an eight the suit it names."""
    from builder.engine import Parts
    suits = OneOf(["clubs", "diamonds", "hearts", "spades"], rule="eights")
    return Parts(OneOf(cards(hand) + list(extra), rule="match"),
                 lambda first: suits if isinstance(first, Card) and first.rank == "8" else None,
                 names=("card", "suit"))


def test_parts_read_one_line_or_a_list_into_a_tuple():
    choice = eights_choice("8S 5H KD")
    assert choice.parse("8S diamonds") == (Card.parse("8S"), "diamonds")
    assert choice.parse(["8S", "diamonds"]) == (Card.parse("8S"), "diamonds")
    assert choice.parse("5H") == (Card.parse("5H"),)
    assert choice.parse("draw") == ("draw",)
    assert choice.refusal((Card.parse("8S"), "hearts")) is None
    assert choice.refusal((Card.parse("KD"),)) is None


@pytest.mark.parametrize("written, says", [
    ("8S", "the suit is missing: this decision has 2 parts here (card, then suit); write it "
           "as '8S clubs'"),
    ("5H hearts", "2 parts written, but after 5H the decision is complete (card); leave out "
                  "hearts"),
])
def test_parts_written_wrong_say_the_form_to_write(written, says):
    with pytest.raises(DecisionFormatError) as e:
        eights_choice("8S 5H KD").parse(written)
    assert str(e.value).startswith(says), str(e.value)


def test_a_part_that_cannot_be_read_is_said_as_that_part():
    """Where the first part is cards only, a word that is no card is a format error of the
    card; among cards and words (``draw``) it is a decision the rules refuse."""
    with pytest.raises(DecisionFormatError) as e:
        eights_choice("8S 5H KD", extra=()).parse("ZZ")
    says = "the card: unknown card 'ZZ'"
    assert str(e.value).startswith(says), str(e.value)


def test_each_part_is_refused_by_its_own_rule():
    choice = eights_choice("8S 5H KD")
    # a suit that is not one: refused by the eights rule, said as the suit's
    rule, why = choice.refusal(choice.parse("8S purple"))
    assert (rule, why) == ("eights", "the suit: purple is not allowed here; the legal choices "
                                     "are clubs, diamonds, hearts, spades")
    # an eight the player does not hold: refused by match, not taken as a format error
    rule, why = choice.refusal(choice.parse("8H hearts"))
    assert (rule, why) == ("match", "8H is not allowed here; the legal choices are 8S, 5H, KD, "
                                    "draw")
    # a card not held, with a suit it would not need: still the card's refusal
    assert choice.refusal(choice.parse("7H hearts"))[0] == "match"
    # a part too many or too few as values: the decision's own rule
    assert choice.refusal((Card.parse("5H"), "hearts"))[0] == "match"
    assert "is a part too many" in choice.refusal((Card.parse("5H"), "hearts"))[1]
    assert choice.refusal((Card.parse("8S"),)) == (
        "match", "the suit is missing after [8S]: clubs, diamonds, hearts, spades")


def test_parts_list_sample_and_describe_every_whole_decision():
    choice = eights_choice("8S 5H", extra=())
    s8 = Card.parse("8S")
    assert choice.enumerate() == [(s8, "clubs"), (s8, "diamonds"), (s8, "hearts"),
                                  (s8, "spades"), (Card.parse("5H"),)]
    rng = random.Random(4)
    for _ in range(30):
        assert choice.contains(choice.sample(rng))
    assert choice.describe() == "8S, 5H; then, where the rules ask for it, the suit"
    assert not choice.is_forced()
    assert eights_choice("5H", extra=()).is_forced()
