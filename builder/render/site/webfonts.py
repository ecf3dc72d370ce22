"""The website's fonts: the book's typefaces cut down to the characters the site shows and
written as WOFF2 (fontTools' subsetter, with Brotli), so a page loads tens of kilobytes of
font instead of a megabyte of whole OpenType files.

The character set is every character of the written pages and scripts (the text a reader
can see, search results included, since the search index is written from the same
content), plus printable ASCII so a reader's own search words render in the site's face.
"""

from __future__ import annotations

import hashlib
import html
import io
import logging
from pathlib import Path
from typing import Iterable

from fontTools import subset
from fontTools.ttLib import TTFont

# the subsetter logs each table it drops (such as FFTM, a FontForge time stamp)
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)

#: always kept: printable ASCII and the typographic marks the site's own strings use
BASE = ("".join(chr(c) for c in range(0x20, 0x7F))
        + "\u00a0\u00b7\u00d7\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2190\u2192\u2191\u2022")

#: OpenType features the site's CSS asks for (kerning, ligatures, figures); the rest go
FEATURES = ["kern", "liga", "clig", "calt", "ccmp", "locl", "mark", "mkmk", "tnum", "lnum",
            "onum", "pnum"]


def characters(texts: Iterable[str]) -> str:
    """Every character in ``texts`` (HTML entities decoded), with :data:`BASE`, sorted."""
    chars = set(BASE)
    for t in texts:
        chars.update(html.unescape(t))
    return "".join(sorted(c for c in chars if c.isprintable() or c == "\u00a0"))


def woff2(source: Path, chars: str) -> bytes:
    """``source`` (OTF or TTF) with only ``chars`` (and what their features reach), as WOFF2."""
    opts = subset.Options()
    opts.flavor = "woff2"
    opts.layout_features = FEATURES
    opts.hinting = False
    opts.desubroutinize = True
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # keep the copyright and licence-relevant names
    opts.notdef_outline = True
    font = TTFont(str(source), lazy=False)
    sub = subset.Subsetter(opts)
    sub.populate(text=chars)
    sub.subset(font)
    buf = io.BytesIO()
    font.flavor = "woff2"
    font.save(buf)
    return buf.getvalue()


_CACHE: dict[str, bytes] = {}


def cached_woff2(source: Path, chars: str) -> bytes:
    """:func:`woff2`, remembered for this process by file, size, time and character set
    (a build that renders the site twice, as the tests do, subsets once)."""
    st = source.stat()
    key = hashlib.sha1(f"{source}|{st.st_size}|{st.st_mtime_ns}|{chars}".encode()).hexdigest()
    if key not in _CACHE:
        _CACHE[key] = woff2(source, chars)
    return _CACHE[key]
