"""Exact geometry of print-and-play sheets, in millimetres, computed before anything is drawn.

A :class:`Sheet` is one side of one piece of paper: a page of a paper of
:data:`builder.settings.PAPERS` (A4 or US Letter, portrait or landscape) holding
:class:`Item` s, each with a *trim* box (where it is cut) and a *bleed* on each side (how far
its art runs past the trim). From the items alone this module derives

* the **cut lines**: every distinct x of a left or right trim edge (vertical lines) and every
  distinct y of a top or bottom edge (horizontal lines);
* the **crop marks**: a short line at each end of each cut line, in the page margin, starting
  :data:`MARK_GAP` outside the outermost art (so never over art or bleed) and never inside the
  :data:`MARGIN` that home printers cannot print;
* the sheet **label**, in the margin between the crop marks;
* the PDF **TrimBox** (the union of the trims) and **BleedBox** (the union of the art).

Conventions (after the common print-and-play how-tos and Squib's sprues): 5 mm page margin,
3 mm bleed where art runs to the trim, crop marks 0.2 mm thick. Items that abut share a cut
line (cards: bleed only on the outer edges of the block); items with art that bleeds stand
at least two bleeds apart so that each has its own cut lines. :func:`check_sheet` proves a
layout: everything inside the printable area, no overlaps, no cut line through another
item, marks outside every trim and every bleed.

Coordinates run from the page's top-left corner, x to the right and y down.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from ...settings import Paper
from ..errors import RenderError

MARGIN = 5.0          # nothing is printed closer than this to the paper's edge
BLEED = 3.0           # art that runs to the trim runs on this far past it
MARK_WIDTH = 0.2      # crop mark thickness (0.15 to 0.25 mm)
MARK_GAP = 1.0        # clear paper between the art (bleed included) and a crop mark
MARK_LEN = 5.0        # a crop mark's length where the margin allows
MARK_MIN = 1.5        # the shortest mark worth printing
PX_PER_MM = 96 / 25.4  # CSS pixels per millimetre (WeasyPrint's unit)
PT_PER_MM = 72 / 25.4
EPS = 1e-6


class LayoutError(RenderError, ValueError):
    """Pieces that do not fit the sheet as asked."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def grow(self, left: float, top: float, right: float, bottom: float) -> "Box":
        return Box(self.x - left, self.y - top, self.w + left + right, self.h + top + bottom)

    def overlaps(self, other: "Box", tol: float = 1e-6) -> bool:
        return (self.x < other.right - tol and other.x < self.right - tol
                and self.y < other.bottom - tol and other.y < self.bottom - tol)

    def inside(self, other: "Box", tol: float = 1e-6) -> bool:
        return (self.x >= other.x - tol and self.y >= other.y - tol
                and self.right <= other.right + tol and self.bottom <= other.bottom + tol)

    def mirrored(self, page_w: float) -> "Box":
        """The box seen through the paper after a flip on the long (vertical) edge."""
        return Box(page_w - self.right, self.y, self.w, self.h)


def union(boxes: Iterable[Box]) -> Box | None:
    boxes = list(boxes)
    if not boxes:
        return None
    x0 = min(b.x for b in boxes)
    y0 = min(b.y for b in boxes)
    x1 = max(b.right for b in boxes)
    y1 = max(b.bottom for b in boxes)
    return Box(x0, y0, x1 - x0, y1 - y0)


@dataclass
class Item:
    """One component on a sheet. ``bleed`` is (left, top, right, bottom) in mm."""

    box: Box
    kind: str
    name: str
    bleed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    html: str = ""           # markup drawn in the art box (trim plus bleed)
    rotate: int = 0          # 0 or 180: the art is turned (gutter-fold backs)
    size_label: str = ""     # "63 x 88 mm", for lists and tests
    ref: str = ""            # a shared artwork (a card), placed once per use as a PDF form
    ref_bleed: float = 0.0   # how far that artwork runs past the trim on every side
    band: int = 0            # the block of the sheet it is in (see ``bands``)

    @property
    def art(self) -> Box:
        left, top, right, bottom = self.bleed
        return self.box.grow(left, top, right, bottom)

    def mirrored(self, page_w: float, html: str | None = None) -> "Item":
        left, top, right, bottom = self.bleed
        return replace(self, box=self.box.mirrored(page_w), bleed=(right, top, left, bottom),
                       html=self.html if html is None else html)


@dataclass(frozen=True)
class Mark:
    """A crop mark: a line from (x1, y1) to (x2, y2), :data:`MARK_WIDTH` thick."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x2) < EPS

    def box(self) -> Box:
        """The inked rectangle."""
        half = MARK_WIDTH / 2
        if self.vertical:
            y0, y1 = sorted((self.y1, self.y2))
            return Box(self.x1 - half, y0, MARK_WIDTH, y1 - y0)
        x0, x1 = sorted((self.x1, self.x2))
        return Box(x0, self.y1 - half, x1 - x0, MARK_WIDTH)


@dataclass
class Label:
    text: str
    x: float         # centre of the text line
    y: float
    size_pt: float
    rotate: int = 0  # 0, or -90 (reads upwards in the left margin)
    box: Box | None = None


@dataclass
class Sheet:
    paper: Paper
    landscape: bool
    title: str                  # "stone tokens, fronts"
    items: list[Item] = field(default_factory=list)
    side: str = "single"        # single | front | back | fold | blank (a back left empty)
    html: str = ""              # free content (cover pages), drawn under the items
    blocks: list[Box] = field(default_factory=list)  # where the free content inks
    number: int = 0
    total: int = 0
    note: str = ""              # appended to the label ("print on the back of sheet 2")
    fold_y: float | None = None  # gutter fold line
    marks: list[Mark] = field(default_factory=list)
    label: Label | None = None

    @property
    def size(self) -> tuple[float, float]:
        w, h = self.paper.width, self.paper.height
        return (h, w) if self.landscape else (w, h)

    @property
    def page(self) -> Box:
        w, h = self.size
        return Box(0.0, 0.0, w, h)

    @property
    def printable(self) -> Box:
        w, h = self.size
        return Box(MARGIN, MARGIN, w - 2 * MARGIN, h - 2 * MARGIN)

    @property
    def label_text(self) -> str:
        text = f"Sheet {self.number} of {self.total}: {self.title}"
        return f"{text} ({self.note})" if self.note else text

    def trim_box(self) -> Box:
        return union(i.box for i in self.items) or self.page

    def bleed_box(self) -> Box:
        return union(i.art for i in self.items) or self.page

    def cut_lines(self) -> tuple[list[float], list[float]]:
        return cut_lines(self.items)


# --------------------------------------------------------------------------- grids
def grid(page_w: float, page_h: float, count: int, cols: int, rows: int, w: float, h: float, *,
         gap: float = 0.0, bleed: float = 0.0, top: float | None = None,
         filled: int | None = None) -> list[tuple[Box, tuple[float, float, float, float]]]:
    """Trim boxes and bleeds of ``count`` slots of a ``cols`` x ``rows`` grid centred on the
    page (horizontally always; vertically unless ``top`` is given), filled row by row.

    ``gap == 0``: the items abut and share their cut lines; bleed is given only on edges that
    face outwards (the block's outside, or an empty slot). ``gap > 0``: every item has its own
    cut lines and bleed on every side; the gap must hold two bleeds.
    """
    if count > cols * rows:
        raise LayoutError(f"{count} items do not fit a {cols} x {rows} grid")
    if gap and gap + EPS < 2 * bleed:
        raise LayoutError(f"a gap of {gap} mm cannot hold two bleeds of {bleed} mm")
    total_w = cols * w + (cols - 1) * gap
    total_h = rows * h + (rows - 1) * gap
    x0 = (page_w - total_w) / 2
    y0 = (page_h - total_h) / 2 if top is None else top
    used = count if filled is None else filled
    out = []
    for i in range(count):
        r, c = divmod(i, cols)
        box = Box(x0 + c * (w + gap), y0 + r * (h + gap), w, h)
        if gap or not bleed:
            out.append((box, (bleed, bleed, bleed, bleed)))
            continue

        def empty(rr: int, cc: int) -> bool:
            return not (0 <= rr < rows and 0 <= cc < cols) or rr * cols + cc >= used

        out.append((box, (bleed if empty(r, c - 1) else 0.0, bleed if empty(r - 1, c) else 0.0,
                          bleed if empty(r, c + 1) else 0.0, bleed if empty(r + 1, c) else 0.0)))
    return out


# --------------------------------------------------------------------------- cut lines
def _distinct(values: Iterable[float], tol: float = 0.01) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tol:
            out.append(v)
    return out


def cut_lines(items: Iterable[Item]) -> tuple[list[float], list[float]]:
    """(x of every vertical cut line, y of every horizontal one)."""
    items = list(items)
    xs = _distinct(v for i in items for v in (i.box.x, i.box.right))
    ys = _distinct(v for i in items for v in (i.box.y, i.box.bottom))
    return xs, ys


def bands(items: Iterable[Item]) -> list[list[Item]]:
    """The sheet's blocks, top to bottom. A sheet packed with the pieces of two components
    (``pack``) holds them in bands one above the other, :data:`BAND_GAP` apart: the paper
    is first cut apart between the bands (a horizontal cut line, marked in the side
    margins), then each band on its own lines, whose marks stand just above and below it."""
    by: dict[int, list[Item]] = {}
    for it in items:
        by.setdefault(it.band, []).append(it)
    return [by[k] for k in sorted(by)]


#: clear paper between the art of two bands: a crop mark and its gap on each side
BAND_GAP = 2 * (MARK_GAP + MARK_LEN) + 2.0


def crop_marks(sheet: Sheet) -> list[Mark]:
    """A mark at both ends of every cut line, in the margin outside all the art; on a sheet
    of several bands, each band's vertical lines are marked just above and below the band."""
    if not sheet.items:
        return []
    groups = bands(sheet.items)
    if len(groups) > 1:
        return _band_marks(sheet, groups)
    art = sheet.bleed_box()
    pr = sheet.printable
    xs, ys = sheet.cut_lines()
    marks = []

    def span(inner: float, outer_limit: float, sign: int) -> tuple[float, float] | None:
        start = inner + sign * MARK_GAP
        room = (outer_limit - start) * sign
        length = min(MARK_LEN, room)
        if length < MARK_MIN - EPS:
            return None
        return start, start + sign * length

    for x in xs:
        for inner, limit, sign in ((art.y, pr.y, -1), (art.bottom, pr.bottom, 1)):
            s = span(inner, limit, sign)
            if s:
                marks.append(Mark(x, s[0], x, s[1]))
    for y in ys:
        for inner, limit, sign in ((art.x, pr.x, -1), (art.right, pr.right, 1)):
            s = span(inner, limit, sign)
            if s:
                marks.append(Mark(s[0], y, s[1], y))
    return marks


def _band_marks(sheet: Sheet, groups: list[list[Item]]) -> list[Mark]:
    pr = sheet.printable
    arts = [union(i.art for i in g) for g in groups]
    marks = []
    for k, (g, art) in enumerate(zip(groups, arts)):
        above = arts[k - 1].bottom + MARK_GAP if k else pr.y
        below = arts[k + 1].y - MARK_GAP if k + 1 < len(arts) else pr.bottom
        xs, ys = cut_lines(g)
        for x in xs:
            for inner, limit, sign in ((art.y, above, -1), (art.bottom, below, 1)):
                start = inner + sign * MARK_GAP
                length = min(MARK_LEN, (limit - start) * sign,
                             (BAND_GAP / 2 - MARK_GAP) if limit not in (pr.y, pr.bottom) else MARK_LEN)
                if length >= MARK_MIN - EPS:
                    marks.append(Mark(x, start, x, start + sign * length))
        for y in ys:
            for inner, limit, sign in ((art.x, pr.x, -1), (art.right, pr.right, 1)):
                start = inner + sign * MARK_GAP
                length = min(MARK_LEN, (limit - start) * sign)
                if length >= MARK_MIN - EPS:
                    marks.append(Mark(start, y, start + sign * length, y))
    return marks


# --------------------------------------------------------------------------- labels
LABEL_PT = 7.0
LABEL_MIN_PT = 5.0
PT = 25.4 / 72


def text_width(text: str, size_pt: float) -> float:
    """A generous estimate of the width of Cabin text in mm."""
    return len(text) * size_pt * PT * 0.53


def _free_intervals(lo: float, hi: float, blocked: list[tuple[float, float]]):
    cur = lo
    for a, b in sorted(blocked):
        if b <= cur:
            continue
        if a > cur:
            yield cur, min(a, hi)
        cur = max(cur, b)
        if cur >= hi:
            return
    if cur < hi:
        yield cur, hi


def place_label(sheet: Sheet) -> Label:
    """The sheet label, in the top margin if it fits between the marks there, else the
    bottom, else turned in the left margin; on pages with no items, at the top."""
    text = sheet.label_text
    pr = sheet.printable
    ink = [i.art for i in sheet.items] + list(sheet.blocks)
    art = union(ink)
    clear = 0.6
    candidates = []
    if art is None:
        candidates.append(("top", pr.y, pr.y + 4.0, pr.x, pr.right))
    else:
        candidates.append(("top", pr.y, art.y - clear, pr.x, pr.right))
        candidates.append(("bottom", art.bottom + clear, pr.bottom, pr.x, pr.right))
        candidates.append(("left", pr.x, art.x - clear, pr.y, pr.bottom))
        candidates.append(("right", art.right + clear, pr.right, pr.y, pr.bottom))
    for where, a, b, lo, hi in candidates:
        depth = b - a
        size = min(LABEL_PT, (depth - 0.3) / (PT * 1.25))
        if size < LABEL_MIN_PT:
            continue
        line = size * PT * 1.25
        # the label's band: at the outer edge of the margin, by the paper's edge
        if where in ("top", "left"):
            b0, b1 = a, a + line
        else:
            b0, b1 = b - line, b
        blocked = []
        for m in sheet.marks:
            mb = m.box()
            if where in ("top", "bottom"):
                if mb.y < b1 and mb.bottom > b0:
                    blocked.append((mb.x - 1.5, mb.right + 1.5))
            elif mb.x < b1 and mb.right > b0:
                blocked.append((mb.y - 1.5, mb.bottom + 1.5))
        for s in range(int(size * 2), int(LABEL_MIN_PT * 2) - 1, -1):
            pt = s / 2
            need = text_width(text, pt) + 2
            spans = [(x0, x1) for x0, x1 in _free_intervals(lo, hi, blocked) if x1 - x0 >= need]
            if not spans:
                continue
            mid = (lo + hi) / 2
            x0, x1 = min(spans, key=lambda sp: abs((sp[0] + sp[1]) / 2 - mid))
            c = min(max(mid, x0 + need / 2), x1 - need / 2)
            centre = (b0 + b1) / 2
            if where in ("top", "bottom"):
                return Label(text, c, centre, pt, 0, Box(c - need / 2, b0, need, line))
            return Label(text, centre, c, pt, -90 if where == "left" else 90,
                         Box(b0, c - need / 2, line, need))
    raise LayoutError(f"no room for the label of sheet {sheet.number} ({sheet.title}) "
                      f"on {sheet.paper.label}")


def finish(sheet: Sheet) -> Sheet:
    """Compute the marks and the label, then prove the layout."""
    sheet.marks = crop_marks(sheet)
    sheet.label = place_label(sheet)
    check_sheet(sheet)
    return sheet


# --------------------------------------------------------------------------- proofs
def check_sheet(sheet: Sheet) -> None:
    """Raise :class:`LayoutError` unless the sheet is sound (see the module docstring)."""
    problems = []
    pr = sheet.printable
    where = f"sheet {sheet.number} ({sheet.title}, {sheet.paper.label})"
    for it in sheet.items:
        if not it.box.inside(pr):
            problems.append(f"{it.name}: trim outside the printable area")
        if not it.art.inside(sheet.page):
            problems.append(f"{it.name}: art runs off the paper")
    for i, a in enumerate(sheet.items):
        for b in sheet.items[i + 1:]:
            if a.box.overlaps(b.box):
                problems.append(f"{a.name} and {b.name} overlap")
            # art may only run under a neighbour's art where both share a cut line
            if a.art.overlaps(b.box, 0.01) or b.art.overlaps(a.box, 0.01):
                problems.append(f"the bleed of {a.name} or {b.name} runs onto the other")
    groups = bands(sheet.items)
    for k, group in enumerate(groups):
        # a band's cut lines run through its own band only (the bands are cut apart first);
        # the bands stand apart, so that the cut between them runs through nothing
        xs, ys = cut_lines(group)
        for it in group:
            for x in xs:
                if it.box.x + 0.01 < x < it.box.right - 0.01:
                    problems.append(f"vertical cut line x={x:.2f} cuts through {it.name}")
        for it in sheet.items:
            for y in ys:
                if it.box.y + 0.01 < y < it.box.bottom - 0.01:
                    problems.append(f"horizontal cut line y={y:.2f} cuts through {it.name}")
        if k:
            gap = union(i.art for i in group).y - union(i.art for i in groups[k - 1]).bottom
            if gap < BAND_GAP - 0.01:
                problems.append(f"band {k + 1} stands {gap:.1f} mm below the one above it")
    for m in sheet.marks:
        mb = m.box()
        if not mb.inside(pr):
            problems.append(f"crop mark at {m} inside the page margin")
        for it in sheet.items:
            if mb.overlaps(it.art):
                problems.append(f"crop mark at {m} over the art of {it.name}")
        if not (MARK_MIN - EPS <= (mb.h if m.vertical else mb.w) <= MARK_LEN + EPS):
            problems.append(f"crop mark at {m} has a bad length")
    if sheet.label and sheet.label.box:
        lb = sheet.label.box
        if not lb.inside(pr, 0.05):
            problems.append("the label leaves the printable area")
        for it in sheet.items:
            if lb.overlaps(it.art):
                problems.append(f"the label overlaps {it.name}")
        for m in sheet.marks:
            if lb.overlaps(m.box()):
                problems.append("the label overlaps a crop mark")
    if problems:
        raise LayoutError(where + ": " + "; ".join(problems))


def pdf_box(box: Box, page_h: float) -> list[float]:
    """A box in PDF points ([x0 y0 x1 y1], origin bottom-left)."""
    return [round(box.x * PT_PER_MM, 4), round((page_h - box.bottom) * PT_PER_MM, 4),
            round(box.right * PT_PER_MM, 4), round((page_h - box.y) * PT_PER_MM, 4)]


def px(mm: float) -> int:
    """Pixels at 300 dpi for a length in mm (63 mm is 744 px)."""
    return int(round(mm / 25.4 * 300))
