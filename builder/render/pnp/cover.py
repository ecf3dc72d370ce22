"""The cover sheet that opens every print-and-play file: contents, what else is needed, the
printing and cutting steps, and a calibration square with the paper and ink named."""

from __future__ import annotations

import datetime as _dt

from markupsafe import Markup

from ... import __version__
from ...settings import Paper
from . import art, layout
from .document import Renderer
from .pieces import CoverRow


def cover_sheet(r: Renderer, paper: Paper, title: str, subtitle: str, rows: list[CoverRow],
                need: str, steps: list[str], need_label: str = "You also need:") -> layout.Sheet:
    """Sheet 1 of every file: what it holds (``rows``), what else is needed, how to print
    and cut it (``steps``) and a calibration square, through components/cover.html.j2."""
    s = layout.Sheet(paper, False, "contents and print check")
    w, h = s.size
    x, y = 15.0, 14.0
    cw = w - 2 * x
    cal_y = h - 15.0 - 50.0 - 6.0
    c = {
        "x": x, "y": y, "w": cw, "h": cal_y - 5.0 - y,
        "paper_name": paper.label, "low": r.ink.low, "title": title,
        "subtitle": subtitle, "rows": rows, "need": need, "steps": steps,
        "need_label": need_label,
        "cal_x": x, "cal_y": cal_y, "cal_text_x": x + 56.0, "cal_text_w": cw - 56.0,
        "square": Markup(art.calibration_square(r.ink)),
        "foot_y": cal_y + 53.0,
        "footer": (f"warbook {__version__} · {_dt.date.today().isoformat()} · "
                   f"{paper.label}{', low ink' if r.ink.low else ''}"),
    }
    s.html = Markup(r.cover_macro(c))
    s.blocks = [layout.Box(x, y, cw, cal_y + 57.0 - y)]
    return s


def print_steps(paper: Paper, duplex_pairs: list[tuple[int, int]], extra: list[str]) -> list[str]:
    """The cover's printing and cutting steps for a file of single and duplex sheets."""
    name = paper.label
    steps = [f"Print on {name} paper at actual size (100 %). Turn off “fit to page”, "
             f"“shrink oversized pages” and borderless printing. Check the square below."]
    for a, b in duplex_pairs:
        steps.append(f"Sheets {a} and {b} are the two sides of one piece of paper: print them "
                     f"double-sided, flipping on the long edge (or print sheet {a}, turn the "
                     f"paper over on its long edge, feed it back and print sheet {b}).")
    steps.append("Cut along the lines that join the crop marks (the short black lines in the "
                 "margins), with a craft knife and a steel ruler or a paper trimmer. "
                 "Art running past a cut line is bleed, there to be cut off.")
    return steps + extra

