"""Benchmark: random-bot games per second for each game, on this machine, one process.

    python3 bench/engine.py [--seconds 3] [--json]

Each game is played from seeds 0, 1, 2, ... with the random bot for every player (chance
outcomes from the same seeded generator) until the time is up; the median of 3 runs is
reported, with the mean steps per game and peak memory of one game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import tracemalloc

from builder.engine.core import play_game, random_bot
from builder.engine.registry import registered_engines

GAMES = registered_engines()  # every engine installed packages register, warbook's own included


def run_for(game, seconds: float) -> tuple[float, float]:
    start = time.perf_counter()
    games = steps = 0
    while True:
        _, n = play_game(game, None, games, random_bot)
        games += 1
        steps += n
        if time.perf_counter() - start >= seconds:
            break
    dt = time.perf_counter() - start
    return games / dt, steps / games


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for slug, game in GAMES.items():
        rates, lengths = [], []
        for _ in range(args.runs):
            r, L = run_for(game, args.seconds)
            rates.append(r)
            lengths.append(L)
        tracemalloc.start()
        play_game(game, None, 12345, random_bot)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rows.append({"game": slug, "games_per_s": round(statistics.median(rates), 1),
                     "steps_per_game": round(statistics.median(lengths), 1),
                     "steps_per_s": round(statistics.median(rates) * statistics.median(lengths)),
                     "peak_kib_one_game": round(peak / 1024, 1)})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game':<20}{'games/s':>10}{'steps/game':>12}{'steps/s':>10}{'peak KiB':>10}")
        for r in rows:
            print(f"{r['game']:<20}{r['games_per_s']:>10}{r['steps_per_game']:>12}"
                  f"{r['steps_per_s']:>10}{r['peak_kib_one_game']:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
