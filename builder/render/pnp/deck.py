"""The printable deck: 52 poker cards (63 x 88 mm) in two back designs, as a duplex file
(``pdf/pnp-deck.pdf``) and a gutter-fold one (``pdf/pnp-deck-gutterfold.pdf``); and the
duplex card sheets a game's own ``deck`` component uses.

Every file is laid out for the paper of the build, centred on it, so the back of a sheet,
mirrored about the page's vertical centre line, lands behind its front when the paper is
turned over on its long edge. The duplex file is printed whole, double-sided: its cover's
back is a blank page (:func:`.cover.duplex_file`), so each sheet of faces is an odd page and
its backs the even page after it.

3 x 3 cards a page. Nine cards with a 3 mm bleed round each (207 x 282 mm) cannot fit US
Letter inside a 5 mm margin, so the cards abut and share their cut lines (189 x 264 mm). The
faces are white to the trim and need no bleed; the backs run 3 mm past the outside of the
block (195 x 270 mm), so a duplex print up to 3 mm out still leaves no white edge. On Letter
the top and bottom marks of the face sheets are short (1.7 mm: the trim is 7.7 mm from the
paper's edge) and the back sheets have none there (their bleed comes to 4.7 mm from the
edge): cut from the face side. The gutter-fold file puts four cards a landscape page, faces
above a fold line and their backs below it, turned half round.
"""

from __future__ import annotations

import math

from ...engine.core import Card, full_deck
from ...settings import Paper
from .. import cards as cardart
from . import layout
from .cover import cover_sheet, duplex_file, duplex_steps
from .document import Renderer, ref_bleed
from .pieces import CARD_H, CARD_W, CoverRow, number_sheets


def face_code(card: Card, low: bool) -> str:
    return f"pnp-grey-{card}" if low else f"pnp-face-{card}"


def back_code(design: str, low: bool) -> str:
    return f"pnp-lowback-{design}" if low else f"pnp-back-{design}"


def duplex_card_sheets(paper: Paper, cards: list[Card], design: str, low: bool,
                       label: str = "deck") -> list[layout.Sheet]:
    """Nine poker cards a sheet, each sheet of faces followed by its backs in ``design``,
    mirrored for a long-edge flip."""
    back_bleed = 0.0 if low else layout.BLEED   # low-ink backs are white to the trim
    out: list[layout.Sheet] = []
    per = 9
    for k in range(math.ceil(len(cards) / per)):
        chunk = cards[k * per:(k + 1) * per]
        first, last = k * per + 1, k * per + len(chunk)
        fr = layout.Sheet(paper, False, f"{label} {design.upper()}, cards {first}\u2013{last}, faces",
                     side="front")
        w, h = fr.size
        for c, (box, bleed) in zip(chunk, layout.grid(w, h, len(chunk), 3, 3, CARD_W, CARD_H)):
            fr.items.append(layout.Item(box, "card", str(c), bleed, ref=face_code(c, low),
                                   size_label="63 x 88 mm"))
        bk = layout.Sheet(paper, False, f"{label} {design.upper()}, cards {first}\u2013{last}, backs",
                     side="back")
        slots = layout.grid(w, h, len(chunk), 3, 3, CARD_W, CARD_H, bleed=back_bleed)
        for c, (box, bleed) in zip(chunk, slots):
            # the back of the card at (row, col) lies at (row, 2 - col): a long-edge flip
            item = layout.Item(box, "card-back", f"back of {c}", bleed, ref=back_code(design, low),
                          ref_bleed=ref_bleed(back_code(design, low)), size_label="63 x 88 mm")
            bk.items.append(item.mirrored(w))
        out += [fr, bk]
    return out


def deck_sheets(r: Renderer, paper: Paper, title: str) -> tuple[list[layout.Sheet], list[layout.Sheet]]:
    """(duplex sheets, gutter-fold sheets), each list starting with its cover."""
    cards = full_deck()
    low = r.ink.low
    back_bleed = 0.0 if low else layout.BLEED
    duplex: list[layout.Sheet] = []
    for design in cardart.BACK_DESIGNS:
        duplex += duplex_card_sheets(paper, cards, design, low)
    n = len(duplex)
    rows = [CoverRow("Playing cards, 52 faces with back A (dark red)", "52",
                     f"{CARD_W:g} x {CARD_H:g} mm (poker)", f"2 to {1 + n // 2}"),
            CoverRow("Playing cards, 52 faces with back B (dark blue), a second deck for "
                     "games in which each player has a whole deck", "52",
                     f"{CARD_W:g} x {CARD_H:g} mm (poker)", f"{2 + n // 2} to {1 + n}")]
    steps = [
        f"Print on {paper.label} paper at actual size (100 %), turning off “fit to "
        f"page”. Check the square below.",
        *duplex_steps(),
        "Most games need one deck: print only deck A, the sheets the table gives (a sheet's "
        "number is its page), double-sided as well; a game in which each player has a whole "
        "deck needs both. Or fold and glue pnp-deck-gutterfold.pdf, printed single-sided.",
        "Cut from the face side along the lines joining the crop marks: the cards abut, so one "
        "cut separates two cards. The backs run 3 mm past the outer cut lines (bleed), so a "
        "back printed a little off still fills its card.",
        "Card stock of 200 to 300 g/m², or paper slipped into sleeves in front of an old "
        "card, shuffles best.",
    ]
    cover = cover_sheet(r, paper, f"{title}: a print-and-play deck",
                        "52 poker-size cards with two back designs", rows,
                        "nothing more. The 52 cards make one deck; print both decks for a "
                        "game in which each player has a whole deck.", steps)
    # the whole file printed double-sided: the cover's back is left blank, so every sheet of
    # faces is a front (an odd page) with its backs behind it
    duplex_sheets = duplex_file(r, [cover] + duplex)

    # gutter fold: four cards a landscape page, faces above the fold, backs below it,
    # turned (three a portrait page took 10 sheets more)
    fold: list[layout.Sheet] = []
    per = FOLD_PER
    for design in cardart.BACK_DESIGNS:
        for k in range(math.ceil(len(cards) / per)):
            chunk = cards[k * per:(k + 1) * per]
            first, last = k * per + 1, k * per + len(chunk)
            fold.append(_fold_sheet(paper, chunk, lambda c: face_code(c, low),
                                    back_code(design, low), back_bleed,
                                    f"deck {design.upper()}, cards {first}\u2013{last}, "
                                    f"gutter fold"))
    nf = len(fold)
    rows_f = [CoverRow("Playing cards with back A, gutter fold", "52",
                       f"{CARD_W:g} x {CARD_H:g} mm", f"2 to {1 + nf // 2}"),
              CoverRow("Playing cards with back B, gutter fold", "52",
                       f"{CARD_W:g} x {CARD_H:g} mm", f"{2 + nf // 2} to {1 + nf}")]
    steps_f = [
        f"Print single-sided on {paper.label} paper at actual size (100 %). Check "
        f"the square below.",
        f"Print landscape. Each sheet holds {NUMBER_WORDS.get(FOLD_PER, FOLD_PER)} cards: "
        "faces above the dashed fold line, their backs below it, "
        "upside down. Fold along the dashed line with the printing outside, glue the halves "
        "together, then cut along the lines joining the crop marks.",
        "The backs' art runs 3 mm past their cut lines, so a fold a little off leaves no "
        "white edge.",
    ]
    cover_f = cover_sheet(r, paper, f"{title}: a print-and-play deck, gutter fold",
                          "52 poker-size cards, faces and backs on one side of the paper", rows_f,
                          "glue (a glue stick or spray mount).", steps_f)
    return duplex_sheets, number_sheets([cover_f] + fold)


FOLD_GAP = 5.0   # from the fold line to the nearest trim, each side
FOLD_PER = 4     # cards a gutter-fold sheet (landscape: 4 x 63 mm across, 2 x 93 mm down)
NUMBER_WORDS = {3: "three", 4: "four"}


def _fold_sheet(paper: Paper, chunk: list[Card], face_code, back: str, back_bleed: float,
                title: str) -> layout.Sheet:
    """Faces in a row above the fold, backs below it at the mirror position across the fold
    (same x: a fold along a horizontal line keeps x) and turned half round."""
    s = layout.Sheet(paper, True, title, side="fold")
    w, h = s.size
    fold = h / 2
    x0 = (w - FOLD_PER * CARD_W) / 2
    n_cards = len(chunk)
    b = back_bleed
    for k, c in enumerate(chunk):
        box = layout.Box(x0 + k * CARD_W, fold - FOLD_GAP - CARD_H, CARD_W, CARD_H)
        s.items.append(layout.Item(box, "card", str(c), ref=face_code(c), size_label="63 x 88 mm"))
    for k, c in enumerate(chunk):
        box = layout.Box(x0 + k * CARD_W, fold + FOLD_GAP, CARD_W, CARD_H)
        bleed = (b if k == 0 else 0.0, b, b if k == n_cards - 1 else 0.0, b)
        s.items.append(layout.Item(box, "card-back", f"back of {c}", bleed, ref=back,
                              ref_bleed=ref_bleed(back), rotate=180, size_label="63 x 88 mm"))
    s.fold_y = fold
    return s

