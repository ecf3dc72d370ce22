"""The print-and-play products: each game's component sheets, the printable deck and their
300 dpi PNG exports (``components``), laid out on sheets with bleed and crop marks
(``layout``) from SVG art (``art``). Hands on the PDF and PNG files it writes."""
