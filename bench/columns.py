"""Benchmark: what balancing the rulebooks' two-column sections costs WeasyPrint.

    python3 bench/columns.py [GAME ...]

For each rulebook (every shipped game by default), in this process, one at a time, its HTML
laid out three ways: ``weasyprint``, with WeasyPrint's own balancing; ``warbook``, as the
build lays it out (:mod:`builder.render.book.columns`: the balanced height found by
bisection); ``auto``, with ``column-fill: auto`` on every column set (the columns filled one
after the other, no balancing: the wrong look for a section that ends mid-page, measured
only as the floor of what balancing costs). Reported per book and way: pages, layout
seconds, the blocks laid out inside column sets (nested ones counted), with the three
costliest column sets (their class, blocks and seconds).

Why: WeasyPrint 70 balances a column set by laying it out again and again, its height
growing by the smallest overflow it has seen so far (at worst one pixel a round): a
glossary of short entries, each kept whole, takes hundreds of rounds. This benchmark says
how much of a rulebook's layout that is, and what the bisection saves.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

AUTO = ("<style>.sec-cols, dl.glossary { column-fill: auto !important; }</style></head>")


def main(argv: list[str]) -> int:
    import weasyprint.layout.block as block
    import weasyprint.layout.column as column

    from builder.check import run_check
    from builder.render.book import columns as bisect
    from builder.render.book.pdf import BookRenderer
    from builder.settings import Settings

    report = run_check(ROOT / "content")
    if not report.ok:
        sys.exit("bench: the shipped content does not pass the check")
    wanted = argv or [g.game.slug for g in report.games]
    renderer = BookRenderer(Settings(content_root=ROOT / "content", output=ROOT / "output"),
                            figures=None)
    counts = {"n": 0}
    sets: list[tuple[int, float, str]] = []
    layout = block.block_box_layout
    stock = bisect._ORIGINAL
    way = {"columns": stock}

    def counted(*a, **k):
        counts["n"] += 1
        return layout(*a, **k)

    def column_set(*a, **k):
        n0, t0 = counts["n"], time.perf_counter()
        block.block_box_layout = counted   # columns_layout imports it when it runs
        try:
            return way["columns"](*a, **k)
        finally:
            block.block_box_layout = layout
            sets.append((counts["n"] - n0, time.perf_counter() - t0,
                         a[1].element.get("class") or a[1].element_tag))

    column.columns_layout = block.columns_layout = column_set
    total = {"weasyprint": 0.0, "warbook": 0.0, "auto": 0.0}
    print(f"{'book':20} {'way':10} {'pages':>5} {'layout s':>9} {'column blocks':>14}  "
          f"costliest column sets (class: blocks, s)")
    for gr in report.games:
        if gr.game.slug not in wanted:
            continue
        _, html = renderer.book_html(gr)
        for fill, text in (("weasyprint", html), ("warbook", html),
                           ("auto", html.replace("</head>", AUTO, 1))):
            way["columns"] = bisect.columns_layout if fill == "warbook" else stock
            counts["n"] = 0
            sets.clear()
            t0 = time.perf_counter()
            doc = renderer._html(text)
            took = time.perf_counter() - t0
            total[fill] += took
            top = ", ".join(f"{c}: {n}, {s:.2f}" for n, s, c in
                            sorted(sets, key=lambda x: -x[1])[:3])
            print(f"{gr.game.slug:20} {fill:10} {len(doc.pages):5} {took:9.2f} "
                  f"{counts['n']:14}  {top}")
    w, b, a = total["weasyprint"], total["warbook"], total["auto"]
    if w:
        print(f"all: {w:.1f} s with WeasyPrint's balancing, {b:.1f} s with the bisection "
              f"({b / w:.2f}x), {a:.1f} s unbalanced; WeasyPrint's balancing is "
              f"{1 - a / w:.0%} of the rulebooks' layout, the bisection's {1 - a / b:.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
