"""Benchmark: what giving each heuristic only its seat's view costs the lab (issue 24, item 5).

    python3 bench/seat_view.py [--games 300]

For every shipped game with decisions and hidden cards, plays the same seeded games
heuristic against heuristic twice in one process: with the engine's heuristic as it is
(reading the real state, as the lab did before) and as the lab now plays it (``seat_view``:
the cards its seat cannot see dealt again before each decision). Prints games per second
both ways and the ratio, and checks that the games came out the same: an honest heuristic
decides the same from its seat's view, so the figures do not move.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from builder.engine.registry import registered_engines  # noqa: E402
from builder.lab.bots import has_decisions, seat_view  # noqa: E402
from builder.lab.run import play_one  # noqa: E402


def run(game, opts, bot, games: int) -> tuple[float, list]:
    n = len(game.new_game(opts, __import__("random").Random(0)).players)
    start = time.perf_counter()
    out = [play_one(game, opts, f"seat:{i}", [bot] * n) for i in range(games)]
    return games / (time.perf_counter() - start), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    print(f"{'game':20} {'bare g/s':>9} {'seat g/s':>9} {'cost':>6}  same games")
    for slug, game in sorted(registered_engines().items()):
        opts = game.resolve({})
        if game.determinizer() is None or not has_decisions(game, opts):
            continue
        bare, a = run(game, opts, game.heuristic, args.games)
        seat, b = run(game, opts, seat_view(game), args.games)
        print(f"{slug:20} {bare:9.0f} {seat:9.0f} {bare / seat:5.2f}x  {a == b}")


if __name__ == "__main__":
    main()
