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
* the back: the deck's ``back:`` (an SVG file, held to what a logo may hold, or a Jinja
  template), or the shipped ``templates/cards/back.svg.j2``.

A template writes the elements of one card in millimetres (``0 0 width height``, the bleed
round it); warbook wraps them in the ``<svg>`` element and refuses an outcome that is not
safe, well-formed SVG. Text is fitted to its box by the ``fit`` helper, measured with the
shipped typeface's own advance widths and kerning (the faces are set in Cabin): it shrinks
the type down to a least size, and text that still does not fit is a located error at the
card's row of the deck file, naming the card and the field. Every failure is a
:class:`~builder.diagnostics.Diagnostic`: a template's at its file and line, naming the card.

:func:`check_faces` draws every face and back of a checked report's own decks, so that
``warbook check`` says these problems before a build (the command line calls it after the
check: the check's stage may not import the renderers).

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
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and face.width(trial, size_mm) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
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
    """What one render of a face noticed besides its output: text that does not fit."""

    overflows: list[str] = field(default_factory=list)


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
        self.back_picture: Picture | None = None
        self.back_name: str | None = None
        self.back_shown = ""
        if spec.back is not None and not str(spec.back).lower().endswith((".j2", ".html")):
            self.back_shown = self.faces.shown(spec.back)
            self.back_picture = self.faces.picture(Path(spec.back), self.back_shown,
                                                   where=Located(self.back_shown, 1),
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

        def fit(text: Any, x: float, y: float, width: float, height: float, size: float = 9,
                min_size: float = 6, weight: str = "regular", align: str = "middle",
                valign: str = "middle", leading: float = 1.2, lines: int | None = None,
                strict: bool = True, field: str | None = None) -> Fitted:
            fitted, why = fit_text(text, x, y, width, height, size=size, min_size=min_size,
                                   weight=weight, align=align, valign=valign, leading=leading,
                                   lines=lines, strict=strict)
            if why is not None and strict:
                state.overflows.append(self._overflow(data, text, field, width, height,
                                                      fitted, why, style))
            return fitted

        def picture(name: Any, x: float, y: float, width: float, height: float) -> Markup:
            if not isinstance(name, str) or not name.strip():
                return Markup("")
            pic = self.faces.pictures.get((str(self.folder), name))
            if pic is None:  # read for every card before its render (read_pictures)
                raise ValueError(f"picture: '{name}' is not a picture a field of the card "
                                 f"names (a field whose value is an .svg file)")
            return pic.placed(x, y, width, height)

        return {
            "card": data, "style": style, "width": w, "height": h,
            "bleed": float(bleed_mm or 0), "safe": self.safe_area(),
            "accent": palette_colour(getattr(self.game, "accent", None), "#5b554e"),
            "game": {"title": str(self.game.title), "slug": str(self.game.slug)},
            "deck": {"name": self.spec.name, "key": self.key, "width": w, "height": h},
            "fit": helper(fit), "picture": helper(picture),
        }

    def _overflow(self, data: CardData | None, text: Any, field_name: str | None,
                  width: float, height: float, fitted: Fitted, why: _Fit, style: str) -> str:
        text = "" if text is None else str(text)
        if data is None:
            what = f"the text '{text[:40]}'"
        else:
            if field_name is None:
                field_name = next((f for f, v in data["fields"].items()
                                   if v != "" and str(v) == text), None)
                if field_name is None and text == data["name"]:
                    field_name = "name"
            what = (f"field '{field_name}'" if field_name not in (None, "name")
                    else "its name" if field_name == "name" else f"the text '{text[:40]}'")
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
            body = str(self.back_picture.placed(-b, -b, w + 2 * b, h + 2 * b, "xMidYMid slice"))
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
        problem = unsafe_svg(svg.encode("utf-8"))
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
        self.pictures: dict[tuple[str, str], Picture] = {}
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

    def picture(self, path: Path, shown: str, where: Located, what: str) -> Picture:
        """An SVG file of the content as a :class:`Picture`, held to what a logo may hold;
        a located error at ``where`` if it is refused."""
        try:
            real = resolve(self.root, path, shown, kind="SVG files") if self.root else path
            if real.stat().st_size > MAX_FILE_BYTES:
                raise Diagnostic.at(where, f"{what}: '{path.name}' is larger than "
                                    f"{MAX_FILE_BYTES // (1024 * 1024)} MB")
            data = real.read_bytes()
        except Refused as e:
            raise Diagnostic.at(where, f"{what}: {e.message}") from None
        except OSError as e:
            raise Diagnostic.at(where, f"{what}: cannot read '{path.name}': "
                                f"{e.strerror or e}") from None
        pic, problem = parse_picture(data)
        if pic is None:
            raise Diagnostic.at(where, f"{what}: '{path.name}' {problem}; a picture on a card "
                                f"may hold only drawing: no scripts, event handlers or "
                                f"outside links")
        return pic

    def read_pictures(self, art: DeckArt, card: DeckCard, where: Located) -> None:
        """Read the pictures ``card``'s fields name (a value that is an ``.svg`` file in
        the game's folder), each once; a located error at the card's row for one that is
        missing or not safe."""
        for name, value in card.fields().items():
            if not (isinstance(value, str) and value.strip().lower().endswith(".svg")):
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
                    have = sorted(p.name for p in art.folder.glob("*.svg"))
                    d = Diagnostic.at(where, f"card '{card.code}': field '{name}': no picture "
                                      f"'{value}' in {self.shown(art.folder)}/"
                                      + suggest(value, have))
                self._read[key] = d.message.split(": ", 2)[-1]
                raise d from None

    # -------------------------------------------------------------- the check
    def check_deck(self, art: DeckArt) -> Diagnostics:
        """Every face of the deck in both styles and its back, drawn once: the problems.
        A card's own problem (at its row: text that does not fit, a picture refused) is
        said for each card it has, once; a template's fault, which every card may meet, is
        said for the first card, with how many more it stops."""
        diags = Diagnostics()
        faults: dict[tuple, list] = {}  # (file, line, message less the card) -> [d, codes...]
        codes: list[str | None] = [c.code for c in art.spec.deck.cards] + [None]
        for code in codes:
            ref = back_ref(art.key) if code is None else f"{art.key}/{code}"
            for style in STYLES:
                try:
                    self.svg(ref, style)
                except Diagnostic as d:
                    row = art.spec.rows.get(code) if code is not None else None
                    if row is not None and (d.path, d.line) == (row.path, row.line):
                        diags.append(d)
                        break
                    fault = (d.path, d.line, re.sub(r"^card '[^']*' \([^)]*\): ", "", d.message))
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

