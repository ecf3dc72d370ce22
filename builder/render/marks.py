"""The marks on a step's diagram: the kinds a game may use, and the sign each is drawn with.

An engine's ``GameDef.marks(events, table)`` says what the step did to some cards,
``{card code: kind}``. The kinds are a vocabulary: the shared ones of
:data:`~builder.engine.core.MARK_KINDS` (``played``, ``revealed``, ``won``, ``killed``),
their first names still read (:data:`~builder.engine.core.MARK_ALIASES`: ``win``,
``kill``), and the game's own, declared in ``GameDef.mark_kinds`` with the legend's words.
The renderers add one of their own, ``moved``: a face-up card that leaves its place when
the step resolves (the diagram shows the reveal). A mark of any other kind is dropped here
(the conformance kit refuses it). A card carries at most one of the engine's kinds, as
``marks`` returns one kind a card, and may also be ``moved``.

Each kind has its own sign, a shape before a colour, so that the kinds read apart in grey
and on low ink too:

- ``moved``: a dashed red outline round the card;
- ``played``: a ▶ in a white disc;
- ``revealed``: an eye in a white disc;
- ``won``: a double green outline, and a star in a white disc (it stands for the moved
  outline too: the card that won moves with the rest);
- ``killed``: the card faded, and a bold ✕ on a white halo;
- a game's own kind: a tag with its label (the kind's first letter, or a short name).

The small signs stand in the card's lower left corner, which a diagram's compact card
leaves empty (rank and suit stand above it, the large suit to its right), and which a fan
leaves in view; on a card covered by the next one of a stack, where only its top strip
shows, they stand at the strip's right end. Nothing is drawn over the rank and suit: the
card stays readable under its mark.

A place the table may not look into (``Zone.seen_by``: ``owner``, a hand; ``nobody``, a
stock whose order the reader is shown) is drawn in the reader's all-seeing view, its cards
face up, but marked once as a place, not card by card, so that its cards' corners stay
free for the kinds above:

- ``owner-only`` (a hand): its cards on a grey ground with a thin solid edge (not dashed:
  dashes say "moves" and "empty"), and a closed eye in a white disc before the owner's
  name in the place's label;
- ``no-one``: the same ground, and the closed eye struck through.

A place is marked only when it shows a card face up (a face-down card hides itself). The
key lists the places' signs last, after the game's own kinds: they say what a place is,
not what the step did.

Shapes are given in the diagram's own unit from its top left corner (y downwards) as
paths, so that the book (``book/stamp.py``, PDF operators) and the site (SVG) draw the same
thing from one description.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping
from urllib.parse import quote, unquote

from markupsafe import Markup, escape

from ..engine.core import MARK_ALIASES, MARK_KINDS

#: the renderers' own kind: the card leaves its place when the step resolves
MOVED = "moved"
#: the renderers' signs of a place the table may not look into, by ``Zone.seen_by``
OWNER_ONLY, NO_ONE = "owner-only", "no-one"
PLACES = {"owner": OWNER_ONLY, "nobody": NO_ONE}
#: the order of the legend: the renderer's own, then the shared kinds, then the game's own
#: in the order it declares them, then the places' signs (:data:`PLACE_ORDER`)
ORDER = (MOVED, *MARK_KINDS)
PLACE_ORDER = (OWNER_ONLY, NO_ONE)
#: the legend's words for the places' signs
PLACE_WORDS = {OWNER_ONLY: "seen by its owner only", NO_ONE: "seen by no one"}
#: the legend's words for the renderers' own kind
MOVED_WORDS = "moves when the step resolves"
#: the signs' inks: a colour each, but the shapes tell the kinds apart
INK = {MOVED: "#c0392b", "played": "#1f4fa0", "revealed": "#6b3fa0", "won": "#1e7b34",
       "killed": "#1d1b19", "own": "#1d1b19", OWNER_ONLY: "#3b4148", NO_ONE: "#3b4148"}
#: the ground under a hidden place's cards and its edge (the book's; the site's are in
#: site.css, for its dark theme): a grey that reads on the felt in grey and on low ink
HIDDEN_GROUND, HIDDEN_EDGE = "#d3d8d1", "#7f8a7c"
#: the kinds drawn as an outline round the card (the others are a sign on it)
OUTLINED = (MOVED, "won")
#: what each sign looks like, in words (the legend's picture says it to a screen reader)
SIGN_WORDS = {MOVED: "dashed red outline", "played": "play sign (a triangle)",
              "revealed": "eye sign", "won": "double green outline with a star",
              "killed": "faded, with a cross", OWNER_ONLY: "closed eye",
              NO_ONE: "closed eye, struck through"}
#: the letters of a game's own kind's tag, at most
LABEL_MAX = 2


# --------------------------------------------------------------------------- the vocabulary
@dataclass(frozen=True)
class Vocabulary:
    """The kinds one game's diagrams may show: the shared ones and the game's own."""

    #: the game's own kinds, name -> the legend's words (``GameDef.mark_kinds``)
    own: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, gamedef: Any) -> "Vocabulary":
        """The vocabulary of a game definition (any object with ``mark_kinds``), or the
        shared kinds alone for None."""
        own = getattr(gamedef, "mark_kinds", None) or {}
        return cls(own={str(k): str(v) for k, v in dict(own).items()
                        if str(k) not in MARK_KINDS and str(k) not in (MOVED, *PLACE_ORDER)})

    def kind(self, name: Any) -> str | None:
        """``name`` as a kind of this vocabulary (an old name read as the new one), or
        None when it is none of them."""
        if not isinstance(name, str):
            return None
        name = MARK_ALIASES.get(name, name)
        return name if name in MARK_KINDS or name in self.own else None

    @property
    def order(self) -> tuple[str, ...]:
        return ORDER + tuple(self.own) + PLACE_ORDER

    def words(self, kind: str) -> str:
        if kind == MOVED:
            return MOVED_WORDS
        if kind in PLACE_WORDS:
            return PLACE_WORDS[kind]
        return MARK_KINDS.get(kind) or self.own.get(kind, kind)

    def labels(self) -> dict[str, str]:
        """Each own kind's tag: its first letter in capitals, or its first two where
        another of the game's kinds starts with the same letter; where even those are
        shared, the first letter and the kind's place among them ("T1", "T2")."""
        def key(name: str) -> str:
            return "".join(c for c in name if c.isalnum()).upper() or "?"

        names = list(self.own)
        out: dict[str, str] = {}
        for name in names:
            for n in range(1, LABEL_MAX + 1):
                label = key(name)[:n]
                if not any(key(o)[:n] == label for o in names if o != name):
                    break
            else:
                same = [o for o in names if key(o)[:LABEL_MAX] == key(name)[:LABEL_MAX]]
                label = key(name)[:1] + str(same.index(name) + 1)
            out[name] = label
        return out

    def label(self, kind: str) -> str:
        return self.labels().get(kind, "")

    def sorted(self, kinds: Iterable[str]) -> list[str]:
        """``kinds`` in the legend's order."""
        rank = {k: i for i, k in enumerate(self.order)}
        return sorted(set(kinds), key=lambda k: rank.get(k, len(rank)))


def signs(kind: str, moved: bool) -> tuple[str, ...]:
    """The signs drawn on a card of the engine's ``kind`` ("" for none) that ``moved``:
    the outline first, then the sign on the card. The won card's double outline stands for
    the moved one."""
    out = []
    if moved and kind != "won":
        out.append(MOVED)
    if kind:
        out.append(kind)
    return tuple(out)


# --------------------------------------------------------------------------- shapes
@dataclass(frozen=True)
class Path:
    """A path and how it is painted. ``ops``: ("M", x, y), ("L", x, y),
    ("C", x1, y1, x2, y2, x, y) and ("Z",)."""

    ops: tuple[tuple, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] = ()
    #: the fill's opacity (a veil)
    opacity: float = 1.0
    round: bool = False  # round caps and joins

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the path's points and handles, widened by half its stroke."""
        xs = [v for op in self.ops for v in op[1::2]]
        ys = [v for op in self.ops for v in op[2::2]]
        pad = self.width / 2 if self.stroke else 0.0
        return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


@dataclass(frozen=True)
class Text:
    """A label: centred on ``x``, its baseline at ``y``, ``size`` in the same unit."""

    text: str
    x: float
    y: float
    size: float
    ink: str


Shape = Path | Text

KAPPA = 0.5523


def rounded(x: float, y: float, w: float, h: float, r: float) -> tuple[tuple, ...]:
    r = max(0.0, min(r, w / 2, h / 2))
    k = r * KAPPA
    return (("M", x + r, y), ("L", x + w - r, y), ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r),
            ("L", x + w, y + h - r), ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h),
            ("L", x + r, y + h), ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r),
            ("L", x, y + r), ("C", x, y + r - k, x + r - k, y, x + r, y), ("Z",))


def circle(cx: float, cy: float, r: float) -> tuple[tuple, ...]:
    return rounded(cx - r, cy - r, 2 * r, 2 * r, r)


#: a compact card's free lower left corner, where the small signs stand: the centre of a
#: sign and its radius, in tenths of the card's width from its top left corner
BADGE_X, BADGE_FROM_FOOT, BADGE_R = 2.0, 2.35, 1.45
#: a label's size: 7 pt on the book's 10 mm cards (the least a diagram's words are set)
LABEL_SIZE = 2.47


def card_shapes(kinds: Iterable[str], x: float, y: float, w: float, h: float,
                shown: tuple[float, float] | None = None, covered_below: bool = False,
                label: str = "", badge_scale: float = 1.0,
                badge_at: tuple[float, float] | None = None) -> list[Shape]:
    """The shapes of ``kinds`` (from :func:`signs`) on a card at (x, y), ``w`` by ``h``.

    ``shown``: the width and height of the part of the card in view (a fan's next card
    covers the rest of it, or a stack's); the outlines go round that part and the sign
    stands in it. ``covered_below``: only the card's top strip shows (a stack), so the
    sign stands at the strip's right end. ``badge_scale``/``badge_at``: the sign larger
    and elsewhere (the legend's pictures)."""
    u = w / 10
    vw, vh = shown or (w, h)
    if badge_at is not None:
        cx, cy = badge_at
        r = BADGE_R * u * badge_scale
    elif covered_below:
        strip = min(vh, 3.6 * u)
        r = min(BADGE_R * u, (strip - 0.3 * u) / 2)
        cx, cy = x + vw - 0.4 * u - r, y + strip / 2
    else:
        r = BADGE_R * u
        cx, cy = x + BADGE_X * u, y + h - BADGE_FROM_FOOT * u
    s = r / BADGE_R  # the sign's own unit
    out: list[Shape] = []
    kinds = tuple(kinds)
    for kind in kinds:  # first what covers the card, then the outlines, then the signs
        if kind == "killed":
            out.append(Path(rounded(x, y, vw, vh, 0.45 * u), fill="#ffffff", opacity=0.55))
    for kind in kinds:
        if kind == MOVED:
            out.append(Path(rounded(x - 0.35 * u, y - 0.35 * u, vw + 0.7 * u, vh + 0.7 * u, 1.2 * u),
                            stroke=INK[MOVED], width=0.6 * u, dash=(1.6 * u, 0.8 * u)))
        elif kind == "won":
            for d, r_ in ((-0.6, 1.4), (0.45, 0.8)):
                out.append(Path(rounded(x + d * u, y + d * u, vw - 2 * d * u, vh - 2 * d * u, r_ * u),
                                stroke=INK["won"], width=0.45 * u))
    for kind in kinds:
        if kind in (MOVED,):
            continue
        if kind == "killed":
            arm = 1.05 * s
            cross = (("M", cx - arm, cy - arm), ("L", cx + arm, cy + arm),
                     ("M", cx + arm, cy - arm), ("L", cx - arm, cy + arm))
            out.append(Path(cross, stroke="#ffffff", width=1.1 * s, round=True))
            out.append(Path(cross, stroke=INK["killed"], width=0.6 * s, round=True))
            continue
        if kind in ("played", "revealed", "won"):
            ink = INK[kind]
            out.append(Path(circle(cx, cy, r), fill="#ffffff", stroke=ink, width=0.2 * s))
            if kind == "played":
                out.append(Path((("M", cx - 0.5 * s, cy - 0.85 * s), ("L", cx + 0.95 * s, cy),
                                 ("L", cx - 0.5 * s, cy + 0.85 * s), ("Z",)), fill=ink, round=True,
                                stroke=ink, width=0.12 * s))
            elif kind == "revealed":
                k = 1.05 * s
                out.append(Path((("M", cx - k, cy), ("C", cx - 0.45 * s, cy - 0.95 * s, cx + 0.45 * s,
                                                     cy - 0.95 * s, cx + k, cy),
                                 ("C", cx + 0.45 * s, cy + 0.95 * s, cx - 0.45 * s, cy + 0.95 * s,
                                  cx - k, cy), ("Z",)), stroke=ink, width=0.22 * s, round=True))
                out.append(Path(circle(cx, cy, 0.36 * s), fill=ink))
            else:
                out.append(Path(_star(cx, cy, 1.0 * s, 0.42 * s), fill=ink))
            continue
        # a game's own kind: a tag with its label
        text = label or "?"
        size = LABEL_SIZE * s
        tw = max(2.9 * s, _text_width(text, size) + 1.1 * s)
        th = 2.9 * s
        if badge_at is not None:
            left = cx - tw / 2
        elif covered_below:
            left = cx + r - tw
        else:
            left = cx - r
        top = cy - th / 2
        out.append(Path(rounded(left, top, tw, th, 0.6 * s), fill="#ffffff", stroke=INK["own"],
                        width=0.2 * s))
        out.append(Text(text, left + tw / 2, cy + 0.35 * size, size, INK["own"]))
    return out


def _star(cx: float, cy: float, r_out: float, r_in: float) -> tuple[tuple, ...]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = r_out if i % 2 == 0 else r_in
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return (("M", *pts[0]), *(("L", *p) for p in pts[1:]), ("Z",))


def place_sign(kind: str, cx: float, cy: float, r: float) -> list[Shape]:
    """The sign of a hidden place (``owner-only``, ``no-one``) centred on (cx, cy) in a
    white disc of radius ``r``: a closed eye (the lid's curve and three lashes below it),
    struck through for a place seen by no one."""
    s = r / BADGE_R
    ink = INK.get(kind, INK[OWNER_ONLY])
    out: list[Shape] = [Path(circle(cx, cy, r), fill="#ffffff", stroke=ink, width=0.2 * s)]
    # the lid: a curve hanging between the eye's corners, its lowest point at the centre
    p0, p1, p2, p3 = ((cx - 1.0 * s, cy - 0.55 * s), (cx - 0.45 * s, cy + 0.25 * s),
                      (cx + 0.45 * s, cy + 0.25 * s), (cx + 1.0 * s, cy - 0.55 * s))
    out.append(Path((("M", *p0), ("C", *p1, *p2, *p3)), stroke=ink, width=0.24 * s, round=True))
    lashes = []
    for t in (0.2, 0.5, 0.8):
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
        x = a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0]
        y = a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]
        # each lash points away from a centre above the eye
        dx, dy = x - cx, y - (cy - 1.2 * s)
        n = math.hypot(dx, dy)
        lashes += [("M", x, y), ("L", x + 0.5 * s * dx / n, y + 0.5 * s * dy / n)]
    out.append(Path(tuple(lashes), stroke=ink, width=0.2 * s, round=True))
    if kind == NO_ONE:
        k = r * 0.62
        out.append(Path((("M", cx + k, cy - k), ("L", cx - k, cy + k)), stroke=ink,
                        width=0.24 * s, round=True))
    return out


#: how far a hidden place's ground reaches past its cards, in tenths of a card's width
GROUND_PAD = 0.55
#: how far anything drawn round a card reaches outside it, in tenths of its width: the
#: won card's outer ring (0.6 out, half its 0.45 stroke), which reaches furthest (the
#: moved card's dashed outline 0.65, a hidden place's ground 0.625)
OUTSIDE = 0.6 + 0.45 / 2


def ground(x0: float, y0: float, x1: float, y1: float, u: float) -> Path:
    """The grey ground under a hidden place's cards (x0, y0 to x1, y1), ``u`` a tenth of a
    card's width: a rounded panel with a thin solid edge."""
    p = GROUND_PAD * u
    return Path(rounded(x0 - p, y0 - p, x1 - x0 + 2 * p, y1 - y0 + 2 * p, 1.0 * u),
                fill=HIDDEN_GROUND, stroke=HIDDEN_EDGE, width=0.15 * u)


LABEL_FONT = "Cabin-Bold.otf"


def _text_width(text: str, size: float) -> float:
    from .book.glyphs import face

    return face(LABEL_FONT).width(text, size)


# --------------------------------------------------------------------------- SVG
def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") or "0"


def path_data(ops: Iterable[tuple]) -> str:
    return " ".join(op[0] + " ".join(_n(v) for v in op[1:]) for op in ops)


def svg_shapes(shapes: Iterable[Shape]) -> str:
    """The shapes as SVG elements."""
    out = []
    for sh in shapes:
        if isinstance(sh, Text):
            out.append(f'<text x="{_n(sh.x)}" y="{_n(sh.y)}" font-size="{_n(sh.size)}" '
                       f'font-family="Cabin, \'DejaVu Sans\', sans-serif" font-weight="700" '
                       f'text-anchor="middle" fill="{sh.ink}">{escape(sh.text)}</text>')
            continue
        attrs = [f'd="{path_data(sh.ops)}"', f'fill="{sh.fill or "none"}"']
        if sh.opacity < 1:
            attrs.append(f'fill-opacity="{_n(sh.opacity)}"')
        if sh.stroke:
            attrs.append(f'stroke="{sh.stroke}" stroke-width="{_n(sh.width)}"')
            if sh.dash:
                attrs.append(f'stroke-dasharray="{" ".join(_n(d) for d in sh.dash)}"')
            if sh.round:
                attrs.append('stroke-linecap="round" stroke-linejoin="round"')
        out.append(f"<path {' '.join(attrs)}/>")
    return "".join(out)


#: the site's card: its width in the signs' unit, and its height (63 x 88 mm art)
SITE_W, SITE_H = 10.0, 10.0 * 88 / 63
#: how far the site's picture of a card's signs reaches past the card on each side (the
#: won card's outer outline, the farthest, reaches 0.825)
SITE_PAD = 0.9


def card_svg(kinds: Iterable[str], label: str = "", shown: tuple[float, float] = (1.0, 1.0),
             ratio: float | None = None) -> Markup:
    """The signs of one card for the website: an SVG laid over the card's image (the
    stylesheet places it ``SITE_PAD`` card tenths beyond the card on each side), or "".
    ``shown``: the part of the card in view, as fractions of its width and height (a
    fan's next card leaves its left 0.45 in view, a stack's its top 0.25). ``ratio``: the
    card's height in widths, for a game's own deck (None: the French card's 88 / 63)."""
    kinds = tuple(kinds)
    if not kinds:
        return Markup("")
    p = SITE_PAD
    site_h = SITE_H if ratio is None else SITE_W * ratio
    body = svg_shapes(card_shapes(kinds, 0, 0, SITE_W, site_h,
                                  shown=(shown[0] * SITE_W, shown[1] * site_h),
                                  covered_below=shown[1] < 0.6, label=label))
    return Markup(f'<svg class="card-signs" viewBox="{_n(-p)} {_n(-p)} {_n(SITE_W + 2 * p)} '
                  f'{_n(site_h + 2 * p)}" aria-hidden="true" focusable="false">{body}</svg>')


def place_svg(kind: str, words: str = "") -> Markup:
    """The sign of a hidden place for the website's label (inline SVG, the size of the
    text; ``words``, "seen by Blue only", its tooltip), or "" for a place everyone sees."""
    if kind not in PLACE_ORDER:
        return Markup("")
    r = BADGE_R
    pad = 0.2 * r / BADGE_R
    tip = f"<title>{escape(words)}</title>" if words else ""
    return Markup(f'<svg class="place-sign place-sign-{kind}" viewBox="{_n(-r - pad)} {_n(-r - pad)} '
                  f'{_n(2 * (r + pad))} {_n(2 * (r + pad))}" aria-hidden="true" focusable="false">'
                  f'{tip}{svg_shapes(place_sign(kind, 0, 0, r))}</svg>')


def swatch_svg(kind: str, label: str = "") -> str:
    """The legend's picture of a kind's sign: an outline round a small card, a sign the
    size of the text (a tag, a disc), a faded card with its cross, a place's closed eye."""
    if kind in PLACE_ORDER:
        shapes: list[Shape] = list(place_sign(kind, 0, 0, BADGE_R))
        x0, y0, x1, y1 = shapes[0].bounds()
        vb = (x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4)
    elif kind in OUTLINED or kind == "killed":
        # a small card (6 by 8.4), its outlines as heavy as on a card 10 wide
        w, h, pad = 6.0, 8.4, 0.9
        shapes = [Path(rounded(0, 0, w, h, 0.6), fill="#ffffff", stroke="#8a8a8a", width=0.35)]
        shapes += card_shapes((kind,), 0, 0, 10.0, 14.0, shown=(w, h), label=label,
                              badge_scale=1.6, badge_at=(w / 2, h / 2))
        vb = (-pad, -pad, w + 2 * pad, h + 2 * pad)
    else:
        shapes = card_shapes((kind,), 0, 0, 10, 14, label=label, badge_scale=1.0,
                             badge_at=(0, 0))
        x0 = min(b.bounds()[0] for b in shapes if isinstance(b, Path))
        y0 = min(b.bounds()[1] for b in shapes if isinstance(b, Path))
        x1 = max(b.bounds()[2] for b in shapes if isinstance(b, Path))
        y1 = max(b.bounds()[3] for b in shapes if isinstance(b, Path))
        vb = (x0 - 0.2, y0 - 0.2, x1 - x0 + 0.4, y1 - y0 + 0.4)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{" ".join(_n(v) for v in vb)}" '
            f'width="{_n(vb[2] * 4)}" height="{_n(vb[3] * 4)}">{svg_shapes(shapes)}</svg>')


@dataclass
class MarkKey:
    """One line of a diagram's legend: a kind, the picture of its sign and its words."""

    kind: str
    words: str
    #: the sign in words (the picture's alternative text)
    sign: str
    #: the picture, as inline SVG (the site), named by ``sign`` for a screen reader
    picture: Markup
    #: the picture's address for the book (``diagram:mark-won``), which the book's
    #: fetcher draws (:func:`swatch_for`); the book's picture is an ``<img>`` whose
    #: alternative text is ``sign``, a described figure in the PDF's tags
    src: str
    #: a game's own kind's tag
    label: str = ""


#: the address of a legend's picture in the book: ``diagram:mark-KIND`` for the shared
#: kinds, ``moved`` and the places' signs, ``diagram:mark-tag-LABEL`` for a game's own kind
SWATCH_URL = "diagram:mark-"


def swatch_url(kind: str, label: str = "") -> str:
    return SWATCH_URL + (kind if kind in ORDER or kind in PLACE_ORDER
                         else "tag-" + quote(label, safe=""))


def swatch_for(url: str) -> str | None:
    """The SVG of a legend's picture from its address (:func:`swatch_url`), or None for an
    address that names no sign."""
    if not url.startswith(SWATCH_URL):
        return None
    name = url[len(SWATCH_URL):]
    if name in ORDER or name in PLACE_ORDER:
        return swatch_svg(name)
    if name.startswith("tag-"):
        label = unquote(name[4:])
        if 0 < len(label) <= LABEL_MAX + 1 and label.isalnum():
            return swatch_svg("", label)
    return None


def legend(kinds: Iterable[str], vocab: Vocabulary) -> list[MarkKey]:
    """The legend of a diagram showing ``kinds``: one line a kind, in the fixed order."""
    out = []
    for kind in vocab.sorted(kinds):
        label = vocab.label(kind)
        sign = SIGN_WORDS.get(kind) or f"tag {label}"
        svg = swatch_svg(kind, label).replace(
            "<svg ", f'<svg class="mark-sign mark-sign-{escape(kind)}" role="img" '
                     f'aria-label="{escape(sign)}" ', 1)
        out.append(MarkKey(kind=kind, words=vocab.words(kind), sign=sign, picture=Markup(svg),
                           src=swatch_url(kind, label), label=label))
    return out
