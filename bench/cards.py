"""How fast the card art is drawn: 52 full faces from a cold cache, and again from the warm
cache (the card art is drawn once a build; the rulebooks, sheets and site reuse it), and
the website rendered from a checked report.

    python3 bench/cards.py

Each figure is the best of five runs (the machine's noise only ever adds time)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from builder.check import run_check
from builder.engine.core import full_deck
from builder.render import cards
from builder.render.site.pages import render_site
from builder.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def cold() -> None:
    cards._card_face.cache_clear()
    for card in full_deck():
        cards.card_face(card)


def warm() -> None:
    for card in full_deck():
        cards.card_face(card)


def main() -> None:
    print(f"52 full faces, cold cache: {best_of(5, cold) * 1000:.1f} ms")
    print(f"52 full faces, warm cache: {best_of(5, warm) * 1000:.2f} ms")
    report = run_check(ROOT / "content")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(ROOT / "content", Path(tmp) / "output")
        print(f"website ({len(report.games)} games): "
              f"{best_of(5, lambda: render_site(report, Path(tmp), settings)):.2f} s")


if __name__ == "__main__":
    main()
