"""Card art served to WeasyPrint from memory.

Both printed products (rulebooks and print-and-play sheets) ask for card pictures by URL:
``card:QD`` (a compact face), ``card:full-QD`` (a full face), ``card:back`` (face down) and
``card:back-b`` (a design's back). :class:`CardFetcher` draws each one once, as SVG, from
:mod:`builder.render.cards`, and serves it; each product subclasses it for its own extra
pictures. Otherwise it reads only the font files and the package's templates: a build
fetches nothing from the network and reads no other file (:func:`allowed`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import cards as cardart
from .fonts import FONT_DIRS, replaced_files
from .templating import TEMPLATES


def card_url(code: str) -> str:
    return f"card:{code}"


class CardFetcher(URLFetcher):
    def __init__(self, four_colour: bool = False):
        super().__init__()
        self.four_colour = four_colour
        self.cache: dict[str, bytes] = {}

    def svg(self, code: str) -> bytes:
        if code not in self.cache:
            if code == "back":
                text = cardart.face_down()
            elif code.startswith("back-"):
                text = cardart.card_back(code[5:])
            elif code.startswith("full-"):
                text = cardart.card_face(code[5:], style="full", four_colour=self.four_colour)
            else:
                text = cardart.card_face(code, style="compact", four_colour=self.four_colour)
            self.cache[code] = text.encode("utf-8")
        return self.cache[code]

    def fetch(self, url: str, headers: Any = None):
        if url.startswith("card:"):
            return URLFetcherResponse(url, body=self.svg(url[5:]),
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
