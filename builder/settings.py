"""The build's settings: one frozen object, made once by the command line, and the paper
table every product reads its page from.

``Settings`` holds what changes the products (paper, ink, four-colour cards, the site's
address, the print shop's colour profile) and where the content and the output are. The
command line makes it from its flags over ``index.yaml``'s ``book:`` (a flag wins) and hands
it to ``build()``, ``serve`` and every renderer; nothing else reads a flag or re-validates a
paper name. What one run chooses to do (one game, the site alone, reuse or not) is an
argument of that run, not a setting.

``PAPERS`` is the only place a paper is described: its size, the name CSS ``@page`` gives it,
and the rulebook's margins. The rulebook's stylesheet takes its margins from here (written
into the page's CSS by the book renderer), so the text block the Python measures examples
against is the one WeasyPrint lays out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Margins:
    """A rulebook page's margins in mm; ``inner`` is the binding side."""

    top: float
    bottom: float
    inner: float
    outer: float


@dataclass(frozen=True)
class Paper:
    """One paper size warbook prints on."""

    name: str        # as written in index.yaml and on the command line: "a4"
    label: str       # as shown to a person: "A4", "US Letter"
    css: str         # the size as CSS ``@page { size: ... }`` names it
    width: float     # mm
    height: float    # mm
    book: Margins    # the rulebooks' page margins

    @property
    def text_width(self) -> float:
        """The rulebook's text block width in mm."""
        return self.width - self.book.inner - self.book.outer

    @property
    def text_height(self) -> float:
        """The rulebook's text block height in mm."""
        return self.height - self.book.top - self.book.bottom


_BOOK_MARGINS = Margins(top=19.0, bottom=21.0, inner=21.0, outer=17.0)

#: every paper warbook knows, by the name written in index.yaml and on the command line
PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", "A4", 210.0, 297.0, _BOOK_MARGINS),
    "letter": Paper("letter", "US Letter", "letter", 215.9, 279.4, _BOOK_MARGINS),
}
DEFAULT_PAPER = "a4"
INKS = ("full", "low")


@dataclass(frozen=True)
class Settings:
    """What a build renders with. Frozen: made once (``cli``), passed forward, never changed;
    use ``dataclasses.replace`` for a variant (a test, the print-shop copies)."""

    content_root: Path
    output: Path
    paper: Paper = PAPERS[DEFAULT_PAPER]
    ink: str = "full"                 # "full" or "low" (pale backgrounds, no floods)
    four_colour: bool = False         # four-colour suits on the cards
    site_url: str | None = None       # the site's public address, for its absolute links
    print_shop: bytes | None = None   # a CMYK ICC profile: also write print-shop/ copies

    def key(self) -> dict:
        """The settings that change what is rendered, as plain data (the incremental
        manifest's keys include them)."""
        return {"paper": self.paper.name, "ink": self.ink, "four_colour": self.four_colour,
                "site_url": self.site_url}
