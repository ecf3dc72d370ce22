"""Benchmark: what giving each heuristic only its seat's view costs the lab (issue 24, item 5).

    python3 bench/seat_view.py [--games 300]

For every game with decisions and hidden cards (the shipped ones and the High Five fixture),
plays the same seeded games heuristic against heuristic twice in one process: with the
engine's heuristic reading the real state, and from its seat's view: the cards its seat
cannot see dealt again before each decision, in place where the state declares ``piles()``
(what the lab does), or on a copy made by the engine's own ``determinize`` (what the lab
would do for the shipped engines, which it leaves to the kit's peek check instead). Prints
games per second both ways and the ratio, and checks that the games came out the same: an
honest heuristic decides the same from its seat's view, so the figures do not move.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random

from builder.engine.core import redeal_in_place, restore
from builder.engine.registry import load_engine_file, registered_engines
from builder.lab.bots import has_decisions
from builder.lab.run import play_one

ROOT = Path(__file__).resolve().parent.parent


def from_seat(game):
    """The heuristic given its seat's view: in place (piles) or on a determinized copy."""
    heuristic = game.heuristic

    def bot(state, player, rng):
        luck = random.Random(state.steps)
        if game.determinize is not None:
            return heuristic(game.determinize(state, player, luck), player, rng)
        saved = redeal_in_place(state, player, luck)
        try:
            return heuristic(state, player, rng)
        finally:
            restore(state, saved)
    return bot


def run(game, opts, bot, games: int) -> tuple[float, list]:
    n = len(game.new_game(opts, random.Random(0)).players)
    start = time.perf_counter()
    out = [play_one(game, opts, f"seat:{i}", [bot] * n) for i in range(games)]
    return games / (time.perf_counter() - start), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    print(f"{'game':20} {'bare g/s':>9} {'seat g/s':>9} {'cost':>6}  same games  how")
    games = dict(sorted(registered_engines().items()))
    games["high-five"] = load_engine_file(ROOT / "tests" / "fixtures" / "high-five" / "engine.py")
    for slug, game in games.items():
        opts = game.resolve({})
        if game.determinizer() is None or not has_decisions(game, opts):
            continue
        bare, a = run(game, opts, game.heuristic, args.games)
        seat, b = run(game, opts, from_seat(game), args.games)
        how = "copy (determinize)" if game.determinize is not None else "in place (piles)"
        print(f"{slug:20} {bare:9.0f} {seat:9.0f} {bare / seat:5.2f}x  {str(a == b):10}  {how}")


if __name__ == "__main__":
    main()
