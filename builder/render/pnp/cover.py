"""The cover sheet that opens every print-and-play file: contents, what else is needed, the
printing and cutting steps, and a calibration square with the paper and ink named; and the
order of a file's pages (:func:`duplex_file`).

A file with backs is printed whole, double-sided, flipped on the long edge (the flip every
back is mirrored for: :meth:`layout.Box.mirrored`). A piece of paper then carries pages 1
and 2, 3 and 4, and so on, so :func:`duplex_file` puts every sheet of fronts on an odd page
with its backs on the even page after it, and gives every other sheet (the cover, a mat, a
sheet of aids) a side of paper of its own: the even page after it is left blank (a *blank*
sheet, which says so in its label), since pieces are cut from it and nothing may be printed
behind them. A file without backs is printed single-sided and gets no blank pages.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field, replace

from markupsafe import Markup, escape

from ... import __version__
from ...settings import Paper
from . import art, layout
from .document import Renderer
from .pieces import ComponentError, CoverRow, number_sheets


@dataclass
class CoverSheet(layout.Sheet):
    """The cover: a sheet whose free content is drawn from ``context`` (the cover macro's),
    kept so that :func:`duplex_file` can draw it again with the sheets renumbered."""

    context: dict = field(default_factory=dict)


def cover_sheet(r: Renderer, paper: Paper, title: str, subtitle: str, rows: list[CoverRow],
                need: str, steps: list[str], need_label: str = "You also need:") -> layout.Sheet:
    """Sheet 1 of every file: what it holds (``rows``), what else is needed, how to print
    and cut it (``steps``) and a calibration square, through components/cover.html.j2."""
    s = CoverSheet(paper, False, "contents and print check")
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
        "square": Markup(titled(art.calibration_square(r.ink), CALIBRATION_ALT)),
        "foot_y": cal_y + 53.0,
        "footer": (f"warbook {__version__} · {_dt.date.today().isoformat()} · "
                   f"{paper.label}{', low ink' if r.ink.low else ''}"),
    }
    s.context = c
    s.html = Markup(r.cover_macro(c))
    s.blocks = [layout.Box(x, y, cw, cal_y + 57.0 - y)]
    return s


#: the calibration square, in words (its figure's alternative text, PDF/UA)
CALIBRATION_ALT = ("A square 50 mm across with millimetre ticks, to check that the page "
                   "printed at actual size")


def titled(svg: str, title: str) -> str:
    """``svg`` with ``title`` as its first child, the words WeasyPrint gives its figure in
    the tag tree."""
    head, sep, rest = svg.partition(">")
    return f"{head}{sep}<title>{escape(title)}</title>{rest}"


def print_steps(paper: Paper, duplex_pairs: list[tuple[int, int]], extra: list[str]) -> list[str]:
    """The cover's printing and cutting steps for a file of single sheets and, when
    ``duplex_pairs`` holds any, sheets with backs (the file :func:`duplex_file` orders)."""
    name = paper.label
    steps = [f"Print on {name} paper at actual size (100 %). Turn off “fit to page”, "
             f"“shrink oversized pages” and borderless printing. Check the square below."]
    steps += duplex_steps() if duplex_pairs else [SINGLE_SIDED]
    steps.append("Cut along the lines that join the crop marks (the short black lines in the "
                 "margins), with a craft knife and a steel ruler or a paper trimmer. "
                 "Art running past a cut line is bleed, there to be cut off.")
    return steps + extra


#: the step of a file without backs
SINGLE_SIDED = ("Print the whole file single-sided: pieces are cut from every sheet, so "
                "nothing may be printed on the back of one.")


def duplex_steps() -> list[str]:
    """How to print a file :func:`duplex_file` ordered: whole, double-sided, long edge."""
    return [
        "Print the whole file double-sided, flipping on the long edge (“long-edge binding”, "
        "usually the default). Each sheet of fronts is followed by its backs, so every back "
        "lands behind its front; the pages left blank on purpose keep that order: print them too "
        "(turn off “skip blank pages”).",
        "No duplex printer? Print the odd pages, put the stack back in the tray to print on "
        "its other side, turned over on its long edge, then print the even pages. Try pages 1 "
        "and 2 first: printers feed paper differently.",
    ]


# --------------------------------------------------------------------------- page order
def blank_sheet(paper: Paper, landscape: bool, of: int) -> layout.Sheet:
    """The side of paper behind sheet ``of`` (a sheet with no back), left blank on purpose;
    its label, in the margin, says so (a printer set to skip blank pages keeps it)."""
    return layout.Sheet(paper, landscape, f"left blank on purpose, the back of sheet {of}",
                        side="blank")


def duplex_file(r: Renderer, sheets: list[layout.Sheet]) -> list[layout.Sheet]:
    """The pages of a file, numbered, in the order a whole-file double-sided print needs
    (long-edge flip): each front on an odd page and its back on the even page after it;
    every other sheet on an odd page with a blank page after it, unless it is the last page.
    ``sheets`` is the file's sheets in their order (the cover first, each back right after
    its front). A file without backs is returned as it is, numbered. The cover's table is
    renumbered and drawn again."""
    for i, s in enumerate(sheets):
        if s.side == "back" and (i == 0 or sheets[i - 1].side != "front"):
            raise ComponentError(f"sheet '{s.title}' is a back with no front before it")
        if s.side == "front" and (i + 1 == len(sheets) or sheets[i + 1].side != "back"):
            raise ComponentError(f"sheet '{s.title}' is a front with no back after it")
    if not any(s.side == "back" for s in sheets):
        return number_sheets(sheets)
    out: list[layout.Sheet] = []
    number: dict[int, int] = {}     # a sheet's number in ``sheets`` -> its page
    for i, s in enumerate(sheets):
        if len(out) % 2 and s.side != "back":   # the last page is the front of a paper
            out.append(blank_sheet(s.paper, out[-1].landscape, len(out)))
        out.append(s)
        number[i + 1] = len(out)
    out = number_sheets(out)
    for s in out:
        if isinstance(s, CoverSheet) and s.context:
            rows = [replace(row, sheets=_renumber(row.sheets, number))
                    for row in s.context["rows"]]
            s.context = dict(s.context, rows=rows)
            s.html = Markup(r.cover_macro(s.context))
    return out


def _renumber(text: str, number: dict[int, int]) -> str:
    """A cover row's sheets ("2 to 9", "4, 5") with every sheet number made a page number."""
    return re.sub(r"\d+", lambda m: str(number.get(int(m.group()), m.group())), text)
