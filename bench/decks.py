"""Benchmark: a game played with its own deck against the same game played with the French
52, and the shipped engines before and after a change, in processor seconds.

    python3 bench/decks.py [--games 3000] [--runs 3]
    PYTHONPATH=/path/to/an/older/checkout python3 bench/decks.py --shipped-only

High Five (tests/fixtures/high-five: French cards) and High Colours
(tests/fixtures/high-colours: the same rules played with a deck file of 48 cards whose
fields are attributes) are read from a copy outside the repository and played from seeds
0, 1, ... by random bots; then the six shipped engines play the same seeds. Processor time
(not wall time) is reported, so another process on the machine disturbs it little; run
the script once per checkout and compare (the same seeds give the same games: the step
counts must agree).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from builder.engine.core import play_game, random_bot
from builder.engine.registry import registered_engines

ROOT = Path(__file__).resolve().parents[1]


def timed(gamedef, options, games: int) -> tuple[float, int]:
    t0 = time.process_time()
    steps = 0
    for seed in range(games):
        steps += play_game(gamedef, options, seed, random_bot)[1]
    return time.process_time() - t0, steps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shipped-only", action="store_true")
    args = ap.parse_args()
    out: dict[str, list] = {}
    games: dict[str, tuple] = {}
    if not args.shipped_only:
        from builder.check import run_check

        tmp = Path(tempfile.mkdtemp())
        try:
            for slug in ("high-five", "high-colours"):
                shutil.copytree(ROOT / "tests" / "fixtures" / slug, tmp / "content" / slug)
            (tmp / "content" / "index.yaml").write_text("games: [high-five, high-colours]\n")
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                report = run_check(Path("content"))
            finally:
                os.chdir(cwd)
            assert report.ok, [d.format() for d in report.diagnostics]
            for g in report.games:
                games[g.game.slug] = (g.game.gamedef, {"hand": 5}, args.games)
        finally:
            shutil.rmtree(tmp)
    for slug, gamedef in sorted(registered_engines().items()):
        games[slug] = (gamedef, None, max(1, args.games // 20))
    for _ in range(args.runs):
        for slug, (gamedef, options, n) in games.items():
            seconds, steps = timed(gamedef, options, n)
            out.setdefault(slug, []).append((round(seconds, 3), steps))
    print(json.dumps({slug: {"games": games[slug][2], "cpu_seconds": sorted(s for s, _ in runs),
                             "steps": runs[0][1]} for slug, runs in out.items()}, indent=1))


if __name__ == "__main__":
    main()
