"""The ladder of bots the lab plays: random, the engine's heuristic, and a search bot.

* ``random``: any legal decision, uniformly (:func:`builder.engine.core.random_bot`).
* ``heuristic``: the engine's own bot (``GameDef.heuristic``), which plays as a sensible
  beginner would.
* ``search``: **determinized Monte Carlo rollouts** (perfect-information Monte Carlo,
  PIMC): for each legal decision it deals the hidden cards again at random (the engine's
  ``GameDef.determinize``, so it never sees what a player at the table cannot), lets the
  other players answer with the heuristic bot, plays the game out with the heuristic bot
  for everyone and keeps the decision that won most often. A game whose engine has no
  ``determinize`` has no search bot: one that looked at the hidden cards would invent a
  skill edge no player has.

A game has decisions if some player, some time, has more than one legal choice; classic
War and Peace never do, and the lab says so instead of measuring a skill edge.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..engine.core import GameDef, State, random_bot

LADDER = ("random", "heuristic", "search")

#: rollouts per candidate decision (the search bot's strength and cost)
ROLLOUTS = 4
#: at most this many candidates are weighed where a choice cannot be listed
SAMPLED_CANDIDATES = 8


class LabError(Exception):
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
    if gamedef.determinize is not None:
        out.append("search")
    return out


def _score(state: State, player: str) -> float:
    w = state.result.winner if state.result else None
    return 1.0 if w == player else 0.5 if w is None else 0.0


def search_bot(gamedef: GameDef, rollouts: int = ROLLOUTS) -> Callable:
    heuristic = gamedef.heuristic
    determinize = gamedef.determinize
    assert determinize is not None

    def playout(world: State, rng: random.Random) -> None:
        while world.result is None:
            node = world.node()
            if node.kind == "chance":
                world.apply_chance(node.choice.sample(rng))
            else:
                world.apply({p: heuristic(world, p, rng) for p in node.choices})

    def bot(state: State, player: str, rng: random.Random) -> Any:
        choice = state.node().choices[player]
        if choice.is_forced():
            return heuristic(state, player, rng)
        sub = random.Random(rng.getrandbits(64))
        candidates = choice.enumerate()
        if candidates is None:
            candidates = [heuristic(state, player, sub)]
            for _ in range(SAMPLED_CANDIDATES * 3):
                if len(candidates) >= SAMPLED_CANDIDATES:
                    break
                c = choice.sample(sub)
                if c not in candidates:
                    candidates.append(c)
        best, best_score = candidates[0], -1.0
        for c in candidates:
            total = 0.0
            for _ in range(rollouts):
                world = determinize(state, player, sub)
                world.recording = False
                node = world.node()
                decided = {q: (c if q == player else heuristic(world, q, sub))
                           for q in node.choices}
                world.apply(decided)
                playout(world, sub)
                total += _score(world, player)
            if total > best_score:
                best, best_score = c, total
        return best

    bot.__name__ = "search_bot"
    return bot


def make_bot(name: str, gamedef: GameDef) -> Callable:
    if name == "random":
        return random_bot
    if name == "heuristic":
        return gamedef.heuristic
    if name == "search":
        if gamedef.determinize is None:
            raise LabError(f"the {gamedef.slug} engine has no search bot: it does not say "
                           f"which cards a player cannot see (GameDef.determinize)")
        return search_bot(gamedef)
    raise LabError(f"unknown bot '{name}' (the ladder: {', '.join(LADDER)})")
