"""Playing many seeded games, on every core, with the same answer whatever the number of
worker processes.

Game ``i`` of a line-up labelled ``label`` under master seed ``seed`` is played from
``random.Random(f"{seed}:{label}:{i}")`` (a string seed is hashed with SHA-512, the same
in every process), so a game's outcome depends on its index alone. The games are cut into
chunks, the chunks played in worker processes (forked, so a designer's own engine file
needs no re-import), and the records put back in index order. Another executor
(:mod:`.executor`: a Dask cluster, :mod:`.cluster`) plays the same chunks elsewhere, with
the same records.

Play is lean: states are made with ``recording = False`` (no table pictures; an engine may
leave out its narration too, docs/writing-an-engine.md, "Lean play"), the pending node is
worked out once per step (``State.node``), and between random bots each decision is drawn
from its own choice and applied without being checked again (``State.apply(drawn=True)``;
a heuristic's decisions are always checked). The engine's rules run in full: it stays the
reference engine, step for step (tests/engine/test_lean_speed_equivalence.py).
"""

from __future__ import annotations

import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from .. import faults
from ..engine.core import GameDef, IllegalDecision, random_bot
from ..errors import WarbookError
from .bots import LabError, make_bot

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


#: one game's record: steps, rounds, winner's seat (0-based; -1 for a draw), capped, then
#: what the design metrics read (docs/balance.md, "Design metrics"): the legal choices
#: summed over every listed decision (one per deciding player at a decision node;
#: ``Choice.size``), the listed decisions, the decisions whose choice is too large to
#: list (``size()`` None, as ``enumerate()``: sampled choices, such as a set of cards), and
#: the step from which the eventual winner led for good (``GameDef.lead``; -1: not
#: measured, a draw, or a game without a lead measure). A game played on the engine's
#: ``fast_random`` path has these from it, or 0, 0, 0, -1 where it gives only four values
Record = tuple[int, int, int, bool, int, int, int, int]


class Plays(Protocol):
    """What plays the chunks elsewhere (:class:`.executor.Executor`, named here by its one
    method so that this module, which the executors import, imports none of them)."""

    def play(self, jobs: list[Job], tasks: list[Task]) -> list[list[Record]]: ...


#: one game's outcome: steps, rounds, winner's seat (0-based; -1 for a draw), capped
Outcome = tuple[int, int, int, bool]


def play_one(gamedef: GameDef, options: dict[str, Any], seed: str,
             bots: Sequence[Callable]) -> Outcome:
    """Play one game and return its outcome (the first four fields of its
    :data:`Record`), the same game :func:`play_measured` plays."""
    steps, rounds, winner, capped = play_measured(gamedef, options, seed, bots)[:4]
    return steps, rounds, winner, capped


def play_measured(gamedef: GameDef, options: dict[str, Any], seed: str,
                  bots: Sequence[Callable]) -> Record:
    """Play one game and return its :data:`Record`: the outcome and what the design
    metrics read (the decisions' choices, the step from which the winner led for good).
    A fault of the game's own code (an exception in its engine, a bot's illegal decision,
    the step bound passed) is raised located, with the game's seed and step
    (:mod:`builder.faults`)."""
    rng = random.Random(seed)
    steps = 0
    try:
        lead = gamedef.lead
        if gamedef.fast_random is not None and all(b is random_bot for b in bots):
            # the same game on numbers (fast_random draws what the loop draws); the design
            # metrics' counts where it gives them (War's and Ultimate's do), else none
            fast = gamedef.fast_random(options, rng)
            steps, rounds, w, capped = fast[:4]
            extra = tuple(fast[4:8]) if len(fast) >= 8 else (0, 0, 0, -1)
            return (steps, rounds, (int(w[1:]) - 1 if w is not None else -1), capped) + extra
        state = gamedef.new_game(options, rng)
        state.recording = False
        players = state.players
        by_player = dict(zip(players, bots))
        # between random bots every decision is a draw from its own choice, made here
        # without the bot's call and not checked again (State.apply's ``drawn``)
        drawn = all(bot is random_bot for bot in bots)
        bound = gamedef.max_steps(options)
        decisions = 0
        listed = choices = unlisted = 0   # the branching factor's counts
        # who leads before each step, and the step since which they have led
        leader, since = (_lead(lead, state, players, gamedef, seed, 0), 0) \
            if lead is not None else (None, 0)
        while state.result is None:
            node = state.node()
            if node is None:
                raise faults.blame(type(state), "the game has no result but nothing is "
                                   "pending (pending() returned None)", _doing(gamedef, seed, steps))
            if node.kind == "chance":
                state.apply_chance(node.choice.sample(rng))
            else:
                for choice in node.choices.values():
                    size = choice.size()
                    if size is None:
                        unlisted += 1
                    else:
                        listed += 1
                        choices += size
                if drawn:
                    chosen = {p: choice.sample(rng) for p, choice in node.choices.items()}
                else:
                    chosen = {p: by_player[p](state, p, rng) for p in node.choices}
                try:
                    state.apply(chosen, drawn=drawn)
                except IllegalDecision as e:
                    raise _illegal(gamedef, state, by_player, chosen, e,
                                   _doing(gamedef, seed, steps)) from None
                decisions += 1
            steps += 1
            if steps > bound:
                raise faults.blame(gamedef.max_steps, f"the game passed its bound of {bound:,} "
                                   f"steps (max_steps) without a result",
                                   _doing(gamedef, seed, steps - 1))
            if lead is not None and state.result is None:
                now = _lead(lead, state, players, gamedef, seed, steps)
                if now != leader:
                    leader, since = now, steps
        rounds = state.view()[gamedef.round_key] if gamedef.round_key else decisions
        w = state.result.winner
        # the winner led for good from ``since`` if it led before the last step, else only
        # the last step put it ahead (the end itself is not a lead: it is the result)
        led = -1 if lead is None or w is None else (since if leader == w else steps)
        return (steps, int(rounds), players.index(w) if w is not None else -1,
                state.result.rule in gamedef.cap_rules, choices, listed, unlisted, led)
    except Exception as e:
        if not isinstance(e, WarbookError):
            for note in _doing(gamedef, seed, steps):
                e.add_note(note)
        raise


def _lead(lead: Callable, state, players, gamedef: GameDef, seed: str, step: int):
    """``GameDef.lead`` read, and held to its contract: a player of the game or None (a
    wrong answer would pass silently as "never led", every game decided at its end)."""
    now = lead(state)
    if now is not None and now not in players:
        raise faults.blame(lead, f"lead() returned {now!r}, which is not a player of the "
                           f"game ({', '.join(players)}) or None (nobody ahead)",
                           _doing(gamedef, seed, step))
    return now


def _doing(gamedef: GameDef, seed: str, step: int) -> tuple[str, ...]:
    return (f"playing {gamedef.slug}, game '{seed}', step {step + 1}",)


def _illegal(gamedef: GameDef, state, by_player: dict, chosen: dict, e: IllegalDecision,
             doing: tuple[str, ...]) -> WarbookError:
    """A bot's decision the engine refused: the bot's fault when it is the game's own
    heuristic, else the engine's (its choice offered a decision its rules then refuse)."""
    who = e.player if e.player in chosen else next(iter(chosen))
    bot = by_player[who]
    bot = getattr(bot, "__wrapped__", bot)   # the heuristic as the lab plays it (seat_view)
    name = getattr(bot, "__name__", "bot")
    said = f"{who} chose {chosen[who]}, which the engine refuses: {e.message}"
    if bot is gamedef.heuristic:
        return faults.blame(bot, f"the heuristic bot made an illegal decision: {said}", doing)
    place = faults.locate(e)
    if place is not None:  # the game's own code refused what its choice had offered
        path, line, function = place
        return faults.EngineFault(path, line, f"the engine refused a decision its own choice "
                                  f"offered (the {name.replace('_', ' ')} picked it from the "
                                  f"legal ones): {said}, in {function}()", doing)
    choice = state.node().choices.get(who) if state.node() is not None else None
    return faults.blame(type(choice) if choice is not None else type(state),
                        f"the {name.replace('_', ' ')} chose a decision its choice offered "
                        f"and the engine then refused: {said}", doing)


# the work of one run, set before the workers are forked (they inherit it)
_WORK: dict[str, Any] = {}

#: a job: engine, options, master seed, line-up
Job = tuple[GameDef, dict[str, Any], int, Lineup]
#: a task: games ``start`` to ``stop - 1`` of job ``job``
Task = tuple[int, int, int]


def _play_chunk(task: Task) -> list[Record]:
    try:
        return _play_games(task)
    except Exception as e:  # noqa: BLE001 - carried to the parent, which raises it
        # plain strings back to the parent: any exception pickles as a Carried, a
        # designer's own too, so a fault can never leave the pool waiting
        raise faults.Carried.of(e) from None


def _play_games(task: Task) -> list[Record]:
    job, start, stop = task
    gamedef, options, seed, lineup = _WORK["jobs"][job]
    return play_chunk(gamedef, options, seed, lineup, start, stop, _WORK.setdefault("bots", {}))


def play_chunk(gamedef: GameDef, options: dict[str, Any], seed: int, lineup: Lineup,
               start: int, stop: int, cache: dict[str, Callable]) -> list[Record]:
    """Games ``start`` to ``stop - 1`` of a line-up, whoever plays them (a forked worker,
    this process, a cluster's worker): the bots are made once per process and engine
    (``cache``)."""
    seated: dict[tuple[str, ...], list[Callable]] = {}   # the bots of each seating
    out = []
    for i in range(start, stop):
        names = lineup.seat_bots(i)
        bots = seated.get(names)
        if bots is None:
            bots = seated[names] = []
            for name in names:
                key = f"{id(gamedef)}:{name}"
                if key not in cache:
                    cache[key] = make_bot(name, gamedef)
                bots.append(cache[key])
        out.append(play_measured(gamedef, options, f"{seed}:{lineup.label}:{i}", bots))
    return out


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def play_many(jobs: list[tuple[GameDef, dict[str, Any], int, Lineup, int]],
              workers: int | None = None, executor: Plays | None = None
              ) -> list[list[Record]]:
    """Play every job (engine, options, seed, line-up, games) and return each job's
    records in game order. ``workers`` processes (default: every core); 1 plays here.
    ``executor`` (:mod:`.executor`): where else to play them, such as a Dask cluster."""
    return play_ranges([((g, o, s, lineup), 0, games) for g, o, s, lineup, games in jobs],
                       workers, executor=executor)


def searches(bots: Sequence[str]) -> bool:
    """Whether a line-up has a search bot (``search``, or one of a budget: ``search:4``),
    whose games are slow and played in small chunks."""
    return any(b == "search" or b.startswith("search:") for b in bots)


def tasks_of(ranges: list[tuple[Job, int, int]]) -> list[Task]:
    """The chunks of the ranges, whoever plays them: :data:`CHUNK` games a task
    (:data:`SEARCH_CHUNK` with the search bot), from each range's start."""
    tasks = []
    for j, (job, first, stop) in enumerate(ranges):
        size = SEARCH_CHUNK if searches(job[3].bots) else CHUNK
        for start in range(first, stop, size):
            tasks.append((j, start, min(start + size, stop)))
    return tasks


def play_ranges(ranges: list[tuple[Job, int, int]], workers: int | None = None,
                executor: Plays | None = None) -> list[list[Record]]:
    """Games ``start`` to ``stop - 1`` of each job (engine, options, seed, line-up), in the
    same chunks on the same forked workers as :func:`play_many`: game ``i`` is the same game
    however the games before it were played (the lab's adaptive rounds go on from where
    the last round stopped). With an ``executor`` the same chunks are played there."""
    tasks = tasks_of(ranges)
    jobs = [job for job, _, _ in ranges]
    if executor is not None:
        played = executor.play(jobs, tasks)
    else:
        played = play_local(jobs, tasks, workers)
    results: list[list[Record]] = [[] for _ in ranges]
    for (j, _, _), recs in zip(tasks, played):
        results[j].extend(recs)
    return results


def play_local(jobs: list[Job], tasks: list[Task], workers: int | None = None
               ) -> list[list[Record]]:
    """Each task's records, in task order, played here (one worker, or a single task) or
    on ``workers`` forked processes (default: every core): the local pool."""
    workers = workers or default_workers()
    _WORK.clear()
    _WORK["jobs"] = jobs
    try:
        if workers == 1 or len(tasks) <= 1:
            return [_play_games(task) for task in tasks]
        return _play_in_workers(tasks, min(workers, len(tasks)))
    finally:
        _WORK.clear()


def _play_in_workers(tasks: list[Task], workers: int) -> list[list[Record]]:
    """The chunks on forked worker processes (a designer's engine file needs no re-import),
    handed back in task order whichever worker played them. A fault in a worker ends the
    run at once with the fault located; a worker that dies (a signal, the memory) ends it
    too; either way no worker is left behind."""
    ctx = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(workers, mp_context=ctx)
    done = False
    try:
        out = list(pool.map(_play_chunk, tasks))
        done = True
        return out
    except faults.Carried as e:
        raise e.error() from None
    except BrokenProcessPool:
        raise LabError("a worker process playing the games stopped without a word (killed "
                       "by a signal, or out of memory); nothing was measured") from None
    finally:
        if not done:  # a fault, Ctrl-C: the other workers' games are not waited for
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
        pool.shutdown(wait=True, cancel_futures=True)
