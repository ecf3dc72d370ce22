"""Benchmark: the processor time each product of a clean render costs, one at a time.

    python3 bench/render_cpu.py [books] [components] [site]

Each product of the shipped content rendered alone, in this process (no fork, no pool),
into a temporary folder, with the balance figures as the content holds them: the rulebooks
and the compendium (every book laid out and written, the front matter laid out, the
compendium bound), the component sheets with the deck and every PNG, the website. Reported:
wall and processor seconds per product, and their sum.

Why: a clean render (``warbook build --clean``) runs these on two cores at once (the
rulebooks shared between this process and a forked child, the sheets in another child), so
its wall time can never be less than half their summed processor time, and never less than
the rulebooks' half alone. This is the floor that says what the clean render's target
(issue 26: under 15 s on two cores) asks of each product; ``bench/targets.py`` measures the
wall time a user waits.
"""

from __future__ import annotations

import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(which: list[str]) -> None:
    from builder.check import run_check
    from builder.lab.figures import book_figures
    from builder.settings import Settings

    report = run_check(ROOT / "content")
    total_wall = total_cpu = 0.0
    for what in which:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            settings = Settings(content_root=ROOT / "content", output=out)
            figures = book_figures(report, out=out, quick=True)
            t0, c0 = time.perf_counter(), time.process_time()
            if what == "books":
                from builder.build.products import BookRun

                pdf = out / "pdf"
                pdf.mkdir()
                run = BookRun(report, settings, figures, pdf)
                run.order = list(report.games)
                run._next = multiprocessing.get_context("fork").Value("i", 0)
                run.lay_out_front(report.games)
                infos = {i.slug: i for i in run._write()}
                run.bind([infos[g.game.slug] for g in report.games], pdf / "compendium.pdf")
            elif what == "components":
                from builder.render import pnp

                pnp.render_all(report, report.games, out, settings, whole=True)
            elif what == "site":
                from builder.render.site.pages import render_site

                render_site(report, out, settings, figures=figures)
            else:
                sys.exit(f"bench: no product {what!r} (books, components, site)")
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        total_wall += wall
        total_cpu += cpu
        print(f"{what:<11} wall {wall:6.1f} s   processor {cpu:6.1f} s", flush=True)
    print(f"{'sum':<11} wall {total_wall:6.1f} s   processor {total_cpu:6.1f} s"
          f"   (two cores: at least {total_cpu / 2:.1f} s)")


if __name__ == "__main__":
    main(sys.argv[1:] or ["books", "components", "site"])
