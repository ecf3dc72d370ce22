"""Hand-computed scenarios for Winning the Battle, Losing the War.

Every expected value below was worked out by hand from the rules (K high, A low; ranks
A=1 ... K=13), not copied from the engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from builder.engine import find_engine
from builder.engine.core import Card, IllegalDecision, SetupError, full_deck, parse_cards, play_game
from builder.engine.winning_the_battle import GAME, heuristic

OPTS = GAME.resolve({})


def setup(p1, p2, stones=None, **extra):
    s = {"piles": {"p1.deck": p1, "p2.deck": p2}}
    if stones is not None:
        s["stones"] = stones
    s.update(extra)
    return GAME.from_setup(OPTS, s)


def cards(text):
    return parse_cards(text.split())


def kinds(events):
    return [e.kind for e in events]


def test_registered():
    assert find_engine("winning-the-battle") is GAME
    assert GAME.supply_group("p1.deck") == "p1"
    assert GAME.supply_group("p2.out") == "p2"
    assert GAME.card_supply(OPTS, "p1", Card.parse("QS")) == 1


# --------------------------------------------------------------------------- outflanking
def test_outflank_covers_hand_computed():
    # p1 draws 6, p2 draws 2. Lines: p1 8C 2D | p2 JS 5H; p1 extras 3C 10H QC 4D.
    # Standing: pos1 8 v J -> p2, pos2 2 v 5 -> p2.
    s = setup("8C 2D 3C 10H QC 4D 7S".split(), "JS 5H 9D".split())
    ev = s.apply({"p1": 6, "p2": 2})
    assert kinds(ev)[-1] == "extras" and ev[-1].data == {"count": 4, "pairs": 2}
    v = s.view()
    assert v["outflanker"] == "p1"
    assert v["p1.hand"] == cards("3C 10H QC 4D")
    assert (v["p1.wins"], v["p2.wins"], v["battle.ties"]) == (0, 2, 0)
    assert s.pending().players == ["p1"]

    # cover pos 2 with 3C: 3 v 5 still lost
    ev = s.apply({"p1": 2})
    assert ev[0].kind == "cover" and ev[0].rule == "outflank"
    assert ev[0].data["position"] == 2 and ev[0].data["now"] == "p2"
    assert s.view()["p1.line"] == cards("8C 3C")
    # cover pos 2 again with 10H: 10 v 5 -> p1 (second cover of the same position)
    ev = s.apply({"p1": 2})
    assert ev[0].rule == "c-outflank" and ev[0].data["now"] == "p1"
    v = s.view()
    assert v["p1.line"] == cards("8C 10H")
    assert v["p1.covered"] == cards("2D 3C")
    assert (v["p1.wins"], v["p2.wins"]) == (1, 1)
    # cover pos 1 with QC: Q v J -> p1; now 2-0, a sweep so far
    ev = s.apply({"p1": 1})
    assert ev[0].data["now"] == "p1" and ev[0].rule == "outflank"
    assert s.view()["p1.hand"] == cards("4D")
    # the last extra, 4D, covers pos 1 (on top of QC): 4 v J -> p2. Only the top card
    # counts, so the queen's win is lost. Battle then settles by itself: 1-1, no stone.
    ev = s.apply({"p1": 1})
    assert [e.kind for e in ev][:1] == ["cover"] and ev[0].data["now"] == "p2"
    wins = next(e for e in ev if e.kind == "wins")
    assert wins.data == {"p1": 1, "p2": 1, "ties": 0}
    assert "stalemate" in kinds(ev)
    v = s.view()
    assert v["battle.winner"] == "tie"
    assert v["p1.line"] == cards("4D 10H")
    assert v["p1.covered"] == cards("8C QC 2D 3C")
    assert (v["middle.stones"], v["p1.stones"], v["p2.stones"]) == (3, 0, 0)
    # all 8 cards left the game; the clear cites the ruling since there were covers
    clear = next(e for e in ev if e.kind == "clear")
    assert clear.rule == "c-cards-leave" and clear.data["count"] == 8
    assert Counter(v["p1.out"]) == Counter(cards("8C 2D 3C 10H QC 4D"))
    assert Counter(v["p2.out"]) == Counter(cards("JS 5H"))
    assert v["p1.deck"] == cards("7S") and v["p2.deck"] == cards("9D")
    assert s.result is None


def test_stop_discards_unseen_and_sweep_takes_two():
    # p2 outflanks: p1 draws 1 (6H), p2 draws 4 (2S KD AC 9H). pos1: 6 v 2 -> p1.
    s = setup("6H 5C".split(), "2S KD AC 9H 3H".split())
    s.apply({"p1": 1, "p2": 4})
    assert s.view()["outflanker"] == "p2"
    ev = s.apply({"p2": 1})  # KD covers 2S: K v 6 -> p2
    assert ev[0].data["now"] == "p2"
    ev = s.apply({"p2": "stop"})  # AC and 9H discarded unseen
    stop = ev[0]
    assert stop.kind == "stop" and stop.data["count"] == 2 and stop.cards == ()
    stones = [e for e in ev if e.kind == "stone"]
    assert [(e.player, e.data["from"], e.rule) for e in stones] == [
        ("p2", "middle", "take-stone"), ("p2", "middle", "clean-sweep")]
    v = s.view()
    assert v["battle.sweep"] is True
    assert (v["middle.stones"], v["p1.stones"], v["p2.stones"]) == (1, 0, 2)
    assert Counter(v["p2.out"]) == Counter(cards("2S KD AC 9H"))
    assert v["p2.hand"] == []
    assert v["p2.deck"] == cards("3H")


def test_stop_before_any_cover():
    s = setup("9C 8C 7C".split(), "QD 2D".split())
    s.apply({"p1": 3, "p2": 1})  # 9 v Q -> p2
    ev = s.apply({"p1": "stop"})
    assert ev[0].kind == "stop" and ev[0].data["count"] == 2
    assert next(e for e in ev if e.kind == "wins").data == {"p1": 0, "p2": 1, "ties": 0}
    # p2 swept (1 of 1 pair): two stones from the middle
    assert s.view()["p2.stones"] == 2
    # p1's deck is empty: p1 cannot draw at the start of the next battle
    assert s.result.winner == "p2" and s.result.rule == "cannot-draw"


# --------------------------------------------------------------------------- stones
def test_tie_moves_no_stone():
    s = setup("5C KS".split(), "5D 2H".split(), {"middle": 1, "p1": 1, "p2": 1})
    ev = s.apply({"p1": 1, "p2": 1})
    assert "stalemate" in kinds(ev) and "stone" not in kinds(ev)
    v = s.view()
    assert (v["middle.stones"], v["p1.stones"], v["p2.stones"]) == (1, 1, 1)
    assert v["battle.ties"] == 1 and v["battle.winner"] == "tie"


def test_ace_is_low_and_suits_do_not_matter():
    s = setup("AS 2C QH".split(), "2D AH QS".split())
    ev = s.apply({"p1": 3, "p2": 3})
    pairs = [e.data["winner"] for e in ev if e.kind == "pair"]
    assert pairs == ["p2", "p1", "tie"]


def test_stone_from_opponent_when_middle_empty():
    s = setup("KC 2C 4S".split(), "3D QD 2D".split(), {"middle": 0, "p1": 1, "p2": 2})
    # K v 3 p1, 2 v Q p2, 4 v 2 p1: 2-1, not a sweep; the middle is empty
    ev = s.apply({"p1": 3, "p2": 3})
    assert [(e.player, e.data["from"]) for e in ev if e.kind == "stone"] == [("p1", "p2")]
    assert (s.view()["p1.stones"], s.view()["p2.stones"]) == (2, 1)
    # both decks are now empty: 2 stones to 1
    assert s.result.winner == "p1" and s.result.rule == "both-empty"


def test_equal_wins_then_both_empty_fewer_stones_loses():
    s = setup("KC 2C 9C".split(), "3D QD 9D".split(), {"middle": 0, "p1": 1, "p2": 2})
    s.apply({"p1": 2, "p2": 2})  # K v 3 p1, 2 v Q p2: 1-1
    assert s.view()["battle.winner"] == "tie"
    s.apply({"p1": 1, "p2": 1})  # 9 v 9
    assert s.result.winner == "p2" and s.result.rule == "both-empty"


def test_win_takes_from_opponent_then_sweep_from_opponent():
    s = setup("KC QC 4C".split(), "3D 2D 5D".split(), {"middle": 0, "p1": 1, "p2": 2})
    ev = s.apply({"p1": 2, "p2": 2})  # K v 3, Q v 2: sweep 2-0
    stones = [(e.data["from"], e.rule) for e in ev if e.kind == "stone"]
    assert stones == [("p2", "take-stone"), ("p2", "clean-sweep")]
    assert s.view()["p1.stones"] == 3 and s.result.winner == "p1"
    assert s.result.rule == "three-stones"


def test_stone_that_cannot_be_taken():
    s = setup("KC 4C".split(), "3D 5D".split(), {"middle": 1, "p1": 2, "p2": 0})
    ev = s.apply({"p1": 1, "p2": 1})  # K v 3: sweep
    ks = kinds(ev)
    assert ks.index("stone") < ks.index("no-stone") < ks.index("game-over")
    nos = next(e for e in ev if e.kind == "no-stone")
    assert nos.rule == "c-stones" and nos.player == "p1"
    v = s.view()
    assert (v["middle.stones"], v["p1.stones"], v["p2.stones"]) == (0, 3, 0)
    assert s.result.winner == "p1"


def test_three_stones_beat_empty_decks():
    # both decks empty after the battle, but p1 reaches 3 stones first
    s = setup(["10D"], ["9S"], {"middle": 1, "p1": 1, "p2": 1})
    ev = s.apply({"p1": 1, "p2": 1})  # sweep: middle, then from p2
    assert s.result.winner == "p1" and s.result.rule == "three-stones"
    assert [e.data["from"] for e in ev if e.kind == "stone"] == ["middle", "p2"]


# --------------------------------------------------------------------------- the end
def test_cannot_draw_loses_despite_stones():
    s = setup(["QH"], "3C 4D".split())
    s.apply({"p1": 1, "p2": 1})  # Q v 3 sweep: p1 2 stones; p1's deck empty
    assert s.view()["p1.stones"] == 2
    assert s.result.winner == "p2" and s.result.rule == "cannot-draw"
    assert s.pending() is None


def test_both_empty_more_stones_wins_and_equal_draws():
    s = setup(["6C"], ["6D"], {"middle": 2, "p1": 1, "p2": 0})
    s.apply({"p1": 1, "p2": 1})
    assert s.result.winner == "p1" and s.result.rule == "both-empty"
    s = setup(["6C"], ["6D"], {"middle": 3})
    s.apply({"p1": 1, "p2": 1})
    assert s.result.winner is None and s.result.rule == "c-game-end"


def test_empty_deck_in_setup_is_already_over():
    s = setup([], ["6D"])
    assert s.result.winner == "p2" and s.pending() is None


# --------------------------------------------------------------------------- legality
def test_draw_count_limits_cite_the_ruling():
    s = setup("6C 7C".split(), "6D".split())
    for bad in (0, 3):
        with pytest.raises(IllegalDecision) as e:
            s.apply({"p1": bad, "p2": 1})
        assert e.value.rule == "c-draw-count" and e.value.player == "p1"
    with pytest.raises(IllegalDecision) as e:
        s.apply({"p1": 1, "p2": 2})
    assert e.value.rule == "c-draw-count" and e.value.player == "p2"
    with pytest.raises(IllegalDecision):
        s.apply({"p1": 1})  # both must decide together


def test_outflank_position_must_exist():
    s = setup("6C 7C 8C 9C".split(), "6D 7D".split())
    s.apply({"p1": 4, "p2": 2})
    for bad in (0, 3, "left"):
        with pytest.raises(IllegalDecision) as e:
            s.apply({"p1": bad})
        assert e.value.rule == "c-outflank"
    with pytest.raises(IllegalDecision) as e:
        s.apply({"p2": 1})  # only the outflanker decides
    assert e.value.player == "p2"
    assert s.pending().choices["p1"].enumerate() == ["stop", 1, 2]


# --------------------------------------------------------------------------- setup
def test_setup_errors():
    with pytest.raises(SetupError) as e:
        setup(["6C"], ["6D"], {"middle": 1, "p1": 1})
    assert e.value.where == ("stones",)
    with pytest.raises(SetupError) as e:
        setup(["6C"], ["6D"], {"middle": 0, "p1": 3})
    assert e.value.where == ("stones", "p1")
    with pytest.raises(SetupError) as e:
        setup(["6C"], ["6D"], {"middle": 3, "p3": 0})
    assert e.value.where == ("stones", "p3")
    with pytest.raises(SetupError) as e:
        GAME.from_setup(OPTS, {"piles": {"p1.hand": ["6C"]}})
    assert e.value.where == ("piles", "p1.hand")
    with pytest.raises(SetupError) as e:
        setup(["6C", "6C"], ["6D"])
    assert e.value.where == ("piles", "p1.deck", 1)
    with pytest.raises(SetupError):
        GAME.from_setup(OPTS, {"piles": {"p1.deck": ["6C"], "p2.deck": ["6D"],
                                         "p1.out": ["6C"]}})
    # the same card once in each player's cards is fine: two decks
    s = setup(["6C"], ["6C"])
    assert s.all_cards() == Counter({Card.parse("6C"): 2})


# --------------------------------------------------------------------------- the bot
def test_heuristic_stops_when_everything_is_won():
    s = setup("KC KD 2C 3C".split(), "2D 3D".split())
    s.apply({"p1": 4, "p2": 2})  # K v 2, K v 3: both won
    assert heuristic(s, "p1", random.Random(1)) == "stop"


def test_heuristic_covers_the_easiest_lost_position():
    # p1 loses pos1 to a K (cannot be beaten) and pos2 to a 3 (easy to beat)
    s = setup("2C 2H 9C 9D".split(), "KD 3D".split())
    s.apply({"p1": 4, "p2": 2})
    assert heuristic(s, "p1", random.Random(1)) == 2


def test_heuristic_does_not_peek():
    """Reordering the cards nobody has seen never changes the bot's decision."""
    rng = random.Random(5)
    for trial in range(30):
        d1, d2 = full_deck(), full_deck()
        rng.shuffle(d1)
        rng.shuffle(d2)
        n1, n2 = rng.randint(2, 20), rng.randint(1, 20)
        for who in ("draw", "outflank"):
            base = setup([str(c) for c in d1], [str(c) for c in d2])
            if who == "outflank":
                if n1 == n2:
                    continue
                base.apply({"p1": n1, "p2": n2})
            node = base.pending()
            p = node.players[0]
            want = heuristic(base, p, random.Random(trial))
            # shuffle the unseen cards: every deck, and the outflanker's hand
            other = base.clone()
            for q in ("p1", "p2"):
                rng.shuffle(other.decks[q])
                rng.shuffle(other.hands[q])
            assert heuristic(other, p, random.Random(trial)) == want


def test_heuristic_keeps_a_card_unless_it_can_win():
    s = setup("2C 3C 4C".split(), "2D 3D 4D 5D 6D".split())
    for seed in range(20):
        assert heuristic(s, "p1", random.Random(seed)) <= 2
    # needing one stone and holding more cards than the opponent: all in is sure to outflank
    s = setup("2C 3C 4C".split(), "2D 3D".split(), {"middle": 1, "p1": 2, "p2": 0})
    for seed in range(20):
        assert heuristic(s, "p1", random.Random(seed)) == 3


def test_heuristic_beats_random():
    wins = 0
    for seed in range(200):
        state, _ = play_game(GAME, {}, seed, {"p1": GAME.heuristic})
        wins += state.result.winner == "p1"
    assert wins >= 150


# --------------------------------------------------------------------------- bound
def test_longest_outflank_fits_the_bound():
    # 52 cards against 1: one draw step and 51 outflank steps
    s = GAME.new_game(OPTS, random.Random(3))
    s.apply({"p1": 52, "p2": 1})
    steps = 1
    while s.result is None and s.view()["outflanker"] == "p1":
        s.apply({"p1": 1})
        steps += 1
    assert steps == 52 <= GAME.max_steps(OPTS)
    assert s.result is not None  # p1 cannot draw (unless three stones ended it first)


def test_conservation_and_determinism():
    for seed in range(30):
        seen = []

        def on_step(state, node, decided, events):
            assert sum(state.all_cards().values()) == 104
            seen.append(repr(decided))

        a, n = play_game(GAME, {}, seed, GAME.heuristic, on_step=on_step)
        first = list(seen)
        seen.clear()
        b, m = play_game(GAME, {}, seed, GAME.heuristic, on_step=on_step)
        assert n == m and first == seen and a.result.label == b.result.label


def test_a_win_with_a_tie_is_not_a_clean_sweep():
    # RULINGS: a clean sweep is winning every pair, no ties and no losses. K v Q goes to
    # p1, 5 v 5 is a tie: p1 wins 1-0 and takes one stone only.
    s = setup(cards("KS 5D 2C 3C"), cards("QH 5C 2D 3D"))
    ev = s.apply({"p1": 2, "p2": 2})
    stones = [(e.player, e.rule) for e in ev if e.kind == "stone"]
    assert stones == [("p1", "take-stone")]
    v = s.view()
    assert (v["p1.wins"], v["p2.wins"], v["battle.ties"]) == (1, 0, 1)
    assert v["battle.sweep"] is False
