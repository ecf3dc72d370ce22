"""Stage 3b: print-and-play components, the print-and-play deck and their PNG exports.

For every game built, ``pdf/<slug>-components.pdf``; for a whole build also
``pdf/pnp-deck.pdf`` (duplex) and ``pdf/pnp-deck-gutterfold.pdf``; and PNG files at 300 dpi
(recorded in the file) under ``png/``: one per component (``png/<slug>/``), one per card and
back (``png/cards/``) and a Tabletop Simulator deck sheet per back design (``png/tts/``).

How a sheet is made
-------------------
Each sheet is laid out by :mod:`builder.render.pnp_layout` in millimetres (trim boxes, bleed,
cut lines, crop marks, label), proved sound there, and drawn as one absolutely positioned
HTML page whose art is SVG in millimetres (:mod:`builder.render.pnp_art`) and whose words come
from the game's content through ``templates/components/``. One WeasyPrint FontConfiguration,
one URL fetcher and one image cache serve every document of a build. A finisher writes each
page's TrimBox (the union of the trims) and BleedBox (the union of the art) and the
document's ViewerPreferences (PrintScaling None; DuplexFlipLongEdge for the duplex deck).
Boxes of class ``fit`` are checked after layout: text that does not fit stops the build.

Card art is the rulebooks' SVG (:mod:`builder.render.cards`). WeasyPrint draws an SVG anew at
every use, so each card artwork is rendered once into a "library" PDF and placed on the
sheets as a Form XObject (:func:`place_forms`): the 2 x 52 faces and backs of the deck cost
one drawing each.

Papers and duplex
-----------------
Every file is laid out for the paper of ``--paper`` (A4 or US Letter), centred on it, so the
back of a sheet, mirrored about the page's vertical centre line, lands behind its front when
the paper is turned over on its long edge.

The deck: 3 x 3 poker cards (63 x 88 mm) a page. Nine cards with a 3 mm bleed round each
(207 x 282 mm) cannot fit US Letter inside a 5 mm margin, so the cards abut and share their
cut lines (189 x 264 mm). The faces are white to the trim and need no bleed; the backs run
3 mm past the outside of the block (195 x 270 mm), so a duplex print up to 3 mm out still
leaves no white edge. On Letter the top and bottom marks of the face sheets are short
(1.7 mm: the trim is 7.7 mm from the paper's edge) and the back sheets have none there (their
bleed comes to 4.7 mm from the edge): cut from the face side. The gutter-fold file puts three
cards a page, faces above a fold line and their backs below it, turned half round.

PNG exports are always in full colour (they are for screens and Tabletop Simulator); after a
full-ink build they are cut out of the sheets just written, after a low-ink build the pieces
are drawn once more in colour.
"""

from __future__ import annotations

import datetime as _dt
import io
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pydyf
from markupsafe import Markup, escape
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

from ... import __version__
from ...engine.core import RANKS, Card, full_deck
from .. import cards as cardart
from ..errors import RenderError
from ..fetch import CardFetcher
from ..fonts import font_face_css
from ..markup import Markdown
from ..templating import TEMPLATES, environment, overrides_of, read_template_file
from . import art
from . import layout as L
DPI = 300
CARD_W, CARD_H = 63.0, 88.0
AID_W, AID_H = 92.0, 132.0
TTS_COLS, TTS_ROWS, TTS_MAX_W = 10, 7, 4096

class ComponentError(RenderError):
    """A component sheet that cannot be made: no kit, text that does not fit, a bad layout."""


def mm(v: float) -> str:
    return f"{round(v, 4):g}mm"


# --------------------------------------------------------------------------- pieces
@dataclass
class Piece:
    """One kind of component: its trim size, its bleed (where its art runs to the trim),
    how to draw it at a given bleed, and its PNG export."""

    name: str                        # file stem: "stone-front"
    title: str                       # "Stone token, front"
    w: float
    h: float
    bleed: float
    draw: Callable[[tuple], str]     # (left, top, right, bottom) bleed -> markup
    png_box: L.Box | None = None     # part of the trim to export (default: all of it)
    round: bool = False              # export with a transparent outside of a circle

    def html(self, bleed: tuple) -> Markup:
        return Markup(self.draw(bleed))


@dataclass
class CoverRow:
    name: str
    count: str
    size: str
    sheets: str


@dataclass
class Kit:
    sheets: list[L.Sheet]
    rows: list[CoverRow]
    pieces: list[Piece]               # what is exported as PNG
    steps: list[str] = field(default_factory=list)


class Words:
    """The game's text, shaped for the components: quick reference lines and rule bodies as
    HTML with cross-references reduced to rule numbers."""

    def __init__(self, game, version: str = __version__):
        self.game = game
        self.title = game.title
        self.rules = game.rule_index()
        self._md = Markdown(self._resolve)
        self.quick = [self._inline(q) for q in game.quickref]
        self.foot = Markup(f"From the rules of {escape(game.title)} · warbook {escape(version)}")

    def _resolve(self, rid: str):
        r = self.rules.get(rid)
        return None if r is None else ("#", f"rule {r.number}")

    def _rule(self, rid: str):
        try:
            return self.rules[rid]
        except KeyError:
            raise ComponentError(f"{self.game.slug}: a component names rule '{rid}', "
                                 f"which the rules do not have") from None

    @staticmethod
    def _unlink(html: str) -> str:
        import re
        return re.sub(r'<a class="xref" href="#">(.*?)</a>', r'<span class="xref">\1</span>', html)

    def _inline(self, text: str) -> Markup:
        return Markup(self._unlink(str(self._md.inline(text))))

    def body(self, rid: str) -> Markup:
        return Markup(self._unlink(str(self._md.block(self._rule(rid).body))))

    def num(self, rid: str) -> str:
        return self._rule(rid).number.rstrip(".")

    def ref(self, rid: str) -> Markup:
        return Markup(f'<span class="ref">(rule {escape(self.num(rid))})</span>')

    def option_text(self, name: str) -> Markup:
        for o in self.game.options:
            if o.name == name:
                return Markup(self._unlink(str(self._md.inline(o.text.strip()))))
        raise ComponentError(f"{self.game.slug}: no option '{name}'")


# --------------------------------------------------------------------------- fetcher
class PnpFetcher(CardFetcher):
    """The rulebooks' in-memory card images, plus what the sheets need: backs with a 3 mm
    bleed (``pnp-back-a``), low-ink backs (``pnp-lowback-a``) and greyscale faces
    (``pnp-grey-QD``)."""

    def svg(self, code: str) -> bytes:
        if code not in self.cache:
            if code.startswith("pnp-back-"):
                text = cardart.card_back(code[9:], bleed_mm=L.BLEED)
            elif code.startswith("pnp-lowback-"):
                text = art.low_ink_back(code[12:], L.BLEED)
            elif code.startswith("pnp-grey-"):
                text = art.greyscale_svg(cardart.card_face(code[9:], style="full"), 0.25)
            else:
                return super().svg(code)
            self.cache[code] = text.encode("utf-8")
        return self.cache[code]


# --------------------------------------------------------------------------- renderer
class Renderer:
    """Renders sheets to PDF and pieces to PNG. ``share``: another renderer whose
    FontConfiguration, URL fetcher and image cache this one reuses."""

    def __init__(self, paper: str = "a4", ink: str = "full", share: "Renderer | None" = None,
                 templates: Path | None = None):
        if paper not in L.PAPERS:
            raise ComponentError(f"unknown paper {paper!r}")
        self.paper = paper
        self.ink = art.Ink(ink)
        self.env = environment(templates)
        self.env.globals.update(mm=mm, marks=self._marks, label_html=self._label)
        self.texts = self.env.get_template("components/texts.html.j2").module
        self.cover_macro = self.env.get_template("components/cover.html.j2").module.cover
        self.font_config = share.font_config if share else FontConfiguration()
        self.fetcher = share.fetcher if share else PnpFetcher()
        self.image_cache: dict = share.image_cache if share else {}
        name = {"a4": "A4", "letter": "letter"}[paper]
        self.base_css = (font_face_css() + "\n"
                         + read_template_file("components/components.css", templates))
        self.sheet_css = CSS(string=self.base_css + (
            f"\n@page {{ size: {name}; margin: 0; }}\n"
            f"@page landscape {{ size: {name} landscape; margin: 0; }}\n"),
            font_config=self.font_config, url_fetcher=self.fetcher)
        self.timings: dict[str, float] = {}
        self.pages = 0
        self._lib: dict[str, tuple[Any, int]] = {}
        self._lib_data: dict[int, bytes] = {}

    # -- template helpers
    @staticmethod
    def _marks(sheet: L.Sheet) -> Markup:
        w, h = sheet.size
        fx0 = fx1 = 0.0
        if sheet.fold_y is not None:
            fx0, fx1 = L.MARGIN, w - L.MARGIN
        return Markup(art.marks_svg(w, h, sheet.marks, sheet.fold_y, fx0, fx1))

    @staticmethod
    def _label(lab: L.Label) -> Markup:
        need = lab.box.h if lab.rotate else lab.box.w
        line = lab.box.w if lab.rotate else lab.box.h
        cls = f" rot{lab.rotate}" if lab.rotate else ""
        return Markup(
            f'<div class="label{cls}" style="left:{mm(lab.x - need / 2)};top:{mm(lab.y - line / 2)};'
            f'width:{mm(need)};height:{mm(line)};line-height:{mm(line)};'
            f'font-size:{lab.size_pt}pt">{escape(lab.text)}</div>')

    # -- documents
    def write_pdf(self, sheets: list[L.Sheet], target: Path, *, title: str, subject: str,
                  author: str = "warbook", duplex: bool = False) -> int:
        t0 = time.perf_counter()
        doc_meta = {"title": title, "author": author, "subject": subject,
                    "keywords": title, "version": __version__, "low": self.ink.low}
        html = self.env.get_template("components/sheets.html.j2").render(doc=doc_meta,
                                                                         sheets=sheets)
        doc = HTML(string=html, base_url=str(TEMPLATES), url_fetcher=self.fetcher).render(
            stylesheets=[self.sheet_css], font_config=self.font_config, cache=self.image_cache)
        if len(doc.pages) != len(sheets):
            raise ComponentError(f"{target.name}: {len(sheets)} sheets made {len(doc.pages)} "
                                 f"pages")
        problems = overflows(doc)
        if problems:
            raise ComponentError(f"{target.name}: text does not fit: " + "; ".join(problems))
        refs = sorted({it.ref for sh in sheets for it in sh.items if it.ref})
        if refs:
            data = doc.write_pdf(finisher=_finisher(sheets, duplex))
            target.write_bytes(place_forms(data, sheets, self.library(refs)))
        else:
            doc.write_pdf(str(target), finisher=_finisher(sheets, duplex))
        self.pages += len(doc.pages)
        self.timings[target.name] = time.perf_counter() - t0
        return len(doc.pages)

    def library(self, codes: list[str]) -> dict[str, tuple[Any, int]]:
        """Each card artwork rendered once, on a page of its own size (the card plus its
        bleed), to be placed as a PDF form wherever a sheet shows it: WeasyPrint draws an
        SVG anew at every use, a form is drawn once and referenced."""
        from pypdf import PdfReader

        todo = [c for c in codes if c not in self._lib]
        if todo:
            pages, css = [], []
            for i, code in enumerate(todo):
                b = ref_bleed(code)
                w, h = CARD_W + 2 * b, CARD_H + 2 * b
                css.append(f"@page q{i} {{ size: {mm(w)} {mm(h)}; margin: 0; }} "
                           f".q{i} {{ page: q{i}; }}")
                pages.append(f'<section class="page q{i}" style="width:{mm(w)};height:{mm(h)}">'
                             f'<img src="card:{code}" alt="" style="position:absolute;left:0;'
                             f'top:0;width:{mm(w)};height:{mm(h)}"></section>')
            data = self._pages_pdf("".join(pages), "\n".join(css))
            reader = PdfReader(io.BytesIO(data))
            self._lib_data[id(reader)] = data
            for i, code in enumerate(todo):
                self._lib[code] = (reader, i)
        return {c: self._lib[c] for c in codes}

    def _pages_pdf(self, body: str, css: str) -> bytes:
        html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>warbook</title>'
                f'</head><body>{body}</body></html>')
        stylesheet = CSS(string=self.base_css + "\n" + css, font_config=self.font_config,
                         url_fetcher=self.fetcher)
        doc = HTML(string=html, base_url=str(TEMPLATES), url_fetcher=self.fetcher).render(
            stylesheets=[stylesheet], font_config=self.font_config, cache=self.image_cache)
        return doc.write_pdf()

    def export_pngs(self, exports: list[tuple[Path, Piece]]) -> list[Path]:
        """Each piece alone on a page the size of its trim (or of its ``png_box``),
        rasterised at 300 dpi."""
        if not exports:
            return []
        pages, css = [], []
        for i, (_, p) in enumerate(exports):
            box = p.png_box or L.Box(0, 0, p.w, p.h)
            css.append(f"@page p{i} {{ size: {mm(box.w)} {mm(box.h)}; margin: 0; }}"
                       f" .p{i} {{ page: p{i}; }}")
            pages.append(
                f'<section class="page p{i}" style="width:{mm(box.w)};height:{mm(box.h)}">'
                f'<div class="item" style="left:{mm(-box.x)};top:{mm(-box.y)};width:{mm(p.w)};'
                f'height:{mm(p.h)}">{p.html((0.0, 0.0, 0.0, 0.0))}</div></section>')
        body = "".join(pages)
        html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>png</title></head>'
                f'<body class="{"low" if self.ink.low else "full"}">{body}</body></html>')
        stylesheet = CSS(string=self.base_css + "\n".join(css), font_config=self.font_config,
                         url_fetcher=self.fetcher)
        doc = HTML(string=html, base_url=str(TEMPLATES), url_fetcher=self.fetcher).render(
            stylesheets=[stylesheet], font_config=self.font_config, cache=self.image_cache)
        data = doc.write_pdf()
        images = rasterise(data, [(p.png_box or L.Box(0, 0, p.w, p.h), p.round)
                                  for _, p in exports])
        out = []
        for (path, _), img in zip(exports, images):
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            out.append(path)

        return out


def _finisher(sheets: list[L.Sheet], duplex: bool):
    def finish(document, pdf):
        pages = [o for o in pdf.objects
                 if isinstance(o, pydyf.Dictionary) and o.get("Type") == "/Page"]
        for page, s in zip(pages, sheets):
            _, h = s.size
            media = [float(v) for v in page["MediaBox"]]

            def clamp(box: list[float]) -> list[float]:
                return [max(box[0], media[0]), max(box[1], media[1]),
                        min(box[2], media[2]), min(box[3], media[3])]

            trim = clamp(L.pdf_box(s.trim_box(), h))
            bleed = clamp(L.pdf_box(s.bleed_box(), h))
            # the bleed box holds the trim box (PDF 32000, 14.11.2)
            bleed = [min(bleed[0], trim[0]), min(bleed[1], trim[1]),
                     max(bleed[2], trim[2]), max(bleed[3], trim[3])]
            page["TrimBox"] = pydyf.Array(trim)
            page["BleedBox"] = pydyf.Array(bleed)
        prefs = pydyf.Dictionary({"PrintScaling": "/None", "PickTrayByPDFSize": "true"})
        if duplex:
            prefs["Duplex"] = "/DuplexFlipLongEdge"
        pdf.catalog["ViewerPreferences"] = prefs
    return finish


def ref_bleed(code: str) -> float:
    """How far a shared card artwork runs past the card's trim."""
    return L.BLEED if code.startswith(("pnp-back-", "pnp-lowback-")) else 0.0


def place_forms(pdf_bytes: bytes, sheets: list[L.Sheet], lib: dict[str, tuple[Any, int]]) -> bytes:
    """Draw every item with a shared artwork (``Item.ref``) into the PDF: each artwork
    becomes one Form XObject, placed with its trim on the item's trim and clipped to the
    item's art box (so abutting cards bleed only outwards)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (ArrayObject, DecodedStreamObject, DictionaryObject,
                               FloatObject, NameObject)

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes)))
    forms: dict[str, Any] = {}
    # one name per artwork for the whole file: WeasyPrint shares one resource dictionary
    # between all its pages
    names = {code: f"/WbCard{i}" for i, code in enumerate(sorted(lib))}
    k = L.PT_PER_MM

    def form(code: str):
        if code not in forms:
            reader, idx = lib[code]
            lp = reader.pages[idx]
            st = DecodedStreamObject()
            st.set_data(lp.get_contents().get_data())
            st[NameObject("/Type")] = NameObject("/XObject")
            st[NameObject("/Subtype")] = NameObject("/Form")
            st[NameObject("/BBox")] = ArrayObject([FloatObject(float(v)) for v in lp.mediabox])
            st[NameObject("/Resources")] = lp["/Resources"].get_object().clone(writer)
            forms[code] = writer._add_object(st.flate_encode())
        return forms[code]

    def f(v: float) -> str:
        return f"{v:.4f}".rstrip("0").rstrip(".")

    for page, sheet in zip(writer.pages, sheets):
        items = [it for it in sheet.items if it.ref]
        if not items:
            continue
        _, H = sheet.size
        ops = []
        for it in items:
            name = names[it.ref]
            c = it.art
            b = it.ref_bleed
            fw, fh = (it.box.w + 2 * b) * k, (it.box.h + 2 * b) * k
            px, py = (it.box.x - b) * k, (H - it.box.bottom - b) * k
            cm = (f"-1 0 0 -1 {f(px + fw)} {f(py + fh)}" if it.rotate == 180
                  else f"1 0 0 1 {f(px)} {f(py)}")
            ops.append(f"q {f(c.x * k)} {f((H - c.bottom) * k)} {f(c.w * k)} {f(c.h * k)} re W n "
                       f"{cm} cm {name} Do Q")
        res = page["/Resources"].get_object()
        xo = res.get("/XObject")
        if xo is None:
            xo = DictionaryObject()
            res[NameObject("/XObject")] = xo
        xo = xo.get_object()
        for code in {it.ref for it in items}:
            xo[NameObject(names[code])] = form(code)
        old = page.get_contents().get_data()
        st = DecodedStreamObject()
        st.set_data(b"q\n" + old + b"\nQ\n" + "\n".join(ops).encode("ascii") + b"\n")
        page[NameObject("/Contents")] = writer._add_object(st.flate_encode())
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def overflows(doc) -> list[str]:
    """Text that runs out of a box of class ``fit`` (whose size is fixed by the layout).
    Absolutely positioned boxes sit in the tree behind placeholders: walk through them."""
    out = []
    for number, page in enumerate(doc.pages, 1):
        for box in page._page_box.descendants(placeholders=True):
            el = getattr(box, "element", None)
            if el is None or "fit" not in (el.get("class") or "").split():
                continue
            if not hasattr(box, "content_box_y") or box.height is None:
                continue
            bottom = box.content_box_y() + box.height
            right = box.content_box_x() + box.width
            for d in box.descendants(placeholders=True):
                if d is box or not hasattr(d, "position_y"):
                    continue
                if d.position_y + d.margin_height() > bottom + 0.5 or (
                        type(d).__name__ == "TextBox" and d.position_x + d.width > right + 0.5):
                    words = " ".join("".join(el.itertext()).split())[:60]
                    out.append(f"page {number}: '{words}...'")
                    break
    return out


def rasterise(pdf_bytes: bytes, specs: list[tuple[L.Box, bool]], dpi: int = DPI):
    """PIL images of the PDF's pages at ``dpi``, each exactly round(mm / 25.4 * dpi) px."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    pdf = pdfium.PdfDocument(pdf_bytes)
    images = []
    try:
        for i, (box, rnd) in enumerate(specs):
            page = pdf[i]
            fill = (255, 255, 255, 0) if rnd else (255, 255, 255, 255)
            bmp = page.render(scale=dpi / 72, fill_color=fill, rev_byteorder=True)
            img = bmp.to_pil()
            want = (L.px(box.w) if dpi == 300 else round(box.w / 25.4 * dpi),
                    L.px(box.h) if dpi == 300 else round(box.h / 25.4 * dpi))
            if img.size != want:
                if abs(img.size[0] - want[0]) <= 1 and abs(img.size[1] - want[1]) <= 1 \
                        and img.size[0] >= want[0] and img.size[1] >= want[1]:
                    img = img.crop((0, 0) + want)
                else:
                    img = img.resize(want, Image.LANCZOS)
            if rnd:
                img = img.convert("RGBA")
                k = 4
                mask = Image.new("L", (want[0] * k, want[1] * k), 0)
                ImageDraw.Draw(mask).ellipse((0, 0, want[0] * k - 1, want[1] * k - 1), fill=255)
                mask = mask.resize(want, Image.LANCZOS)
                img.putalpha(mask)
            elif img.mode != "RGB":
                img = img.convert("RGB")
            images.append(img)
            page.close()
    finally:
        pdf.close()
    return images


def pngs_from_sheets(pdf_bytes: bytes, sheets: list[L.Sheet],
                     wanted: list[tuple[Path, Piece]]) -> list[Path]:
    """Each wanted piece rasterised at 300 dpi from its first appearance on the sheets: the
    page cropped to the item's trim (or to the piece's ``png_box`` inside it)."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    where: dict[str, tuple[int, L.Item]] = {}
    for i, sh in enumerate(sheets):
        for it in sh.items:
            where.setdefault(it.name, (i, it))
            where.setdefault(it.name.split(":")[0], (i, it))    # backs: "stone-back:..."
    pdf = pdfium.PdfDocument(pdf_bytes)
    out = []
    k = L.PT_PER_MM
    try:
        for path, piece in wanted:
            i, it = where[piece.name]
            W, H = sheets[i].size
            sub = piece.png_box or L.Box(0, 0, piece.w, piece.h)
            box = L.Box(it.box.x + sub.x, it.box.y + sub.y, sub.w, sub.h)
            page = pdf[i]
            fill = (255, 255, 255, 0) if piece.round else (255, 255, 255, 255)
            spare = 2 * 72 / DPI      # two pixels more on the right and at the bottom
            img = page.render(scale=DPI / 72, fill_color=fill, rev_byteorder=True,
                              crop=(box.x * k, max((H - box.bottom) * k - spare, 0),
                                    max((W - box.right) * k - spare, 0), box.y * k)).to_pil()
            page.close()
            want = (L.px(box.w), L.px(box.h))
            img = _exact(img, want)
            if piece.round:
                img = img.convert("RGBA")
                mask = Image.new("L", (want[0] * 4, want[1] * 4), 0)
                ImageDraw.Draw(mask).ellipse((0, 0, want[0] * 4 - 1, want[1] * 4 - 1), fill=255)
                img.putalpha(mask.resize(want, Image.LANCZOS))
            else:
                img = img.convert("RGB")
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            out.append(path)
    finally:
        pdf.close()
    return out


def save_png(img, path: Path, dpi: float, fast: bool = False) -> None:
    img.save(str(path), format="PNG", dpi=(dpi, dpi), compress_level=1)


# --------------------------------------------------------------------------- sheets
def sheet_grid(paper: str, landscape: bool, title: str, pieces: list[Piece], cols: int,
               rows: int, gap: float, kind: str, side: str = "single",
               top: float | None = None) -> L.Sheet:
    s = L.Sheet(paper, landscape, title, side=side)
    w, h = s.size
    p0 = pieces[0]
    slots = L.grid(w, h, len(pieces), cols, rows, p0.w, p0.h, gap=gap, bleed=p0.bleed, top=top)
    for p, (box, bleed) in zip(pieces, slots):
        s.items.append(L.Item(box, kind, p.name, bleed, p.html(bleed),
                              size_label=f"{p.w:g} x {p.h:g} mm"))
    return s


def sheet_stack(paper: str, landscape: bool, title: str, pieces: list[Piece], gap: float,
                kind: str) -> L.Sheet:
    """Pieces of one width stacked top to bottom, centred on the page."""
    s = L.Sheet(paper, landscape, title)
    w, h = s.size
    total = sum(p.h for p in pieces) + gap * (len(pieces) - 1)
    y = (h - total) / 2
    for p in pieces:
        b = p.bleed
        box = L.Box((w - p.w) / 2, y, p.w, p.h)
        bleed = (b, b, b, b)
        s.items.append(L.Item(box, kind, p.name, bleed, p.html(bleed),
                              size_label=f"{p.w:g} x {p.h:g} mm"))
        y += p.h + gap
    return s


def back_sheet(front: L.Sheet, title: str, back_of: Callable[[L.Item], Piece]) -> L.Sheet:
    """The back of ``front`` for a long-edge flip: each item's back at its mirror position."""
    w, _ = front.size
    s = L.Sheet(front.paper, front.landscape, title, side="back")
    for it in front.items:
        m = it.mirrored(w)
        piece = back_of(it)
        m.html = piece.html(m.bleed)
        m.name = piece.name + ":" + it.name
        s.items.append(m)
    return s


def number_sheets(sheets: list[L.Sheet]) -> list[L.Sheet]:
    for i, s in enumerate(sheets, 1):
        s.number, s.total = i, len(sheets)
    for s in sheets:
        L.finish(s)
    return sheets


# --------------------------------------------------------------------------- cover
def cover_sheet(r: Renderer, paper: str, title: str, subtitle: str, rows: list[CoverRow],
                need: str, steps: list[str], need_label: str = "You also need:") -> L.Sheet:
    s = L.Sheet(paper, False, "contents and print check")
    w, h = s.size
    x, y = 15.0, 14.0
    cw = w - 2 * x
    cal_y = h - 15.0 - 50.0 - 6.0
    c = {
        "x": x, "y": y, "w": cw, "h": cal_y - 5.0 - y,
        "paper_name": L.PAPER_NAMES[paper], "low": r.ink.low, "title": title,
        "subtitle": subtitle, "rows": rows, "need": need, "steps": steps,
        "need_label": need_label,
        "cal_x": x, "cal_y": cal_y, "cal_text_x": x + 56.0, "cal_text_w": cw - 56.0,
        "square": Markup(art.calibration_square(r.ink)),
        "foot_y": cal_y + 53.0,
        "footer": (f"warbook {__version__} · {_dt.date.today().isoformat()} · "
                   f"{L.PAPER_NAMES[paper]}{', low ink' if r.ink.low else ''}"),
    }
    s.html = Markup(r.cover_macro(c))
    s.blocks = [L.Box(x, y, cw, cal_y + 57.0 - y)]
    return s


def print_steps(paper: str, duplex_pairs: list[tuple[int, int]], extra: list[str]) -> list[str]:
    name = L.PAPER_NAMES[paper]
    steps = [f"Print on {name} paper at actual size (100 %). Turn off “fit to page”, "
             f"“shrink oversized pages” and borderless printing. Check the square below."]
    for a, b in duplex_pairs:
        steps.append(f"Sheets {a} and {b} are the two sides of one piece of paper: print them "
                     f"double-sided, flipping on the long edge (or print sheet {a}, turn the "
                     f"paper over on its long edge, feed it back and print sheet {b}).")
    steps.append("Cut along the lines that join the crop marks (the short black lines in the "
                 "margins), with a craft knife and a steel ruler or a paper trimmer. "
                 "Art running past a cut line is bleed, there to be cut off.")
    return steps + extra


# --------------------------------------------------------------------------- games
def _aid_piece(r: Renderer, words: Words, macro: str, who: str, stem: str, accent: str) -> Piece:
    m = getattr(r.texts, macro)
    return Piece(stem, f"Player aid ({who})", AID_W, AID_H, 0.0,
                 lambda bl, m=m, who=who: str(m(words, who, r.ink.c(accent), AID_W, AID_H, bl)))


def kit_player_aids(r: Renderer, game, paper: str) -> Kit:
    """The kit of a game that declares none: a player aid for each player, made from the
    game's quick reference."""
    words = Words(game)
    names = game.player_names
    aids = [_aid_piece(r, words, "aid_quickref", f"Player aid · {names[p]}", f"aid-{p}",
                       game.accent) for p in sorted(names)]
    per_sheet = 2
    sheets = [sheet_grid(paper, False, "player aids", aids[i:i + per_sheet], 2, 1, 0.0, "aid")
              for i in range(0, len(aids), per_sheet)]
    rows = [CoverRow("Player aid (the quick reference)", str(len(aids)),
                     f"{AID_W:g} x {AID_H:g} mm",
                     ", ".join(str(i + 2) for i in range(len(sheets))))]
    return Kit(sheets, rows, aids)


def kit_war(r: Renderer, game, paper: str) -> Kit:
    words = Words(game)
    accent = game.accent
    names = game.player_names
    aids = [_aid_piece(r, words, "aid_war", f"Player aid · {names[p]}", f"aid-{p}", accent)
            for p in sorted(names)]
    sheets = [sheet_grid(paper, False, "player aids", aids, 2, 1, 0.0, "aid")]
    rows = [CoverRow("Player aid", str(len(aids)), f"{AID_W:g} x {AID_H:g} mm", "2")]
    return Kit(sheets, rows, aids)


def kit_winning_the_battle(r: Renderer, game, paper: str) -> Kit:
    words = Words(game)
    accent = game.accent
    box = art.TOKEN_BOX
    off = (box - art.TOKEN_D) / 2

    def token(side: str, label: str) -> Piece:
        return Piece(f"stone-{side}", f"Stone token, {side}", box, box, 0.0,
                     lambda bl, side=side: art.svg(box, box, art.stone_token(r.ink, side), bl),
                     png_box=L.Box(off, off, art.TOKEN_D, art.TOKEN_D), round=True)

    front, back = token("front", "front"), token("back", "back")
    fronts = [Piece("stone-front" if i == 1 else f"stone-front-{i}", front.title, front.w,
                    front.h, 0.0, front.draw) for i in range(1, 6)]
    s_front = sheet_grid(paper, False, "stone tokens, fronts", fronts, 3, 2, 6.0, "token",
                         side="front")
    s_back = back_sheet(s_front, "stone tokens, backs", lambda it: back)
    names = game.player_names
    aids = [_aid_piece(r, words, "aid_wtb", f"Player aid · {names[p]}", f"aid-{p}", accent)
            for p in sorted(names)]
    s_aid = sheet_grid(paper, False, "player aids: the battle procedure", aids, 2, 1, 0.0, "aid")
    rows = [
        CoverRow("Stone token (3 stones and 2 spares), fronts and backs", "5",
                 f"{art.TOKEN_D:g} mm round, in a {box:g} mm square cut box", "2, 3"),
        CoverRow("Player aid: the battle procedure", str(len(aids)),
                 f"{AID_W:g} x {AID_H:g} mm", "4"),
    ]
    steps = [f"Stones: cut out each {box:g} mm square, then punch the round token with a "
             f"1 inch (25.4 mm) circle punch, or cut along the pale ring with scissors. "
             f"The art runs 3 mm past the ring, so a punch a little off centre leaves no "
             f"white edge. Keep the two spares in case a stone goes missing."]
    return Kit([s_front, s_back, s_aid], rows, [front, back] + aids, steps)


def kit_ultimate(r: Renderer, game, paper: str) -> Kit:
    words = Words(game)
    accent = game.accent
    last = sum(range(1, 14))            # 91: every diamond
    tiles_n = last // art.TILE_CELLS + 1
    b = L.BLEED
    tiles = []
    for i in range(tiles_n):
        first = i * art.TILE_CELLS
        tiles.append(Piece(
            f"track-tile-{i + 1:02d}", f"Score track tile {i + 1}", art.TILE_W, art.TILE_H, b,
            lambda bl, i=i, first=first: art.svg(
                art.TILE_W, art.TILE_H, art.score_tile(r.ink, i + 1, tiles_n, first, last, b), bl)))
    ref_h = 80.0

    def reference(bl):
        body = _points_reference_svg(r.ink, art.TILE_W, ref_h, b)
        return art.svg(art.TILE_W, ref_h, body, bl) + str(
            r.texts.points_reference(words, r.ink.c(accent), art.TILE_W, ref_h, bl))

    ref = Piece("points-reference", "Points reference", art.TILE_W, ref_h, b, reference)
    # as many tiles a page as fit; the count runs on to the next page
    w, h = L.PAPERS[paper]
    # n tiles with their bleed take n * (34 + 6) mm; leave room for the marks and the label
    per_page = min(int((h - 2 * L.MARGIN - 2 * (L.MARK_GAP + L.MARK_MIN))
                       // (art.TILE_H + 2 * b)), 6)
    sheets = []
    k = 0
    while k < len(tiles):
        chunk = tiles[k:k + per_page]
        label = (f"score track, tiles {k + 1} to {k + len(chunk)} "
                 f"(points {k * art.TILE_CELLS} to {min((k + len(chunk)) * art.TILE_CELLS - 1, last)})")
        room = h - 2 * L.MARGIN - 2 * (L.MARK_GAP + L.MARK_MIN + 3.5) - 2 * b
        used = len(chunk) * art.TILE_H + (len(chunk) - 1) * 2 * b
        if k + per_page >= len(tiles) and used + 2 * b + ref_h <= room:
            sheets.append(sheet_stack(paper, False, label + " and the points reference",
                                      chunk + [ref], 2 * b, "tile"))
            ref = None
        else:
            sheets.append(sheet_stack(paper, False, label, chunk, 2 * b, "tile"))
        k += per_page
    if ref is not None:
        sheets.append(sheet_stack(paper, False, "points reference", [ref], 2 * b, "reference"))
    track_sheets = ", ".join(str(i + 2) for i, s in enumerate(sheets)
                             if any(it.kind == "tile" for it in s.items))
    rows = [
        CoverRow(f"Score track tile (diamond points 0 to {last}, a lane for each player)",
                 str(tiles_n), f"{art.TILE_W:g} x {art.TILE_H:g} mm", track_sheets),
        CoverRow("Points reference", "1", f"{art.TILE_W:g} x {ref_h:g} mm", str(len(sheets) + 1)),
    ]
    steps = [f"Score track: lay the {tiles_n} tiles end to end in order; each tile's number is "
             f"at its left end. A coin or counter for each player marks their score."]
    ref_piece = Piece("points-reference", "Points reference", art.TILE_W, ref_h, b, reference)
    return Kit(sheets, rows, tiles + [ref_piece], steps)


def _points_reference_svg(ink: art.Ink, w: float, h: float, b: float) -> str:
    out = [art.rect(-b, -b, w + 2 * b, h + 2 * b, fill=ink.tint(art.RED, 0.06))]
    out.append(art.text(4, 8.5, "Diamond points", 11, anchor="start", weight=700,
                        fill=ink.c(art.RED), family=art.SERIF))
    out.append(art.text(w - 4, 8.5, "all thirteen: 91 · 46 or more cannot be caught", 7.5,
                        anchor="end", fill=ink.c("#444444")))
    cw = (w - 8) / 13
    for k, rank in enumerate(RANKS):
        x = 4 + k * cw
        out.append(art.rect(x + 0.6, 11.5, cw - 1.2, 15.5, fill="#ffffff" if not ink.low else "none",
                            stroke=ink.c("#777777"), sw=0.25, rx=1.2))
        out.append(art.text(x + cw / 2, 17.2, rank, 9, weight=700, fill=ink.c(art.RED)))
        out.append(art.suit("D", x + cw / 2, 20.6, 3.6, ink.c(art.RED)))
        out.append(art.text(x + cw / 2, 25.8, f"{k + 1}", 7.5, fill=ink.c("#333333")))
    if ink.low:
        out.append(art.rect(0, 0, w, h, stroke="#000000", sw=0.3))
    return "".join(out)


def kit_battle_lines(r: Renderer, game, paper: str) -> Kit:
    words = Words(game)
    W, H = 260.0, 194.0
    names = game.player_names
    pieces = []
    for p in sorted(names):
        colour = game.player_colours.get(p, game.accent)
        who = f"{names[p]}'s battlefield"
        pieces.append(Piece(f"mat-{p}", f"Battlefield mat ({names[p]})", W, H, 0.0,
                            lambda bl, colour=colour, who=who: _battlefield(r, words, who, colour,
                                                                            W, H, bl)))
    sheets = [sheet_grid(paper, True, f"battlefield mat: {p.title.split('(')[1][:-1]}", [p],
                         1, 1, 0.0, "mat") for p in pieces]
    rows = [CoverRow("Battlefield mat (one per player): flanks, centre, reserve, deck and "
                     "captured pile", str(len(pieces)), f"{W:g} x {H:g} mm (landscape)",
                     ", ".join(str(i + 2) for i in range(len(pieces))))]
    steps = ["Mats: lay your mat in front of you with its title column on your right; the "
             "other player's mat faces yours, top edge to top edge, so your left flank lies "
             "across from their right flank."]
    return Kit(sheets, rows, pieces, steps)


def _battlefield(r: Renderer, words: Words, who: str, colour: str, W: float, H: float,
                 bl: tuple) -> str:
    ink = r.ink
    sw, sh = art.SPACE_W, art.SPACE_H
    gap = 6.0
    x0, y0 = 6.0, 4.0
    y1 = y0 + sh + 8.0
    out = [art.mat_frame(ink, W, H, colour)]
    pos = [("LEFT FLANK", "faces their RIGHT flank", True), ("CENTRE", "faces their CENTRE", False),
           ("RIGHT FLANK", "faces their LEFT flank", True)]
    for k, (name, facing, flank) in enumerate(pos):
        x = x0 + k * (sw + gap)
        note = "reserve may reinforce" if flank else "never reinforced"
        out.append(art.card_space(ink, x, y0, name, colour, note=note))
        out.append(art.arrow_up(x + sw / 2 - 16, y0 + sh + 6.6, 4.2, ink.c(colour)))
        out.append(art.text(x + sw / 2 + 2, y0 + sh + 5.6, facing, 7.2, weight=600,
                            fill=ink.c(colour)))
    bottom = [("DECK", "face down, draw from the top"),
              ("RESERVE", "your 4th card, face down"),
              ("CAPTURED", "face down; counts at the end")]
    for k, (name, note) in enumerate(bottom):
        x = x0 + k * (sw + gap)
        out.append(art.card_space(ink, x, y1, name, "#555555" if k != 1 else colour, note=note,
                                  dashed=k == 1))
    body = art.svg(W, H, "".join(out), bl)
    tx = x0 + 3 * sw + 2 * gap + 5.0
    text = r.texts.battlefield_text(words, who, ink.c(colour), bl[0] + tx, bl[1] + 6.0,
                                    W - tx - 6.0, H - 12.0)
    return body + str(text)


def kit_battle(r: Renderer, game, paper: str) -> Kit:
    words = Words(game)
    names = game.player_names
    W, H = 256.0, 96.0
    two = {"p1": "the 26 red cards (hearts and diamonds)",
           "p2": "the 26 black cards (clubs and spades)"}
    four = {"p1": "the 26 hearts", "p2": "the 26 spades", "p3": "the 26 diamonds",
            "p4": "the 26 clubs"}
    suit_of = {"p1": "H", "p2": "S", "p3": "D", "p4": "C"}

    def mat(p: str, cards_text: str, players: int) -> Piece:
        colour = game.player_colours[p]
        return Piece(f"mat-{players}p-{p}", f"Player mat, {players} players ({names[p]})", W, H,
                     0.0, lambda bl: art.svg(W, H, _battle_mat(r.ink, names[p], cards_text,
                                                               colour, suit_of[p], W, H), bl))

    two_mats = [mat(p, two[p], 2) for p in ("p1", "p2")]
    four_mats = [mat(p, four[p], 4) for p in ("p1", "p2", "p3", "p4")]
    accent = game.accent

    def killed(four_players: bool) -> Piece:
        players = 4 if four_players else 2
        return Piece(f"killed-{players}p", f"Killed pile mat, {players} players", W, H, 0.0,
                     lambda bl: _killed_mat(r, words, names, game.player_colours, accent, W, H, bl,
                                         four_players))

    k2, k4 = killed(False), killed(True)
    sheets = [
        sheet_grid(paper, True, f"player mats, two players ({names['p1']}, {names['p2']})",
                   two_mats, 1, 2, 0.0, "mat"),
        sheet_grid(paper, True, "Killed pile mats, two players and four players", [k2, k4], 1, 2,
                   0.0, "mat"),
        sheet_grid(paper, True, f"player mats, four players ({names['p1']}, {names['p2']})",
                   four_mats[:2], 1, 2, 0.0, "mat"),
        sheet_grid(paper, True, f"player mats, four players ({names['p3']}, {names['p4']})",
                   four_mats[2:], 1, 2, 0.0, "mat"),
    ]
    rows = [
        CoverRow("Player mat, two players (deck, hand, discard)", "2", f"{W:g} x {H:g} mm", "2"),
        CoverRow("Killed pile mat, two players (with the play area)", "1", f"{W:g} x {H:g} mm",
                 "3"),
        CoverRow("Killed pile mat, four players (with the seating)", "1", f"{W:g} x {H:g} mm",
                 "3"),
        CoverRow("Player mat, four players (deck, hand, discard)", "4", f"{W:g} x {H:g} mm",
                 "4, 5"),
    ]
    steps = ["Two players print sheets 2 and 3; four players print sheets 3 to 5 (the "
             "four-player Killed mat is the lower half of sheet 3). Lay the Killed mat in the "
             "middle and each player's mat in front of them."]
    return Kit(sheets, rows, two_mats + [k2, k4] + four_mats, steps)


def _battle_mat(ink: art.Ink, name: str, cards_text: str, colour: str, suit: str, W: float,
                H: float) -> str:
    y = (H - art.SPACE_H) / 2
    out = [art.mat_frame(ink, W, H, colour)]
    # name strip, read from the player's seat turning the mat a quarter
    out.append(art.text(9.5, H / 2, name.upper(), 12, weight=700, fill=ink.c(colour),
                        rotate=-90, spacing=0.8))
    out.append(art.text(15.5, H / 2, cards_text, 6.5, fill=ink.c("#444444"), rotate=-90))
    x = 24.0
    step = art.SPACE_W + 13.0
    out.append(art.card_space(ink, x, y, "DECK", colour, note="face down\nrefill your hand from it",
                              icon=suit))
    out.append(art.card_space(ink, x + step, y, "HAND", colour,
                              note="your two cards, face down\nlook at them any time",
                              dashed=True))
    out.append(art.card_space(ink, x + 2 * step, y, "DISCARD", colour,
                              note="face up: your cards\nthat survived a turn", icon=suit))
    out.append(art.text(x + 3 * step - 4.0, H / 2, "play toward the Killed pile \u2192", 6.5,
                        rotate=-90, fill=ink.c("#444444")))
    return "".join(out)


def _killed_mat(r: Renderer, words: Words, names: dict, colours: dict, accent: str, W: float,
                H: float, bl: tuple, four: bool) -> str:
    ink = r.ink
    sw, sh = art.SPACE_W, art.SPACE_H
    y = (H - sh) / 2
    out = [art.mat_frame(ink, W, H, accent)]
    if four:
        # the seating: four seats round the pile, colours alternating
        cx, cy = 40.0, H / 2
        out.append(art.rect(cx - 16, cy - 20, 32, 40, stroke=ink.c("#777777"), sw=0.3, rx=2))
        out.append(art.text(cx, cy + 1.2, "KILLED", 6.5, weight=700, fill=ink.c(accent)))
        seats = [("p1", 0, 28), ("p2", -30, 0), ("p3", 0, -28), ("p4", 30, 0)]
        for p, dx, dy in seats:
            colour = colours[p]
            out.append(art.text(cx + dx, cy + dy + 1.5, names[p], 8, weight=700,
                                fill=ink.c(colour)))
        out.append(art.text(cx, H - 5, "seating, clockwise", 6.5, fill=ink.c("#555555")))
        kx = 80.0
        out.append(art.card_space(ink, kx, y, "KILLED", accent, note="face up\nout for good"))
        tx = kx + sw + 8.0
    else:
        p1, p2 = names["p1"], names["p2"]
        out.append(art.card_space(ink, 6.0, y, f"{p1.upper()} PLAYS",
                                  colours["p1"], note="face down,\nthen reveal",
                                  dashed=True))
        out.append(art.card_space(ink, 6.0 + sw + 5.0, y, "KILLED", accent,
                                  note="face up\nout for good"))
        out.append(art.card_space(ink, 6.0 + 2 * (sw + 5.0), y, f"{p2.upper()} PLAYS",
                                  colours["p2"], note="face down,\nthen reveal",
                                  dashed=True, turn=True))
        tx = 6.0 + 3 * sw + 2 * 5.0 + 6.0
    body = art.svg(W, H, "".join(out), bl)
    text = r.texts.killed_text(words, ink.c(accent), bl[0] + tx, bl[1] + 5.0, W - tx - 5.0,
                               H - 10.0, four)
    return body + str(text)


def kit_deck_management(r: Renderer, game, paper: str) -> Kit:
    words = Words(game)
    accent = game.accent
    names = game.player_names
    TW, TH = 184.0, 100.0

    def tracker(bl):
        body = _round_tracker_svg(r.ink, accent, TW, TH)
        return art.svg(TW, TH, body, bl) + str(
            r.texts.tracker_text(words, r.ink.c(accent), bl[0] + 7.0, bl[1] + 80.0, TW - 14.0,
                                 17.0))

    track = Piece("round-tracker", "Round tracker", TW, TH, 0.0, tracker)
    aids = [_aid_piece(r, words, "aid_dm", f"Player aid · {names[p]}", f"aid-{p}", accent)
            for p in sorted(names)]
    sheets = [
        sheet_grid(paper, False, "round tracker", [track], 1, 1, 0.0, "tracker"),
        sheet_grid(paper, False, "player aids: war and the end of a round", aids, 2, 2, 0.0,
                   "aid"),
    ]
    rows = [CoverRow("Round tracker (rounds 1 to 200)", "1", f"{TW:g} x {TH:g} mm", "2"),
            CoverRow("Player aid: war and the end-of-round discard", str(len(aids)),
                     f"{AID_W:g} x {AID_H:g} mm", "3")]
    steps = ["Round tracker: a coin on round 1 at the start; with 3 or 4 players every player "
             "takes an aid, with 2 the other two are spares."]
    return Kit(sheets, rows, [track] + aids, steps)


def _round_tracker_svg(ink: art.Ink, accent: str, W: float, H: float) -> str:
    out = [art.mat_frame(ink, W, H, accent)]
    out.append(art.text(7, 11, "War with Deck Management", 12, anchor="start", weight=700,
                        family=art.SERIF, fill=ink.c(accent)))
    out.append(art.text(W - 7, 11, "ROUND TRACKER", 8, anchor="end", weight=700,
                        fill=ink.c("#444444"), spacing=0.5))
    cw, ch = 17.0, 15.0
    x0 = (W - 10 * cw) / 2
    for row in range(2):
        y = 16 + row * (ch + 2)
        for k in range(10):
            v = row * 10 + k + 1
            x = x0 + k * cw
            out.append(art.rect(x + 0.5, y, cw - 1, ch, fill=ink.tint(accent, 0.10 if v % 5 else 0.22),
                                stroke=ink.c(accent), sw=0.3, rx=1.5))
            out.append(art.text(x + cw / 2, y + ch / 2 + 2.2, str(v), 12,
                                weight=700 if v % 5 == 0 else 400, fill=ink.c(art.INK)))
    y = 16 + 2 * (ch + 2) + 5
    out.append(art.text(x0, y - 1.2, "LAPS (add)", 6.5, anchor="start", weight=700,
                        fill=ink.c("#444444")))
    for k in range(10):
        x = x0 + k * cw
        out.append(art.rect(x + 0.5, y, cw - 1, 12, stroke=ink.c("#777777"), sw=0.3, rx=1.5,
                            fill=ink.tint("#777777", 0.06)))
        out.append(art.text(x + cw / 2, y + 8, f"+{k * 20}", 9, fill=ink.c("#333333")))
    return "".join(out)


KITS: dict[str, Callable] = {
    "war": kit_war,
    "winning-the-battle": kit_winning_the_battle,
    "ultimate": kit_ultimate,
    "battle-lines": kit_battle_lines,
    "battle": kit_battle,
    "deck-management": kit_deck_management,
}


def game_sheets(r: Renderer, game, paper: str) -> tuple[list[L.Sheet], Kit]:
    maker = KITS.get(game.slug, kit_player_aids)
    kit = maker(r, game, paper)
    duplex = []
    for i, s in enumerate(kit.sheets):
        if s.side == "back":
            duplex.append((i + 1, i + 2))      # the front is the sheet before (cover is 1)
    need = "; ".join(f"{c['name']} × {c['count']}" if int(c.get("count", 1)) != 1
                     else str(c["name"]) for c in game.components)
    cover = cover_sheet(r, paper, game.title, "Print-and-play components", kit.rows, need,
                        print_steps(paper, duplex, kit.steps), "The rules call for:")
    return number_sheets([cover] + kit.sheets), kit


# --------------------------------------------------------------------------- the deck
def deck_sheets(r: Renderer, paper: str, title: str) -> tuple[list[L.Sheet], list[L.Sheet]]:
    """(duplex sheets, gutter-fold sheets), each list starting with its cover."""
    cards = full_deck()
    low = r.ink.low

    def face_code(card: Card) -> str:
        return f"pnp-grey-{card}" if low else f"full-{card}"

    def back_code(design: str) -> str:
        return f"pnp-lowback-{design}" if low else f"pnp-back-{design}"

    # low-ink backs are white to the trim: no bleed needed
    back_bleed = 0.0 if low else L.BLEED
    duplex: list[L.Sheet] = []
    per = 9
    for design in cardart.BACK_DESIGNS:
        for k in range(math.ceil(len(cards) / per)):
            chunk = cards[k * per:(k + 1) * per]
            first, last = k * per + 1, k * per + len(chunk)
            fr = L.Sheet(paper, False, f"deck {design.upper()}, cards {first}\u2013{last}, faces",
                         side="front")
            w, h = fr.size
            for c, (box, bleed) in zip(chunk, L.grid(w, h, len(chunk), 3, 3, CARD_W, CARD_H)):
                fr.items.append(L.Item(box, "card", str(c), bleed, ref=face_code(c),
                                       size_label="63 x 88 mm"))
            bk = L.Sheet(paper, False, f"deck {design.upper()}, cards {first}\u2013{last}, backs",
                         side="back")
            slots = L.grid(w, h, len(chunk), 3, 3, CARD_W, CARD_H, bleed=back_bleed)
            for c, (box, bleed) in zip(chunk, slots):
                # the back of the card at (row, col) lies at (row, 2 - col): a long-edge flip
                item = L.Item(box, "card-back", f"back of {c}", bleed, ref=back_code(design),
                              ref_bleed=ref_bleed(back_code(design)), size_label="63 x 88 mm")
                bk.items.append(item.mirrored(w))
            duplex += [fr, bk]
    n = len(duplex)
    rows = [CoverRow("Playing cards, 52 faces with back A (dark red)", "52",
                     f"{CARD_W:g} x {CARD_H:g} mm (poker)", f"2 to {1 + n // 2}"),
            CoverRow("Playing cards, 52 faces with back B (dark blue), the second deck "
                     "for Winning the Battle", "52", f"{CARD_W:g} x {CARD_H:g} mm (poker)",
                     f"{2 + n // 2} to {1 + n}")]
    steps = [
        f"Print on {L.PAPER_NAMES[paper]} paper at actual size (100 %), turning off “fit to "
        f"page”. Check the square below.",
        f"Deck A is sheets 2 to {1 + n // 2}, deck B sheets {2 + n // 2} to {1 + n}. Print "
        f"them double-sided, flipping on the long edge: each sheet of faces is followed by its "
        f"backs, mirrored so that every back lands behind its face. Most games need one deck; "
        f"Winning the Battle needs both.",
        "No duplex printer? Print the faces, turn the paper over on its long edge, feed it "
        "back and print the backs; or use pnp-deck-gutterfold.pdf, which needs no duplex.",
        "Cut from the face side along the lines joining the crop marks: the cards abut, so one "
        "cut separates two cards. The backs run 3 mm past the outer cut lines (bleed), so a "
        "back printed a little off still fills its card.",
        "Card stock of 200 to 300 g/m², or paper slipped into sleeves in front of an old "
        "card, shuffles best.",
    ]
    cover = cover_sheet(r, paper, f"{title}: a print-and-play deck",
                        "52 poker-size cards with two back designs", rows,
                        "nothing else: the 52 cards make one deck; print both decks for "
                        "Winning the Battle.", steps)
    duplex_sheets = number_sheets([cover] + duplex)

    # gutter fold: three cards a page, faces above the fold, backs below it, turned
    fold: list[L.Sheet] = []
    for design in cardart.BACK_DESIGNS:
        for k in range(math.ceil(len(cards) / 3)):
            chunk = cards[k * 3:(k + 1) * 3]
            first, last = k * 3 + 1, k * 3 + len(chunk)
            fold.append(_fold_sheet(paper, chunk, face_code, back_code(design), back_bleed,
                                    f"deck {design.upper()}, cards {first}\u2013{last}, "
                                    f"gutter fold"))
    nf = len(fold)
    rows_f = [CoverRow("Playing cards with back A, gutter fold", "52",
                       f"{CARD_W:g} x {CARD_H:g} mm", f"2 to {1 + nf // 2}"),
              CoverRow("Playing cards with back B, gutter fold", "52",
                       f"{CARD_W:g} x {CARD_H:g} mm", f"{2 + nf // 2} to {1 + nf}")]
    steps_f = [
        f"Print single-sided on {L.PAPER_NAMES[paper]} paper at actual size (100 %). Check "
        f"the square below.",
        "Each sheet holds three cards: faces above the dashed fold line, their backs below it, "
        "upside down. Fold along the dashed line with the printing outside, glue the halves "
        "together, then cut along the lines joining the crop marks.",
        "The backs' art runs 3 mm past their cut lines, so a fold a little off leaves no "
        "white edge.",
    ]
    cover_f = cover_sheet(r, paper, f"{title}: a print-and-play deck, gutter fold",
                          "52 poker-size cards, faces and backs on one side of the paper", rows_f,
                          "glue (a glue stick or spray mount).", steps_f)
    return duplex_sheets, number_sheets([cover_f] + fold)


FOLD_GAP = 5.0   # from the fold line to the nearest trim, each side


def _fold_sheet(paper: str, chunk: list[Card], face_code, back: str, back_bleed: float,
                title: str) -> L.Sheet:
    """Faces in a row above the fold, backs below it at the mirror position across the fold
    (same x: a fold along a horizontal line keeps x) and turned half round."""
    s = L.Sheet(paper, False, title, side="fold")
    w, h = s.size
    fold = h / 2
    x0 = (w - 3 * CARD_W) / 2
    n_cards = len(chunk)
    b = back_bleed
    for k, c in enumerate(chunk):
        box = L.Box(x0 + k * CARD_W, fold - FOLD_GAP - CARD_H, CARD_W, CARD_H)
        s.items.append(L.Item(box, "card", str(c), ref=face_code(c), size_label="63 x 88 mm"))
    for k, c in enumerate(chunk):
        box = L.Box(x0 + k * CARD_W, fold + FOLD_GAP, CARD_W, CARD_H)
        bleed = (b if k == 0 else 0.0, b, b if k == n_cards - 1 else 0.0, b)
        s.items.append(L.Item(box, "card-back", f"back of {c}", bleed, ref=back,
                              ref_bleed=ref_bleed(back), rotate=180, size_label="63 x 88 mm"))
    s.fold_y = fold
    return s


# --------------------------------------------------------------------------- PNG
def card_images(r: Renderer) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every face and both backs, full colour: at 300 dpi and trim size (744 x 1039 px), and
    at Tabletop Simulator size (409 x 571 px), each rendered from the vector art."""
    import pypdfium2 as pdfium

    codes = [f"full-{c}" for c in full_deck()] + [f"pnp-back-{d}" for d in cardart.BACK_DESIGNS]
    lib = r.library(codes)
    sizes = {"print": (L.px(CARD_W), L.px(CARD_H)), "tts": tts_card_size()}
    docs: dict[int, Any] = {}
    out: dict[str, dict[str, Any]] = {"print": {}, "tts": {}}
    try:
        for code in codes:
            reader, idx = lib[code]
            doc = docs.get(id(reader))
            if doc is None:
                doc = docs[id(reader)] = pdfium.PdfDocument(r._lib_data[id(reader)])
            page = doc[idx]
            b = ref_bleed(code) * L.PT_PER_MM
            name = code[5:] if code.startswith("full-") else "back-" + code[-1]
            for kind, want in sizes.items():
                scale = want[0] / (CARD_W * L.PT_PER_MM)
                img = page.render(scale=scale, crop=(b, b, b, b), rev_byteorder=True).to_pil()
                out[kind][name] = _exact(img, want).convert("RGB")
            page.close()
    finally:
        for d in docs.values():
            d.close()
    return out["print"], out["tts"]


def _exact(img, want: tuple[int, int]):
    from PIL import Image

    if img.size == want:
        return img
    if img.size[0] >= want[0] and img.size[1] >= want[1] and \
            max(img.size[0] - want[0], img.size[1] - want[1]) <= 3:
        return img.crop((0, 0) + want)
    return img.resize(want, Image.LANCZOS)


def tts_card_size() -> tuple[int, int]:
    cw = TTS_MAX_W // TTS_COLS                      # 409
    return cw, round(cw * CARD_H / CARD_W)          # 571


def tts_sheet(images: dict[str, Any], back: str) -> tuple[Any, float]:
    """A Tabletop Simulator deck sheet: 10 x 7 cards, at most 4096 px wide; the 52 faces in
    deck order and, in the last slot, the back (TTS shows that slot for hidden cards).
    Returns the image and its resolution in dpi."""
    from PIL import Image

    cw, ch = tts_card_size()
    sheet = Image.new("RGB", (cw * TTS_COLS, ch * TTS_ROWS), (255, 255, 255))
    for k, card in enumerate(full_deck()):
        r, c = divmod(k, TTS_COLS)
        sheet.paste(images[str(card)], (c * cw, r * ch))
    r, c = divmod(TTS_COLS * TTS_ROWS - 1, TTS_COLS)
    sheet.paste(images[back], (c * cw, r * ch))
    return sheet, cw / (CARD_W / 25.4)


# --------------------------------------------------------------------------- entry point
def render_all(report, games, staging: Path, *, paper: str = "a4", ink: str = "full",
               whole: bool = True, say: Callable[[str], None] = print) -> dict:
    """Write the component PDFs (and, for a whole build, the deck) and the PNG exports into
    ``staging``. Returns timings in seconds."""
    import importlib.util

    if importlib.util.find_spec("pypdfium2") is None:
        raise ComponentError("the Python package pypdfium2 is missing (it renders the PNG "
                         "exports); run 'bash scripts/setup'")
    t0 = time.perf_counter()
    templates = overrides_of(report.content.root)
    r = Renderer(paper, ink, templates=templates)
    pdf_dir = staging / "pdf"
    png_dir = staging / "png"
    pdf_dir.mkdir(parents=True, exist_ok=True)
    exports: list[tuple[Path, Piece]] = []
    written: list[Path] = []
    t_png = 0.0
    for gr in games:
        game = gr.game
        sheets, kit = game_sheets(r, game, paper)
        target = pdf_dir / f"{game.slug}-components.pdf"
        n = r.write_pdf(sheets, target,
                        title=f"{game.title}: print-and-play components",
                        subject=f"Print-and-play components for {game.title}, "
                                f"{L.PAPER_NAMES[paper]}",
                        author=game.designer)
        say(f"wrote pdf/{game.slug}-components.pdf ({n} sheets)")
        wanted = [(png_dir / game.slug / f"{p.name}.png", p) for p in kit.pieces]
        if r.ink.low:
            exports += wanted
        else:
            # full ink: cut each component out of the sheets just written
            t1 = time.perf_counter()
            written += pngs_from_sheets(target.read_bytes(), sheets, wanted)
            t_png += time.perf_counter() - t1
    # PNGs are always full colour (they are for screens and Tabletop Simulator): after a
    # low-ink build the components are drawn once more, in colour, one to a page
    pr = r
    if r.ink.low:
        pr = Renderer(paper, "full", share=r, templates=templates)
        t1 = time.perf_counter()
        written += pr.export_pngs(exports)
        t_png += time.perf_counter() - t1
    r.timings["png components"] = t_png
    if whole:
        book_title = report.content.book.title
        duplex, fold = deck_sheets(r, paper, book_title)
        n = r.write_pdf(duplex, pdf_dir / "pnp-deck.pdf",
                        title=f"{book_title}: print-and-play deck",
                        subject="52 poker-size cards, 63 x 88 mm, 9 a page, two back designs, "
                                "for long-edge duplex", duplex=True)
        say(f"wrote pdf/pnp-deck.pdf ({n} sheets)")
        n = r.write_pdf(fold, pdf_dir / "pnp-deck-gutterfold.pdf",
                        title=f"{book_title}: print-and-play deck, gutter fold",
                        subject="52 poker-size cards, 63 x 88 mm, gutter fold, two back designs")
        say(f"wrote pdf/pnp-deck-gutterfold.pdf ({n} sheets)")
        t1 = time.perf_counter()
        by_code, tts = card_images(pr)
        paths = []
        for name, img in by_code.items():
            path = png_dir / "cards" / f"{name}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            paths.append(path)
        (png_dir / "tts").mkdir(parents=True, exist_ok=True)
        for d in cardart.BACK_DESIGNS:
            sheet, dpi = tts_sheet(tts, f"back-{d}")
            save_png(sheet, png_dir / "tts" / f"deck-{d}.png", dpi, fast=True)
            save_png(tts[f"back-{d}"], png_dir / "tts" / f"back-{d}.png", dpi)
            paths += [png_dir / "tts" / f"deck-{d}.png", png_dir / "tts" / f"back-{d}.png"]
        written += paths
        r.timings["png cards + tts"] = time.perf_counter() - t1
        say(f"wrote png/cards ({len(by_code)} cards) and png/tts (2 deck sheets, 2 backs)")
    say(f"wrote {len(written)} component and card PNGs at {DPI} dpi")
    total = time.perf_counter() - t0
    r.timings.update({k: v for k, v in pr.timings.items() if k not in r.timings})
    r.timings["total"] = total
    say(f"components: {r.pages} sheets in {total:.1f} s")
    return r.timings
