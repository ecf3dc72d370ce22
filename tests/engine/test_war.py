"""Hand-computed scenarios for classic War."""

import pytest

from builder.engine.core import Card, IllegalDecision, parse_cards
from builder.engine.war import GAME


def state(p1, p2, **opts):
    return GAME.from_setup(GAME.resolve(opts), {"piles": {"p1.deck": p1, "p2.deck": p2}})


def turn(s):
    return s.apply({"p1": "turn", "p2": "turn"})


def test_winner_collects_own_cards_first():
    s = state(["2H", "9D"], ["AC", "3S"])
    turn(s)
    assert s.view()["p2.deck"] == parse_cards(["3S", "AC", "2H"])
    assert s.view()["p1.deck"] == parse_cards(["9D"])


def test_war_with_three_soldiers_each():
    # 7 = 7, soldiers 2 3 4 / 5 6 8, generals J v 10: p1 takes 10 cards
    s = state(["7C", "2C", "3C", "4C", "JC"], ["7D", "5D", "6D", "8D", "10D", "KD"])
    ev = turn(s)
    assert [e.kind for e in ev].count("war") == 1
    assert s.view()["p1.deck"] == parse_cards(
        ["7C", "2C", "3C", "4C", "JC", "7D", "5D", "6D", "8D", "10D"])
    assert s.view()["p2.deck"] == [Card("K", "D")]


def test_short_war_uses_last_card_as_general():
    s = state(["5S", "KH"], ["5H", "2C", "3C", "4C", "6C"])
    turn(s)
    # p1 had one card after the tie: KH is the general, no soldiers; K beats 6
    assert s.view()["trick.winner"] == "p1"
    assert s.view()["p1.deck"] == parse_cards(["5S", "KH", "5H", "2C", "3C", "4C", "6C"])
    assert s.result is not None and s.result.winner == "p1"


def test_tie_with_no_cards_left_is_a_draw():
    s = state(["4S"], ["4D"])
    turn(s)
    assert s.result.winner is None and s.result.rule == "both-out"


def test_cap_ends_in_a_draw():
    s = state(["5C", "6C"], ["4D", "7D"], max_tricks=1)
    turn(s)
    assert s.result.label == "draw" and s.result.rule == "trick-cap"


def test_only_turn_is_legal():
    s = state(["5C"], ["4D"])
    with pytest.raises(IllegalDecision) as e:
        s.apply({"p1": "turn", "p2": "pass"})
    assert e.value.rule == "turn-up"


def test_the_deal_gives_each_player_26_of_the_52_cards():
    """Conservation from the full supply before any step (RULINGS, classic War: 26 each)."""
    import random as _random

    from builder.engine.core import full_deck
    from builder.engine.registry import find_engine

    game = find_engine("war")
    for seed in range(20):
        state = game.new_game(game.resolve({}), _random.Random(seed))
        view = state.view()
        assert len(view["p1.deck"]) == 26 and len(view["p2.deck"]) == 26
        assert sorted(map(str, view["p1.deck"] + view["p2.deck"])) == sorted(map(str, full_deck()))
