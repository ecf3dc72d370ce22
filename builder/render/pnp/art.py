"""Artwork of the print-and-play components, as SVG text drawn in millimetres.

Every function draws in the component's own trim coordinates (0,0 is the top-left of the
trim) and, where its art runs to the trim, carries that art on into the bleed, so that the
caller can place it with :func:`svg` at any bleed. :class:`Ink` turns colours into their
low-ink form: greyscale, and no large fills (``--ink low``).

Suit symbols come from :func:`builder.render.cards.suit_path`, so they match the cards.
"""

from __future__ import annotations

import math
import re
from html import escape

from .. import cards as cardart

FONT = "Cabin, 'DejaVu Sans', sans-serif"
SERIF = "'EB Garamond', serif"
INK = "#1a1a1a"
RED = "#b3202a"


#: the least size (pt) of any word on a mat, a track, a token or a player aid (issue 14)
MAT_MIN_PT = 9.0

#: how far a mat's frame line stands inside its trim (mm): a cut up to this far off the
#: line never touches the frame (issue 27, item 3: print shops ask for 3 mm)
FRAME_INSET = 3.0
#: the frame line's width (mm); nothing else on a mat is drawn over it or outside it
FRAME_LINE = 0.6


def n(x: float) -> str:
    r = round(x, 3)
    if r == int(r):
        return str(int(r))
    return f"{r:.3f}".rstrip("0")


def grey_of(colour: str, lighten: float = 0.0) -> str:
    """The luminance of a #rrggbb colour as a grey #rrggbb; ``lighten`` moves it that
    fraction of the way to white."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    y = round(y + (255 - y) * lighten)
    return f"#{y:02x}{y:02x}{y:02x}"


_HEX = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b")


def greyscale_svg(text: str, lighten: float = 0.0) -> str:
    """Every #rrggbb colour in an SVG replaced by its grey (lightened by ``lighten``)."""
    return _HEX.sub(lambda m: grey_of(m.group(0), lighten), text)


class Ink:
    """Colours for one ink mode. ``low``: greys only, outlines instead of large fills."""

    def __init__(self, mode: str = "full"):
        if mode not in ("full", "low"):
            raise ValueError(f"unknown ink {mode!r}")
        self.mode = mode
        self.low = mode == "low"

    def c(self, colour: str) -> str:
        """A line or small-shape colour."""
        return grey_of(colour) if self.low else colour

    def area(self, colour: str) -> str:
        """A large fill: none in low ink."""
        return "none" if self.low else colour

    def tint(self, colour: str, amount: float) -> str:
        """A pale version of ``colour`` for backgrounds (none in low ink)."""
        if self.low:
            return "none"
        c = colour.lstrip("#")
        rgb = [int(c[i:i + 2], 16) for i in (0, 2, 4)]
        return "#" + "".join(f"{round(255 + (v - 255) * amount):02x}" for v in rgb)


# --------------------------------------------------------------------------- wrappers
def svg(w: float, h: float, body: str, bleed=(0.0, 0.0, 0.0, 0.0), cls: str = "art") -> str:
    """An ``<svg>`` filling an art box: the viewBox is the trim plus the bleed, in mm."""
    left, top, right, bottom = bleed
    vw, vh = w + left + right, h + top + bottom
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" width="{n(vw)}mm" '
            f'height="{n(vh)}mm" viewBox="{n(-left)} {n(-top)} {n(vw)} {n(vh)}">{body}</svg>')


def text(x: float, y: float, s: str, size_pt: float, *, fill: str = INK, anchor: str = "middle",
         weight: int = 400, family: str = FONT, italic: bool = False, rotate: float = 0,
         spacing: float = 0) -> str:
    size = size_pt * 25.4 / 72
    tr = f' transform="rotate({n(rotate)} {n(x)} {n(y)})"' if rotate else ""
    st = ' font-style="italic"' if italic else ""
    ls = f' letter-spacing="{n(spacing)}"' if spacing else ""
    return (f'<text x="{n(x)}" y="{n(y)}" font-family="{family}" font-size="{n(size)}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}"{st}{ls}{tr}>'
            f'{escape(s)}</text>')


def suit(s: str, cx: float, cy: float, size: float, fill: str, stroke: str = "none",
         sw: float = 0) -> str:
    k = size / 100
    st = f' stroke="{stroke}" stroke-width="{n(sw / k)}"' if sw else ""
    return (f'<path transform="translate({n(cx - size / 2)} {n(cy - size / 2)}) scale({n(k)})" '
            f'd="{cardart.suit_path(s)}" fill="{fill}"{st}/>')


def rect(x, y, w, h, *, fill="none", stroke="none", sw=0.0, rx=0.0, dash: str = "") -> str:
    r = f' rx="{n(rx)}"' if rx else ""
    d = f' stroke-dasharray="{dash}"' if dash else ""
    s = f' stroke="{stroke}" stroke-width="{n(sw)}"' if sw else ""
    return f'<rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}"{r} fill="{fill}"{s}{d}/>'


def line(x1, y1, x2, y2, stroke=INK, sw=0.2, dash: str = "") -> str:
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{n(x1)}" y1="{n(y1)}" x2="{n(x2)}" y2="{n(y2)}" stroke="{stroke}" '
            f'stroke-width="{n(sw)}"{d}/>')


# --------------------------------------------------------------------------- calibration
CAL_SIZE = 50.0
CAL_LINE = 0.5


def calibration_square(ink: Ink) -> str:
    """A 50 mm square frame (the outside edge is 50 mm), with millimetre ticks inside."""
    s, t = CAL_SIZE, CAL_LINE
    frame = (f'<path fill-rule="evenodd" fill="#000000" '
             f'd="M0 0H{n(s)}V{n(s)}H0Z M{n(t)} {n(t)}V{n(s - t)}H{n(s - t)}V{n(t)}Z"/>')
    ticks = []
    for i in range(1, 50):
        length = 4 if i % 10 == 0 else (2.5 if i % 5 == 0 else 1.2)
        ticks.append(line(i, t, i, t + length, "#000000", 0.12))
        ticks.append(line(t, i, t + length, i, "#000000", 0.12))
    body = frame + "".join(ticks)
    body += text(s / 2, s / 2 - 1, "50 mm", 12, weight=700, fill=ink.c("#333333"))
    body += text(s / 2, s / 2 + 5, "square", 9, fill=ink.c("#555555"))
    return svg(s, s, body, cls="calibration")


# --------------------------------------------------------------------------- tokens
TOKEN_D = 25.0          # the token (a 1 inch punch cuts 25.4 mm)
TOKEN_BOX = 33.0        # the square cut box around it


def _pebble(cx: float, cy: float, rx: float, ry: float, fill: str, stroke: str, sw: float,
            tilt: float = -8) -> str:
    # a rounded, slightly irregular stone: a superellipse-ish closed curve
    pts = []
    for k in range(24):
        a = 2 * math.pi * k / 24
        wob = 1 + 0.045 * math.sin(3 * a + 0.7) + 0.03 * math.cos(5 * a)
        pts.append((cx + rx * wob * math.cos(a), cy + ry * wob * math.sin(a)))
    d = "M" + " L".join(f"{n(x)} {n(y)}" for x, y in pts) + "Z"
    return (f'<path d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{n(sw)}" '
            f'stroke-linejoin="round" transform="rotate({n(tilt)} {n(cx)} {n(cy)})"/>')


def token_box(diameter: float = TOKEN_D) -> float:
    """The square cut box round a token: 4 mm each side, room for 3 mm of bleed."""
    return diameter + 8.0


def stone_token(ink: Ink, side: str = "front", label: str = "",
                diameter: float = TOKEN_D) -> str:
    """A stone token in its cut box (``token_box``): a round token whose art runs 3 mm past
    its edge (so a circle punch, or scissors along the ring, leave no white), with its
    label. The stone and the words are drawn for 25 mm and scaled to ``diameter``."""
    box = token_box(diameter)
    c = box / 2
    r, ra = diameter / 2, diameter / 2 + 3.0
    out = []
    if ink.low:
        out.append(f'<circle cx="{n(c)}" cy="{n(c)}" r="{n(r)}" fill="none" stroke="#000000" '
                   f'stroke-width="0.3"/>')
        out.append(f'<circle cx="{n(c)}" cy="{n(c)}" r="{n(r - 2.2)}" fill="none" '
                   f'stroke="#888888" stroke-width="0.2"/>')
        stone_fill, stone_line, word = "none", "#333333", "#333333"
    else:
        base = "#4f5b66" if side == "front" else "#3b4550"
        out.append(f'<circle cx="{n(c)}" cy="{n(c)}" r="{n(ra)}" fill="{base}"/>')
        out.append(f'<circle cx="{n(c)}" cy="{n(c)}" r="{n(r - 2.2)}" fill="none" '
                   f'stroke="#8e9aa5" stroke-width="0.35"/>')
        # the cut guide: the token's edge
        out.append(f'<circle cx="{n(c)}" cy="{n(c)}" r="{n(r)}" fill="none" '
                   f'stroke="#c9d1d8" stroke-width="0.2"/>')
        stone_fill, stone_line, word = "#b9c2ca", "#e9eef2", "#e9eef2"
    art = _stone_art(side, label, ink, stone_fill, stone_line, word)
    k = diameter / TOKEN_D
    if abs(k - 1) < 1e-9:
        out.append(art)
    else:
        shift = c - TOKEN_BOX / 2 * k
        out.append(f'<g transform="translate({n(shift)} {n(shift)}) scale({n(k)})">{art}</g>')
    return "".join(out)


def _stone_art(side: str, label: str, ink: Ink, stone_fill: str, stone_line: str,
               word: str) -> str:
    """The stone and the label of a 25 mm token in a 33 mm box."""
    c = TOKEN_BOX / 2
    out = []
    if side == "front":
        out.append(_pebble(c, c - 1.6, 6.2, 4.4, stone_fill, stone_line, 0.35))
        if not ink.low:
            out.append(f'<ellipse cx="{n(c - 2.2)}" cy="{n(c - 3.2)}" rx="2" ry="0.9" '
                       f'fill="#dfe5ea" transform="rotate(-20 {n(c - 2.2)} {n(c - 3.2)})"/>')
        out.append(text(c, c + 7.0, label.upper(), MAT_MIN_PT, fill=word, weight=700, spacing=0.3))
    else:
        for dx, dy, s in ((-4.2, 1.0, 0.85), (4.2, 1.0, 0.85), (0, -3.6, 0.85)):
            out.append(_pebble(c + dx, c + dy - 1.2, 3.4 * s, 2.5 * s, stone_fill, stone_line,
                               0.3, tilt=dx * 2))
        out.append(text(c, c + 7.2, label.upper(), MAT_MIN_PT, fill=word, weight=700, spacing=0.2))
    return "".join(out)


# --------------------------------------------------------------------------- mats
SPACE_W, SPACE_H = 64.0, 89.0   # a card space: 0.5 mm around a 63 x 88 card


def card_space(ink: Ink, x: float, y: float, label: str, colour: str, *, note: str = "",
               w: float = SPACE_W, h: float = SPACE_H, icon: str = "", dashed: bool = False,
               turn: bool = False) -> str:
    """A card-size space with its name at the top (and a note at the bottom)."""
    out = [rect(x, y, w, h, fill=ink.tint(colour, 0.10), stroke=ink.c(colour), sw=0.45, rx=3,
                dash="2 1.2" if dashed else "")]
    body = []
    cx = x + w / 2
    body.append(text(cx, y + 7, label, 9, weight=700, fill=ink.c(colour), spacing=0.3))
    if icon:
        body.append(suit(icon, cx, y + h / 2, 16, ink.tint(colour, 0.25) if not ink.low else "none",
                         stroke=ink.c("#bbbbbb") if ink.low else "none",
                         sw=0.3 if ink.low else 0))
    for k, ln in enumerate(note.split("\n") if note else []):
        body.append(text(cx, y + h - 4 - 4.2 * (len(note.split("\n")) - 1 - k), ln, MAT_MIN_PT,
                         fill=ink.c("#444444")))
    inner = "".join(body)
    if turn:
        inner = f'<g transform="rotate(180 {n(cx)} {n(y + h / 2)})">{inner}</g>'
    return "".join(out) + inner


def mat_frame(ink: Ink, w: float, h: float, colour: str) -> str:
    k = FRAME_INSET
    return rect(k, k, w - 2 * k, h - 2 * k, fill=ink.tint(colour, 0.05), stroke=ink.c(colour),
                sw=FRAME_LINE, rx=4)


def arrow_up(x: float, y: float, length: float, colour: str, sw: float = 0.4) -> str:
    return (line(x, y, x, y - length, colour, sw)
            + f'<path d="M{n(x - 1.4)} {n(y - length + 2)} L{n(x)} {n(y - length)} '
              f'L{n(x + 1.4)} {n(y - length + 2)}" fill="none" stroke="{colour}" '
              f'stroke-width="{n(sw)}"/>')


# --------------------------------------------------------------------------- card backs
def low_ink_back(design: str, bleed_mm: float = 0.0) -> str:
    """A card back for ``--ink low``: white ground, a double frame and a thin lattice (a) or
    rings (b) in grey, symmetric under a half turn like the full-colour backs."""
    W, H = 63.0, 88.0
    b = bleed_mm
    out = [rect(-b, -b, W + 2 * b, H + 2 * b, fill="#ffffff")]
    out.append(rect(3.4, 3.4, W - 6.8, H - 6.8, stroke="#555555", sw=0.5,
                    rx=0 if design == "a" else 2.2))
    out.append(rect(6, 6, W - 12, H - 12, stroke="#777777", sw=0.2,
                    rx=0 if design == "a" else 1))
    cx, cy = W / 2, H / 2
    gx, gy = W / 2 - 7, H / 2 - 7
    if design == "a":
        a, bb = gx / 4, gy / 4
        clip = []
        for s in (1, -1):
            for k in range(-8, 9):
                # lines x/a + s*y/b = k, clipped to the field
                x1 = max(-gx, a * (k - gy / bb))
                x2 = min(gx, a * (k + gy / bb))
                if x2 - x1 > 1e-6:
                    y1 = s * bb * (k - x1 / a)
                    y2 = s * bb * (k - x2 / a)
                    clip.append(line(cx + x1, cy + y1, cx + x2, cy + y2, "#aaaaaa", 0.18))
        out += clip
        for rx, ry, sw in ((13.2, 18.4, 0.5), (11.0, 15.3, 0.2), (4.6, 6.4, 0.35)):
            out.append(f'<polygon points="{n(cx)},{n(cy - ry)} {n(cx + rx)},{n(cy)} '
                       f'{n(cx)},{n(cy + ry)} {n(cx - rx)},{n(cy)}" fill="#ffffff" '
                       f'stroke="#555555" stroke-width="{n(sw)}"/>')
    else:
        step = 4.4
        rows = int(gy / (step * math.sqrt(3) / 2))
        for j in range(-rows, rows + 1):
            yy = j * step * math.sqrt(3) / 2
            off = step / 2 if j % 2 else 0
            k = -int(gx / step) - 1
            while k * step + off <= gx:
                xx = k * step + off
                if abs(xx) <= gx - 1.5 and abs(yy) <= gy - 1.5 and math.hypot(xx, yy) > 15.5:
                    out.append(f'<circle cx="{n(cx + xx)}" cy="{n(cy + yy)}" r="1.5" '
                               f'fill="none" stroke="#aaaaaa" stroke-width="0.18"/>')
                k += 1
        out.append(f'<circle cx="{n(cx)}" cy="{n(cy)}" r="12.8" fill="#ffffff" '
                   f'stroke="#555555" stroke-width="0.5"/>')
        out.append(f'<circle cx="{n(cx)}" cy="{n(cy)}" r="11" fill="none" stroke="#777777" '
                   f'stroke-width="0.2"/>')
        pts = []
        for k in range(16):
            ang = -math.pi / 2 + k * math.pi / 8
            r = 9.4 if k % 2 == 0 else 4.2
            pts.append(f"{n(cx + r * math.cos(ang))},{n(cy + r * math.sin(ang))}")
        out.append(f'<polygon points="{" ".join(pts)}" fill="none" stroke="#555555" '
                   f'stroke-width="0.3"/>')
    label = f"card back, design {design}, low ink"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{n(-b)} {n(-b)} {n(W + 2 * b)} '
            f'{n(H + 2 * b)}" role="img" aria-label="{label}"><title>{label}</title>'
            + "".join(out) + "</svg>")
