"""The heuristic players' stated policies (each engine's ``heuristic`` docstring), on
positions built so that the policy alone decides, each worked by hand. A bot that reasoned
from the wrong cards, or from its own hand instead of what the opponent may hold, plays
differently here."""

from __future__ import annotations

import random

from builder.engine.battle import GAME as BATTLE
from builder.engine.core import Card, parse_cards

BLACK_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def battle(piles: dict[str, str]):
    return BATTLE.from_setup(BATTLE.resolve({}), {"piles": {k: v.split() for k, v in
                                                            piles.items()}})


def test_battle_plays_the_lower_card_when_it_beats_all_the_opponent_may_hold():
    """Two players: Jet (p2) owns the black cards. Every black card but the two twos is in
    the Killed pile, so Jet holds 2C and 2S. North's 3H beats both: North plays it and
    keeps the king (a bot that looked at its own unseen cards would fear the red kings
    and aces and play the king)."""
    killed = " ".join(r + s for r in BLACK_RANKS for s in "CS")
    s = battle({"p1.hand": "3H KH", "p1.deck": "5H", "p2.hand": "2C 2S", "killed": killed})
    assert BATTLE.heuristic(s, "p1", random.Random(0)) == Card("3", "H")


def test_battle_gives_up_the_lower_card_when_it_ties_at_even_odds():
    """Jet may hold 2C, 2S, 9C or 9S (every other black card is killed). North holds 2D
    and 9H: the nine wins only half the time and the two ties half the time (a tie starts
    a battle, where North's nine would fight): by the policy North plays the two."""
    killed = " ".join(r + s for r in BLACK_RANKS if r != "9" for s in "CS")
    s = battle({"p1.hand": "2D 9H", "p1.deck": "5H", "p2.hand": "2C 9S", "p2.deck": "2S 9C",
                "killed": killed})
    assert BATTLE.heuristic(s, "p1", random.Random(0)) == Card("2", "D")
