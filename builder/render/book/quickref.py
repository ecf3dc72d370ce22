"""The quick reference's key terms (issue 27, item 6).

The quick reference is the rulebook's last page and its back cover: the turn beside the
table as it is dealt at the top, how the game compares at the foot. What lay between was
blank, a third of the page in some books. It now holds the game's key terms, from its
glossary, in two columns: as many as the room holds, the terms that the quick reference's
own words use first.

How many fit is measured, not guessed: ``book/quickref.html.j2`` lays out the page alone
with no terms, then every term at its column's width one under another (one small layout,
a page or two), and the room and the heights are read off that layout (``measure``).
``pick`` chooses the terms and splits them between the columns; ``overlap`` checks the
laid-out book, so that an estimate gone wrong is corrected, never printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup
from weasyprint.formatting_structure import boxes

#: CSS pixels to millimetres
PX_PER_MM = 96 / 25.4
#: the gap between the two columns of terms (mm; book.css ``.qr-terms-col``)
TERMS_GAP = 7.0
#: what is kept free between the last term and the comparison at the foot (mm)
SPARE = 2.0


@dataclass
class Room:
    """What the measuring layout found (mm): the room between the quick reference's turn
    and its comparison, the height of the terms' heading (its top margin and rule
    included), and each term's height, by its place in the glossary."""

    room: float
    head: float
    heights: list[float]


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


def _find(page, cls: str):
    return next((b for b in page._page_box.descendants(placeholders=True)
                 if isinstance(b, boxes.BlockLevelBox) and cls in _classes(b)), None)


def _bottom(box) -> float:
    return box.border_box_y() + box.border_height()


def measure(doc) -> Room:
    """Read the room and the terms' heights off ``book/quickref.html.j2`` laid out."""
    page = doc.pages[0]
    section, compare = _find(page, "quickref"), _find(page, "qr-compare")
    above = [c for c in section.children
             if isinstance(c, boxes.BlockBox) and c is not compare and "qr-compare" not in _classes(c)]
    bottom = max((_bottom(c) for c in above), default=section.content_box_y())
    room = (compare.border_box_y() - bottom) / PX_PER_MM
    heights: dict[int, float] = {}
    head = 0.0
    for p in doc.pages[1:]:
        for b in p._page_box.descendants():
            if not isinstance(b, boxes.BlockBox) or getattr(b, "element", None) is None:
                continue
            if "qr-terms" in _classes(b):
                head = max(head, b.margin_height() / PX_PER_MM)  # not its ::after
            elif (i := b.element.get("data-term")) is not None and i.isdigit():
                heights[int(i)] = b.margin_height() / PX_PER_MM
    return Room(room, head, [heights.get(i, float("inf")) for i in range(len(heights))])


def _split(chosen: list[int], heights: list[float]) -> tuple[list[int], list[int], float]:
    """The chosen terms (in the glossary's order) split into a left and a right column,
    the left taking the first ones, so that the taller column is as short as it can be;
    and that column's height. Linear in the terms (a glossary may hold hundreds)."""
    total = sum(heights[i] for i in chosen)
    best = (len(chosen), total)  # everything on the left
    left = 0.0
    for k, i in enumerate(chosen):
        tall = max(left, total - left)
        if tall < best[1]:
            best = (k, tall)
        left += heights[i]
    k = best[0]
    return chosen[:k], chosen[k:], best[1]


def _mentioned(term: str, words: str) -> bool:
    return re.search(r"\b" + re.escape(term.lower()) + r"\b", words) is not None


def pick(terms: list, quickref: list, summary: str, room: Room,
         leave_out: int = 0) -> list[list[int]]:
    """Which terms (indexes into ``terms``, the glossary's ``TermView``s) the quick
    reference prints, as its left and right columns: the terms its own lines and summary
    use come first, then the rest in the glossary's order, each taken when the two
    columns with it still fit the room; ``leave_out``: take that many fewer (after a
    layout found them too tall). [] when not even one fits."""
    words = " ".join(Markup(str(x)).striptags() for x in [*quickref, summary]).lower()
    order = sorted(range(len(terms)), key=lambda i: (not _mentioned(terms[i].term, words), i))
    fits = room.room - room.head - SPARE
    chosen: list[int] = []
    for i in order:
        trial = sorted([*chosen, i])
        if _split(trial, room.heights)[2] <= fits:
            chosen = trial
    if leave_out:
        keep = [i for i in order if i in chosen][:max(0, len(chosen) - leave_out)]
        chosen = sorted(keep)
    if not chosen:
        return []
    left, right, _ = _split(chosen, room.heights)
    return [left, right]


def overlap(doc) -> float:
    """How far (mm) the key terms of a laid-out book run into the comparison under them
    on its quick reference; 0 when they are clear of it or there are none, infinite when
    they pushed it off their page."""
    for page in reversed(doc.pages):
        terms = _find(page, "qr-terms")
        if terms is None:
            continue
        compare = _find(page, "qr-compare")
        if compare is None:
            return float("inf")
        return max(0.0, (_bottom(terms) - compare.border_box_y()) / PX_PER_MM)
    return 0.0
