"""Playing many seeded games, on every core, with the same answer whatever the number of
worker processes.

Game ``i`` of a line-up labelled ``label`` under master seed ``seed`` is played from
``random.Random(f"{seed}:{label}:{i}")`` (a string seed is hashed with SHA-512, the same
in every process), so a game's outcome depends on its index alone. The games are cut into
chunks, the chunks played in worker processes (forked, so a designer's own engine file
needs no re-import), and the records put back in index order.

Play is lean: states are made with ``recording = False`` (no table pictures), and the
pending node is worked out once per step (``State.node``). Events are still built: the
engine stays the reference engine, step for step.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..engine.core import GameDef, random_bot
from .bots import make_bot

CHUNK = 200  # games per task: enough to outweigh the cost of sending the records back
SEARCH_CHUNK = 5  # the search bot's games are slow: small tasks keep both cores busy


@dataclass(frozen=True)
class Lineup:
    """Who plays: one bot name per seat (``bots[0]`` in seat 1 ...). With ``rotate`` the
    line-up turns one seat per game, so each bot plays every seat equally often."""

    label: str
    bots: tuple[str, ...]
    rotate: bool = False

    def seat_bots(self, i: int) -> tuple[str, ...]:
        n = len(self.bots)
        if not self.rotate:
            return self.bots
        return tuple(self.bots[(s - i) % n] for s in range(n))


#: one game's record: steps, rounds, winner's seat (0-based; -1 for a draw), capped
Record = tuple[int, int, int, bool]


def play_one(gamedef: GameDef, options: dict[str, Any], seed: str,
             bots: Sequence[Callable]) -> Record:
    rng = random.Random(seed)
    if gamedef.fast_random is not None and all(b is random_bot for b in bots):
        steps, rounds, w, capped = gamedef.fast_random(options, rng)
        return steps, rounds, (int(w[1:]) - 1 if w is not None else -1), capped
    state = gamedef.new_game(options, rng)
    state.recording = False
    players = state.players
    by_player = dict(zip(players, bots))
    bound = gamedef.max_steps(options)
    steps = decisions = 0
    while state.result is None:
        node = state.node()
        if node is None:
            raise AssertionError(f"{gamedef.slug}: no pending node but no result")
        if node.kind == "chance":
            state.apply_chance(node.choice.sample(rng))
        else:
            state.apply({p: by_player[p](state, p, rng) for p in node.choices})
            decisions += 1
        steps += 1
        if steps > bound:
            raise AssertionError(f"{gamedef.slug}: game exceeded its documented bound of "
                                 f"{bound} steps")
    rounds = state.view()[gamedef.round_key] if gamedef.round_key else decisions
    w = state.result.winner
    return (steps, int(rounds), players.index(w) if w is not None else -1,
            state.result.rule in gamedef.cap_rules)


# the work of one run, set before the workers are forked (they inherit it)
_WORK: dict[str, Any] = {}


def _play_chunk(task: tuple[int, int, int]) -> list[Record]:
    job, start, stop = task
    gamedef, options, seed, lineup = _WORK["jobs"][job]
    cache: dict[str, Callable] = _WORK.setdefault("bots", {})
    out = []
    for i in range(start, stop):
        names = lineup.seat_bots(i)
        bots = []
        for name in names:
            key = f"{id(gamedef)}:{name}"
            if key not in cache:
                cache[key] = make_bot(name, gamedef)
            bots.append(cache[key])
        out.append(play_one(gamedef, options, f"{seed}:{lineup.label}:{i}", bots))
    return out


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def play_many(jobs: list[tuple[GameDef, dict[str, Any], int, Lineup, int]],
              workers: int | None = None) -> list[list[Record]]:
    """Play every job (engine, options, seed, line-up, games) and return each job's
    records in game order. ``workers`` processes (default: every core); 1 plays here."""
    workers = workers or default_workers()
    tasks = []
    for j, (_, _, _, lineup, games) in enumerate(jobs):
        size = SEARCH_CHUNK if "search" in lineup.bots else CHUNK
        for start in range(0, games, size):
            tasks.append((j, start, min(start + size, games)))
    _WORK.clear()
    _WORK["jobs"] = [(g, o, s, lineup) for g, o, s, lineup, _ in jobs]
    results: list[list[Record]] = [[] for _ in jobs]
    try:
        if workers == 1 or len(tasks) <= 1:
            chunks = map(_play_chunk, tasks)
            for (j, _, _), recs in zip(tasks, chunks):
                results[j].extend(recs)
        else:
            ctx = multiprocessing.get_context("fork")
            # imap hands the chunks back in task order, whichever worker played them
            with ctx.Pool(min(workers, len(tasks))) as pool:
                for (j, _, _), recs in zip(tasks, pool.imap(_play_chunk, tasks)):
                    results[j].extend(recs)
    finally:
        _WORK.clear()
    return results
