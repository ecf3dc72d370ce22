"""The print-and-play products: each game's component sheets, the printable deck and their
300 dpi PNG exports, laid out on sheets with bleed and crop marks (``layout``) from SVG art
(``art``). One job a module:

``render``    the entry point, :func:`render_all` (the build calls it)
``kinds``     the kit vocabulary made into pieces and sheets (player aid, tokens, mat, ...)
``pieces``    what a kit is made of (Piece, Kit, CoverRow) and the grids they are laid on
``words``     the game's words as the sheets print them
``cover``     sheet 1 of every file: contents, steps, calibration square
``deck``      the printable deck, duplex and gutter fold
``document``  the sheets drawn as a PDF (WeasyPrint, card forms, trim and bleed boxes)
``png``       the PNG exports (components, cards, Tabletop Simulator sheets)
"""

from .render import render_all

__all__ = ["render_all"]
