"""One diagram stamped into a page of its own, for the tests of the diagrams' drawing
(test_stamp.py) and of their fonts (test_fonts_embedded.py)."""

from __future__ import annotations

from pathlib import Path

from weasyprint import HTML

from builder.render.book.pdf import BookFetcher, diagram_placements
from builder.render.book.stamp import Art, stamp


def stamped(folder: Path, art: Art, fetcher: BookFetcher | None = None) -> Path:
    """``art`` laid out as the one diagram of a page, at its own size, and stamped into
    ``folder/t.pdf`` (a tagged PDF, as the books are written). ``fetcher`` holds the
    cards the art shows (drawn with ``draw_cards``); a new one without."""
    fetcher = fetcher or BookFetcher()
    fetcher.art.append(art)
    doc = HTML(string=f'<html lang="en"><img src="diagram:blank" data-diagram="0" '
                      f'alt="The table." style="width: {art.width}mm; height: {art.height}mm">',
               url_fetcher=fetcher).render(pdf_tags=True)
    out = folder / "t.pdf"
    stamp(doc.write_pdf(pdf_tags=True), diagram_placements(doc, fetcher), fetcher.cards, out)
    return out
