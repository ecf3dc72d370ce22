"""The printed diagrams' layout check: no word touches a card, a mark or other words.

``pdf.diagram_geometry`` places every place's words (the owner, what the place is, the
count under it) in bands above and below the cards, wide and tall enough for them, and
keeps room for the rings drawn round marked cards. This module checks the result before
anything is drawn, the way a proof-reader would: each line of words, taken as the box its
glyphs' ink fills (``glyphs.Face.reach``), must stand at least ``CLEAR`` clear of

- every card, and every mark drawn round one (rings, a hidden place's grey ground, a
  hidden place's sign), and the round tokens;
- the dashed outline of an empty place (its own word "empty" stands inside it, clear of
  the line);
- every other block of words (a label's own lines, the owner's first, are one block,
  set with leading);
- the edge of the felt.

A breach is a :class:`Clash`; the build turns the first into an error located at the
example step (``pdf.check_diagrams``), so that a book never prints an overlap.
"""

from __future__ import annotations

from dataclasses import dataclass

from .glyphs import Run

#: the least room (mm) between a word's ink and anything else drawn: about the width of
#: a hairline and a half at the diagrams' 7 pt, where words read as touching
CLEAR = 0.25

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 (mm, y downwards)


@dataclass(frozen=True)
class Words:
    """A block of words of a place: ``zone`` its id, ``owner`` and ``label`` as printed,
    ``part`` "owner", "label", "foot" or "empty", and its lines."""

    zone: str
    place: str
    part: str
    runs: tuple[Run, ...]


@dataclass(frozen=True)
class Clash:
    """``words`` (a line of a place's words) stand ``gap`` mm from ``meets`` (negative:
    they overlap it by that much)."""

    place: str
    words: str
    meets: str
    gap: float

    def __str__(self) -> str:
        how = (f"overlap it by {-self.gap:.2f} mm" if self.gap < 0
               else f"stand {self.gap:.2f} mm from it")
        return (f"the words \u201c{self.words}\u201d of {self.place} would touch {self.meets} "
                f"(they {how}; at least {CLEAR} mm is needed)")


def ink_box(r: Run) -> Box:
    """The box a line's glyphs' ink fills: its advance across, its glyphs' highest top
    and lowest bottom up and down."""
    f = r.style.face
    up, down = f.reach(r.text)
    return (r.x, r.baseline - up * r.size, r.x + f.width(r.text, r.size, r.style.tracking),
            r.baseline + down * r.size)


def path_box(ops, width: float | None) -> Box:
    """A drawn path's bounding box, its stroke's half width added."""
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        xs += op[1::2]
        ys += op[2::2]
    h = (width or 0.0) / 2
    return (min(xs) - h, min(ys) - h, max(xs) + h, max(ys) + h)


def gap(a: Box, b: Box) -> float:
    """How far apart two boxes are (mm); negative: how deep they overlap."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def inside(a: Box, b: Box) -> float:
    """How far box ``a`` stands inside box ``b`` from its nearest side; negative: out."""
    return min(a[0] - b[0], a[1] - b[1], b[2] - a[2], b[3] - a[3])


def clashes(width: float, height: float, words: list[Words],
            things: list[tuple[str, Box]], outlines: list[tuple[str, str, Box]]) -> list[Clash]:
    """Every line of ``words`` that stands less than ``CLEAR`` from one of ``things``
    (what it is, its box), the dashed ``outlines`` of empty places (zone id, what it is,
    its box), another block of words, or the edge of a ``width`` by ``height`` felt."""
    out: list[Clash] = []
    lines = [(w, r, ink_box(r)) for w in words for r in w.runs if r.text.strip()]
    felt = (0.0, 0.0, width, height)
    for i, (w, r, box) in enumerate(lines):
        def clash(meets: str, g: float) -> None:
            out.append(Clash(w.place, r.text, meets, round(g, 2)))

        if (g := inside(box, felt)) < CLEAR:
            clash("the edge of the diagram", g)
        for what, b in things:
            if (g := gap(box, b)) < CLEAR:
                clash(what, g)
        for zone, what, b in outlines:
            # a place's "empty" stands inside its own outline; any other word outside
            g = inside(box, b) if (zone == w.zone and w.part == "empty") else gap(box, b)
            if g < CLEAR:
                clash(what, g)
        for w2, r2, box2 in lines[i + 1:]:
            if w2 is w or (w2.zone == w.zone and {w.part, w2.part} == {"owner", "label"}):
                continue  # a label's own lines (the owner's the first), set with leading
            if (g := gap(box, box2)) < CLEAR:
                clash(f"the words \u201c{r2.text}\u201d of {w2.place}", g)
    return out
