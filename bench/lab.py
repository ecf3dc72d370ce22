"""Benchmark: the balance lab's speed targets (issue 16), measured in one run.

    python3 bench/lab.py [--games 10000] [--ultimate 200000] [--skip-figures]

1. Ultimate between random bots, games per second on every core (the lab's fast path,
   proven equal to the engine by tests/lab/test_lab.py), and on the reference engine without
   it; beside OpenSpiel's C++ Goofspiel (13 cards, random point order, random play driven
   from Python, the usual way to use pyspiel), in one process and in two. Two targets: the
   fast path at least OpenSpiel's rate, the reference engine (lean play, no fast path) at
   least half of it, each against the faster OpenSpiel figure of the same run. OpenSpiel
   is an optional benchmark dependency (``pip install open_spiel``); without it that
   comparison is skipped with a message.
2. ``--games`` random-bot games of every shipped game (Peace is War's engine with the
   lower card winning), on every core, in all.
3. The figures of all seven books from a cold cache (a fresh temporary cache folder).
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.content import load_content  # noqa: E402
from builder.lab.run import Lineup, default_workers, play_many  # noqa: E402


def cpu() -> float:
    """Processor seconds of this process and its finished children (the workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def goofspiel_games(n: int, seed: int = 0) -> int:
    import pyspiel

    game = pyspiel.load_game("goofspiel", {"num_cards": 13, "points_order": "random",
                                           "imp_info": True})
    rng = random.Random(seed)
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            elif s.is_simultaneous_node():
                s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(2)])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    return n


def openspiel_rate(n: int, processes: int) -> float:
    t = time.perf_counter()
    if processes == 1:
        goofspiel_games(n)
    else:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            pool.starmap(goofspiel_games, [(n // processes, i) for i in range(processes)])
    return n / (time.perf_counter() - t)


def lab_rate(gamedef, options, n: int, workers: int, fast: bool = True) -> float:
    if not fast:   # the reference engine: the same game without its fast path
        gamedef = dataclasses.replace(gamedef, fast_random=None)
    t = time.perf_counter()
    play_many([(gamedef, options, 0, Lineup("bench", ("random", "random")), n)], workers)
    return n / (time.perf_counter() - t)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000, help="games of every game (target 2)")
    ap.add_argument("--ultimate", type=int, default=200_000, help="Ultimate games (target 1)")
    ap.add_argument("--skip-figures", action="store_true")
    args = ap.parse_args()
    workers = default_workers()
    content, diags = load_content(ROOT / "content")
    assert not diags.errors, [d.format() for d in diags.errors]
    ult = content.game("ultimate")
    opts = ult.gamedef.resolve(ult.option_defaults())
    print(f"{workers} worker processes; load average {os.getloadavg()[0]:.1f} at the start")

    print("\n1. Ultimate, random bots, games per second")
    fast = lab_rate(ult.gamedef, opts, args.ultimate, workers)
    print(f"   warbook lab, fast path, {workers} workers: {fast:,.0f}")
    # the reference engine and OpenSpiel play as many games each, so that the start of the
    # worker processes weighs the same on both
    n = max(2000, args.ultimate // 4)
    ref = lab_rate(ult.gamedef, opts, n, workers, fast=False)
    print(f"   warbook lab, reference engine (lean), {workers} workers: {ref:,.0f} "
          f"(the fast path is {fast / ref:.1f} x this)")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("   OpenSpiel: not installed (pip install open_spiel); comparison skipped")
    else:
        one = openspiel_rate(n, 1)
        two = openspiel_rate(n, workers)
        best = max(one, two)
        print(f"   OpenSpiel Goofspiel (C++, driven from Python), 1 process: {one:,.0f}")
        print(f"   OpenSpiel Goofspiel, {workers} processes: {two:,.0f}")
        print(f"   target (fast path at least OpenSpiel's rate): "
              f"{'met' if fast >= best else 'NOT met'} ({fast / best:.2f} x the faster "
              f"OpenSpiel figure)")
        print(f"   target (reference engine at least half OpenSpiel's rate): "
              f"{'met' if ref >= 0.5 * best else 'NOT met'} ({ref / best:.2f} x the faster "
              f"OpenSpiel figure)")

    print(f"\n2. {args.games:,} random-bot games of every game, {workers} workers")
    jobs = []
    for g in content.games:
        o = g.gamedef.resolve(g.option_defaults())
        n = len(g.gamedef.new_game(o, random.Random(0)).players)
        jobs.append((g.gamedef, o, 0, Lineup(f"bench-{g.slug}", ("random",) * n), args.games))
    t, c = time.perf_counter(), cpu()
    play_many(jobs, workers)
    total, used = time.perf_counter() - t, cpu() - c
    print(f"   {len(jobs)} games x {args.games:,}: {total:.1f} s in all (target under 60 s: "
          f"{'met' if total < 60 else 'NOT met'}); {used:.1f} s of processor time, so "
          f"{used / workers:.1f} s on {workers} idle cores")

    if not args.skip_figures:
        print("\n3. the figures of every book from a cold cache")
        with tempfile.TemporaryDirectory() as cache:
            os.environ["WARBOOK_CACHE"] = cache
            os.environ.pop("WARBOOK_LAB_GAMES", None)
            from builder.lab.figures import figures
            t, c = time.perf_counter(), cpu()
            for g in content.games:
                t1 = time.perf_counter()
                figures(g)
                print(f"   {g.slug}: {time.perf_counter() - t1:.1f} s")
            total, used = time.perf_counter() - t, cpu() - c
            t = time.perf_counter()
            for g in content.games:
                figures(g)
            warm = time.perf_counter() - t
        print(f"   all seven: {total:.1f} s cold (target under 120 s: "
              f"{'met' if total < 120 else 'NOT met'}); {used:.1f} s of processor time, so "
              f"{used / workers:.1f} s on {workers} idle cores; {warm:.2f} s from the cache")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end (the machine is shared: "
          f"compare figures measured together)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
