"""A game's own cards (``decks:`` in its ``game.yaml``) on print-and-play sheets: the kit's
``deck`` component for a game that plays its own decks.

Every card is drawn by :class:`~builder.render.faces.Faces` (through the renderer's
fetcher, ``pnp-own-<reference>``: :func:`own_code`), once per distinct face, and placed on
the sheets as a PDF form (:func:`builder.render.pnp.document.place_forms`). Each deck is
printed at its own size (``faces.art(key).size_mm``), each card as many times as its count.

Duplex (:func:`own_duplex_sheets`): as many cards a portrait sheet as fit the paper inside
its 5 mm margin with room for the crop marks, the cards abutting and sharing their cut
lines as the French sheets do; the faces' art runs into the bleed at the outside of the
block as far as the margin allows (3 mm at most), each sheet of faces followed by its
backs (3 mm bleed at the block's outside) mirrored for a long-edge flip.

Gutter fold (:func:`own_fold_sheets`, ``pdf/<slug>-cards-gutterfold.pdf``): the faces above
a fold line and their backs below it, turned half round, on a landscape or a portrait sheet,
whichever holds more cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...settings import Paper
from ..faces import back_ref
from . import layout
from .deck import FOLD_GAP
from .document import OWN, OWN_GREY, own_ref  # noqa: F401 - own_ref: the reverse of own_code
from .pieces import ComponentError


def own_code(ref: str, low: bool) -> str:
    """The library code of a card reference (``high-colours/colours/R6``, ``.../_back``):
    its face or back, full colour (low ink: light greys), with 3 mm of bleed round it."""
    return (OWN_GREY if low else OWN) + ref


@dataclass
class OwnDeck:
    """The cards of one of a game's decks a kit prints: the deck's key, name and size, and
    every copy's code in the deck file's order (each code as many times as its count)."""

    key: str
    name: str
    size: tuple[float, float]
    copies: list[str]
    where: object = None

    @property
    def distinct(self) -> list[str]:
        return list(dict.fromkeys(self.copies))


def size_text(size: tuple[float, float]) -> str:
    """``63.5 x 88.9 mm (poker)``: a deck's size as the cover lists it."""
    from ...content.decks import SIZES

    w, h = size
    named = next((n for n, s in SIZES.items() if tuple(s) == (w, h)), None)
    return f"{w:g} x {h:g} mm" + (f" ({named})" if named else "")


def chosen_decks(game, p: dict) -> list[OwnDeck]:
    """The game's decks a ``deck`` component prints (its ``deck``: one by name, else all)
    with the cards its ``cards`` names (``all``, else a list of codes), each with its count."""
    specs = list(game.decks)
    if p.get("deck") is not None:
        specs = [s for s in specs if s.name == p["deck"]]
    wanted = p.get("cards", "all")
    wanted = None if wanted == "all" else set(wanted)
    out = []
    for spec in specs:
        deck = spec.deck
        copies = [c.code for c in deck.cards if wanted is None or c.code in wanted
                  for _ in range(deck.counts[c])]
        if copies:
            out.append(OwnDeck(deck.key, spec.name, tuple(spec.size_mm), copies, spec.where))
    return out


# --------------------------------------------------------------------------- duplex
#: the room each side of a block of cards for a crop mark: its gap and its least length
MARK_ROOM = layout.MARK_GAP + layout.MARK_MIN


def duplex_grid(paper: Paper, size: tuple[float, float]) -> tuple[int, int]:
    """(columns, rows) of a portrait sheet of cards of ``size``: as many as fit inside the
    margin leaving room for a crop mark on every side."""
    w, h = size
    pw, ph = paper.width - 2 * layout.MARGIN, paper.height - 2 * layout.MARGIN
    return (int((pw - 2 * MARK_ROOM + layout.EPS) // w),
            int((ph - 2 * MARK_ROOM + layout.EPS) // h))


def face_bleed(paper: Paper, size: tuple[float, float], cols: int, rows: int) -> tuple[float, float]:
    """How far the faces' art runs past the block's outside, across and down: as far as
    the margin allows beside the crop marks' room, at most 3 mm (none under 0.5 mm)."""
    pw, ph = paper.width - 2 * layout.MARGIN, paper.height - 2 * layout.MARGIN

    def bleed(span: float, n: int, side: float) -> float:
        b = min(layout.BLEED, (span - n * side) / 2 - MARK_ROOM)
        return round(b, 3) if b >= 0.5 else 0.0

    return bleed(pw, cols, size[0]), bleed(ph, rows, size[1])


def _too_big(paper: Paper, deck: OwnDeck, how: str) -> ComponentError:
    w, h = deck.size
    where = deck.where
    at = f"{where.path}:{where.line}: " if where is not None else ""
    return ComponentError(f"{at}deck '{deck.name}': a card of {w:g} x {h:g} mm does not fit "
                          f"a {paper.label} sheet {how} (5 mm margin and room for the crop "
                          f"marks); choose a smaller size under decks: in game.yaml")


def own_duplex_sheets(paper: Paper, deck: OwnDeck, low: bool, label: str) -> list[layout.Sheet]:
    """The deck's copies, as many a sheet as fit, each sheet of faces followed by its backs
    mirrored for a long-edge flip. The layout is proved (``layout.finish``) on a full sheet:
    a grid whose label finds no room loses a row."""
    cols, rows = duplex_grid(paper, deck.size)
    if cols < 1 or rows < 1:
        raise _too_big(paper, deck, "upright")
    back = own_code(back_ref(deck.key), low)
    while True:
        per = cols * rows
        bx, by = face_bleed(paper, deck.size, cols, rows)
        try:
            trial = _duplex_pair(paper, deck, deck.copies[:per], cols, rows, bx, by, back,
                                 label, 1, len(deck.copies))
            for s in trial:
                s.number, s.total = 99, 99
                layout.finish(s)
            break
        except layout.LayoutError:
            if rows > 1:
                rows -= 1
            elif cols > 1:
                cols -= 1
            else:
                raise _too_big(paper, deck, "with its label") from None
    out: list[layout.Sheet] = []
    for k in range(math.ceil(len(deck.copies) / per)):
        chunk = deck.copies[k * per:(k + 1) * per]
        out += _duplex_pair(paper, deck, chunk, cols, rows, bx, by, back, label, k * per + 1,
                            len(deck.copies))
    return out


def _duplex_pair(paper: Paper, deck: OwnDeck, chunk: list[str], cols: int, rows: int,
                 bx: float, by: float, back: str, label: str, first: int,
                 total: int) -> list[layout.Sheet]:
    w, h = deck.size
    size_label = f"{w:g} x {h:g} mm"
    last = first + len(chunk) - 1
    span = f"cards {first}\u2013{last}" if last > first else f"card {first}"
    fr = layout.Sheet(paper, False, f"{label}, {span} of {total}, faces", side="front")
    pw, ph = fr.size
    for code, (box, bleed) in zip(chunk, layout.grid(pw, ph, len(chunk), cols, rows, w, h,
                                                     bleed=1.0)):
        left, top, right, bottom = bleed
        fr.items.append(layout.Item(box, "card", f"{deck.name}/{code}",
                                    (left * bx, top * by, right * bx, bottom * by),
                                    ref=own_code(f"{deck.key}/{code}", _low(back)),
                                    ref_bleed=layout.BLEED, size_label=size_label))
    bk = layout.Sheet(paper, False, f"{label}, {span} of {total}, backs", side="back")
    for code, (box, bleed) in zip(chunk, layout.grid(pw, ph, len(chunk), cols, rows, w, h,
                                                     bleed=layout.BLEED)):
        item = layout.Item(box, "card-back", f"back of {deck.name}/{code}", bleed, ref=back,
                           ref_bleed=layout.BLEED, size_label=size_label)
        bk.items.append(item.mirrored(pw))   # (row, col) behind (row, cols - 1 - col)
    return [fr, bk]


def _low(code: str) -> bool:
    return code.startswith(OWN_GREY)


# --------------------------------------------------------------------------- gutter fold
def fold_grid(paper: Paper, size: tuple[float, float]) -> tuple[bool, int, int]:
    """(landscape, columns, rows on each side of the fold) holding the most cards of
    ``size`` (landscape on a tie, as the French gutter fold)."""
    w, h = size
    best = (True, 0, 0)
    for landscape in (True, False):
        pw, ph = (paper.height, paper.width) if landscape else (paper.width, paper.height)
        cols = int((pw - 2 * layout.MARGIN - 2 * (layout.BLEED + MARK_ROOM) + layout.EPS) // w)
        half = ph / 2 - FOLD_GAP - layout.MARGIN - layout.BLEED - MARK_ROOM
        rows = int((half + layout.EPS) // h)
        if cols >= 1 and rows >= 1 and cols * rows > best[1] * best[2]:
            best = (landscape, cols, rows)
    return best


def own_fold_sheets(paper: Paper, deck: OwnDeck, low: bool, label: str) -> list[layout.Sheet]:
    """The deck's copies for a gutter fold: faces above the fold line, each back below it
    at the mirror position across the fold (same x) and turned half round; faces and backs
    bleed 3 mm at the outside of their blocks (the fold side included)."""
    landscape, cols, rows = fold_grid(paper, deck.size)
    if cols < 1:
        raise _too_big(paper, deck, "for a gutter fold")
    w, h = deck.size
    back = own_code(back_ref(deck.key), low)
    per = cols * rows
    out = []
    for k in range(math.ceil(len(deck.copies) / per)):
        chunk = deck.copies[k * per:(k + 1) * per]
        first, last = k * per + 1, k * per + len(chunk)
        span = f"cards {first}\u2013{last}" if last > first else f"card {first}"
        s = layout.Sheet(paper, landscape, f"{label}, {span} of {len(deck.copies)}, gutter fold",
                         side="fold")
        pw, ph = s.size
        fold = ph / 2
        x0 = (pw - cols * w) / 2
        n = len(chunk)
        for i, code in enumerate(chunk):
            r, c = divmod(i, cols)
            b = layout.BLEED

            def out_(rr: int, cc: int) -> bool:
                return not (0 <= rr < rows and 0 <= cc < cols) or rr * cols + cc >= n

            # faces: row 0 next to the fold, rows going up; backs: row 0 next to it, going down
            edge = (b if out_(r, c - 1) else 0.0, b if out_(r + 1, c) else 0.0,
                    b if out_(r, c + 1) else 0.0, b if out_(r - 1, c) else 0.0)
            face = layout.Box(x0 + c * w, fold - FOLD_GAP - (r + 1) * h, w, h)
            s.items.append(layout.Item(face, "card", f"{deck.name}/{code}", edge,
                                       ref=own_code(f"{deck.key}/{code}", low),
                                       ref_bleed=layout.BLEED,
                                       size_label=f"{w:g} x {h:g} mm"))
            left, top, right, bottom = edge
            box = layout.Box(x0 + c * w, fold + FOLD_GAP + r * h, w, h)
            s.items.append(layout.Item(box, "card-back", f"back of {deck.name}/{code}",
                                       (left, bottom, right, top), ref=back,
                                       ref_bleed=layout.BLEED, rotate=180,
                                       size_label=f"{w:g} x {h:g} mm"))
        s.fold_y = fold
        out.append(s)
    return out


def fold_document(r, game, decks: list[OwnDeck], paper: Paper) -> list[layout.Sheet]:
    """``pdf/<slug>-cards-gutterfold.pdf``: a cover, then the gutter-fold sheets of the decks
    the game's kit prints (the same cards as its component sheets' duplex ones)."""
    from .cover import cover_sheet
    from .pieces import CoverRow, number_sheets

    sheets: list[layout.Sheet] = []
    rows = []
    for d in decks:
        label = f"{d.name} cards" if len(game.decks) > 1 else "cards"
        part = own_fold_sheets(paper, d, r.ink.low, label)
        named = f"{game.title}, {d.name}" if len(game.decks) > 1 else game.title
        rows.append(CoverRow(f"{named} cards, gutter fold", str(len(d.copies)), size_text(d.size),
                             f"{2 + len(sheets)} to {1 + len(sheets) + len(part)}"))
        sheets += part
    steps = [
        f"Print single-sided on {paper.label} paper at actual size (100 %). Check the square "
        f"below.",
        "Each sheet holds faces above the dashed fold line and their backs below it, upside "
        "down. Fold along the dashed line with the printing outside, glue the halves "
        "together, then cut along the lines joining the crop marks.",
        "The art runs 3 mm past the cut lines at the outside of each block (bleed), so a fold "
        "a little off leaves no white edge.",
    ]
    cover = cover_sheet(r, paper, f"{game.title}: the cards, gutter fold",
                        "Faces and backs on one side of the paper", rows,
                        "glue (a glue stick or spray mount).", steps)
    return number_sheets([cover] + sheets)
