"""What a game's art hook draws with: :class:`ArtContext` and its :class:`Drawing`.

A mat in ``game.yaml`` that says ``art: NAME`` is drawn by the engine's ``art[NAME](ctx)``,
which returns SVG in millimetres. The renderer makes the context; the engine sees only the
interface declared here, so an engine never imports the renderer and a renderer change
cannot break a designer's art without this file changing too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class Ink(Protocol):
    """Colours for the ink mode the kit is printed in (full colour or low ink)."""

    #: ``"full"`` or ``"low"``; ``low`` is True in low ink
    mode: str
    low: bool

    def c(self, colour: str) -> str:
        """A line or small shape's colour (a grey of the same weight in low ink)."""

    def area(self, colour: str) -> str:
        """A large fill's colour (none in low ink)."""

    def tint(self, colour: str, amount: float) -> str:
        """A pale ``colour`` for backgrounds (``amount`` 0-1; none in low ink)."""


class Drawing(Protocol):
    """The drawing helpers an art hook gets as ``ctx.draw``. Every function returns an SVG
    fragment (a string); sizes are in millimetres, type in points."""

    #: a card space's size (a 63 x 88 mm card with 0.5 mm around it)
    SPACE_W: float
    SPACE_H: float
    #: the red of hearts and diamonds, and the serif the books are set in
    RED: str
    SERIF: str

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none",
             stroke: str = "none", sw: float = 0.0, rx: float = 0.0, dash: str = "") -> str:
        """A rectangle (``rx`` rounds its corners, ``dash`` an SVG dash pattern)."""

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = ...,
             sw: float = 0.2, dash: str = "") -> str:
        """A straight line."""

    def text(self, x: float, y: float, s: str, size_pt: float, *, fill: str = ...,
             anchor: str = "middle", weight: int = 400, family: str = ...,
             italic: bool = False, rotate: float = 0, spacing: float = 0) -> str:
        """A line of text; on a mat no word is set under 9 pt (read across the table)."""

    def suit(self, s: str, cx: float, cy: float, size: float, fill: str,
             stroke: str = "none", sw: float = 0) -> str:
        """A suit symbol (``C``, ``D``, ``H``, ``S``) centred on (cx, cy)."""

    def card_space(self, ink: Ink, x: float, y: float, label: str, colour: str, *,
                   note: str = "", w: float = ..., h: float = ..., icon: str = "",
                   dashed: bool = False, turn: bool = False) -> str:
        """A card-size space with its name at the top and a note at the foot (``icon``: a
        suit drawn in it; ``dashed``: a place for face-down cards; ``turn``: read from the
        far side)."""

    def mat_frame(self, ink: Ink, w: float, h: float, colour: str) -> str:
        """The frame and ground of a mat ``w`` x ``h``."""

    def arrow_up(self, x: float, y: float, length: float, colour: str,
                 sw: float = 0.4) -> str:
        """An arrow pointing up from (x, y)."""


@dataclass
class ArtContext:
    """What an art hook is given: ``draw`` (the :class:`Drawing` helpers), ``ink``, the
    piece's size in mm (``w``, ``h``), its ``colour`` and the game's ``accent``, the players'
    ``colours`` and ``names``, the ``player`` it is for (or None), the mat's ``params``
    from game.yaml (a variant's merged in) and its ``bleed``: how far (mm; left, top, right,
    bottom) past each edge of the trim the art should run. A colour drawn to the trim is drawn
    on to there (``x = -bleed[0]`` ...), so that a cut a little off the line shows no white
    edge; nothing that must be read goes within 3 mm of the trim."""

    draw: Drawing
    ink: Ink
    w: float
    h: float
    colour: str
    accent: str
    colours: dict[str, str]
    names: dict[str, str]
    player: str | None
    params: dict[str, Any] = field(default_factory=dict)
    bleed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
