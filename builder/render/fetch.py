"""Card art served to WeasyPrint from memory.

Both printed products (rulebooks and print-and-play sheets) ask for card pictures by URL
(:func:`card_url`): for the French 52 ``card:QD`` (a compact face), ``card:full-QD`` (a
full face), ``card:back`` (face down) and ``card:back-b`` (a design's back); for a game's
own deck the card's reference (``render/faces.py``), ``card:high-colours/colours/R6``
(compact), ``card:high-colours/colours/R6@full`` (full), ``card:high-colours/colours/_back``
(face down) and ``...@full`` (its back). :class:`CardFetcher` draws each one once, as SVG,
through :class:`~builder.render.faces.Faces`, and serves it; each product subclasses it
for its own extra pictures. Otherwise it reads only the font files and the package's
templates: a build fetches nothing from the network and reads no other file
(:func:`allowed`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from weasyprint.urls import URLFetcher, URLFetcherResponse

from .faces import Faces
from .fonts import FONT_DIRS, replaced_files
from .templating import TEMPLATES

#: how a URL asks for a game's own card drawn whole (a French card says ``full-``)
FULL = "@full"


def card_url(ref: str, style: str = "compact") -> str:
    """The URL of a card reference (``QD``, ``back``, ``high-colours/colours/R6``) drawn in
    ``style`` (``compact``: the diagrams' card; ``full``: the whole card)."""
    if style == "full":
        return f"card:{ref}{FULL}" if "/" in ref else f"card:full-{ref}"
    return f"card:{ref}"


class CardFetcher(URLFetcher):
    """Serves ``card:`` URLs from ``faces`` (the French 52 alone when none is given: add a
    game's decks with ``faces.add(game)``)."""

    def __init__(self, four_colour: bool = False, faces: Faces | None = None):
        super().__init__()
        self.four_colour = four_colour
        self.faces = faces if faces is not None else Faces(four_colour=four_colour)
        self.cache: dict[str, bytes] = {}

    def svg(self, code: str) -> bytes:
        if code not in self.cache:
            if "/" in code:  # a game's own deck: <deck key>/<code>[@full]
                ref, full = (code[:-len(FULL)], True) if code.endswith(FULL) else (code, False)
                text = self.faces.svg(ref, "full" if full else "compact")
            else:  # the French 52, drawn by its deck's art (four-colour suits are its own)
                french = self.faces.french
                if code == "back":
                    text = french.back()
                elif code.startswith("back-"):
                    text = french.back("full", design=code[5:])
                elif code.startswith("full-"):
                    text = french.face(code[5:], "full")
                else:
                    text = french.face(code, "compact")
            self.cache[code] = text.encode("utf-8")
        return self.cache[code]

    def fetch(self, url: str, headers: Any = None):
        if url.startswith("card:"):
            return URLFetcherResponse(url, body=self.svg(unquote(url[5:])),
                                      headers={"Content-Type": "image/svg+xml"})
        if not allowed(url):
            # WeasyPrint reports the refusal as a warning and leaves the resource out
            raise FetchRefused(f"warbook fetches nothing from {url[:80]!r}: a build reads "
                               f"only the package's templates and the typefaces")
        return super().fetch(url, headers)


class FetchRefused(ValueError):
    """A resource outside what a build may read (the network, or a file elsewhere)."""


def allowed(url: str) -> bool:
    """Whether a build may read ``url``: inline ``data:`` and files under the package's
    templates or the typefaces' folders; never the network, never any other file."""
    if url.startswith("data:"):
        return True
    parsed = urlparse(url)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return False
    path = Path(unquote(parsed.path)).resolve()
    if path in [p.resolve() for p in replaced_files()]:
        return True  # the content's own typefaces
    return any(path.is_relative_to(folder) for folder in readable_folders())


def readable_folders() -> list[Path]:
    return [TEMPLATES.resolve()] + [d.resolve() for d in FONT_DIRS]
