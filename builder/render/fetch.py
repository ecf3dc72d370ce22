"""Card art served to WeasyPrint from memory.

Both printed products (rulebooks and print-and-play sheets) ask for card pictures by URL:
``card:QD`` (a compact face), ``card:full-QD`` (a full face), ``card:back`` (face down) and
``card:back-b`` (a design's back). :class:`CardFetcher` draws each one once, as SVG, from
:mod:`builder.render.cards`, and serves it; each product subclasses it for its own extra
pictures. Other URLs (the font files) are fetched as usual.
"""

from __future__ import annotations

from typing import Any

from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import cards as cardart


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
        return super().fetch(url, headers)
