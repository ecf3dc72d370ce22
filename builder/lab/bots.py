"""The ladder of bots the lab plays: random, the engine's heuristic, and a search bot.

* ``random``: any legal decision, uniformly (:func:`builder.engine.core.random_bot`).
* ``heuristic``: the engine's own bot (``GameDef.heuristic``), which plays as a sensible
  beginner would.
* ``search``: **determinized Monte Carlo rollouts** (perfect-information Monte Carlo,
  PIMC): for each candidate decision (the heuristic's pick and up to 7 others) it deals
  the hidden cards again at random (the engine's ``GameDef.determinize``, so it never sees
  what a player at the table cannot), lets the other players answer with the heuristic
  bot, plays the game out with the heuristic bot for everyone and keeps the decision that
  did best. The rollouts are spent by sequential halving, with common random numbers, and
  a candidate must beat the heuristic's pick by a clear margin to be played (see
  :func:`search_bot`). A game whose engine has no ``determinize`` has no search bot: one
  that looked at the hidden cards would invent a skill edge no player has.

A game has decisions if some player, some time, has more than one legal choice; classic
War and Peace never do, and the lab says so instead of measuring a skill edge.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from .. import faults
from ..engine.core import GameDef, State, random_bot, redeal_in_place, restore
from ..errors import WarbookError

LADDER = ("random", "heuristic", "search")

#: rollouts per candidate decision (the search bot's strength and cost)
ROLLOUTS = 4
#: at most this many candidates are weighed where a choice cannot be listed
SAMPLED_CANDIDATES = 8
#: at most this many candidates are weighed where a choice lists more (a random few)
MAX_CANDIDATES = 8
#: how much better (in mean score, a win 1, a draw 1/2) a candidate must do in its
#: rollouts than the heuristic's own pick to be played instead
MARGIN = 0.1


class LabError(WarbookError):
    """A simulation that cannot be run as asked (an unknown bot, a game without
    decisions asked for a skill edge); the message says why."""


def has_decisions(gamedef: GameDef, options: dict[str, Any], probe_games: int = 8) -> bool:
    """Whether any player ever has a real choice: some random games are played and every
    decision node looked at."""
    for i in range(probe_games):
        rng = random.Random(f"probe:{i}")
        state = gamedef.new_game(options, rng)
        state.recording = False
        bound = gamedef.max_steps(options)
        for _ in range(bound + 1):
            if state.is_terminal():
                break
            node = state.node()
            if node.kind == "chance":
                state.apply_chance(node.choice.sample(rng))
                continue
            for choice in node.choices.values():
                if not choice.is_forced():
                    return True
            state.apply({p: random_bot(state, p, rng) for p in node.choices})
    return False


def ladder(gamedef: GameDef, options: dict[str, Any]) -> list[str]:
    """The bots worth playing this game: none but random where nothing is decided."""
    if not has_decisions(gamedef, options):
        return ["random"]
    out = ["random", "heuristic"]
    if gamedef.determinizer() is not None:
        out.append("search")
    return out


def _score(state: State, player: str) -> float:
    w = state.result.winner if state.result else None
    return 1.0 if w == player else 0.5 if w is None else 0.0


def candidates(choice, state: State, player: str, heuristic: Callable,
               rng: random.Random) -> list:
    """The decisions the search bot weighs: the heuristic's own pick first (it wins every
    tie), then the other legal decisions, at most ``MAX_CANDIDATES`` in all (where there
    are more: the numbers nearest the heuristic's for a number, else a random few; a
    sample where the choice cannot be listed)."""
    first = heuristic(state, player, rng)
    listed = choice.enumerate()
    if listed is not None:
        others = [c for c in listed if c != first]
        if len(others) >= MAX_CANDIDATES:
            if all(isinstance(c, int) and not isinstance(c, bool) for c in listed):
                # a number (how many cards to draw): the heuristic's neighbours first
                others = sorted(others, key=lambda c: (abs(c - first), c))[:MAX_CANDIDATES - 1]
            else:
                others = rng.sample(others, MAX_CANDIDATES - 1)
        return [first] + others
    out = [first]
    for _ in range(SAMPLED_CANDIDATES * 3):
        if len(out) >= SAMPLED_CANDIDATES:
            break
        c = choice.sample(rng)
        if c not in out:
            out.append(c)
    return out


def search_bot(gamedef: GameDef, rollouts: int = ROLLOUTS) -> Callable:
    heuristic = gamedef.heuristic
    determinize = gamedef.determinizer()
    assert determinize is not None

    def playout(world: State, rng: random.Random) -> None:
        while world.result is None:
            node = world.node()
            if node.kind == "chance":
                world.apply_chance(node.choice.sample(rng))
            else:
                world.apply({p: heuristic(world, p, rng) for p in node.choices})

    def rollout(state: State, player: str, c: Any, seed: int) -> float:
        luck = random.Random(seed)
        world = determinize(state, player, luck)
        world.recording = False
        node = world.node()
        world.apply({q: (c if q == player else heuristic(world, q, luck))
                     for q in node.choices})
        playout(world, luck)
        return _score(world, player)

    def bot(state: State, player: str, rng: random.Random) -> Any:
        choice = state.node().choices[player]
        if choice.is_forced():
            return heuristic(state, player, rng)
        sub = random.Random(rng.getrandbits(64))
        cands = candidates(choice, state, player, heuristic, sub)
        # sequential halving: a budget of ``rollouts`` per candidate, spread over
        # log2(candidates) rounds, each round keeping the better half; rollout j deals the
        # same hidden cards and the same luck to every candidate (common random numbers),
        # so the comparison measures the decision rather than the dice
        budget = rollouts * len(cands)
        rounds = max(1, math.ceil(math.log2(len(cands))))
        seeds = [sub.getrandbits(64) for _ in range(budget)]
        totals = [0.0] * len(cands)
        played = [0] * len(cands)
        alive = list(range(len(cands)))
        for r in range(rounds):
            each = max(1, budget // rounds // len(alive))
            for i in alive:
                for seed in seeds[played[i]:played[i] + each]:
                    totals[i] += rollout(state, player, cands[i], seed)
                played[i] += each
            # best mean first; the earlier candidate (the heuristic's pick) wins a tie and
            # stays in every round, so it is always weighed against the last survivor
            alive.sort(key=lambda i: (-totals[i] / played[i], i))
            if r < rounds - 1:
                alive = alive[:(len(alive) + 1) // 2]
                if 0 not in alive:
                    alive.append(0)
        best = alive[0]
        # the search overrules the heuristic only by a clear margin: a few rollouts of a long
        # game are noisy, and the best of several noisy means is lucky more often than good
        if best != 0 and totals[best] / played[best] - totals[0] / played[0] <= MARGIN:
            best = 0
        return cands[best]

    bot.__name__ = "search_bot"
    return bot


def seat_view(gamedef: GameDef) -> Callable:
    """The engine's heuristic as the lab plays it: given only what its seat may see (the
    cards hidden from it dealt again at random before each decision, from a generator of
    its own so that the game's luck is untouched), so a heuristic that peeks plays blind
    rather than well. Where the state declares ``piles()`` the cards are dealt again in
    place and put back after the decision; else on a copy, by the engine's
    ``determinize``. warbook's own engines, which declare no ``piles()``, are played as
    they are: their heuristics are held to their seats by the conformance kit's ``peek``
    check (150 games an option set in the tests) and by hand-worked positions, and a copy
    a decision would cost their books' figures 1.7 times the processor time for the same
    games (bench/seat_view.py, bench/lab.py). A game that says nothing of who sees what
    gets its heuristic as it is."""
    heuristic = gamedef.heuristic
    determinize = gamedef.determinizer()
    if determinize is None:
        return heuristic
    in_place = gamedef.determinize is None   # the generic redeal: piles() declared
    if not in_place and not _designers(heuristic):
        return heuristic

    def bot(state: State, player: str, rng: random.Random) -> Any:
        node = state.node()
        if node is not None and node.kind == "decision" and node.choices[player].is_forced():
            return heuristic(state, player, rng)
        luck = random.Random(state.steps)
        if not in_place:
            return heuristic(determinize(state, player, luck), player, rng)
        saved = redeal_in_place(state, player, luck)
        try:
            return heuristic(state, player, rng)
        finally:
            restore(state, saved)

    bot.__name__ = getattr(heuristic, "__name__", "heuristic")
    bot.__wrapped__ = heuristic  # type: ignore[attr-defined]
    return bot


def _designers(fn: Callable) -> bool:
    """Whether ``fn`` is a game's own code (a game folder's engine.py or a plugin's
    package), not warbook's."""
    code = getattr(getattr(fn, "__wrapped__", fn), "__code__", None)
    return code is not None and faults.is_game_code(code.co_filename)


def search_budget(name: str) -> int:
    """The rollouts per candidate of a search bot named with its budget, ``search:N``
    (``search`` alone: :data:`ROLLOUTS`); the skill trace plays these."""
    if name == "search":
        return ROLLOUTS
    text = name.removeprefix("search:")
    if not text.isdigit() or int(text) < 1:
        raise LabError(f"unknown bot '{name}': a search bot's budget is a whole number of "
                       f"rollouts, 1 or more (search:1, search:2, search:4 ...)")
    return int(text)


def make_bot(name: str, gamedef: GameDef) -> Callable:
    """The bot of a name: one of :data:`LADDER`, or ``search:N``, the search bot with N
    rollouts per candidate."""
    if name == "random":
        return random_bot
    if name == "heuristic":
        return seat_view(gamedef)
    if name == "search" or name.startswith("search:"):
        rollouts = ROLLOUTS if name == "search" else search_budget(name)
        if gamedef.determinizer() is None:
            raise LabError(f"the {gamedef.slug} engine has no search bot: it does not say "
                           f"which cards a player cannot see (Zone.seen_by with "
                           f"State.piles(), or GameDef.determinize)")
        return search_bot(gamedef, rollouts)
    raise LabError(f"unknown bot '{name}' (the ladder: {', '.join(LADDER)})")
