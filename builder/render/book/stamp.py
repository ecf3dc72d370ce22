"""Draw the worked examples' diagrams into a written rulebook.

WeasyPrint lays the book out with each diagram as an empty picture of the right size,
which carries the diagram's description as its alternative text (so the tag tree has a
described figure for every step). This module then draws the diagrams themselves into the
written PDF, with pikepdf, at the places WeasyPrint gave those pictures:

- the felt (a rounded rectangle), the dashed outline of each empty place, the grey ground
  under the cards of a place the table may not look into;
- the cards: vector pictures drawn once per build from the card art, one page each
  (``CardForms``), copied into a book once as a form and shown wherever they lie;
- the words (whose place, what it is, how many cards it holds), set by ``glyphs.py``, as
  real text in the Cabin faces themselves: per face a subset of its font file holding only
  the glyphs the book's diagrams use, embedded as WeasyPrint embeds the body text's fonts
  (a Type 0 font, Identity-H, over a CIDFont whose CIDs are the face's glyph numbers; CFF
  outlines as an OpenType FontFile3, TrueType ones as a FontFile2), with the glyphs' widths
  and a ToUnicode map, so that they print with the font's hints (no Type 3 font for a RIP
  to rasterise or a preflight to flag) and can be found and copied.

All of it is marked as an artifact: the figure it draws already speaks it. Drawn this way a
diagram costs a fraction of a millisecond; as an SVG picture with HTML labels over it,
WeasyPrint spent some 40 ms on each (parse, cascade, layout and drawing of every label and
card, and every card image encoded again in every book).
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name

from ..marks import Path as SignPath
from .glyphs import Face, Run
from .tagging import scope_table_headers

PT_PER_MM = 72 / 25.4
PT_PER_PX = 0.75  # CSS pixels (WeasyPrint's unit) to PDF points
KAPPA = 0.5523  # a quarter circle's Bézier handles, in radii


@dataclass
class Art:
    """What a diagram shows, in millimetres from its top left corner (y downwards)."""

    width: float
    height: float
    felt: str
    edge: str
    cards: list[tuple[str, float, float, float, float]] = field(default_factory=list)
    """(card reference, x, y, width, height): ``render/faces.py`` ``card_ref``"""
    empties: list[tuple[float, float, float, float]] = field(default_factory=list)
    """(x, y, width, height) of the dashed outline of an empty place"""
    empty_ink: str = "#9aab96"
    runs: list[Run] = field(default_factory=list)
    tokens: list[tuple[float, float, float]] = field(default_factory=list)
    """(centre x, centre y, radius) of each round token (a stone)"""
    token_ink: tuple[str, str] = ("#9c9a93", "#4f4d48")
    """the tokens' fill and edge"""
    signs: list[SignPath] = field(default_factory=list)
    """the marks' shapes over the cards (``render/marks.py``: outlines, veils, signs),
    drawn in order after every card; their labels are among the ``runs``"""
    grounds: list[SignPath] = field(default_factory=list)
    """the grounds drawn on the felt under the cards (a hidden place's grey panel,
    ``render/marks.py`` ``ground``)"""


@dataclass
class Placed:
    """A diagram and where its picture landed: the page (from 0) and the top left corner of
    the picture's content box, in CSS pixels from the page's top left corner."""

    page: int
    x: float
    y: float
    art: Art


class CardForms:
    """The diagrams' cards: PDFs with one card to a page (drawn once per build from the
    card art: the French 52 first, then each of a game's own decks at its own size), each
    page copied into a book as a form, a vector picture, the first time the book shows
    that card. A card is named by its reference (``render/faces.py``: "QD", "back",
    "high-colours/colours/R6")."""

    def __init__(self, pdf_bytes: bytes | None = None, codes: list[str] = ()):
        self.docs: list[bytes] = []
        #: reference -> (document, page)
        self.where: dict[str, tuple[int, int]] = {}
        if pdf_bytes is not None:
            self.add(pdf_bytes, codes)

    def add(self, pdf_bytes: bytes, codes: list[str]) -> None:
        """Another PDF of cards, one to a page in the order of ``codes``."""
        doc = len(self.docs)
        self.docs.append(pdf_bytes)
        self.where.update({code: (doc, i) for i, code in enumerate(codes)})

    @property
    def data(self) -> bytes:
        """The first PDF (the French 52's)."""
        return self.docs[0]

    @property
    def page(self) -> dict[str, int]:
        """Each card's page in its PDF."""
        return {code: i for code, (_, i) in self.where.items()}

    def __contains__(self, code: str) -> bool:
        return code in self.where

    def open(self, doc: int = 0) -> pikepdf.Pdf:
        return pikepdf.open(io.BytesIO(self.docs[doc]))


def _resource(code: str, n: int) -> str:
    """A card's form's resource name: ``WarbookCard`` and its code for a French card
    (``WarbookCardQD``), and a number for a reference that is no PDF name
    (``high-colours/colours/R6``)."""
    return "WarbookCard" + (code if code.isalnum() else f"Ref{n}")


class _Font:
    """One face of the diagrams' words, embedded as a subset of its font file: a Type 0 font
    with two bytes to a glyph (Identity-H), the CIDs being the face's own glyph numbers (the
    subset keeps them, as WeasyPrint's do), which holds the glyphs of every letter the
    book's diagrams use (``add`` each text first, then ``cut`` once, then ``encode``)."""

    def __init__(self, face: Face, resource: str):
        self.face = face
        self.resource = resource
        self.letters: dict[str, str] = {}  # letter -> glyph name, in order of first use
        self.gids: dict[str, int] = {}  # glyph name -> its number, of those the subset holds
        self.data = b""

    def add(self, text: str) -> None:
        for ch in text:
            if ch not in self.letters:
                self.letters[ch] = self.face.glyph(ch)

    def cut(self) -> None:
        """Make the subset, of every letter added."""
        self.data, self.gids = self.face.subset(set(self.letters.values()))

    def encode(self, text: str) -> list[int]:
        return [self.gids[self.face.glyph(ch)] for ch in text]

    @property
    def name(self) -> str:
        """The subset's PostScript name: a tag made from what it holds (the same glyphs,
        the same tag: a build writes the same bytes twice), "+", the face's name, and
        "-Diagram", which tells the diagrams' words from WeasyPrint's own subsets of the
        same face (the tests find the words by it)."""
        held = sorted(self.gids, key=self.gids.__getitem__)
        digest = hashlib.sha256("\0".join([self.face.file, *held]).encode()).digest()
        tag = "".join(chr(ord("A") + b % 26) for b in digest[:6])
        base = re.sub(r"[^A-Za-z0-9-]", "", self.face.postscript_name) or "Cabin"
        return f"{tag}+{base}-Diagram"

    def build(self, pdf: pikepdf.Pdf) -> pikepdf.Object:
        f = self.face
        name = Name("/" + self.name)
        if f.cff:  # CFF outlines: the OpenType file as it is (PDF 1.6)
            kind = Name.CIDFontType0
            file_key = Name.FontFile3
            program = pdf.make_stream(self.data, Subtype=Name.OpenType)
        else:
            kind = Name.CIDFontType2
            file_key = Name.FontFile2
            program = pdf.make_stream(self.data, Length1=len(self.data))
        descriptor = pdf.make_indirect(Dictionary(
            Type=Name.FontDescriptor, FontName=name,
            FontFamily=pikepdf.String(f.family), FontWeight=f.weight,
            Flags=32 | (64 if f.italic_angle else 0), FontBBox=Array(list(f.bbox)),
            ItalicAngle=f.italic_angle, Ascent=round(f.ascent * f.upm),
            Descent=-round(f.descent * f.upm), CapHeight=f.cap_height, StemV=80))
        descriptor[file_key] = program
        scale = 1000 / f.upm  # the widths are in thousandths of the size
        w: list = []  # [first [w w ...] first [w ...] ...]: a run per consecutive CIDs
        last = None
        for glyph, cid in sorted(self.gids.items(), key=lambda kv: kv[1]):
            width = round(f.advances.get(glyph, 0) * scale, 3)
            width = int(width) if width == int(width) else width
            if last is None or cid != last + 1:
                w += [cid, Array()]
            w[-1].append(width)
            last = cid
        cid_font = Dictionary(
            Type=Name.Font, Subtype=kind, BaseFont=name,
            CIDSystemInfo=Dictionary(Registry=pikepdf.String("Adobe"),
                                     Ordering=pikepdf.String("Identity"), Supplement=0),
            FontDescriptor=descriptor, DW=0, W=Array(w))
        if kind == Name.CIDFontType2:
            cid_font.CIDToGIDMap = Name.Identity
        unicode = {}
        for ch, glyph in self.letters.items():
            unicode.setdefault(self.gids[glyph], ch)  # a glyph two letters share: the first
        return pdf.make_indirect(Dictionary(
            Type=Name.Font, Subtype=Name.Type0, BaseFont=name, Encoding=Name("/Identity-H"),
            DescendantFonts=Array([pdf.make_indirect(cid_font)]),
            ToUnicode=pdf.make_stream(_to_unicode(unicode))))


def _to_unicode(unicode: dict[int, str]) -> bytes:
    """A ToUnicode CMap: each two-byte code (a glyph's number) to its letter."""
    lines = [
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
        "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ]
    items = sorted(unicode.items())
    for start in range(0, len(items), 100):
        chunk = items[start:start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        for code, ch in chunk:
            lines.append(f"<{code:04X}> <{ch.encode('utf-16-be').hex().upper()}>")
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode()


def _rgb(ink: str) -> str:
    return " ".join(f"{int(ink[i:i + 2], 16) / 255:.3f}" for i in (1, 3, 5))


def _rounded(x: float, y: float, w: float, h: float, r: float) -> str:
    """A rounded rectangle's path (any y direction)."""
    k = r * KAPPA
    return (f"{x + r:.3f} {y:.3f} m {x + w - r:.3f} {y:.3f} l "
            f"{x + w - r + k:.3f} {y:.3f} {x + w:.3f} {y + r - k:.3f} {x + w:.3f} {y + r:.3f} c "
            f"{x + w:.3f} {y + h - r:.3f} l "
            f"{x + w:.3f} {y + h - r + k:.3f} {x + w - r + k:.3f} {y + h:.3f} {x + w - r:.3f} {y + h:.3f} c "
            f"{x + r:.3f} {y + h:.3f} l "
            f"{x + r - k:.3f} {y + h:.3f} {x:.3f} {y + h - r + k:.3f} {x:.3f} {y + h - r:.3f} c "
            f"{x:.3f} {y + r:.3f} l "
            f"{x:.3f} {y + r - k:.3f} {x + r - k:.3f} {y:.3f} {x + r:.3f} {y:.3f} c h")


class _Writer:
    """The drawing of one book's diagrams: its fonts and card images, page by page."""

    def __init__(self, pdf: pikepdf.Pdf, cards: CardForms):
        self.pdf = pdf
        self.cards = cards
        self._cards_pdfs: dict[int, pikepdf.Pdf] = {}
        self.fonts: dict[str, _Font] = {}
        #: resource name -> the card's form in the book
        self.card_objects: dict[str, pikepdf.Object] = {}
        self.card_sizes: dict[str, tuple[float, float]] = {}
        self.card_names: dict[str, str] = {}
        #: the graphics states of the veils (name -> fill opacity), and those of one page
        self.states: dict[str, float] = {}
        self.states_used: set[str] = set()

    def card(self, code: str) -> str:
        """The resource name of a card's form, copied into the book on first use."""
        if code not in self.card_names:
            doc, index = self.cards.where[code]
            if doc not in self._cards_pdfs:
                self._cards_pdfs[doc] = self.cards.open(doc)
            page = self._cards_pdfs[doc].pages[index]
            x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
            name = _resource(code, len(self.card_names))
            self.card_names[code] = name
            self.card_sizes[code] = (x1 - x0, y1 - y0)
            self.card_objects[name] = self.pdf.copy_foreign(page.as_form_xobject())
        return self.card_names[code]

    def font(self, run: Run) -> _Font:
        file = run.style.file
        if file not in self.fonts:
            self.fonts[file] = _Font(run.style.face, f"WarbookWords{len(self.fonts)}")
        return self.fonts[file]

    def picture(self, art: Art, ox: float, oy: float, cards_used: set[str]) -> list[str]:
        """The felt, outlines and cards; (ox, oy) is the top left corner in points."""
        s = PT_PER_MM
        ops = ["q", f"{s:.6f} 0 0 {-s:.6f} {ox:.3f} {oy:.3f} cm"]  # millimetres, y down
        ops += [f"{_rgb(art.felt)} rg {_rgb(art.edge)} RG 0.18 w",
                _rounded(0.09, 0.09, art.width - 0.18, art.height - 0.18, 2) + " B"]
        for sign in art.grounds:
            ops.append(self.sign(sign))
        for code, x, y, w, h in art.cards:
            name = self.card(code)
            cards_used.add(name)
            # the form is in points, upwards: scale it to the place and flip it back into
            # the y-down frame; a card of another shape than its place (a game's decks of
            # two sizes) keeps its shape, centred in the place
            fw, fh = self.card_sizes[code]
            sx, sy = w / fw, h / fh
            if abs(sx - sy) > 1e-6 * max(sx, sy):
                k = min(sx, sy)
                x, y, w, h = x + (w - fw * k) / 2, y + (h - fh * k) / 2, fw * k, fh * k
            ops.append(f"q {w / fw:.6f} 0 0 {-h / fh:.6f} {x:.3f} {y + h:.3f} cm /{name} Do Q")
        if art.empties:
            ops.append(f"{_rgb(art.empty_ink)} RG [0.7 0.45] 0 d")
            for x, y, w, h in art.empties:
                ops.append(_rounded(x + 0.09, y + 0.09, w - 0.18, h - 0.18, 1) + " S")
            ops.append("[] 0 d")
        if art.tokens:
            fill, edge = art.token_ink
            ops.append(f"{_rgb(fill)} rg {_rgb(edge)} RG 0.25 w")
            for cx, cy, r in art.tokens:
                ops.append(_rounded(cx - r, cy - r, 2 * r, 2 * r, r) + " B")
        for sign in art.signs:
            ops.append(self.sign(sign))
        ops.append("Q")
        return ops

    def sign(self, sh: SignPath) -> str:
        """One shape of a mark (an outline, a veil, a sign) as PDF operators."""
        ops = ["q"]
        if sh.opacity < 1:
            name = f"WarbookVeil{round(sh.opacity * 100)}"
            self.states[name] = sh.opacity
            self.states_used.add(name)
            ops.append(f"/{name} gs")
        if sh.fill:
            ops.append(f"{_rgb(sh.fill)} rg")
        if sh.stroke:
            ops.append(f"{_rgb(sh.stroke)} RG {sh.width:.3f} w")
            if sh.dash:
                ops.append("[" + " ".join(f"{d:.3f}" for d in sh.dash) + "] 0 d")
            if sh.round:
                ops.append("1 J 1 j")
        for op in sh.ops:
            if op[0] == "Z":
                ops.append("h")
            else:
                ops.append(" ".join(f"{v:.3f}" for v in op[1:]) + {"M": " m", "L": " l", "C": " c"}[op[0]])
        ops.append("B" if sh.fill and sh.stroke else "f" if sh.fill else "S")
        ops.append("Q")
        return " ".join(ops)

    def words(self, runs: list[Run], ox: float, oy: float, fonts_used: set[str]) -> list[str]:
        ops = ["BT"]
        state: tuple = (None, None, None, None)
        for run in runs:
            st = run.style
            font = self.font(run)
            fonts_used.add(font.resource)
            size_pt = run.size * PT_PER_MM
            tc = st.tracking * size_pt
            if state[:2] != (font.resource, size_pt):
                ops.append(f"/{font.resource} {size_pt:.3f} Tf")
            if state[2] != tc:
                ops.append(f"{tc:.4f} Tc")
            if state[3] != st.ink:
                ops.append(f"{_rgb(st.ink)} rg")
            state = (font.resource, size_pt, tc, st.ink)
            x = ox + run.x * PT_PER_MM
            y = oy - run.baseline * PT_PER_MM
            ops.append(f"1 0 0 1 {x:.3f} {y:.3f} Tm")
            ops.append(self.show(font, run.text))
        ops.append("ET")
        return ops

    @staticmethod
    def show(font: _Font, text: str) -> str:
        """The TJ operator for ``text``: its codes (two bytes each), with the kerning pairs
        between them."""
        codes = font.encode(text)
        kerns = font.face.pairs(text)
        parts, chunk = [], [codes[0]]
        for code, k in zip(codes[1:], kerns):
            if k:
                parts.append("<" + "".join(f"{c:04X}" for c in chunk) + ">")
                parts.append(f"{-k * 1000 / font.face.upm:g}")
                chunk = []
            chunk.append(code)
        parts.append("<" + "".join(f"{c:04X}" for c in chunk) + ">")
        return "[" + " ".join(parts) + "] TJ"


def stamp(pdf_bytes: bytes, placed: list[Placed], cards: CardForms, target: Path) -> None:
    """Write ``pdf_bytes`` (a WeasyPrint PDF) to ``target`` with every diagram drawn over
    its (empty) picture, and its table headers scoped (:mod:`.tagging`)."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    scope_table_headers(pdf)
    writer = _Writer(pdf, cards)
    by_page: dict[int, list[Placed]] = {}
    for p in placed:
        by_page.setdefault(p.page, []).append(p)
        for run in p.art.runs:
            writer.font(run).add(run.text)
    for font in writer.fonts.values():  # each face's subset, of every letter of the book
        font.cut()
    pages: dict[int, tuple[str, set[str], set[str], set[str]]] = {}
    for index, items in by_page.items():
        media = [float(v) for v in pdf.pages[index].MediaBox]
        ops = ["/Artifact BMC"]
        cards_used: set[str] = set()
        fonts_used: set[str] = set()
        writer.states_used = set()
        for item in items:
            ox = media[0] + item.x * PT_PER_PX
            oy = media[3] - item.y * PT_PER_PX
            ops += writer.picture(item.art, ox, oy, cards_used)
            ops += writer.words(item.art.runs, ox, oy, fonts_used)
        ops.append("EMC")
        pages[index] = ("\n".join(ops), cards_used, fonts_used, writer.states_used)
    fonts = {f.resource: f.build(pdf) for f in writer.fonts.values()}
    states = {name: pdf.make_indirect(Dictionary(Type=Name.ExtGState, ca=alpha))
              for name, alpha in writer.states.items()}
    for index, (content, cards_used, fonts_used, states_used) in pages.items():
        page = pdf.pages[index]
        for name in sorted(states_used):
            page.add_resource(states[name], Name.ExtGState, name=Name("/" + name))
        for name in sorted(fonts_used):
            page.add_resource(fonts[name], Name.Font, name=Name("/" + name))
        for name in sorted(cards_used):
            page.add_resource(writer.card_objects[name], Name.XObject, name=Name("/" + name))
        # WeasyPrint's drawing is kept in a saved graphics state, so the diagrams start
        # from the page's own coordinates (points, from the bottom left corner)
        page.contents_add(pdf.make_stream(b"q\n"), prepend=True)
        page.contents_add(pdf.make_stream(b"\nQ\n" + content.encode() + b"\n"))
    pdf.save(str(target))
