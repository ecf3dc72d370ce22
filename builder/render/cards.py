"""Card artwork as self-contained SVG text.

Everything here is a pure function of its arguments that returns SVG markup (no external
files, no raster images, no scripts, no ``id`` attributes), so the same strings can be
inlined many times in one HTML page, embedded in a PDF by WeasyPrint, or written to disk.

Coordinates are in units of 0.1 mm: a poker-size card (63 x 88 mm) is the box
``0 0 630 880``. Suit symbols are drawn as paths (never font glyphs) so they print the same
everywhere; ranks are ``<text>`` in Cabin (Debian's fonts-cabin), falling back to DejaVu Sans.

Public API
----------
* :func:`card_face` -- a card's face, ``style="full"`` (a real playing card: corner
  indices, traditional pip layouts, framed court panels) or ``style="compact"`` (a large
  rank and a large suit symbol, for diagrams 14-18 mm wide).
* :func:`card_back` -- back design ``"a"`` (dark red diamond lattice) or ``"b"`` (dark blue
  rings and dots); both are symmetric under a 180 degree turn so duplex prints line up.
* :func:`face_down` -- a face-down card as shown in diagrams.
* :func:`suit_path` -- the path data of a suit symbol in a ``0 0 100 100`` box.
* :func:`suit_colour` -- the ink colour of a suit.

``bleed_mm`` (faces and backs) enlarges the viewBox by that much on every side and extends
the background into it, for print-and-play sheets; the card itself stays at ``0 0 630 880``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable

from builder.engine.core import RANKS, SUITS, Card

__all__ = [
    "CARD_W", "CARD_H", "card_face", "card_back", "face_down", "suit_path", "suit_colour",
    "BACK_DESIGNS", "STYLES",
]

CARD_W, CARD_H = 630, 880          # 63 x 88 mm in 0.1 mm units
_CX, _CY = CARD_W / 2, CARD_H / 2
CORNER_RADIUS = 30                 # 3 mm
STYLES = ("full", "compact")
BACK_DESIGNS = ("a", "b")

RED, BLACK, BLUE, GREEN = "#b3202a", "#1a1a1a", "#1f5fbf", "#1e7a3a"
_TWO_COLOUR = {"C": BLACK, "S": BLACK, "D": RED, "H": RED}
_FOUR_COLOUR = {"C": GREEN, "S": BLACK, "D": BLUE, "H": RED}
_GOLD = "#c9a227"
_EDGE = "#4d4d4d"                  # card outline
_PAPER = "#fcf7ea"                 # warm tint behind court panels
FONT_FAMILY = "Cabin, 'DejaVu Sans', sans-serif"
_SVG_NS = "http://www.w3.org/2000/svg"

# --------------------------------------------------------------------------- suits
# Each symbol fills a 0..100 box, horizontally centred on x=50 and vertically on y=50.
# Every sub-path of the club turns the same way so the non-zero fill rule unions them.
_SUIT_PATHS = {
    "H": (
        "M50 95C44 84 5 62 5 31C5 14 17 5 30 5C40 5 47 11 50 21"
        "C53 11 60 5 70 5C83 5 95 14 95 31C95 62 56 84 50 95Z"
    ),
    "D": "M50 3Q66 30 88 50Q66 70 50 97Q34 70 12 50Q34 30 50 3Z",
    "S": (
        "M50 3C56 17 95 38 95 63C95 77 85 84 73 84C64 84 57 80 53 73"
        "C54 84 58 92 67 97L33 97C42 92 46 84 47 73C43 80 36 84 27 84"
        "C15 84 5 77 5 63C5 38 44 17 50 3Z"
    ),
    "C": (
        "M28 27A22 22 0 1 0 72 27A22 22 0 1 0 28 27Z"
        "M4 60A22 22 0 1 0 48 60A22 22 0 1 0 4 60Z"
        "M52 60A22 22 0 1 0 96 60A22 22 0 1 0 52 60Z"
        "M50 30L30 60L70 60Z"
        "M46 56C46 77 42 89 33 97L67 97C58 89 54 77 54 56Z"
    ),
}


def suit_path(suit: str) -> str:
    """Path data of the suit symbol ``suit`` ("C", "D", "H" or "S") in a 0..100 box."""
    try:
        return _SUIT_PATHS[suit]
    except KeyError:
        raise ValueError(f"unknown suit {suit!r} (expected one of C D H S)") from None


def suit_colour(suit: str, four_colour: bool = False) -> str:
    """Ink colour of ``suit``: red/black, or with ``four_colour`` spades black, hearts red,
    diamonds blue and clubs green."""
    table = _FOUR_COLOUR if four_colour else _TWO_COLOUR
    try:
        return table[suit]
    except KeyError:
        raise ValueError(f"unknown suit {suit!r} (expected one of C D H S)") from None


# --------------------------------------------------------------------------- helpers
def _n(x: float) -> str:
    """A number for SVG: at most two decimals, no trailing zeros, never ``-0``."""
    r = round(x, 2)
    if r == int(r):
        return str(int(r))
    s = f"{r:.2f}".rstrip("0")
    return s


def _esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _mix(colour: str, amount: float, base: str = "#ffffff") -> str:
    """``amount`` of ``colour`` over ``base`` (both #rrggbb)."""
    c = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(bb + (cc - bb) * amount):02x}" for cc, bb in zip(c, b))


def _units(bleed_mm: float) -> float:
    bleed = float(bleed_mm or 0) * 10
    if bleed < 0:
        raise ValueError("bleed_mm must not be negative")
    return bleed


def _svg_open(label: str, bleed: float, width: str | None, height: str | None) -> str:
    view = f"{_n(-bleed)} {_n(-bleed)} {_n(CARD_W + 2 * bleed)} {_n(CARD_H + 2 * bleed)}"
    size = ""
    if width is not None:
        size += f' width="{_esc(str(width))}"'
    if height is not None:
        size += f' height="{_esc(str(height))}"'
    label = _esc(label)
    return (
        f'<svg xmlns="{_SVG_NS}" viewBox="{view}"{size} role="img" aria-label="{label}">'
        f"<title>{label}</title>"
    )


def _pip(suit: str, cx: float, cy: float, size: float, flip: bool = False) -> str:
    """The suit symbol, ``size`` units square, centred on (cx, cy); ``flip`` turns it 180
    degrees (as on the lower half of a real card). Fill comes from the enclosing group."""
    k = size / 100
    if flip:
        t = f"translate({_n(cx + size / 2)} {_n(cy + size / 2)}) scale({_n(-k)})"
    else:
        t = f"translate({_n(cx - size / 2)} {_n(cy - size / 2)}) scale({_n(k)})"
    return f'<path transform="{t}" d="{_SUIT_PATHS[suit]}"/>'


def _rank_text(rank: str, x: float, baseline: float, font_size: float, anchor: str = "middle",
               condense_ten: float = 0.8) -> str:
    """The rank as bold text; "10" is condensed horizontally so it sits in one column."""
    attrs = (f'font-family="{FONT_FAMILY}" font-weight="bold" font-style="normal" '
             f'font-size="{_n(font_size)}" text-anchor="{anchor}" letter-spacing="0"')
    if rank == "10":
        return (f'<text transform="translate({_n(x)} {_n(baseline)}) scale({_n(condense_ten)} 1)"'
                f' x="0" y="0" {attrs}>10</text>')
    return f'<text x="{_n(x)}" y="{_n(baseline)}" {attrs}>{rank}</text>'


def _rotated(content: str) -> str:
    return f'<g transform="rotate(180 {_n(_CX)} {_n(_CY)})">{content}</g>'


def _as_card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


# --------------------------------------------------------------------------- full faces
# Pip grid: three columns; rows as a fraction of the pip field (0 = top row, 1 = bottom).
_COL_X = {"L": _CX - 140, "C": _CX, "R": _CX + 140}
_ROW_TOP, _ROW_BOTTOM = 172.0, CARD_H - 172.0
_PIP_SIZE = 104
_ACE_SIZE = 270
_T = 1 / 3
_PIP_LAYOUTS: dict[str, tuple[tuple[str, float], ...]] = {
    "2": (("C", 0), ("C", 1)),
    "3": (("C", 0), ("C", .5), ("C", 1)),
    "4": (("L", 0), ("R", 0), ("L", 1), ("R", 1)),
    "5": (("L", 0), ("R", 0), ("C", .5), ("L", 1), ("R", 1)),
    "6": (("L", 0), ("R", 0), ("L", .5), ("R", .5), ("L", 1), ("R", 1)),
    "7": (("L", 0), ("R", 0), ("C", .25), ("L", .5), ("R", .5), ("L", 1), ("R", 1)),
    "8": (("L", 0), ("R", 0), ("C", .25), ("L", .5), ("R", .5), ("C", .75), ("L", 1),
          ("R", 1)),
    "9": (("L", 0), ("R", 0), ("L", _T), ("R", _T), ("C", .5), ("L", 2 * _T), ("R", 2 * _T),
          ("L", 1), ("R", 1)),
    "10": (("L", 0), ("R", 0), ("C", _T / 2), ("L", _T), ("R", _T), ("L", 2 * _T),
           ("R", 2 * _T), ("C", 1 - _T / 2), ("L", 1), ("R", 1)),
}

# Corner index: rank then a small suit below it, in a column about 10 mm wide.
_INDEX_X = 56
_INDEX_BASELINE = 110
_INDEX_FONT = 96
_INDEX_SUIT_Y = 166
_INDEX_SUIT_SIZE = 48


def pip_positions(rank: str) -> list[tuple[float, float, bool]]:
    """(x, y, flipped) of each pip of a number card (2-10) on the full face."""
    out = []
    for col, frac in _PIP_LAYOUTS[rank]:
        y = _ROW_TOP + (_ROW_BOTTOM - _ROW_TOP) * frac
        out.append((_COL_X[col], y, frac > 0.5 + 1e-9))
    return out


def _index(card: Card) -> str:
    return (_rank_text(card.rank, _INDEX_X, _INDEX_BASELINE, _INDEX_FONT, condense_ten=0.74)
            + _pip(card.suit, _INDEX_X, _INDEX_SUIT_Y, _INDEX_SUIT_SIZE))


# Court panel: a framed, double-ended panel between the corner indices.
_PANEL_X0, _PANEL_X1 = 122, CARD_W - 122
_PANEL_Y0, _PANEL_Y1 = 44, CARD_H - 44


def _bezier(p0, p1, p2, p3, t):
    s = 1 - t
    return tuple(s ** 3 * a + 3 * s * s * t * b + 3 * s * t * t * c + t ** 3 * d
                 for a, b, c, d in zip(p0, p1, p2, p3))


def _king_crown(colour: str) -> str:
    # Local coordinates: origin at the middle of the crown's base, y grows downwards.
    tips = ((-104, -112), (0, -128), (104, -112))
    body = ("M-88 -30L-104 -112L-48 -64L0 -128L48 -64L104 -112L88 -30Z")
    out = [f'<path d="{body}" fill="{colour}"/>',
           f'<rect x="-92" y="-34" width="184" height="34" rx="4" fill="{_GOLD}" '
           f'stroke="{colour}" stroke-width="4"/>']
    out += [f'<circle cx="{x}" cy="{y}" r="12" fill="{_GOLD}" stroke="{colour}" '
            f'stroke-width="3"/>' for x, y in tips]
    out += [f'<path d="M{x} -28L{x + 9} -17L{x} -6L{x - 9} -17Z" fill="{colour}"/>'
            for x in (-52, 0, 52)]
    return "".join(out)


def _queen_crown(colour: str) -> str:
    arch_l = ((-80, -26), (-80, -84), (-40, -106), (0, -106))
    arch_r = ((0, -106), (40, -106), (80, -84), (80, -26))
    d = "M-80 -26C-80 -84 -40 -106 0 -106C40 -106 80 -84 80 -26Z"
    out = [f'<path d="{d}" fill="{colour}"/>',
           f'<path d="M0 -104L0 -28M-40 -98C-50 -72 -50 -50 -46 -28M40 -98C50 -72 50 -50 46 -28"'
           f' fill="none" stroke="{_GOLD}" stroke-width="5"/>']
    pearls = [_bezier(*arch_l, t) for t in (0.18, 0.42, 0.68)]
    pearls += [_bezier(*arch_r, t) for t in (0.32, 0.58, 0.82)]
    out += [f'<circle cx="{_n(x)}" cy="{_n(y)}" r="6.5" fill="#ffffff" stroke="{colour}" '
            f'stroke-width="2"/>' for x, y in pearls]
    out.append(f'<rect x="-96" y="-30" width="192" height="30" rx="15" fill="{_GOLD}" '
               f'stroke="{colour}" stroke-width="4"/>')
    out += [f'<circle cx="{x}" cy="-15" r="6" fill="{colour}"/>' for x in (-60, -30, 0, 30, 60)]
    out.append(f'<circle cx="0" cy="-118" r="13" fill="{_GOLD}" stroke="{colour}" '
               f'stroke-width="3"/>')
    out.append(f'<path d="M0 -141L0 -127M-7 -134L7 -134" stroke="{colour}" stroke-width="4"/>')
    return "".join(out)


def _jack_cap(colour: str) -> str:
    # A soft, puffed cap overhanging its band, with a plume sweeping up to the right.
    cap = "M-80 -24C-122 -28 -116 -72 -64 -86C-22 -98 36 -98 76 -84C122 -68 118 -28 80 -24Z"
    plume = "M30 -78C52 -118 96 -140 140 -136C122 -126 104 -110 92 -94C78 -80 60 -72 46 -70Z"
    vein = "M40 -76C70 -104 104 -124 134 -133"
    out = [f'<path d="{plume}" fill="{_GOLD}" stroke="{colour}" stroke-width="4" '
           f'stroke-linejoin="round"/>',
           f'<path d="{vein}" fill="none" stroke="{colour}" stroke-width="2.5" '
           f'stroke-linecap="round"/>',
           f'<path d="{cap}" fill="{colour}"/>',
           f'<path d="M-66 -62C-30 -74 30 -74 66 -62" fill="none" stroke="{_GOLD}" '
           f'stroke-width="3" stroke-linecap="round"/>',
           f'<rect x="-82" y="-26" width="164" height="26" rx="6" fill="{_GOLD}" '
           f'stroke="{colour}" stroke-width="4"/>',
           f'<circle cx="44" cy="-74" r="11" fill="{_GOLD}" stroke="{colour}" '
           f'stroke-width="3"/>']
    out += [f'<circle cx="{x}" cy="-13" r="5" fill="{colour}"/>' for x in (-50, -25, 0, 25, 50)]
    return "".join(out)


_COURT_MOTIF = {"K": _king_crown, "Q": _queen_crown, "J": _jack_cap}


def _court(card: Card, colour: str) -> str:
    tint = _mix(colour, 0.07, _PAPER)
    x0, x1, y0, y1 = _PANEL_X0, _PANEL_X1, _PANEL_Y0, _PANEL_Y1
    w, h = x1 - x0, y1 - y0
    out = [
        f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" rx="10" fill="{tint}" '
        f'stroke="{colour}" stroke-width="5"/>',
        f'<rect x="{x0 + 11}" y="{y0 + 11}" width="{w - 22}" height="{h - 22}" rx="4" '
        f'fill="none" stroke="{colour}" stroke-width="1.6"/>',
        f'<path d="M{x0 + 11} {_n(_CY)}H{_n(_CX - 30)}M{_n(_CX + 30)} {_n(_CY)}H{x1 - 11}" '
        f'stroke="{colour}" stroke-width="2"/>',
        _pip(card.suit, _CX, _CY, 36),
    ]
    motif = _COURT_MOTIF[card.rank](colour)
    half = (
        f'<g transform="translate({_n(_CX)} 206)">{motif}</g>'
        + _rank_text(card.rank, _CX, 366, 200)
        + _pip(card.suit, x0 + 50, 296, 48)
        + _pip(card.suit, x1 - 50, 296, 48)
    )
    out.append(half)
    out.append(_rotated(half))
    return "".join(out)


def _full_body(card: Card, colour: str) -> str:
    parts = [_index(card), _rotated(_index(card))]
    if card.rank == "A":
        parts.append(_pip(card.suit, _CX, _CY, _ACE_SIZE))
    elif card.rank in _COURT_MOTIF:
        parts.append(_court(card, colour))
    else:
        parts += [_pip(card.suit, x, y, _PIP_SIZE, flip) for x, y, flip in pip_positions(card.rank)]
    return "".join(parts)


# --------------------------------------------------------------------------- compact faces
_COMPACT_RADIUS = 44
_COMPACT_STROKE = 12


def _compact_body(card: Card, colour: str) -> str:
    parts = []
    if card.rank in ("J", "Q", "K"):
        # A tinted band tells court cards apart at a glance, even at 14 mm.
        parts.append(f'<rect x="70" y="372" width="490" height="446" rx="24" '
                     f'fill="{_mix(colour, 0.12)}"/>')
    parts.append(_rank_text(card.rank, 48, 318, 360, anchor="start", condense_ten=0.72))
    # the suit under the rank, in the strip a fanned card leaves in view (0.45 of its
    # width): overlapped cards show rank and suit, as a real card's index does
    parts.append(_pip(card.suit, 140, 452, 180))
    parts.append(_pip(card.suit, _CX + 72, 652, 300))
    return "".join(parts)


# --------------------------------------------------------------------------- faces
@lru_cache(maxsize=1024)
def _card_face(card: Card, style: str, four_colour: bool, width: str | None,
               height: str | None, bleed: float, outline: bool = True) -> str:
    colour = suit_colour(card.suit, four_colour)
    head = _svg_open(card.name(), bleed, width, height)
    bg = ""
    if bleed:
        bg = (f'<rect x="{_n(-bleed)}" y="{_n(-bleed)}" width="{_n(CARD_W + 2 * bleed)}" '
              f'height="{_n(CARD_H + 2 * bleed)}" fill="#ffffff"/>')
    if style == "full":
        sw = 4
        body = _full_body(card, colour)
        radius = CORNER_RADIUS
    else:
        sw = _COMPACT_STROKE
        body = _compact_body(card, colour)
        radius = _COMPACT_RADIUS
    if not outline:
        # print and play: no line near the cut (a cut a little off it would show), the card
        # white to its edge like a printed deck; the crop marks say where to cut
        edge = f'<rect x="0" y="0" width="{_n(CARD_W)}" height="{_n(CARD_H)}" fill="#ffffff"/>'
    else:
        edge = (f'<rect x="{_n(sw / 2)}" y="{_n(sw / 2)}" width="{_n(CARD_W - sw)}" '
                f'height="{_n(CARD_H - sw)}" rx="{_n(radius - sw / 2)}" fill="#ffffff" '
                f'stroke="{_EDGE}" stroke-width="{_n(sw)}"/>')
    return f'{head}{bg}{edge}<g fill="{colour}" stroke="none">{body}</g></svg>'


def card_face(card: Card | str, *, style: str = "full", four_colour: bool = False,
              idprefix: str = "", width: str | None = None, height: str | None = None,
              bleed_mm: float = 0, outline: bool = True) -> str:
    """SVG of the face of ``card`` (a :class:`Card` or a name such as ``"QD"``).

    ``style="full"`` draws a real playing card, ``style="compact"`` a large rank and suit
    for small diagrams. ``width``/``height`` (CSS lengths such as ``"16mm"``) are set on the
    ``<svg>`` only when given. ``bleed_mm`` enlarges the viewBox by that much on each side,
    filled white. ``outline=False`` leaves out the outline round the card (print and play:
    no line stands near a cut). The output contains no ``id`` attributes, so ``idprefix`` (accepted for
    callers that pass one) is never needed.
    """
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r} (expected 'full' or 'compact')")
    del idprefix  # no ids are emitted; see the docstring
    return _card_face(_as_card(card), style, bool(four_colour), width, height, _units(bleed_mm),
                      bool(outline))


# --------------------------------------------------------------------------- backs
# A back is a list of primitive shapes in coordinates relative to the card's centre, so a
# half turn is plain negation. Every generator below is symmetric by construction (it
# emits each shape together with its negation, or iterates over index sets symmetric about
# zero), and the tests check the emitted SVG for it.
_BACK_COLOURS = {
    "a": {"bg": "#6f1821", "fine": "#852a33", "field": "#5c121a", "lattice": "#8e323b",
          "gem": "#b4525a", "light": "#ecd9b6"},
    "b": {"bg": "#15305c", "fine": "#234577", "field": "#0f2548", "lattice": "#2f5b98",
          "gem": "#5a82bd", "light": "#dbe5f4"},
}
_FRAME_INSET = 34      # outer frame line, 3.4 mm in from the cut
_FIELD_INSET = 60      # the patterned field inside the frame

Shape = tuple


def _attrs(**kw: object) -> tuple[tuple[str, str], ...]:
    return tuple((k.replace("_", "-"), str(v)) for k, v in kw.items())


def _clip_lattice(a: float, b: float, hx: float, hy: float, ks: Iterable[float],
                  attrs) -> list[Shape]:
    """Lines x/a + s*y/b = k (s = +1 and -1, k in ``ks``) clipped to |x|<=hx, |y|<=hy."""
    out = []
    for s in (1, -1):
        for k in ks:
            x1 = max(-hx, a * (k - hy / b))
            x2 = min(hx, a * (k + hy / b))
            if x2 - x1 > 1e-6:
                out.append(("line", x1, s * b * (k - x1 / a), x2, s * b * (k - x2 / a), attrs))
    return out


def _tri_grid(hx: float, hy: float, step_x: float, step_y: float):
    """Points of a triangular grid centred on the origin within |x|<=hx, |y|<=hy: even rows
    at whole multiples of ``step_x``, odd rows at half-way points. Both index sets are
    symmetric about zero, so the grid is symmetric under a half turn."""
    rows = int(hy // step_y)
    cols = int(hx // step_x) + 1
    for j in range(-rows, rows + 1):
        y = j * step_y
        if j % 2:
            xs = ((i + 0.5) * step_x for i in range(-cols - 1, cols + 1))
        else:
            xs = (i * step_x for i in range(-cols, cols + 1))
        for x in xs:
            if abs(x) <= hx:
                yield x, y


def _rhombus(cx: float, cy: float, rx: float, ry: float, attrs) -> Shape:
    return ("polygon", ((cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)), attrs)


def _back_shapes(design: str, bleed: float, *, outer: bool = True) -> list[Shape]:
    """The shapes of back ``design``; ``outer=False`` leaves out the all-over background
    texture (for rounded face-down cards in diagrams)."""
    c = _BACK_COLOURS[design]
    hx, hy = _CX + bleed, _CY + bleed               # half extents of the drawn box
    fx, fy = _CX - _FIELD_INSET, _CY - _FIELD_INSET  # half extents of the inner field
    shapes: list[Shape] = []
    rx_frame = 0 if design == "a" else 22
    if outer:
        shapes.append(("rect", -hx, -hy, 2 * hx, 2 * hy, 0, _attrs(fill=c["bg"])))
    # All-over fine texture, running into the bleed.
    if outer and design == "a":
        a, b = 22.0, 30.0
        ks = range(-int(hx / a + hy / b) - 1, int(hx / a + hy / b) + 2)
        shapes += _clip_lattice(a, b, hx, hy, ks, _attrs(stroke=c["fine"], stroke_width=2.5))
    elif outer and design == "b":
        step_x, step_y = 26.0, 22.5
        dot = _attrs(fill=c["fine"])
        shapes += [("circle", x, y, 3.0, dot) for x, y in _tri_grid(hx + 3, hy + 3, step_x, step_y)]
    # Frame: a bold line and a thin one, and the darker field inside.
    fi = _FRAME_INSET
    shapes.append(("rect", -(_CX - fi), -(_CY - fi), 2 * (_CX - fi), 2 * (_CY - fi), rx_frame,
                   _attrs(fill=c["field"], stroke=c["light"], stroke_width=6)))
    shapes.append(("rect", -fx, -fy, 2 * fx, 2 * fy, max(rx_frame - 12, 0),
                   _attrs(fill="none", stroke=c["light"], stroke_width=2)))
    gx, gy = fx - 10, fy - 10                       # pattern stays clear of the thin line
    if design == "a":
        # The lattice divides the field exactly (7 cells each way from the centre), so the
        # gems on the field's edge are clean half-gems.
        cells = 7
        a, b = gx / cells, gy / cells
        ks = range(-2 * cells, 2 * cells + 1)
        shapes += _clip_lattice(a, b, gx, gy, ks, _attrs(stroke=c["lattice"], stroke_width=3))
        med_x, med_y = 132.0, 184.0                  # the medallion's outer lozenge
        rx, ry = a * 0.34, b * 0.34
        for i in range(-cells, cells + 1):
            for j in range(-cells, cells):
                for px, py in ((i * a, (j + 0.5) * b), ((j + 0.5) * a, i * b)):
                    if abs(px) > gx + 1e-6 or abs(py) > gy + 1e-6:
                        continue
                    if abs(px) / med_x + abs(py) / med_y < 0.8:
                        continue                     # wholly hidden by the medallion
                    pts = [(px, py - ry), (px + rx, py), (px, py + ry), (px - rx, py)]
                    # Drop the vertex that would poke out of the field.
                    pts = [(x, y) for x, y in pts if abs(x) <= gx + 1e-6 and abs(y) <= gy + 1e-6]
                    shapes.append(("polygon", tuple(pts), _attrs(fill=c["gem"])))
        # Medallion: nested lozenges.
        for (r_x, r_y, attrs) in (
            (132, 184, _attrs(fill=c["field"], stroke=c["light"], stroke_width=6)),
            (110, 153, _attrs(fill="none", stroke=c["light"], stroke_width=2)),
            (78, 108, _attrs(fill=c["light"])),
            (46, 64, _attrs(fill=c["bg"])),
            (18, 25, _attrs(fill=c["light"])),
        ):
            shapes.append(_rhombus(0.0, 0.0, r_x, r_y, attrs))
    else:
        # Rings, each with a dot in it, on a triangular grid; clear of the medallion.
        step_x = 44.0
        r = 15.0
        ring = _attrs(fill="none", stroke=c["lattice"], stroke_width=3)
        gem = _attrs(fill=c["gem"])
        centres = [(x, y) for x, y in
                   _tri_grid(gx - r - 2, gy - r - 2, step_x, step_x * math.sqrt(3) / 2)
                   if math.hypot(x, y) >= 128 + r + 8]
        shapes += [("circle", x, y, r, ring) for x, y in centres]
        shapes += [("circle", x, y, 4.0, gem) for x, y in centres]
        # Medallion: a ringed disc with an eight-pointed star.
        shapes.append(("circle", 0.0, 0.0, 128.0,
                       _attrs(fill=c["field"], stroke=c["light"], stroke_width=6)))
        shapes.append(("circle", 0.0, 0.0, 110.0,
                       _attrs(fill="none", stroke=c["light"], stroke_width=2)))
        shapes.append(("polygon", _star(8, 94.0, 42.0), _attrs(fill=c["light"])))
        shapes.append(("polygon", _star(8, 46.0, 22.0), _attrs(fill=c["bg"])))
        shapes.append(("circle", 0.0, 0.0, 12.0, _attrs(fill=c["light"])))
    return shapes


def _star(points: int, r_out: float, r_in: float) -> tuple[tuple[float, float], ...]:
    """A star with an even number of points, built as one half plus its negation so that
    a half turn maps it exactly onto itself."""
    half = []
    for k in range(points):  # 2*points vertices in all; the first `points` are one half
        ang = -math.pi / 2 + k * math.pi / points
        r = r_out if k % 2 == 0 else r_in
        half.append((r * math.cos(ang), r * math.sin(ang)))
    return tuple(half) + tuple((-x, -y) for x, y in half)


def _render_shapes(shapes: Iterable[Shape]) -> str:
    """SVG elements for ``shapes``; a run of shapes with the same paint shares one ``<g>``."""
    out = []
    current = None
    for s in shapes:
        kind, attrs = s[0], s[-1]
        if attrs != current:
            if current is not None:
                out.append("</g>")
            out.append("<g" + "".join(f' {k}="{v}"' for k, v in attrs) + ">")
            current = attrs
        if kind == "rect":
            _, x, y, w, h, rx, _ = s
            r = f' rx="{_n(rx)}"' if rx else ""
            out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{r}/>')
        elif kind == "line":
            _, x1, y1, x2, y2, _ = s
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"/>')
        elif kind == "circle":
            _, cx, cy, r, _ = s
            out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}"/>')
        elif kind == "polygon":
            pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in s[1])
            out.append(f'<polygon points="{pts}"/>')
        else:  # pragma: no cover - a programming error
            raise TypeError(kind)
    if current is not None:
        out.append("</g>")
    return "".join(out)


@lru_cache(maxsize=64)
def _card_back(design: str, width: str | None, height: str | None, bleed: float) -> str:
    label = f"card back, design {design}"
    body = _render_shapes(_back_shapes(design, bleed))
    return (f'{_svg_open(label, bleed, width, height)}'
            f'<g transform="translate({_n(_CX)} {_n(_CY)})">{body}</g></svg>')


def card_back(design: str = "a", *, width: str | None = None, height: str | None = None,
              bleed_mm: float = 0) -> str:
    """SVG of a card back: ``"a"`` dark red diamond lattice, ``"b"`` dark blue rings.

    The art runs to the edge of the card (and with ``bleed_mm`` on into the bleed) and is
    symmetric under a half turn about the card's centre.
    """
    if design not in BACK_DESIGNS:
        raise ValueError(f"unknown back design {design!r} (expected 'a' or 'b')")
    return _card_back(design, width, height, _units(bleed_mm))


# --------------------------------------------------------------------------- face down
@lru_cache(maxsize=64)
def _face_down(style: str, design: str, width: str | None, height: str | None) -> str:
    c = _BACK_COLOURS[design]
    head = _svg_open("face-down card", 0, width, height)
    if style == "full":
        sw = 4
        edge = (f'<rect x="{_n(-_CX + sw / 2)}" y="{_n(-_CY + sw / 2)}" '
                f'width="{_n(CARD_W - sw)}" height="{_n(CARD_H - sw)}" '
                f'rx="{_n(CORNER_RADIUS - sw / 2)}" fill="{c["bg"]}" stroke="{_EDGE}" '
                f'stroke-width="{sw}"/>')
        body = _render_shapes(_back_shapes(design, 0, outer=False))
    else:
        # Plain enough to read at 14 mm: a border and a few big lozenges.
        sw = _COMPACT_STROKE
        edge = (f'<rect x="{_n(-_CX + sw / 2)}" y="{_n(-_CY + sw / 2)}" '
                f'width="{_n(CARD_W - sw)}" height="{_n(CARD_H - sw)}" '
                f'rx="{_n(_COMPACT_RADIUS - sw / 2)}" fill="{c["bg"]}" stroke="{_EDGE}" '
                f'stroke-width="{sw}"/>')
        inset = 62
        fx, fy = _CX - inset, _CY - inset
        shapes: list[Shape] = [
            ("rect", -fx, -fy, 2 * fx, 2 * fy, 18,
             _attrs(fill=c["field"], stroke=c["light"], stroke_width=14)),
        ]
        a, b = 82.0, 112.0
        gx, gy = fx - 7, fy - 7
        ks = range(-int(gx / a + gy / b) - 1, int(gx / a + gy / b) + 2)
        shapes += _clip_lattice(a, b, gx, gy, ks, _attrs(stroke=c["lattice"], stroke_width=9))
        if design == "a":
            shapes.append(_rhombus(0.0, 0.0, 96, 132, _attrs(fill=c["light"])))
            shapes.append(_rhombus(0.0, 0.0, 44, 60, _attrs(fill=c["bg"])))
        else:
            shapes.append(("circle", 0.0, 0.0, 100.0, _attrs(fill=c["light"])))
            shapes.append(("polygon", _star(8, 72.0, 34.0), _attrs(fill=c["bg"])))
        body = _render_shapes(shapes)
    return f'{head}<g transform="translate({_n(_CX)} {_n(_CY)})">{edge}{body}</g></svg>'


def face_down(style: str = "compact", *, design: str = "a", width: str | None = None,
              height: str | None = None) -> str:
    """A face-down card as drawn in diagrams: rounded corners and an outline like the
    faces; ``style="compact"`` is a plain version of back ``design`` that stays legible at
    14-18 mm, ``style="full"`` the back's frame and pattern."""
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r} (expected 'full' or 'compact')")
    if design not in BACK_DESIGNS:
        raise ValueError(f"unknown back design {design!r} (expected 'a' or 'b')")
    return _face_down(style, design, width, height)


def all_faces(style: str = "full", four_colour: bool = False) -> list[str]:
    """The 52 faces in suit-then-rank order (handy for sheets and tests)."""
    return [card_face(Card(r, s), style=style, four_colour=four_colour)
            for s in SUITS for r in RANKS]
