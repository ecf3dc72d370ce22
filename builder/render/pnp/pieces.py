"""What a kit is made of: :class:`Piece` (one kind of component, its size, bleed and
drawing), :class:`CoverRow` and :class:`Kit`, and the sheets pieces are laid out on
(:func:`sheet_grid`, :func:`back_sheet`, :func:`number_sheets`). Pure layout: nothing here
renders a PDF or knows a game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from markupsafe import Markup

from ...settings import Paper
from ..errors import RenderError
from . import layout

CARD_W, CARD_H = 63.0, 88.0
AID_W, AID_H = 92.0, 132.0


class ComponentError(RenderError):
    """A component sheet that cannot be made: no kit, text that does not fit, a bad layout."""


def mm(v: float) -> str:
    return f"{round(v, 4):g}mm"


# --------------------------------------------------------------------------- pieces
@dataclass
class Piece:
    """One kind of component: its trim size, its bleed (where its art runs to the trim),
    how to draw it at a given bleed, and its PNG export."""

    name: str                        # file stem: "stone-front"
    title: str                       # "Stone token, front"
    w: float
    h: float
    bleed: float
    draw: Callable[[tuple], str]     # (left, top, right, bottom) bleed -> markup
    png_box: layout.Box | None = None     # part of the trim to export (default: all of it)
    round: bool = False              # export with a transparent outside of a circle

    def html(self, bleed: tuple) -> Markup:
        return Markup(self.draw(bleed))


@dataclass
class CoverRow:
    name: str
    count: str
    size: str
    sheets: str


@dataclass
class Kit:
    sheets: list[layout.Sheet]
    rows: list[CoverRow]
    pieces: list[Piece]               # what is exported as PNG
    steps: list[str] = field(default_factory=list)
    #: a game's own decks its ``deck`` components print (owncards.OwnDeck): their gutter
    #: fold is a file of its own
    own: list = field(default_factory=list)


# --------------------------------------------------------------------------- sheets
def sheet_grid(paper: Paper, landscape: bool, title: str, pieces: list[Piece], cols: int,
               rows: int, gap: float, kind: str, side: str = "single",
               top: float | None = None) -> layout.Sheet:
    s = layout.Sheet(paper, landscape, title, side=side)
    w, h = s.size
    p0 = pieces[0]
    slots = layout.grid(w, h, len(pieces), cols, rows, p0.w, p0.h, gap=gap, bleed=p0.bleed, top=top)
    for p, (box, bleed) in zip(pieces, slots):
        s.items.append(layout.Item(box, kind, p.name, bleed, p.html(bleed),
                              size_label=f"{p.w:g} x {p.h:g} mm"))
    return s


def back_sheet(front: layout.Sheet, title: str, back_of: Callable[[layout.Item], Piece]) -> layout.Sheet:
    """The back of ``front`` for a long-edge flip: each item's back at its mirror position."""
    w, _ = front.size
    s = layout.Sheet(front.paper, front.landscape, title, side="back")
    for it in front.items:
        m = it.mirrored(w)
        piece = back_of(it)
        m.html = piece.html(m.bleed)
        m.name = piece.name + ":" + it.name
        s.items.append(m)
    return s


def number_sheets(sheets: list[layout.Sheet]) -> list[layout.Sheet]:
    for i, s in enumerate(sheets, 1):
        s.number, s.total = i, len(sheets)
    for s in sheets:
        layout.finish(s)
    return sheets

