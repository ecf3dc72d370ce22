"""Card faces and backs for any deck, as SVG: the one door every renderer asks for card art.

A game plays the French 52 or decks of its own (``decks:`` in its ``game.yaml``, read into
``builder.content.decks.DeckSpec``). Every card a renderer draws is named by a *card
reference* (:func:`card_ref`), a short text that says the deck and the card:

* the French 52 keeps its plain codes, ``QD`` (a face) and ``back`` (a face-down card), so
  the shipped games' pictures and file names stay as they were;
* a card of a game's own deck is ``<deck key>/<code>`` (the key is ``<slug>/<deck name>``:
  ``high-colours/colours/R6``), and its back ``<deck key>/_back`` (no code starts with
  ``_``). Two games may both have a card ``R7``; their references differ.

:class:`Faces` draws each reference once (per deck key, code, style and bleed) and keeps
the SVG. The French deck's art is the built-in drawer (:mod:`builder.render.cards`); a
game's own deck's art comes from templates (:class:`DeckArt`):

* the face: the deck's ``face:`` template (a Jinja SVG template in the game's folder), or
  the shipped ``templates/cards/face.svg.j2`` (overridable, as every shipped template, by
  ``<content>/templates/cards/face.svg.j2``), rendered in the project's bounded sandbox
  (:mod:`builder.sandbox`) with plain data only (:meth:`DeckArt.context`);
* the back: the deck's ``back:`` (an SVG file, held to what a logo may hold, a PNG or JPEG
  file, or a Jinja template), or the shipped ``templates/cards/back.svg.j2``.

A template writes the elements of one card in millimetres (``0 0 width height``, the bleed
round it); warbook wraps them in the ``<svg>`` element and refuses an outcome that is not
safe, well-formed SVG. Text is fitted to its box by the ``fit`` helper, measured with the
shipped typeface's own advance widths and kerning (the faces are set in Cabin): it shrinks
the type down to a least size, and text that still does not fit is a located error at the
card's row of the deck file, naming the card and the field. A card's field may name a
picture in the game's folder, placed by the ``picture`` helper (``background`` for art that
fills the card and its bleed): an SVG file (:class:`Picture`, held to what a logo may hold)
or a PNG or JPEG file (:class:`Raster`: read whole by Pillow, at most
:data:`MAX_PIXELS`, carried in the SVG as a ``data:`` URI, never a path or a URL).

The full style is what is printed, so drawing it checks it for print (the compact style is
a diagram's, drawn 10 mm wide, and is not checked): a ``fit`` box or a picture that reaches
outside the safe area (:meth:`DeckArt.safe_area`; a picture drawn with ``bleed=true`` or by
``background`` is exempt), and a raster picture of less than :data:`PRINT_DPI` where it is
printed (its size as drawn, with the bleed the face is drawn with). Every failure is a
:class:`~builder.diagnostics.Diagnostic`: a template's at its file and line, naming the card;
a card's (text, pictures, the print checks) at the card's row of the deck file.

:func:`check_faces` draws every face and back of a checked report's own decks, so that
``warbook check`` says these problems before a build (the command line calls it after the
check: the check's stage may not import the renderers); it draws the full faces with and
without print and play's bleed (:data:`PRINT_BLEED_MM`).

For a renderer: make one ``faces = Faces(content_root, four_colour)`` and ``faces.add(game)``
each game (a game of the French 52 adds nothing); then

* ``faces.svg(ref, style="compact", bleed_mm=0, width=None, height=None)``: the SVG of a
  reference (a face, or a back for ``.../_back`` and ``back``), ``style`` "full" or
  "compact", cached;
* ``faces.face(card_or_ref, style="full", bleed_mm=0)`` and ``faces.back(deck_key,
  style="full", bleed_mm=0)``: the same from a card object or a deck's key;
* ``faces.art(deck_key).size_mm``: the card's size in millimetres (the French 52's
  drawer: 63 x 88), ``faces.ratio(deck_key)`` its height in widths (None: French);
* :func:`card_ref`, :func:`code_ref`, :func:`back_ref`, :func:`split_ref`: references.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ..content.svg import unsafe_svg
from ..contentpath import Refused, rel, resolve
from ..diagnostics import Diagnostic, Diagnostics, Located, suggest
from ..engine.decks import DeckCard
from ..sandbox import TemplateFault
from ..yamlsrc import MAX_FILE_BYTES, read_text
from . import cards as french
from .fonts import FONT_DIRS, FontMissing
from .templating import environment, helper, overrides_of

__all__ = [
    "FRENCH_KEY", "BACK", "STYLES", "card_ref", "code_ref", "back_ref", "split_ref", "is_own",
    "Faces", "DeckArt", "FrenchArt", "check_faces", "fit_text", "Fitted", "Line",
    "Picture", "Raster", "read_raster", "PRINT_DPI", "PRINT_BLEED_MM", "MAX_PIXELS",
    "palette_colour", "ink_on", "mix", "FACE_TEMPLATE", "BACK_TEMPLATE",
]

#: the French 52's deck key (``builder.engine.decks.FRENCH``)
FRENCH_KEY = "french"
#: the last part of a back's reference (a code never starts with "_")
BACK = "_back"
#: how a card is drawn: a whole card (books' covers, print-and-play) or a plain one that
#: reads at 10 to 18 mm wide (the diagrams)
STYLES = ("full", "compact")
#: the shipped templates of a deck that gives no face or back of its own
FACE_TEMPLATE = "cards/face.svg.j2"
BACK_TEMPLATE = "cards/back.svg.j2"
#: the safe area's margin inside the cut (mm), at most a tenth of the card's shorter side
SAFE_MM = 3.0
#: millimetres in a point (a template's sizes of type are in points)
PT = 25.4 / 72
#: the resolution a raster picture needs where it is printed (the full face, at its size)
PRINT_DPI = 300
#: the bleed the print checks draw the full faces with (print and play's)
PRINT_BLEED_MM = 3.0
#: what a raster picture may hold (width x height), however small its file
MAX_PIXELS = 24_000_000
#: the picture files a card's field (or a deck's ``back:``) may name, by their ending
PICTURE_TYPES = (".svg", ".png", ".jpg", ".jpeg")
RASTER_TYPES = (".png", ".jpg", ".jpeg")
#: how far (mm) a box may reach past the safe area before the check says so (mm() rounds)
_SAFE_SLACK = 0.05
#: the faces' typeface, as a template's ``<text>`` names it
FONT_FAMILY = "Cabin, 'DejaVu Sans', sans-serif"
_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"


# --------------------------------------------------------------------------- references
def is_own(card: Any) -> bool:
    """Whether ``card`` is a card of a game's own deck (not the French 52)."""
    return isinstance(card, DeckCard)


def card_ref(card: Any, up: bool = True) -> str:
    """The reference of ``card`` as drawn face up (``up``) or face down: ``QD``/``back``
    for the French 52, ``<deck key>/<code>``/``<deck key>/_back`` for a game's own deck."""
    if is_own(card):
        return f"{card.deck.key}/{card.code if up else BACK}"
    return str(card) if up else "back"


def code_ref(game: Any, code: str) -> str:
    """The reference of the card a game's content names by ``code`` (``cover_cards``):
    the card of the game's own deck that has it, else the French card."""
    for spec in getattr(game, "decks", None) or []:
        try:
            return f"{spec.deck.key}/{spec.deck.card(code).code}"
        except KeyError:
            continue
    return code


def back_ref(deck_key: str) -> str:
    """The reference of a deck's back (a face-down card)."""
    return "back" if deck_key == FRENCH_KEY else f"{deck_key}/{BACK}"


def split_ref(ref: str) -> tuple[str, str | None]:
    """(deck key, code) of a reference; the code is None for a back."""
    if "/" not in ref:
        return FRENCH_KEY, (None if ref == "back" else ref)
    key, _, code = ref.rpartition("/")
    return key, (None if code == BACK else code)


# --------------------------------------------------------------------------- colours
#: colour words a deck file may write (a field ``colour``), as inks that print well and
#: read on screen; #rrggbb is taken as it is written
PALETTE: dict[str, str] = {
    "red": "#c62f3a", "crimson": "#b01e3c", "ruby": "#a3123a", "maroon": "#7d1f2e",
    "orange": "#e06c1f", "amber": "#e0951c", "yellow": "#e8b923", "gold": "#c9a227",
    "lime": "#79b530", "green": "#2f8f4e", "emerald": "#1f8a5b", "olive": "#7c8a2a",
    "teal": "#19857f", "turquoise": "#23a6a0", "cyan": "#2399c4", "sky": "#4a9ad8",
    "blue": "#2b63b5", "sapphire": "#1f4f9c", "navy": "#253b6e", "indigo": "#4b4fa6",
    "purple": "#7b4ea8", "violet": "#8d5bc1", "lavender": "#a58dd1", "magenta": "#b8378f",
    "pink": "#d6548f", "rose": "#d96a8a", "coral": "#e86f5a", "salmon": "#e58a76",
    "brown": "#8b5a36", "tan": "#c49a6c", "beige": "#d9c7a3", "cream": "#efe3c2",
    "black": "#2a2a2a", "grey": "#7a7d80", "gray": "#7a7d80", "silver": "#a3a9b0",
    "white": "#f3efe6", "mint": "#6cc3a0",
}
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def palette_colour(value: Any, default: str) -> str:
    """The ink of a colour a deck file writes: a colour word (``red``, ``Blue``) from
    :data:`PALETTE`, ``#rrggbb`` as it is, anything else (or nothing) ``default``."""
    if isinstance(value, str):
        word = value.strip().lower()
        if _HEX.match(word):
            return word
        word = word.replace("-", " ").replace("_", " ").split()[-1] if word.split() else ""
        if word in PALETTE:
            return PALETTE[word]
    return default if _HEX.match(str(default)) else "#5b554e"


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def mix(colour: str, amount: float, base: str = "#ffffff") -> str:
    """``amount`` (0 to 1) of ``colour`` over ``base`` (both #rrggbb)."""
    amount = max(0.0, min(1.0, float(amount)))
    c, b = _rgb(palette_colour(colour, "#000000")), _rgb(palette_colour(base, "#ffffff"))
    return "#" + "".join(f"{round(bb + (cc - bb) * amount):02x}" for cc, bb in zip(c, b))


def _luminance(colour: str) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """The ink that reads on ``colour``: near-black on a light colour, white on a dark."""
    return "#1d1d1b" if _luminance(palette_colour(colour, "#000000")) > 0.36 else "#ffffff"


def deep(colour: str) -> str:
    """``colour`` dark enough to read as type or lines on white (a yellow turns gold)."""
    colour = palette_colour(colour, "#000000")
    lum = _luminance(colour)
    return mix(colour, 0.62, "#000000") if lum > 0.3 else colour


# --------------------------------------------------------------------------- type
#: the weights a template may ask ``fit`` for: the shipped Cabin file, CSS weight, italic
WEIGHTS: dict[str, tuple[str, int, bool]] = {
    "regular": ("Cabin-Regular.otf", 400, False), "italic": ("Cabin-Italic.otf", 400, True),
    "medium": ("Cabin-Medium.otf", 500, False), "semibold": ("Cabin-SemiBold.otf", 600, False),
    "bold": ("Cabin-Bold.otf", 700, False), "bold-italic": ("Cabin-BoldItalic.otf", 700, True),
}
#: the least size ``fit`` sets type at, whatever a template asks (points)
MIN_PT = 4.0


@lru_cache(maxsize=None)
def _metrics(weight: str):
    """The shipped Cabin face of ``weight`` (its advances and kerning). The faces are drawn
    with the installed Cabin whatever typefaces the book uses, so they are measured so."""
    from .book.glyphs import Face

    name = WEIGHTS[weight][0]
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return Face(folder / name)
    raise FontMissing(f"font file {name} not found in {', '.join(map(str, FONT_DIRS))}; "
                      f"run 'bash scripts/setup' (it installs fonts-cabin)")


@dataclass(frozen=True)
class Line:
    """One line of fitted text: its words and where it stands (``x`` at its anchor, ``y``
    its baseline, in the card's millimetres)."""

    text: str
    x: float
    y: float


@dataclass(frozen=True)
class Fitted:
    """Text fitted to a box by ``fit``: the lines, the size (``size`` in millimetres, for
    ``font-size``; ``pt`` in points), the anchor (``start``, ``middle``, ``end``) and the
    face (``family``, ``weight`` as CSS writes it, ``italic``). ``fits`` is False when even
    the least size did not fit (the check has said so)."""

    text: str
    lines: tuple[Line, ...]
    size: float
    pt: float
    anchor: str
    family: str
    weight: int
    italic: bool
    fits: bool

    @property
    def style(self) -> str:
        """``font-style`` for the ``<text>`` element."""
        return "italic" if self.italic else "normal"


def _wrap(text: str, face, size_mm: float, width: float) -> list[str]:
    lines = face.lines(text, size_mm, width)
    while len(lines) > 1 and not lines[-1]:
        lines.pop()
    return lines


def _ellipsis(line: str, face, size_mm: float, width: float) -> str:
    words = line.split()
    while words:
        trial = " ".join(words) + "\u2026"
        if face.width(trial, size_mm) <= width:
            return trial
        words.pop()
    return "\u2026"


@dataclass
class _Fit:
    """Why text did not fit (for the error the renderer raises)."""

    lines_needed: int
    lines_room: int
    wide_word: str


def fit_text(text: Any, x: float, y: float, width: float, height: float, *,
             size: float = 9.0, min_size: float = 6.0, weight: str = "regular",
             align: str = "middle", valign: str = "middle", leading: float = 1.2,
             lines: int | None = None, strict: bool = True) -> tuple[Fitted, _Fit | None]:
    """``text`` set in the box (x, y, width, height; millimetres) at ``size`` points, or
    smaller, a quarter point at a time down to ``min_size``, until its lines fit the box
    (at most ``lines`` of them when given) and no word is wider than it. Returns the fitted
    text and, when it does not fit even at ``min_size``, why (None when it fits). Text
    that does not fit is set at ``min_size``, its lines cut (with an ellipsis) to the box
    when not ``strict``."""
    if weight not in WEIGHTS:
        raise ValueError(f"fit: unknown weight '{weight}' (weights: {', '.join(WEIGHTS)})"
                         + suggest(weight, WEIGHTS))
    if align not in ("start", "middle", "end"):
        raise ValueError(f"fit: align must be start, middle or end, got '{align}'")
    if valign not in ("top", "middle", "bottom"):
        raise ValueError(f"fit: valign must be top, middle or bottom, got '{valign}'")
    text = "" if text is None else str(text)
    face = _metrics(weight)
    width, height = max(float(width), 0.1), max(float(height), 0.1)
    hi = max(float(size), MIN_PT)
    lo = min(max(float(min_size), MIN_PT), hi)
    room_lines = None if lines is None else max(1, int(lines))
    pt = hi
    why: _Fit | None = None
    while True:
        s = pt * PT
        wrapped = _wrap(text, face, s, width)
        room = max(1, int((height + 1e-6) // (s * leading)))
        if room_lines is not None:
            room = min(room, room_lines)
        wide = next((w for ln in wrapped for w in ln.split() if face.width(w, s) > width + 1e-6),
                    "")
        if len(wrapped) <= room and not wide:
            why = None
            break
        why = _Fit(len(wrapped), room, wide)
        if pt <= lo + 1e-9:
            break
        pt = max(lo, pt - 0.25)
    s = pt * PT
    if why is not None and not strict:
        room = max(1, why.lines_room)
        wrapped = wrapped[:room]
        if why.lines_needed > room:
            wrapped[-1] = _ellipsis(wrapped[-1], face, s, width)
        wrapped = [ln if face.width(ln, s) <= width else _ellipsis(ln, face, s, width)
                   for ln in wrapped]
    line_h = s * leading
    block = len(wrapped) * line_h
    top = {"top": y, "middle": y + (height - block) / 2, "bottom": y + height - block}[valign]
    # each line's box as CSS sets it: the half-leading above the ascent
    first = top + (line_h - (face.ascent + face.descent) * s) / 2 + face.ascent * s
    ax = {"start": x, "middle": x + width / 2, "end": x + width}[align]
    out = tuple(Line(ln, round(ax, 3), round(first + i * line_h, 3))
                for i, ln in enumerate(wrapped))
    name, css_weight, italic = WEIGHTS[weight]
    return Fitted(text=text, lines=out, size=round(s, 3), pt=round(pt, 2), anchor=align,
                  family=FONT_FAMILY, weight=css_weight, italic=italic,
                  fits=why is None), why


def svg_number(x: Any) -> str:
    """A number for SVG: at most two decimals, no trailing zeros, never ``-0``."""
    try:
        v = round(float(x), 2)
    except (TypeError, ValueError):
        raise ValueError(f"mm: expected a number, got {x!r}") from None
    if v == int(v):
        return str(int(v))
    return f"{v:.2f}".rstrip("0")


# --------------------------------------------------------------------------- SVG files
@dataclass(frozen=True)
class Picture:
    """An SVG file of the content (an icon, a back), held to what a logo may hold: its
    ``<svg>`` element as text, without its size, and its viewBox."""

    view_box: str
    root: str  # "<svg ...>...</svg>", the position and size left for the caller

    def placed(self, x: float, y: float, width: float, height: float,
               aspect: str = "xMidYMid meet") -> Markup:
        """The picture in the box (x, y, width, height) of the card's millimetres."""
        attrs = (f' x="{svg_number(x)}" y="{svg_number(y)}" width="{svg_number(width)}"'
                 f' height="{svg_number(height)}" preserveAspectRatio="{escape(aspect)}"')
        return Markup(self.root.replace("<svg", "<svg" + attrs, 1))


def _length(value: str | None) -> float | None:
    m = re.match(r"^\s*([0-9.]+)\s*(px|pt|mm|cm|in)?\s*$", value or "")
    if not m:
        return None
    try:
        return float(m.group(1))
    except ValueError:
        return None


def parse_picture(data: bytes) -> tuple[Picture | None, str]:
    """An SVG file's :class:`Picture`, or (None, why it is refused): it must be safe
    (:func:`builder.content.svg.unsafe_svg`, as a logo) and say its size (a viewBox, or a
    width and height)."""
    problem = unsafe_svg(data)
    if problem:
        return None, problem
    root = ET.fromstring(data)
    if root.tag != f"{{{_SVG_NS}}}svg":
        return None, "is not an SVG picture (its root element is not <svg> in the SVG namespace)"
    box = root.get("viewBox")
    if not box:
        w, h = _length(root.get("width")), _length(root.get("height"))
        if not w or not h:
            return None, "gives no size (no viewBox, and no width and height)"
        box = f"0 0 {svg_number(w)} {svg_number(h)}"
    for name in ("x", "y", "width", "height", "preserveAspectRatio"):
        root.attrib.pop(name, None)
    root.set("viewBox", box)
    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    text = ET.tostring(root, encoding="unicode")
    return Picture(view_box=box, root=text), ""


# --------------------------------------------------------------------------- raster files
@dataclass(frozen=True)
class Raster:
    """A PNG or JPEG file of the content, read and decoded once by Pillow (so it is a
    whole image of bounded size), carried in the SVG as a ``data:`` URI, never as a file's
    path or a URL: its size in pixels, its type and that URI."""

    width: int
    height: int
    mime: str
    uri: str

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    def placed(self, x: float, y: float, width: float, height: float,
               aspect: str = "xMidYMid meet") -> Markup:
        """The picture in the box (x, y, width, height) of the card's millimetres; with
        ``slice`` in ``aspect`` it fills the box, cut to it."""
        box = (f'x="{svg_number(x)}" y="{svg_number(y)}" width="{svg_number(width)}" '
               f'height="{svg_number(height)}"')
        if "slice" in aspect:  # a viewport that clips what runs over it, for every renderer
            return Markup(f'<svg {box} viewBox="{self.view_box}" preserveAspectRatio='
                          f'"{escape(aspect)}"><image width="{self.width}" height='
                          f'"{self.height}" href="{self.uri}"/></svg>')
        return Markup(f'<image {box} preserveAspectRatio="{escape(aspect)}" '
                      f'href="{self.uri}"/>')


_RASTER_MIME = {"PNG": "image/png", "JPEG": "image/jpeg"}
#: the data URIs a card's SVG may hold (warbook's own, checked against those it made)
_DATA_URI = re.compile(r'href="(data:image/(?:png|jpeg);base64,[A-Za-z0-9+/=]*)"')


def read_raster(data: bytes) -> tuple[Raster | None, str]:
    """A PNG or JPEG file's :class:`Raster`, or (None, why it is refused): Pillow must
    read it as a PNG or JPEG and decode it whole, and it may hold at most
    :data:`MAX_PIXELS` (Pillow's guard against decompression bombs said the same way)."""
    import base64
    import io
    import warnings

    from PIL import Image, ImageFile, UnidentifiedImageError

    limit = f"a picture may hold at most {MAX_PIXELS // 1_000_000} megapixels"
    # WeasyPrint, once imported, lets Pillow fill a cut file out with grey: not here
    truncated, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=tuple(_RASTER_MIME)) as image:
                width, height = image.size
                kind = image.format or ""
                if width * height > MAX_PIXELS:
                    return None, (f"is {width} x {height} px ({width * height / 1e6:.0f} "
                                  f"megapixels); {limit}")
                image.load()  # decoded whole: a cut or corrupt file is refused here
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return None, (f"claims more pixels than may be opened safely (a decompression "
                      f"bomb?); {limit}")
    except UnidentifiedImageError:
        return None, "is not a PNG or JPEG image (Pillow does not know it as one)"
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError) as e:
        return None, f"is not a readable image ({str(e)[:80] or type(e).__name__})"
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    mime = _RASTER_MIME.get(kind)
    if mime is None or width < 1 or height < 1:
        return None, "is not a PNG or JPEG image (Pillow does not know it as one)"
    uri = f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
    return Raster(width=width, height=height, mime=mime, uri=uri), ""


def _aspect(pic: "Picture | Raster") -> float | None:
    """A picture's width over its height (None when its viewBox does not say)."""
    try:
        _, _, w, h = (float(v) for v in pic.view_box.replace(",", " ").split())
    except ValueError:
        return None
    return w / h if w > 0 and h > 0 else None


def drawn_box(pic: "Picture | Raster", x: float, y: float, width: float, height: float,
              crop: bool) -> tuple[float, float, float, float, float, float]:
    """Where a picture placed in the box lands: (x0, y0, x1, y1) of the ink that shows
    (the box itself when cropped; the picture, centred, when fitted) and the size (mm) of
    the whole picture as drawn (more than the box when cropped)."""
    ratio = _aspect(pic) or (width / height if height else 1.0)
    if height <= 0 or width <= 0:
        return x, y, x, y, 0.0, 0.0
    wide = ratio >= width / height
    if crop:
        dw, dh = (height * ratio, height) if wide else (width, width / ratio)
        return x, y, x + width, y + height, dw, dh
    dw, dh = (width, width / ratio) if wide else (height * ratio, height)
    x0, y0 = x + (width - dw) / 2, y + (height - dh) / 2
    return x0, y0, x0 + dw, y0 + dh, dw, dh


def low_resolution(pic: Raster, drawn_w: float, drawn_h: float) -> str:
    """What is wrong with a raster picture drawn ``drawn_w`` x ``drawn_h`` mm for print
    ('' when it has :data:`PRINT_DPI`): its resolution there, and the pixels it needs."""
    if drawn_w <= 0 or drawn_h <= 0:
        return ""
    dpi = min(pic.width / (drawn_w / 25.4), pic.height / (drawn_h / 25.4))
    if dpi >= PRINT_DPI - 0.5:
        return ""
    need_w = math.ceil(drawn_w / 25.4 * PRINT_DPI - 0.01)
    need_h = math.ceil(drawn_h / 25.4 * PRINT_DPI - 0.01)
    return (f"is {int(dpi)} dpi where it is printed ({pic.width} x {pic.height} px over "
            f"{drawn_w:.1f} x {drawn_h:.1f} mm); print needs {PRINT_DPI} dpi: at least "
            f"{need_w} x {need_h} px")


# --------------------------------------------------------------------------- the card data
class CardData(dict):
    """What a face template knows of its card (plain data): ``code``, ``name``, ``count``,
    ``deck`` (the deck's name), ``index`` (its row, from 0), ``fields`` (every field by
    name) and each field by its own name (``card.colour``). A field the deck does not have
    is an error where the template reads it."""


#: what the card data holds besides the fields
_CARD_KEYS = ("code", "name", "count", "deck", "index", "fields")


def card_data(card: DeckCard) -> CardData:
    """The template's ``card``: plain values, an empty cell as an empty text."""
    fields = {f: ("" if v is None else v) for f, v in card.fields().items()}
    return CardData(code=card.code, name=card.name(), count=card.deck.counts[card],
                    deck=card.deck.name, index=card.index, fields=fields, **fields)


_UNDEFINED_FIELD = re.compile(r"'[\w.]*CardData object' has no attribute '([^']+)'")


# --------------------------------------------------------------------------- the art
class FrenchArt:
    """The French 52's art: the built-in drawer (:mod:`builder.render.cards`)."""

    key = FRENCH_KEY
    size_mm = (63.0, 88.0)
    #: the height of a card in widths, as the diagrams draw it (10 by 14 mm)
    ratio: float | None = None

    def __init__(self, four_colour: bool = False):
        self.four_colour = four_colour

    def face(self, code: str, style: str = "compact", bleed_mm: float = 0, **size: Any) -> str:
        return french.card_face(code, style=style, four_colour=self.four_colour,
                                bleed_mm=bleed_mm, **size)

    def back(self, style: str = "compact", bleed_mm: float = 0, design: str = "a",
             **size: Any) -> str:
        if style == "compact" and not bleed_mm:
            return french.face_down(design=design, **size)
        return french.card_back(design, bleed_mm=bleed_mm, **size)


class _Loader(jinja2.BaseLoader):
    """The decks' own templates (a ``face:`` or ``back:`` file in a game's folder), by the
    name :class:`DeckArt` gives them; each read through the content's resolver and
    bounded like every content file, and blamed by the sandbox for what fails in it."""

    def __init__(self, root: Path):
        self.root = root
        self.files: dict[str, tuple[Path, str]] = {}

    def add(self, name: str, path: Path, shown: str) -> None:
        self.files[name] = (path, shown)

    def get_source(self, environment, template):
        if template not in self.files:
            raise jinja2.TemplateNotFound(template)
        path, shown = self.files[template]
        text = read_text(path, shown, self.root)
        environment.content_files.add(shown)
        return text, shown, lambda: True


@dataclass
class _Render:
    """What one render of a face noticed besides its output: text that does not fit, and
    the print checks' problems (a box outside the safe area, a raster picture of too few
    pixels), each said once."""

    overflows: list[str] = field(default_factory=list)

    def say(self, message: str) -> None:
        if message not in self.overflows:
            self.overflows.append(message)


class DeckArt:
    """The art of one of a game's own decks: its faces and back from templates (see the
    module's text). Made by :class:`Faces`; every method returns SVG text or raises a
    located :class:`~builder.diagnostics.Diagnostic`."""

    def __init__(self, faces: "Faces", game: Any, spec: Any):
        self.faces = faces
        self.game = game
        self.spec = spec
        self.key: str = spec.deck.key
        self.size_mm: tuple[float, float] = tuple(spec.size_mm)  # type: ignore[assignment]
        w, h = self.size_mm
        #: the card's height in widths (the diagrams draw it so)
        self.ratio: float = round(h / w, 4)
        self.folder = Path(game.dir)
        self.face_name, self.face_shown = self._template(spec.face, "face", FACE_TEMPLATE)
        self.back_picture: Picture | Raster | None = None
        self.back_name: str | None = None
        self.back_shown = ""
        #: where a back picture's problems are said: an SVG back's file, else game.yaml's
        #: ``back:`` (a PNG or JPEG has no lines)
        self.back_where: Located = spec.where or Located(spec.file, 1)
        if spec.back is not None and not str(spec.back).lower().endswith((".j2", ".html")):
            self.back_shown = self.faces.shown(spec.back)
            raster = str(spec.back).lower().endswith(RASTER_TYPES)
            self.back_where = (getattr(spec, "back_where", None) or self.back_where) \
                if raster else Located(self.back_shown, 1)
            self.back_picture = self.faces.picture(Path(spec.back), self.back_shown,
                                                   where=self.back_where,
                                                   what=f"deck '{spec.name}': the back")
        else:
            self.back_name, self.back_shown = self._template(spec.back, "back", BACK_TEMPLATE)

    def _template(self, path: Any, role: str, shipped: str) -> tuple[str, str]:
        if path is None:  # the shipped one, or the content's own in its templates/
            own = overrides_of(self.faces.root)
            if own is not None and (own / shipped).is_file():
                return shipped, self.faces.shown(own / shipped)
            return shipped, f"templates/{shipped}"
        shown = self.faces.shown(Path(path))
        name = f"deck:{self.key}:{role}"
        self.faces.loader.add(name, Path(path), shown)
        return name, shown

    # -------------------------------------------------------------- the template's data
    def safe_area(self) -> dict[str, float]:
        w, h = self.size_mm
        m = min(SAFE_MM, 0.1 * min(w, h))
        return {"x": m, "y": m, "width": round(w - 2 * m, 3), "height": round(h - 2 * m, 3),
                "margin": round(m, 3)}

    def context(self, style: str, bleed_mm: float, card: DeckCard | None,
                state: _Render) -> dict[str, Any]:
        """The plain data a face (``card`` given) or back template is given."""
        w, h = self.size_mm
        data = card_data(card) if card is not None else None

        full = style == "full"
        b = float(bleed_mm or 0)

        def fit(text: Any, x: float, y: float, width: float, height: float, size: float = 9,
                min_size: float = 6, weight: str = "regular", align: str = "middle",
                valign: str = "middle", leading: float = 1.2, lines: int | None = None,
                strict: bool = True, field: str | None = None) -> Fitted:
            fitted, why = fit_text(text, x, y, width, height, size=size, min_size=min_size,
                                   weight=weight, align=align, valign=valign, leading=leading,
                                   lines=lines, strict=strict)
            if why is not None and strict:
                state.say(self._overflow(data, text, field, width, height, fitted, why, style))
            if full:
                what = self._named(data, text, field)
                self._check_safe(state, data, what, float(x), float(y),
                                 float(x) + float(width), float(y) + float(height))
            return fitted

        def picture(name: Any, x: float, y: float, width: float, height: float,
                    bleed: bool = False, crop: bool = False,
                    field: str | None = None) -> Markup:
            if not isinstance(name, str) or not name.strip():
                return Markup("")
            pic = self.faces.pictures.get((str(self.folder), name))
            if pic is None:  # read for every card before its render (read_pictures)
                raise ValueError(f"picture: '{name}' is not a picture a field of the card "
                                 f"names (a field whose value is an .svg, .png or .jpg file)")
            x, y, width, height = float(x), float(y), float(width), float(height)
            if full:
                what = self._named(data, name, field, picture=True)
                x0, y0, x1, y1, dw, dh = drawn_box(pic, x, y, width, height, crop)
                if not bleed:
                    self._check_safe(state, data, what, x0, y0, x1, y1, picture=True)
                if isinstance(pic, Raster):
                    low = low_resolution(pic, dw, dh)
                    if low:
                        state.say(f"{self._lead(data)}{what}: '{name.strip()}' {low}")
            return pic.placed(x, y, width, height,
                              "xMidYMid slice" if crop else "xMidYMid meet")

        def background(name: Any, field: str | None = None) -> Markup:
            return picture(name, -b, -b, w + 2 * b, h + 2 * b, bleed=True, crop=True,
                           field=field)

        return {
            "card": data, "style": style, "width": w, "height": h,
            "bleed": b, "safe": self.safe_area(),
            "accent": palette_colour(getattr(self.game, "accent", None), "#5b554e"),
            "game": {"title": str(self.game.title), "slug": str(self.game.slug)},
            "deck": {"name": self.spec.name, "key": self.key, "width": w, "height": h},
            "fit": helper(fit), "picture": helper(picture), "background": helper(background),
        }

    # -------------------------------------------------------------- the print checks
    def _lead(self, data: CardData | None) -> str:
        return f"card '{data['code']}': " if data is not None else \
            f"deck '{self.spec.name}', the back: "

    def _named(self, data: CardData | None, text: Any, field_name: str | None,
               picture: bool = False) -> str:
        """How a message names what a template drew: the field it says (``field=``), else
        the field whose value it is, else the text or picture itself."""
        text = "" if text is None else str(text)
        if data is not None and field_name is None:
            field_name = next((f for f, v in data["fields"].items()
                               if v != "" and str(v) == text), None)
            if field_name is None and text == data["name"] and not picture:
                field_name = "name"
        if field_name == "name":
            return "its name"
        if field_name is not None:
            return f"field '{field_name}'"
        return f"the picture '{text[:40]}'" if picture else f"the text '{text[:40]}'"

    def _check_safe(self, state: _Render, data: CardData | None, what: str, x0: float,
                    y0: float, x1: float, y1: float, picture: bool = False) -> None:
        """Say (once) a box that reaches outside the safe area: the side it reaches
        furthest past, by how much."""
        w, h = self.size_mm
        m = self.safe_area()["margin"]
        over = {"on the left": m - x0, "at the top": m - y0, "on the right": x1 - (w - m),
                "at the bottom": y1 - (h - m)}
        side, most = max(over.items(), key=lambda kv: kv[1])
        if most <= _SAFE_SLACK:
            return
        if most <= m + _SAFE_SLACK:
            how = f"reaches {most:.1f} mm into the {m:g} mm margin {side}"
        else:
            how = f"runs {most - m:.1f} mm past the cut {side}"
        also = [s for s, v in over.items() if v > _SAFE_SLACK and s != side]
        if also:
            how += " (and " + " and ".join(also) + ")"
        shown = self.face_shown if data is not None else self.back_shown
        hint = ("; or, for art meant to run to the cut, draw it with picture(..., "
                "bleed=true) or background(...)") if picture else ""
        state.say(f"{self._lead(data)}{what} {how}; keep text and icons inside the safe area "
                  f"(x {m:g}-{svg_number(w - m)} mm, y {m:g}-{svg_number(h - m)} mm) in "
                  f"{shown}{hint}")

    def _overflow(self, data: CardData | None, text: Any, field_name: str | None,
                  width: float, height: float, fitted: Fitted, why: _Fit, style: str) -> str:
        what = self._named(data, text, field_name)
        if why.wide_word:
            how = f"the word '{why.wide_word[:30]}' is wider than the box"
        else:
            how = f"it needs {why.lines_needed} lines and {why.lines_room} fit"
        lead = f"card '{data['code']}' ({data['name']}): " if data is not None else \
            f"deck '{self.spec.name}', the back: "
        return (f"{lead}{what} does not fit its box on the {style} face "
                f"({width:.1f} x {height:.1f} mm) even at {fitted.pt:g} pt: {how}; shorten "
                f"it, or give it a larger box or a smaller least size in "
                f"{self.face_shown if data is not None else self.back_shown}")

    # -------------------------------------------------------------- drawing
    def face(self, code: str, style: str = "compact", bleed_mm: float = 0,
             width: str | None = None, height: str | None = None) -> str:
        """The SVG of the face of the card ``code``, in ``style``, with ``bleed_mm`` of
        bleed round it; ``width``/``height`` (CSS lengths) set on the ``<svg>`` when given."""
        card = self.spec.deck.card(code)
        where = self.spec.rows.get(code) or self.spec.where or Located(self.spec.file, 1)
        self.faces.read_pictures(self, card, where)
        label = card.name()
        body = self._render(self.face_name, self.face_shown, style, bleed_mm, card, where,
                            f"card '{code}' ({label})")
        return self._wrap(body, label, bleed_mm, width, height, self.face_shown,
                          f"card '{code}' ({label})")

    def back(self, style: str = "compact", bleed_mm: float = 0, width: str | None = None,
             height: str | None = None) -> str:
        """The SVG of the deck's back (``compact``: a face-down card in a diagram)."""
        label = f"the back of a {self.game.title} card"
        what = f"deck '{self.spec.name}', the back"
        if self.back_picture is not None:
            w, h = self.size_mm
            b = float(bleed_mm or 0)
            pic = self.back_picture
            if style == "full" and isinstance(pic, Raster):
                *_, dw, dh = drawn_box(pic, -b, -b, w + 2 * b, h + 2 * b, crop=True)
                low = low_resolution(pic, dw, dh)
                if low:
                    raise Diagnostic.at(self.back_where, f"deck '{self.spec.name}': the back: "
                                        f"'{Path(self.spec.back).name}' {low}")
            body = str(pic.placed(-b, -b, w + 2 * b, h + 2 * b, "xMidYMid slice"))
        else:
            where = self.spec.where or Located(self.spec.file, 1)
            body = self._render(self.back_name, self.back_shown, style, bleed_mm, None, where,
                                what)
        return self._wrap(body, label, bleed_mm, width, height, self.back_shown, what)

    def _render(self, name: str, shown: str, style: str, bleed_mm: float,
                card: DeckCard | None, where: Located, what: str) -> str:
        if style not in STYLES:
            raise ValueError(f"unknown card style {style!r} (expected 'full' or 'compact')")
        state = _Render()
        try:
            template = self.faces.template(name, shown)
        except Diagnostic as d:  # it does not compile: said with the card being drawn
            raise Diagnostic(d.path, d.line, d.col, f"{what}: {d.message}") from None
        try:
            body = template.render(self.context(style, bleed_mm, card, state))
        except TemplateFault as e:
            message = e.message
            m = _UNDEFINED_FIELD.search(message)
            if m:
                have = ", ".join(self.spec.deck.fields) or "none"
                message = (f"the card has no field '{m.group(1)}' (the deck's fields: {have})"
                           + suggest(m.group(1), list(self.spec.deck.fields) + list(_CARD_KEYS)))
            raise Diagnostic(e.path, e.line, e.col, f"{what}: {message}") from None
        if state.overflows:
            raise Diagnostic.at(where, state.overflows[0],
                                detail="\n".join(state.overflows[1:]))
        return body

    def _wrap(self, body: str, label: str, bleed_mm: float, width: str | None,
              height: str | None, shown: str, what: str) -> str:
        w, h = self.size_mm
        b = float(bleed_mm or 0)
        if b < 0:
            raise ValueError("bleed_mm must not be negative")
        view = f"{svg_number(-b)} {svg_number(-b)} {svg_number(w + 2 * b)} {svg_number(h + 2 * b)}"
        size = ""
        if width is not None:
            size += f' width="{escape(str(width))}"'
        if height is not None:
            size += f' height="{escape(str(height))}"'
        label = str(escape(label))
        svg = (f'<svg xmlns="{_SVG_NS}" xmlns:xlink="{_XLINK_NS}" viewBox="{view}"{size} '
               f'role="img" aria-label="{label}"><title>{label}</title>{body.strip()}</svg>')
        # the raster pictures warbook read and embedded are the one link a card may hold
        known = self.faces.uris
        checked = _DATA_URI.sub(lambda m: 'href="#raster"' if m.group(1) in known
                                else m.group(0), svg) if "data:" in svg else svg
        problem = unsafe_svg(checked.encode("utf-8"))
        if problem:
            raise Diagnostic(shown, 1, 1, f"{what}: the SVG the template makes {problem}; a "
                             f"card may hold only drawing (shapes, text, pictures of its "
                             f"fields)")
        return svg


class Faces:
    """Every deck's art in one build (or one check): the French 52 and the decks of the
    games :meth:`add` is given. Draws each picture once and keeps it, by reference, style
    and bleed."""

    def __init__(self, content_root: str | Path | None = None, four_colour: bool = False):
        self.root = Path(content_root).resolve() if content_root is not None else None
        self.french = FrenchArt(four_colour)
        self.decks: dict[str, DeckArt] = {}
        self.loader = _Loader(self.root or Path("."))
        self._env: Any = None
        self._templates: dict[str, Any] = {}
        self._svg: dict[tuple, str] = {}
        #: (game folder, file name) -> the picture a card's field names
        self.pictures: dict[tuple[str, str], Picture | Raster] = {}
        #: the data URIs of the raster pictures read (the only links a card may hold)
        self.uris: set[str] = set()
        self._read: dict[tuple[str, str], str] = {}

    # -------------------------------------------------------------- decks
    def add(self, game: Any) -> list[DeckArt]:
        """Take a game's own decks (``game.decks``: ``DeckSpec``s); returns their art. A
        deck already taken is kept as it is."""
        out = []
        if self.root is None and getattr(game, "decks", None):
            # the content folder the game's folder is in (a renderer made without it)
            self.root = Path(game.dir).resolve().parent
            self.loader.root = self.root
        for spec in getattr(game, "decks", None) or []:
            key = spec.deck.key
            if key not in self.decks:
                self.decks[key] = DeckArt(self, game, spec)
            out.append(self.decks[key])
        return out

    def art(self, key: str) -> FrenchArt | DeckArt:
        """The art of the deck ``key`` (KeyError for a deck no game added)."""
        return self.french if key == FRENCH_KEY else self.decks[key]

    def ratio(self, key: str) -> float | None:
        """A deck's card height in widths (None for the French 52: the diagrams' 1.4)."""
        return self.art(key).ratio

    # -------------------------------------------------------------- pictures by reference
    def svg(self, ref: str, style: str = "compact", bleed_mm: float = 0,
            width: str | None = None, height: str | None = None) -> str:
        """The SVG of a card reference (:func:`card_ref`) in ``style``: a face, or for a
        ``.../_back`` (``back``) reference the back (``compact``: face down, as the
        diagrams draw it)."""
        cache = (ref, style, float(bleed_mm or 0), width, height)
        if cache not in self._svg:
            key, code = split_ref(ref)
            art = self.art(key)
            if code is None:
                text = art.back(style=style, bleed_mm=bleed_mm, width=width, height=height)
            else:
                text = art.face(code, style=style, bleed_mm=bleed_mm, width=width, height=height)
            self._svg[cache] = text
        return self._svg[cache]

    def face(self, card: Any, style: str = "full", bleed_mm: float = 0, **size: Any) -> str:
        """The SVG of ``card``'s face (a card object or a reference)."""
        ref = card if isinstance(card, str) else card_ref(card)
        return self.svg(ref, style, bleed_mm, **size)

    def back(self, deck_key: str, style: str = "full", bleed_mm: float = 0,
             **size: Any) -> str:
        """The SVG of a deck's back."""
        return self.svg(back_ref(deck_key), style, bleed_mm, **size)

    # -------------------------------------------------------------- templates and files
    def shown(self, path: Path) -> str:
        return rel(Path(path), self.root) if self.root is not None else str(path)

    def environment(self):
        if self._env is None:
            env = environment(overrides_of(self.root))
            env.loader = jinja2.ChoiceLoader([self.loader, env.loader])
            # the pure helpers, for every template and the macros they import
            env.globals.update(mm=helper(svg_number), colour=helper(palette_colour),
                               ink=helper(ink_on), mix=helper(mix), deep=helper(deep),
                               pt=PT, font=FONT_FAMILY)
            self._env = env
        return self._env

    def template(self, name: str, shown: str):
        if name not in self._templates:
            env = self.environment()
            try:
                self._templates[name] = env.get_template(name)
            except jinja2.TemplateSyntaxError as e:
                raise Diagnostic(e.filename or shown, e.lineno or 1, 1,
                                 f"template syntax: {e.message}") from None
        return self._templates[name]

    def picture(self, path: Path, shown: str, where: Located, what: str) -> Picture | Raster:
        """A picture file of the content: an SVG file as a :class:`Picture`, held to what a
        logo may hold, a PNG or JPEG file as a :class:`Raster` (read whole by Pillow, of
        bounded size); a located error at ``where`` if it is refused."""
        raster = path.name.lower().endswith(RASTER_TYPES)
        try:
            real = resolve(self.root, path, shown,
                           kind="pictures" if raster else "SVG files") if self.root else path
            if real.stat().st_size > MAX_FILE_BYTES:
                raise Diagnostic.at(where, f"{what}: '{path.name}' is larger than "
                                    f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
            data = real.read_bytes()
        except Refused as e:
            raise Diagnostic.at(where, f"{what}: {e.message}") from None
        except OSError as e:
            raise Diagnostic.at(where, f"{what}: cannot read '{path.name}': "
                                f"{e.strerror or e}") from None
        if raster:
            image, problem = read_raster(data)
            if image is None:
                raise Diagnostic.at(where, f"{what}: '{path.name}' {problem}")
            self.uris.add(image.uri)
            return image
        pic, problem = parse_picture(data)
        if pic is None:
            raise Diagnostic.at(where, f"{what}: '{path.name}' {problem}; a picture on a card "
                                f"may hold only drawing: no scripts, event handlers or "
                                f"outside links")
        return pic

    def read_pictures(self, art: DeckArt, card: DeckCard, where: Located) -> None:
        """Read the pictures ``card``'s fields name (a value that is an ``.svg``, ``.png``,
        ``.jpg`` or ``.jpeg`` file in the game's folder), each once; a located error at the
        card's row for one that is missing, not safe or not a readable image."""
        for name, value in card.fields().items():
            if not (isinstance(value, str) and value.strip().lower().endswith(PICTURE_TYPES)):
                continue
            key = (str(art.folder), value)
            if key in self.pictures:
                continue
            if key in self._read:  # refused before: said again for this card
                raise Diagnostic.at(where, f"card '{card.code}': field '{name}': "
                                    f"{self._read[key]}")
            path = art.folder / value.strip()
            try:
                self.pictures[key] = self.picture(path, self.shown(path), where,
                                                  f"card '{card.code}': field '{name}'")
            except Diagnostic as d:
                if "no such file" in d.message.lower() or "cannot read" in d.message:
                    have = sorted(p.name for p in art.folder.iterdir()
                                  if p.name.lower().endswith(PICTURE_TYPES))
                    d = Diagnostic.at(where, f"card '{card.code}': field '{name}': no picture "
                                      f"'{value}' in {self.shown(art.folder)}/"
                                      + suggest(value, have))
                self._read[key] = d.message.split(": ", 2)[-1]
                raise d from None

    # -------------------------------------------------------------- the check
    def check_deck(self, art: DeckArt) -> Diagnostics:
        """Every face of the deck in both styles and its back, drawn once (the full style
        also with print and play's bleed, as it is printed): the problems. A card's own
        problem (at its row: text that does not fit, a picture refused or of too few
        pixels) is said for each card it has, once; a template's fault, which every card
        may meet, is said for the first card, with how many more it stops, and so is a box
        the template places outside the safe area for many cards alike."""
        diags = Diagnostics()
        faults: dict[tuple, list] = {}  # (file, line, message less the card) -> [d, codes...]
        codes: list[str | None] = [c.code for c in art.spec.deck.cards] + [None]
        draws = (("full", 0.0), ("full", PRINT_BLEED_MM), ("compact", 0.0))
        for code in codes:
            ref = back_ref(art.key) if code is None else f"{art.key}/{code}"
            for style, bleed in draws:
                try:
                    self.svg(ref, style, bleed)
                except Diagnostic as d:
                    row = art.spec.rows.get(code) if code is not None else None
                    if row is not None and (d.path, d.line) == (row.path, row.line) \
                            and "inside the safe area" not in d.message:
                        diags.append(d)
                        break
                    fault = (d.path if row is None else "", d.line if row is None else 0,
                             re.sub(r"^card '[^']*'( \([^)]*\))?: ", "", d.message))
                    if fault in faults:
                        faults[fault].append(code)
                    else:
                        faults[fault] = [d]
                        diags.append(d)
                    break
            if any("template syntax: " in d.message for d in diags):
                break  # the template does not compile: every card would say the same
        for found in faults.values():
            more = len(found) - 1
            if more:
                found[0].message += f" (and {more} more card{'s' if more != 1 else ''} the same way)"
        return diags


def check_faces(report: Any) -> Diagnostics:
    """Draw every face and back of the games' own decks in ``report`` (a checked
    :class:`~builder.check.Report`) and add the problems to its diagnostics; returns them.
    The French 52's faces are the built-in drawer's and need no check."""
    games = [gr.game for gr in report.games if getattr(gr.game, "decks", None)]
    found = Diagnostics()
    if not games:
        return found
    faces = Faces(report.content.root)
    for game in games:
        try:
            decks = faces.add(game)
        except Diagnostic as d:
            found.append(d)
            continue
        for art in decks:
            found.extend(faces.check_deck(art))
    report.diagnostics.extend(found)
    return found

