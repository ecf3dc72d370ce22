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
import os
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
    # the source's own timestamp is kept: the same font and characters give the same bytes
    font = TTFont(str(source), lazy=False, recalcTimestamp=False)
    sub = subset.Subsetter(opts)
    sub.populate(text=chars)
    sub.subset(font)
    buf = io.BytesIO()
    font.flavor = "woff2"
    font.save(buf)
    return buf.getvalue()


_CACHE: dict[str, bytes] = {}
#: the subset fonts kept on disk (:func:`builder.cache.folder`), the most recently used
KEEP = 48
#: what a kept font's name depends on besides its source's bytes and the characters
RECIPE = f"woff2 1|{FEATURES}|{BASE}"


def cached_woff2(source: Path, chars: str) -> bytes:
    """:func:`woff2`, remembered for this process and kept on disk (``webfonts`` in the
    cache folder, :mod:`builder.cache`), by the font's bytes, the character set, the
    subsetter's version and :data:`RECIPE`: the subsetting and Brotli take seconds a
    build, and a site's characters seldom change from one build to the next. A kept file
    that is damaged (not whole WOFF2) is made again."""
    from fontTools import version as fonttools_version

    from ... import cache

    digest = hashlib.sha256(source.read_bytes())
    digest.update(f"|{fonttools_version}|{RECIPE}|{chars}".encode())
    key = digest.hexdigest()[:40]
    if key in _CACHE:
        return _CACHE[key]
    folder = cache.folder("webfonts")
    kept = None if folder is None else folder / f"{source.stem}-{key}.woff2"
    data = _read_kept(kept) if kept is not None else None
    if data is None:
        data = woff2(source, chars)
        if kept is not None:
            _keep(kept, data)
    _CACHE[key] = data
    return data


def _whole(data: bytes) -> bool:
    """Whether ``data`` is a whole WOFF2 file: its signature, and the length its header
    gives."""
    return len(data) >= 48 and data[:4] == b"wOF2" and int.from_bytes(data[8:12], "big") == len(data)


def _read_kept(path: Path) -> bytes | None:
    try:
        data = path.read_bytes()
        os.utime(path)  # recently used: pruned last
    except OSError:
        return None
    return data if _whole(data) else None


def _keep(path: Path, data: bytes) -> None:
    """Keep ``data`` at ``path`` whole or not at all, and prune the folder to the
    :data:`KEEP` most recently used (:mod:`builder.cache`). A cache that cannot be written
    is no error: the font is made again next time."""
    from ... import cache

    try:
        cache.write_whole(path, data)
    except OSError:
        return
    cache.prune(path.parent, ".woff2", KEEP)
