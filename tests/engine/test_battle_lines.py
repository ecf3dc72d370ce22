"""Hand-computed scenario tests of Battle Lines' tricky rulings, driving the engine API."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from builder.engine.battle_lines import GAME, PASS, Line, Reinforcement
from builder.engine.core import (
    Card, DecisionFormatError, IllegalDecision, SetupError, full_deck, play_game, random_bot,
)


def C(s: str) -> Card:
    return Card.parse(s)


def cards(*names: str) -> list[Card]:
    return [C(n) for n in names]


def line(left=None, centre=None, right=None) -> Line:
    return Line(C(left) if left else None, C(centre) if centre else None,
                C(right) if right else None)


def R(flank: str) -> Reinforcement:
    return Reinforcement((flank,))


def setup(options=None, **piles):
    return GAME.from_setup(GAME.resolve(options or {}),
                           {"piles": {k.replace("_", "."): v for k, v in piles.items()}})


def kinds(events):
    return [e.kind for e in events]


def strs(cs):
    return [str(c) for c in cs]


# --------------------------------------------------------------------------- reinforcement
def seed_photo_position():
    """The seed's picture: Blue's 4D faces Grey's 7C; Blue's reserve is 5C."""
    st = setup(p1_hand=["4D", "10S", "8H", "5C"], p1_deck=["JH", "2S", "6D", "9S"],
               p2_hand=["7C", "8S", "9D", "3H"], p2_deck=["QC", "4S", "10D", "KH"])
    st.apply({"p1": line("4D", "10S", "8H"), "p2": line("8S", "9D", "7C")})
    return st


def test_reinforcement_with_the_opponents_suit_wins_the_flank():
    st = seed_photo_position()
    node = st.pending()
    assert st.phase == "reinforce"
    assert node.choices["p1"].enumerate() == [PASS, R("left")]
    # Grey is lower nowhere (8S ties 8H, 7C beats 4D): forced to pass
    assert node.choices["p2"].is_forced()
    assert st.forced_decisions() is None
    ev = st.apply({"p1": R("left"), "p2": PASS})
    v = st.view()
    # 4 + 5 = 9 > 7: the winner takes both line cards and the reserve
    assert strs(v["p1.captured"]) == ["4D", "5C", "7C", "10S", "9D"]
    assert v["p2.captured"] == []
    assert (v["battle.left"], v["battle.centre"], v["battle.right"]) == ("p1", "p1", "tie")
    cap = [e for e in ev if e.kind == "capture"][0]
    assert cap.rule == "capture-all" and cap.data["total"] == 9
    # tie at Blue's right: 8H back to Blue, 8S back to Grey (behind Grey's unused reserve)
    assert strs(v["p1.hand"]) == ["8H", "JH", "2S", "6D"]
    assert strs(v["p2.hand"]) == ["3H", "8S", "QC", "4S"]


def test_reinforcement_that_only_ties_banks_the_reserve_and_returns_line_cards():
    st = setup(p1_hand=["6C", "JS", "9H", "3C"], p1_deck=["2D", "7D", "QS", "5H", "4S"],
               p2_hand=["9C", "AD", "6D", "2S"], p2_deck=["KC", "8C", "3D", "10H", "7H"])
    st.apply({"p1": line("6C", "JS", "9H"), "p2": line("6D", "AD", "9C")})
    ev = st.apply({"p1": R("left"), "p2": PASS})
    v = st.view()
    assert [e.kind for e in ev if e.kind.startswith("tie")] == ["tie", "tie-reserve"]
    # 6 + 3 = 9 ties 9C: 3C to Blue's own pile; 6C and 9C back to hand
    assert strs(v["p1.captured"]) == ["3C", "9H", "6D"]
    assert strs(v["p2.captured"]) == ["AD", "JS"]
    assert strs(v["p1.hand"]) == ["6C", "2D", "7D", "QS"]
    assert strs(v["p2.hand"]) == ["2S", "9C", "KC", "8C"]
    assert st.all_cards() == Counter(cards("6C", "JS", "9H", "3C", "2D", "7D", "QS", "5H", "4S",
                                           "9C", "AD", "6D", "2S", "KC", "8C", "3D", "10H", "7H"))


def test_plain_tie_returns_cards_in_position_order_after_the_reserve():
    st = setup(p1_hand=["9C", "5D", "3H", "KS"], p1_deck=["2C"],
               p2_hand=["9S", "5H", "3C", "QD"], p2_deck=["2D"])
    ev = st.apply({"p1": line("9C", "5D", "3H"), "p2": line("3C", "5H", "9S")})
    assert kinds(ev).count("tie") == 3
    v = st.view()
    assert strs(v["p1.hand"]) == ["KS", "9C", "5D", "3H"]
    assert strs(v["p2.hand"]) == ["QD", "3C", "5H", "9S"]
    assert v["p1.deck"] == cards("2C") and v["turns"] == 1 and not v["last-turn"]


def test_both_reinforce_at_once_on_different_fights():
    st = setup(p1_hand=["5H", "QD", "10C", "7H"], p1_deck=["2C", "6S", "JH", "4D", "AS"],
               p2_hand=["9S", "KC", "8C", "3C"], p2_deck=["QH", "7S", "5D", "6C", "2H"])
    st.apply({"p1": line("5H", "QD", "10C"), "p2": line("8C", "KC", "9S")})
    ev = st.apply({"p1": R("left"), "p2": R("left")})
    assert [e.rule for e in ev if e.kind == "reinforce"] == ["reinforce-at-once"] * 2
    v = st.view()
    assert strs(v["p1.captured"]) == ["5H", "7H", "9S"]
    assert strs(v["p2.captured"]) == ["KC", "QD", "8C", "3C", "10C"]


# --------------------------------------------------------------------------- refusals
def refusal(st, decisions):
    with pytest.raises(IllegalDecision) as e:
        st.apply(decisions)
    return e.value


def test_reserve_of_the_wrong_suit_is_refused_citing_the_suit_rule():
    st = setup(p1_hand=["9C", "6S", "3D", "10D"], p1_deck=["4C", "5C"],
               p2_hand=["7S", "8D", "2H", "AH"], p2_deck=["2C", "9S"])
    st.apply({"p1": line("9C", "6S", "3D"), "p2": line("2H", "8D", "7S")})
    before = st.view()
    err = refusal(st, {"p1": PASS, "p2": R("right")})
    assert err.rule == "reinforce-suit" and err.player == "p2"
    assert "AH" in err.message
    assert st.view() == before  # nothing happened
    # the legal flank is still open
    st.apply({"p1": PASS, "p2": R("left")})
    assert len(st.view()["p2.captured"]) == 5


def test_reinforcing_a_flank_that_is_not_lower_or_the_centre_is_refused():
    st = seed_photo_position()
    assert refusal(st, {"p1": R("right"), "p2": PASS}).rule == "reinforce"  # 8H ties 8S
    assert refusal(st, {"p1": R("centre"), "p2": PASS}).rule == "reinforce"
    assert refusal(st, {"p1": PASS, "p2": R("right")}).rule == "reinforce"  # 7C beats 4D
    err = refusal(st, {"p1": Reinforcement(("left", "right")), "p2": PASS})
    assert err.rule == "reinforce-at-once"


def test_bad_deployments_are_refused():
    st = setup(p1_hand=["KS", "9C", "4D", "2H"], p1_deck=["7S"],
               p2_hand=["QH", "10C", "5S", "JD"], p2_deck=["AC"])
    ok = line("10C", "QH", "5S")
    assert refusal(st, {"p1": line("9C", "KS", "AS"), "p2": ok}).rule == "deploy"  # not in hand
    assert refusal(st, {"p1": line("9C", "KS"), "p2": ok}).rule == "deploy"  # empty position
    assert refusal(st, {"p1": line("9C", "9C", "KS"), "p2": ok}).rule == "deploy"
    with pytest.raises(IllegalDecision):
        st.apply({"p1": line("9C", "KS", "4D")})  # p2 must decide too


def test_last_turn_wrong_count_cites_short_deployment():
    st = setup(p1_hand=["5S", "9D"], p2_hand=["10S", "JD", "6C", "3S"], p2_deck=["7H"])
    assert st.phase == "deploy-first"
    st.apply({"p2": line("3S", "JD", "10S")})
    err = refusal(st, {"p1": line(None, "5S")})
    assert err.rule == "short-deployment" and err.player == "p1"


# --------------------------------------------------------------------------- last turn
def test_last_turn_shorter_hand_deploys_second_and_empty_position_is_won_by_default():
    st = setup(p1_hand=["5S", "9D"], p1_captured=["2C"],
               p2_hand=["10S", "JD", "6C", "3S"], p2_deck=["7H"])
    assert st.view()["last-turn"] is True
    node = st.pending()
    assert node.players == ["p2"]  # Grey holds more and goes first
    assert len(node.choices["p2"].enumerate()) == 24
    st.apply({"p2": line("3S", "JD", "10S")})
    node = st.pending()
    assert node.players == ["p1"]
    # two cards into three positions: 3 x 2 ways
    assert len(node.choices["p1"].enumerate()) == 6
    # the heuristic, seeing Grey's line, sends 9D against 3S
    choice = GAME.heuristic(st, "p1", random.Random(0))
    assert choice.right == C("9D")
    ev = st.apply({"p1": line(None, "5S", "9D")})
    default = [e for e in ev if e.kind == "default"]
    assert len(default) == 1 and default[0].player == "p2" and default[0].cards == (C("10S"),)
    v = st.view()
    assert strs(v["p2.captured"]) == ["10S", "JD", "5S"]
    assert strs(v["p1.captured"]) == ["2C", "9D", "3S"]
    assert v["p2.hand"] == cards("6C")  # unused reserve: does not count
    assert v["result"] == "draw"  # 3 each
    assert st.result.rule == "final-count"


def test_one_empty_deck_with_four_cards_each_is_a_blind_last_turn_with_reserves():
    st = setup(p1_hand=["2C", "3C", "4C", "5C"],
               p2_hand=["2D", "3D", "4D", "5D"], p2_deck=["6D"])
    assert st.phase == "deploy" and st.view()["last-turn"] is True
    node = st.pending()
    assert node.players == ["p1", "p2"]
    ev = st.apply({"p1": line("2C", "3C", "4C"), "p2": line("4D", "3D", "2D")})
    # 2C vs 2D tie, 3C vs 3D tie, 4C vs 4D tie: no one lower, game over
    assert st.result is not None and st.result.winner is None
    assert [e.rule for e in ev if e.kind == "deploy"] == ["deploy", "deploy"]
    assert st.view()["p2.deck"] == cards("6D")


def test_no_reinforcement_at_an_empty_position():
    st = setup(p1_hand=["2H"], p2_hand=["KH", "QS", "JS", "3H"], p2_deck=["4S"])
    st.apply({"p2": line("QS", "JS", "KH")})
    st.apply({"p1": line(None, None, "2H")})  # 2H faces Grey's left QS
    assert st.result is not None
    v = st.view()
    assert strs(v["p2.captured"]) == ["KH", "JS", "QS", "2H"]
    assert v["p1.captured"] == []


def test_draw_short_triggers_the_last_turn():
    st = setup(p1_hand=["KH", "5S", "10C", "2D"], p1_deck=["9D"],
               p2_hand=["QC", "8H", "10S", "4D"], p2_deck=["JD", "6C", "3S", "7H"])
    ev = st.apply({"p1": line("10C", "KH", "2D"), "p2": line("4D", "QC", "8H")})
    draws = [(e.player, e.rule, e.data["count"]) for e in ev if e.kind == "draw"]
    assert draws == [("p1", "draw-short", 1), ("p2", "draw-up", 3)]
    assert kinds(ev)[-2:] == ["last-turn", "deploy-order"]
    assert st.phase == "deploy-first" and st.first == "p2"


# --------------------------------------------------------------------------- the cap
def test_turn_cap_is_a_draw_whatever_the_piles_hold():
    # R0.3: a game stopped at its cap is a draw, although p1 has captured more
    st = setup({"max_turns": 2}, p1_hand=["9C", "5D", "3H", "KS"], p1_deck=["2C"],
               p1_captured=["AS"], p2_hand=["9S", "5H", "3C", "QD"], p2_deck=["2D"])
    for _ in range(2):
        st.apply({"p1": line("9C", "5D", "3H"), "p2": line("3C", "5H", "9S")})
    assert st.result.rule == "turn-cap" and st.result.winner is None
    assert st.view()["turns"] == 2


def test_turn_cap_with_equal_piles_is_a_draw():
    st = setup({"max_turns": 1}, p1_hand=["9C", "5D", "3H", "KS"], p1_deck=["2C"],
               p2_hand=["9S", "5H", "3C", "QD"], p2_deck=["2D"])
    st.apply({"p1": line("9C", "5D", "3H"), "p2": line("3C", "5H", "9S")})
    assert st.result.rule == "turn-cap" and st.result.winner is None


def test_last_turn_ends_normally_even_on_the_cap_turn():
    st = setup({"max_turns": 1}, p1_hand=["9C"], p2_hand=["2S"])
    assert st.pending().players == ["p1", "p2"]
    st.apply({"p1": line("9C"), "p2": line(None, None, "2S")})  # 9C faces 2S
    assert st.result.rule == "final-count" and st.result.winner == "p1"


# --------------------------------------------------------------------------- formats
def test_parsing_written_decisions():
    st = seed_photo_position()
    ch = st.pending().choices["p1"]
    assert ch.parse("pass") == PASS
    assert ch.parse({"reinforce": "left"}) == R("left")
    with pytest.raises(DecisionFormatError):
        ch.parse({"reinforce": "middle"})
    with pytest.raises(DecisionFormatError):
        ch.parse(7)
    st2 = setup(p1_hand=["KS", "9C", "4D", "2H"], p1_deck=["7S"],
                p2_hand=["QH", "10C", "5S", "JD"], p2_deck=["AC"])
    dep = st2.pending().choices["p1"]
    assert dep.parse({"left": "4D", "center": "KS", "right": "9C"}) == line("4D", "KS", "9C")
    assert dep.parse({"centre": "KS", "right": "empty"}) == line(None, "KS")
    with pytest.raises(DecisionFormatError):
        dep.parse({"flank": "4D"})
    with pytest.raises(DecisionFormatError):
        dep.parse({"left": "1X"})
    assert len(dep.enumerate()) == 24
    assert str(line("4D", "KS", "9C")) == "{left: 4D, centre: KS, right: 9C}"


def test_setup_errors():
    with pytest.raises(SetupError) as e:
        setup(p1_pile=["2C"])
    assert e.value.where == ("piles", "p1.pile")
    with pytest.raises(SetupError):
        setup(p1_hand=["2C", "3C", "4C", "5C", "6C"])
    with pytest.raises(SetupError):
        GAME.from_setup(GAME.resolve({}), {"piles": {}, "stones": 3})


# --------------------------------------------------------------------------- bots
def test_heuristic_reinforces_only_when_it_helps():
    st = seed_photo_position()
    assert GAME.heuristic(st, "p1", random.Random(1)) == R("left")  # 9 beats 7
    st = setup(p1_hand=["2D", "KS", "QS", "3D"], p1_deck=["4H"],
               p2_hand=["10D", "AS", "JH", "9C"], p2_deck=["5H"])
    st.apply({"p1": line("2D", "KS", "QS"), "p2": line("JH", "AS", "10D")})
    # 2D + 3D = 5 still loses to 10D: pass
    assert st.pending().choices["p1"].enumerate() == [PASS, R("left")]
    assert GAME.heuristic(st, "p1", random.Random(1)) == PASS


def test_heuristic_keeps_a_low_reserve_and_a_strong_centre():
    st = setup(p1_hand=["AS", "KS", "3H", "2D"], p1_deck=["4C"],
               p2_hand=["2S", "3S", "4S", "5S"], p2_deck=["6S"])
    choice = GAME.heuristic(st, "p1", random.Random(0))
    assert choice.centre == C("AS")
    assert C("2D") not in choice.cards()


@pytest.mark.parametrize("opts", GAME.option_sets)
def test_full_games_conserve_cards_and_respect_the_bound(opts):
    resolved = GAME.resolve(opts)
    for seed in range(60):
        for bots in (None, GAME.heuristic, {"p1": GAME.heuristic, "p2": random_bot}):
            st, steps = play_game(GAME, opts, seed, bots)
            assert st.all_cards() == Counter(full_deck())
            assert steps <= GAME.max_steps(resolved)
            assert st.result is not None
            again, steps2 = play_game(GAME, opts, seed, bots)
            assert steps2 == steps and again.view() == st.view()


def test_new_game_deals_26_each_and_draws_four():
    st = GAME.new_game(GAME.resolve({}), random.Random(5))
    v = st.view()
    assert len(v["p1.hand"]) == len(v["p2.hand"]) == 4
    assert len(v["p1.deck"]) == len(v["p2.deck"]) == 22
    assert v["phase"] == "deploy" and v["turns"] == 0
