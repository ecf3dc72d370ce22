"""Lean play is the same game as recorded play: what the engine core and the shipped engines
skip to play fast (narration and table pictures when ``State.recording`` is False, the
check of a decision the random bot drew from its own choice, ``State.apply(drawn=True)``)
changes nothing a game is made of. Every shipped engine is played step by step both ways,
from the same seeds, and the two must agree on every decision, every view and the result;
the lab's own loop must give the record the recorded game gives. The cheaper primitives the
fast path rests on (card equality, ``OrderOf.contains``, ``full_deck``) are held to what
they meant before. No timing here: bench/lab.py measures the speed."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from builder.engine.cards import Card, full_deck
from builder.engine.core import IllegalDecision, OneOf, OrderOf, jsonable, random_bot
from builder.engine.registry import registered_engines
from builder.lab.run import play_one

ENGINES = registered_engines()
#: games per option set and line-up, each played both ways: a few in the inner loop, more
#: in the slow run
SIZES = [3, pytest.param(15, marks=pytest.mark.slow)]


def play(game, options: dict, seed: str, seats: list, lean: bool) -> tuple[list, object]:
    """One game, every step written down: the decision, then the view after it. Lean, the
    state records nothing and the random bot's draws are applied unchecked (as the lab
    plays); recorded, every step is checked and pictured (as the check and the books)."""
    rng = random.Random(seed)
    state = game.new_game(options, rng)
    state.recording = not lean
    players = state.players
    steps = []
    while not state.is_terminal():
        node = state.node()
        if node.kind == "chance":
            outcome = node.choice.sample(rng)
            events = state.apply_chance(outcome)
            steps.append(("chance", jsonable(outcome)))
        else:
            bots = {p: seats[players.index(p)] for p in node.choices}
            drawn = all(b is random_bot for b in bots.values())
            if lean and drawn:
                decided = {p: c.sample(rng) for p, c in node.choices.items()}
                events = state.apply(decided, drawn=True)
            else:
                decided = {p: bots[p](state, p, rng) for p in node.choices}
                events = state.apply(decided)
            steps.append(("decide", jsonable(decided)))
        if not lean:
            assert events, f"{game.slug}: a recorded step said nothing"
            state.take_shown()
        steps.append(jsonable(state.view()))
        assert len(steps) < 4 * game.max_steps(options) + 4
    return steps, state.result


#: recorded games already played, by game, options, line-up and seed: the two tests below
#: play the same seeds recorded, and the second reads the first's (recorded play is most of
#: their time; either test alone plays what it needs)
_RECORDED: dict[tuple, tuple[list, object]] = {}


def recorded(game, options: dict, seed: str, seats: list, k: int) -> tuple[list, object]:
    key = (game.slug, repr(sorted(options.items())), k, seed)
    if key not in _RECORDED:
        _RECORDED[key] = play(game, options, seed, seats, lean=False)
    return _RECORDED[key]


def lineups(game, options: dict) -> list[list]:
    n = len(game.new_game(options, random.Random(0)).players)
    return [[random_bot] * n, [game.heuristic] * n,
            [game.heuristic if s % 2 else random_bot for s in range(n)]]


@pytest.mark.parametrize("games", SIZES)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_lean_play_is_recorded_play_step_for_step(slug, games):
    game = ENGINES[slug]
    for options in game.option_sets:
        opts = game.resolve(options)
        for k, seats in enumerate(lineups(game, opts)):
            for i in range(games):
                seed = f"lean-speed:{slug}:{k}:{i}"
                lean_steps, lean_result = play(game, opts, seed, seats, lean=True)
                rec_steps, rec_result = recorded(game, opts, seed, seats, k)
                assert lean_steps == rec_steps, (slug, options, k, i)
                assert lean_result == rec_result, (slug, options, k, i)


@pytest.mark.parametrize("games", SIZES)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_the_labs_loop_gives_the_recorded_games_record(slug, games):
    """``play_one`` (lean, random draws unchecked, no per-game fast path) against the
    recorded game's own steps, rounds, winner and cap."""
    game = dataclasses.replace(ENGINES[slug], fast_random=None)
    for options in game.option_sets:
        opts = game.resolve(options)
        for k, seats in enumerate(lineups(game, opts)):
            for i in range(games):
                seed = f"lean-speed:{slug}:{k}:{i}"   # the seeds above: their recorded games
                steps, result = recorded(game, opts, seed, seats, k)
                view = steps[-1]
                decisions = sum(1 for s in steps if isinstance(s, tuple) and s[0] == "decide")
                rounds = view[game.round_key] if game.round_key else decisions
                players = game.new_game(opts, random.Random(0)).players
                expected = (sum(1 for s in steps if isinstance(s, tuple)), rounds,
                            players.index(result.winner) if result.winner else -1,
                            result.rule in game.cap_rules)
                assert play_one(game, opts, seed, seats) == expected, (slug, options, k, i)


def test_ultimate_still_narrates_every_step_when_recording():
    """The lean path skips Ultimate's narration; the recorded path keeps all of it."""
    game = ENGINES["ultimate"]
    state = game.new_game(game.resolve({}), random.Random(3))
    rng = random.Random(3)
    kinds = []
    state.apply_chance(state.node().choice.sample(rng))
    while not state.is_terminal():
        node = state.node()
        assert node.what.endswith("both choose a card to play face down")
        events = state.apply({p: c.sample(rng) for p, c in node.choices.items()})
        kinds += [e.kind for e in events]
        assert all(e.text for e in events)
        assert state.take_shown() is not None
    assert kinds.count("play") == 26 and kinds.count("reveal") == 13
    assert kinds[-1] == "game-over"


def test_a_drawn_decision_is_applied_unchecked_and_any_other_is_checked():
    game = ENGINES["ultimate"]
    state = game.new_game(game.resolve({}), random.Random(1))
    state.apply_chance(state.node().choice.sample(random.Random(1)))
    with pytest.raises(IllegalDecision):
        state.apply({"p1": Card("K", "S"), "p2": Card("K", "S")})   # a spade for p1
    with pytest.raises(IllegalDecision):
        state.apply({"p1": Card("K", "C")})                          # p2 left out
    assert state.steps == 1


def test_cards_are_equal_only_to_themselves_and_hash_by_identity():
    ks = Card("K", "S")
    assert ks == Card.parse("KS") and ks is Card.parse("ks")
    assert ks != Card("K", "C") and not (ks == Card("Q", "S"))
    assert ks != "KS" and not (ks == "KS") and ks != 13 and ks is not None
    assert hash(ks) == object.__hash__(ks)
    assert ks in full_deck() and "KS" not in full_deck()
    hand = full_deck(("S",))
    hand.remove(ks)
    assert len(hand) == 12 and ks not in hand
    assert sorted([ks, Card("A", "C"), Card("2", "S")]) == [Card("A", "C"), Card("2", "S"), ks]


def test_full_deck_gives_a_new_list_each_time():
    first = full_deck(("D",))
    first.clear()
    assert full_deck(("D",)) == [Card(r, "D") for r in
                                 ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    assert len(full_deck()) == 52 and full_deck() is not full_deck()


@pytest.mark.parametrize("cards", [
    full_deck(("D",)),                                  # thirteen cards, no two alike
    [Card("A", "S"), Card("A", "S"), Card("2", "H")],   # a card twice
    [],
])
def test_order_of_holds_the_orders_a_multiset_comparison_holds(cards):
    choice = OrderOf(cards, "shuffle")
    rng = random.Random(5)
    candidates = [tuple(cards), tuple(reversed(cards)), tuple(cards[:-1]),
                  tuple(cards) + (Card("K", "C"),), tuple(cards[:-1]) + tuple(cards[:1]),
                  list(cards), None]
    candidates += [choice.sample(rng) for _ in range(20)]
    for value in candidates:
        want = isinstance(value, tuple) and Counter(value) == Counter(cards)
        assert choice.contains(value) is want, value


def test_one_of_still_refuses_a_value_not_offered():
    choice = OneOf(full_deck(("C",)), "play")
    assert choice.refusal(Card("K", "C")) is None
    assert choice.refusal(Card("K", "S"))[0] == "play"
