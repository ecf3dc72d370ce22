"""Reading the printed characters of a PDF back with pdfium (pypdfium2), for the tests that
ask what a book prints where and in which face and size: what pdfplumber told those tests
before, some ten times faster (pdfplumber parses every page's content in Python; pdfium is
the PDF engine of Chromium).

Positions are in points from the page's top-left corner, as pdfplumber gives them."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Char:
    text: str
    #: the font's name as embedded (``ABCDEF+Cabin-Bold``)
    font: str
    #: the size it is printed at (pt): the font size scaled as the page draws the glyph
    size: float
    x0: float
    x1: float
    #: the top and foot of the glyph's line box (the font's ascent and descent)
    top: float
    bottom: float


@dataclass(frozen=True)
class Line:
    text: str
    top: float
    bottom: float
    #: the face and size of its first (leftmost) character
    font: str
    size: float


def pages_chars(path: Path) -> list[tuple[float, list[Char]]]:
    """Each page of the PDF at ``path``: its height (pt) and its printed characters in the
    order the page draws them (the spaces and line ends pdfium makes up left out)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    matrix = raw.FS_MATRIX()
    rect = raw.FS_RECTF()
    out = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for page in pdf:
            height = page.get_height()
            text = page.get_textpage()
            tp = text.raw
            chars = []
            for i in range(raw.FPDFText_CountChars(tp)):
                if raw.FPDFText_IsGenerated(tp, i):
                    continue
                code = raw.FPDFText_GetUnicode(tp, i)
                if code in (10, 13):   # a line's end drawn as a character
                    continue
                # a character with no Unicode (0, U+FFFE) is kept: the tests that read the
                # words fail on it, as a reader would
                got = raw.FPDFText_GetFontInfo(tp, i, name, len(name), ctypes.byref(flags))
                font = name.value.decode("latin-1") if 0 < got <= len(name) else ""
                raw.FPDFText_GetMatrix(tp, i, ctypes.byref(matrix))
                # the size the page prints: the font's size times the scale of the matrix
                # it is drawn with (the same turned a quarter, or mirrored)
                scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
                raw.FPDFText_GetLooseCharBox(tp, i, ctypes.byref(rect))
                chars.append(Char(chr(code), font,
                                  raw.FPDFText_GetFontSize(tp, i) * scale,
                                  rect.left, rect.right, height - rect.top, height - rect.bottom))
            text.close()
            page.close()
            out.append((height, chars))
    finally:
        pdf.close()
    return out


def text_lines(chars: list[Char], tolerance: float = 3.0) -> list[Line]:
    """The page's characters gathered into lines, top to bottom, as pdfplumber's
    ``extract_text_lines`` does: characters whose tops lie within ``tolerance`` points of
    a line's first are on it (two columns' lines at one height are one line), read left to
    right, a space where one character ends well before the next begins."""
    lines: list[list[Char]] = []
    for ch in sorted(chars, key=lambda c: (c.top, c.x0)):
        if lines and abs(ch.top - lines[-1][0].top) <= tolerance:
            lines[-1].append(ch)
        else:
            lines.append([ch])
    out = []
    for chs in lines:
        chs.sort(key=lambda c: c.x0)
        text = chs[0].text
        for a, b in zip(chs, chs[1:]):
            if b.x0 - a.x1 > 0.25 * max(a.size, 1.0) and a.text != " " and b.text != " ":
                text += " "
            text += b.text
        text = " ".join(text.split())
        if text:
            out.append(Line(text, min(c.top for c in chs), max(c.bottom for c in chs),
                            chs[0].font, chs[0].size))
    return out


def runs(chars: list[Char], gap: float = 0.3) -> list[str]:
    """The page's words as it sets them: runs of characters one after another in the
    order drawn, in one face, on one line, each starting where the one before ends (within
    ``gap`` of the size; a space is a character of its own)."""
    out: list[str] = []
    last: Char | None = None
    for ch in chars:
        joined = last is not None and ch.font == last.font and abs(ch.top - last.top) < 0.5 \
            and -0.5 < ch.x0 - last.x1 < gap * ch.size
        if joined:
            out[-1] += ch.text
        else:
            out.append(ch.text)
        last = ch
    return [r.strip() for r in out if r.strip()]
