"""Small type set by warbook itself: the diagrams' words, from the Cabin font files.

A print diagram carries some ten words (whose place this is, what it is, how many cards it
holds). As HTML boxes over the picture they cost WeasyPrint a layout and a text run each,
some 4,800 of them in the rulebooks: more than a third of the books' build time. So the
words are set here instead, with the font's own advance widths and its GPOS kerning pairs
(as HarfBuzz applies them), into ``Run``s (one positioned line each, in the diagram's
millimetres); ``stamp.py`` writes them into the PDF as real text in the same font, a subset
of the font file (``Face.subset``) embedded as it is.

Nothing here knows about PDF.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from fontTools import subset as ft_subset
from fontTools.ttLib import TTFont

from ..fonts import find

PT = 25.4 / 72  # one point in millimetres

# the subsetter logs each table it drops (such as FFTM, a FontForge time stamp)
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)


class Face:
    """One font file's glyph outlines, advances and kerning pairs."""

    def __init__(self, path: Path):
        # lazily: only the tables and kerning subtables the words touch are decompiled
        font = TTFont(str(path), lazy=True)
        self.path = path
        self.file = path.name
        #: CFF outlines (an OpenType font, "OTTO") or TrueType ones
        self.cff = font.sfntVersion == "OTTO"
        self.upm = font["head"].unitsPerEm
        self.cmap = font.getBestCmap()
        self.advances = {name: adv for name, (adv, _) in font["hmtx"].metrics.items()}
        self._kern_lookups = _gpos_kerning(font)
        self._kern_cache: dict[tuple[str, str], int] = {}
        hhea = font["hhea"]
        self.ascent = hhea.ascent / self.upm
        self.descent = -hhea.descent / self.upm
        head = font["head"]
        self.bbox = (head.xMin, head.yMin, head.xMax, head.yMax)
        os2 = font["OS/2"]
        self.cap_height = getattr(os2, "sCapHeight", 0) or int(0.7 * self.upm)
        self.weight = os2.usWeightClass
        self.family = font["name"].getDebugName(1) or "Cabin"
        self.postscript_name = font["name"].getDebugName(6) or path.stem
        self.italic_angle = float(font["post"].italicAngle)
        self._data: bytes | None = None
        self._font = font
        self._reach: dict[str, tuple[float, float]] = {}

    def reach(self, text: str) -> tuple[float, float]:
        """How far ``text``'s ink reaches above and below its baseline, in em: the
        highest top and the lowest bottom of its glyphs' outlines (not the font's line
        metrics, which leave room for accents the words may not have)."""
        from fontTools.pens.boundsPen import BoundsPen

        up = down = 0.0
        glyphs = None
        for name in set(self.names(text)):
            if name not in self._reach:
                glyphs = glyphs or self._font.getGlyphSet()
                pen = BoundsPen(glyphs)
                glyphs[name].draw(pen)
                lo, hi = (pen.bounds[1], pen.bounds[3]) if pen.bounds else (0, 0)
                self._reach[name] = (hi / self.upm, -lo / self.upm)
            a, b = self._reach[name]
            up, down = max(up, a), max(down, b)
        return up, down

    def glyph(self, ch: str) -> str:
        return self.cmap.get(ord(ch), ".notdef")

    def names(self, text: str) -> list[str]:
        return [self.glyph(ch) for ch in text]

    def width(self, text: str, size: float, tracking: float = 0.0) -> float:
        """The advance of ``text`` set at ``size`` (any unit), with ``tracking`` (in em)
        between letters, as CSS letter-spacing sets it."""
        names = self.names(text)
        units = sum(self.advances.get(n, 0) for n in names)
        units += sum(self.kern(a, b) for a, b in zip(names, names[1:]))
        return units * size / self.upm + tracking * size * max(0, len(names) - 1)

    def lines(self, text: str, size: float, width: float, tracking: float = 0.0) -> list[str]:
        """``text`` broken into lines no wider than ``width`` (``size``'s unit), greedily at
        spaces, as a browser breaks them; a forced line break stays one, and a word wider
        than the line stays whole on a line of its own. Each line is measured as ``width``
        measures it, but a word at a time (the line's advance so far, the space's kerning,
        the word's), so that a paragraph is set in time linear in its length."""
        space = self.glyph(" ")
        space_units = self.advances.get(space, 0)
        out: list[str] = []
        for para in text.split("\n"):
            line, units, count, last = "", 0, 0, ""
            for word in para.split():
                names = self.names(word)
                own = sum(self.advances.get(n, 0) for n in names)
                own += sum(self.kern(a, b) for a, b in zip(names, names[1:]))
                if line:
                    joined = (units + self.kern(last, space) + space_units
                              + self.kern(space, names[0]) + own)
                    n = count + 1 + len(names)
                    if joined * size / self.upm + tracking * size * max(0, n - 1) > width:
                        out.append(line)
                        line, units, count = word, own, len(names)
                    else:
                        line, units, count = f"{line} {word}", joined, n
                else:
                    line, units, count = word, own, len(names)
                last = names[-1]
            out.append(line)
        return out

    def pairs(self, text: str) -> list[int]:
        """The kerning (font units) after each letter of ``text`` but the last."""
        names = self.names(text)
        return [self.kern(a, b) for a, b in zip(names, names[1:])]

    def kern(self, left: str, right: str) -> int:
        """The kerning between two glyphs (font units), as HarfBuzz applies the font's
        GPOS 'kern' feature: in each of its pair lookups the first subtable that has the
        pair gives its adjustment, and the lookups' adjustments add up."""
        key = (left, right)
        if key not in self._kern_cache:
            total = 0
            for subtables in self._kern_lookups:
                for st in subtables:
                    value = _pair_value(st, left, right)
                    if value is not None:
                        total += value
                        break
            self._kern_cache[key] = total
        return self._kern_cache[key]

    def subset(self, names: set[str]) -> tuple[bytes, dict[str, int]]:
        """The font file cut down to the glyphs ``names`` (and .notdef, and any glyph they
        are built from): its bytes, and the glyphs it holds with their numbers, which are
        the whole face's (the others are left empty, as WeasyPrint's subsets keep the
        numbers too: the compendium can merge the subsets of one face). Outlines and hints
        are kept as the file has them (CFF subroutines inlined); the layout tables go, as
        the words are already set; the file's time stamp is kept, so that a build writes
        the same bytes twice."""
        if self._data is None:
            self._data = self.path.read_bytes()
        font = TTFont(io.BytesIO(self._data), lazy=True, recalcTimestamp=False,
                      recalcBBoxes=False)
        # dropped before the subsetter sees them: it would decompile them all (most of
        # its time) only to drop them
        for tag in ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "kern", "morx", "DSIG"):
            if tag in font:
                del font[tag]
        options = ft_subset.Options(
            retain_gids=True, glyph_names=False, notdef_outline=True, desubroutinize=True,
            hinting=True, recalc_bounds=False, recalc_timestamp=False, layout_features=[])
        subsetter = ft_subset.Subsetter(options)
        subsetter.populate(glyphs=sorted(names))
        subsetter.subset(font)
        out = io.BytesIO()
        font.save(out)
        order = font.getGlyphOrder()
        return out.getvalue(), {name: order.index(name) for name in subsetter.glyphs_retained}


def _gpos_kerning(font: TTFont) -> list[list]:
    """The pair-positioning subtables of the font's 'kern' feature, lookup by lookup."""
    if "GPOS" not in font:
        return []
    gpos = font["GPOS"].table
    indices: list[int] = []
    for record in gpos.FeatureList.FeatureRecord:
        if record.FeatureTag == "kern":
            indices += [i for i in record.Feature.LookupListIndex if i not in indices]
    lookups = []
    for i in sorted(indices):
        lookup = gpos.LookupList.Lookup[i]
        subtables = []
        for st in lookup.SubTable:
            if lookup.LookupType == 9:  # an extension: the real subtable is inside
                st = st.ExtSubTable
            if st.LookupType == 2:
                subtables.append(st)
        lookups.append(subtables)
    return lookups


def _pair_value(st, left: str, right: str) -> int | None:
    """A PairPos subtable's horizontal adjustment after ``left`` when ``right`` follows,
    or None when the subtable does not cover the pair."""
    if left not in st.Coverage.glyphs:
        return None
    if st.Format == 1:
        pairs = st.PairSet[st.Coverage.glyphs.index(left)].PairValueRecord
        for record in pairs:
            if record.SecondGlyph == right:
                return getattr(record.Value1, "XAdvance", 0) or 0
        return None
    c1 = st.ClassDef1.classDefs.get(left, 0)
    c2 = st.ClassDef2.classDefs.get(right, 0)
    return getattr(st.Class1Record[c1].Class2Record[c2].Value1, "XAdvance", 0) or 0


@lru_cache(maxsize=None)
def face(file_name: str) -> Face:
    return Face(find(file_name))


@dataclass(frozen=True)
class Style:
    """How a run of small type is set: the font file, the size in points, the line height
    in mm, the tracking in em, capitals or as written, and the ink (#rrggbb)."""

    file: str
    size_pt: float
    line: float
    tracking: float = 0.0
    upper: bool = False
    ink: str = "#000000"

    @property
    def size(self) -> float:
        return self.size_pt * PT

    @property
    def face(self) -> Face:
        return face(self.file)


@dataclass(frozen=True)
class Run:
    """One line of type placed in a diagram: its left end at ``x`` and its baseline at
    ``baseline`` (mm from the diagram's top left corner, y downwards), ``size`` in mm."""

    style: Style
    text: str
    x: float
    baseline: float
    size: float


def wrap(text: str, style: Style, width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (mm), greedily at spaces, as a
    browser would; a forced line break stays one. A single word wider than the line stays
    whole on its own line (``block`` sets it smaller)."""
    if style.upper:
        text = text.upper()
    return style.face.lines(text, style.size, width, style.tracking)


def block(text: str, style: Style, x: float, top: float, width: float,
          max_lines: int | None = None, min_scale: float = 0.75) -> list[Run]:
    """``text`` centred in a column ``width`` wide from ``x``, its first line box at
    ``top``, as CSS sets a centred block (the half-leading above the ascent).

    With ``max_lines``, text that needs more lines is set smaller (on closer lines), down
    to ``min_scale`` of its size, until it fits; text that still does not fit ends its last
    line with an ellipsis, so that nothing is cut off without a sign. A line too long for
    the column (a single long word) is set smaller to fit it rather than cut."""
    base, scale = style, 1.0
    lines = wrap(text, style, width)
    while max_lines is not None and len(lines) > max_lines and scale > min_scale + 1e-9:
        scale = max(min_scale, scale - 0.05)
        style = replace(base, size_pt=base.size_pt * scale, line=base.line * scale)
        lines = wrap(text, style, width)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [_ellipsis(lines[max_lines - 1], style, width)]
    f = style.face
    runs = []
    for i, line in enumerate(lines):
        if not line:
            continue
        size = style.size
        w = f.width(line, size, style.tracking)
        if w > width:
            size, w = size * width / w, width
        content = (f.ascent + f.descent) * size
        baseline = top + i * style.line + (style.line - content) / 2 + f.ascent * size
        runs.append(Run(style, line, x + (width - w) / 2, baseline, size))
    return runs


def _ellipsis(line: str, style: Style, width: float) -> str:
    """``line`` with an ellipsis after it, words dropped from its end until it fits."""
    words = line.split()
    while words:
        trial = " ".join(words) + "\u2026"
        if style.face.width(trial, style.size, style.tracking) <= width or len(words) == 1:
            return trial
        words.pop()
    return "\u2026"
