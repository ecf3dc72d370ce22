"""The compendium's fonts, embedded once (issue 27, item 6).

The compendium is bound from the rulebooks' own PDFs (:mod:`.bind`), and each rulebook
embeds its own subset of every face it sets: bound together, EB Garamond came nine times,
Cabin Bold seventeen. WeasyPrint subsets a font keeping each glyph's number (HarfBuzz's
``RETAIN_GIDS``; its fontTools path the same), and writes the text as glyph numbers
(``Identity-H``, CID = glyph number). So the subsets of one face differ only in which
glyphs they hold, never in what a number means: one subset holding every glyph any of them
holds serves them all, and the text of no page changes.

:func:`share_fonts` finds, for each font file the build may have embedded
(:func:`builder.render.fonts.embeddable_files`: the faces, shipped or a content's own, and
their siblings in the font folders), the embedded subsets of that face, checks that each
keeps the face's numbering (every width its ``/W`` array gives is the face's advance for
that glyph number: a subset renumbered would fail on its first glyphs), makes one subset
of the face holding the union of their glyphs, and points every one of them at it. A font
that is not one of the faces, or whose widths do not match, is left as it is: it costs
bytes, never a wrong glyph.
"""

from __future__ import annotations

import io
import logging
from collections import defaultdict
from pathlib import Path

import pikepdf
from fontTools import subset
from fontTools.ttLib import TTFont
from pikepdf import Name

log = logging.getLogger("warbook.render.book.fontshare")

_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def _ps_name(font: TTFont) -> str | None:
    name = font["name"].getDebugName(6) if "name" in font else None
    return str(name) if name else None


def _widths(w) -> dict[int, float]:
    """A CID font's ``/W`` array as {cid: width}."""
    out: dict[int, float] = {}
    items = list(w)
    i = 0
    while i < len(items):
        first = int(items[i])
        nxt = items[i + 1]
        if isinstance(nxt, pikepdf.Array):
            for k, width in enumerate(nxt):
                out[first + k] = float(width)
            i += 2
        else:
            last, width = int(nxt), float(items[i + 2])
            for cid in range(first, last + 1):
                out[cid] = width
            i += 3
    return out


class _Face:
    """One face file: its numbering (advance widths by glyph number) and its bytes."""

    def __init__(self, path: Path):
        self.path = path
        self.data = path.read_bytes()
        font = TTFont(io.BytesIO(self.data), lazy=True)
        self.name = _ps_name(font)
        self.upem = font["head"].unitsPerEm
        order = font.getGlyphOrder()
        metrics = font["hmtx"].metrics
        self.advances = [metrics[g][0] for g in order]
        self.cff = "CFF " in font

    def keeps_numbering(self, widths: dict[int, float]) -> bool:
        scale = 1000 / self.upem
        return bool(widths) and all(
            cid < len(self.advances) and abs(self.advances[cid] * scale - w) <= 1.01
            for cid, w in widths.items())

    def subset(self, gids: set[int]) -> bytes:
        """This face cut to ``gids`` (and glyph 0), every glyph keeping its number."""
        options = subset.Options(retain_gids=True, passthrough_tables=True,
                                 ignore_missing_glyphs=True, hinting=True,
                                 desubroutinize=True, notdef_outline=True,
                                 recalc_bounds=False, layout_closure=False)
        options.drop_tables += ["GSUB", "GPOS", "GDEF", "SVG ", "BASE", "JSTF", "DSIG"]
        # the face's own timestamp is kept: the same glyphs give the same bytes
        font = TTFont(io.BytesIO(self.data), recalcTimestamp=False)
        for table in ("GSUB", "GPOS", "GDEF"):  # the PDF's text is glyphs already shaped
            if table in font:
                del font[table]
        sub = subset.Subsetter(options)
        sub.populate(gids=sorted(gids | {0}))
        sub.subset(font)
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()


def share_fonts(pdf: pikepdf.Pdf, faces: list[Path]) -> int:
    """Point every embedded subset of each face in ``faces`` at one subset of that face
    holding all their glyphs; returns how many font programs were dropped."""
    known: dict[str, _Face] = {}
    for path in faces:
        try:
            face = _Face(path)
        except Exception as e:  # noqa: BLE001 - a face we cannot read is just not shared
            log.debug(f"{path}: not shared ({e})")
            continue
        if face.name:
            known.setdefault(face.name, face)
    groups: dict[str, list[tuple[pikepdf.Dictionary, str, dict[int, float]]]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for obj in pdf.objects:
        if not (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == Name.Font
                and obj.get("/Subtype") == Name.Type0 and obj.get("/Encoding") == Name("/Identity-H")):
            continue
        if obj.objgen in seen:
            continue
        seen.add(obj.objgen)
        cid = obj.DescendantFonts[0]
        if cid.get("/CIDToGIDMap", Name.Identity) != Name.Identity or "/W" not in cid:
            continue
        desc = cid.get("/FontDescriptor")
        key = next((k for k in _FILES if desc is not None and k in desc), None)
        if key is None:
            continue
        try:
            font = TTFont(io.BytesIO(desc[key].read_bytes()), lazy=True)
            name = _ps_name(font)
        except Exception:  # noqa: BLE001 - not a font fontTools reads: left as it is
            continue
        face = known.get(name or "")
        widths = _widths(cid.W)
        if face is None or not face.keeps_numbering(widths):
            continue
        groups[name].append((desc, key, widths))
    dropped = 0
    for name, members in groups.items():
        programs = {desc[key].objgen for desc, key, _ in members}
        if len(programs) < 2:
            continue
        face = known[name]
        gids = set().union(*(set(w) for _, _, w in members))
        data = face.subset(gids)
        first = members[0][0][members[0][1]]
        shared = pikepdf.Stream(pdf, data)
        if first.get("/Subtype") is not None:
            shared.Subtype = first.Subtype
        if members[0][1] == "/FontFile2":
            shared.Length1 = len(data)
        shared = pdf.make_indirect(shared)
        for desc, key, _ in members:
            desc[key] = shared
        dropped += len(programs) - 1
    return dropped
