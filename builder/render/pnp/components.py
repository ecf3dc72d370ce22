"""Stage 3b: print-and-play components, the print-and-play deck and their PNG exports.

For every game built, ``pdf/<slug>-components.pdf``; for a whole build also
``pdf/pnp-deck.pdf`` (duplex) and ``pdf/pnp-deck-gutterfold.pdf``; and PNG files at 300 dpi
(recorded in the file) under ``png/``: one per component (``png/<slug>/``), one per card and
back (``png/cards/``) and a Tabletop Simulator deck sheet per back design (``png/tts/``).

How a sheet is made
-------------------
A game's components are what its ``kit`` in game.yaml declares, made into pieces and sheets
by :mod:`builder.render.pnp.kinds` (the vocabulary; game-specific drawings come from the
game's engine, ``GameDef.art``). Each sheet is laid out by :mod:`builder.render.pnp.layout`
in millimetres (trim boxes, bleed, cut lines, crop marks, label), proved sound there, and
drawn as one absolutely positioned HTML page whose art is SVG in millimetres
(:mod:`builder.render.pnp.art`) and whose words come from the game's content through
``templates/components/``. One WeasyPrint FontConfiguration,
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
bleed comes to 4.7 mm from the edge): cut from the face side. The gutter-fold file puts four
cards a landscape page, faces above a fold line and their backs below it, turned half round.

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
from ...engine.core import Card, full_deck
from .. import cards as cardart
from ..errors import RenderError
from ..fetch import CardFetcher
from ..fonts import font_face_css
from ..markup import Markdown
from ..templating import TEMPLATES, environment, helper, macros, overrides_of, read_template_file
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

    @property
    def card(self) -> dict[str, Any]:
        """What the words' templates (components/texts.html.j2) read: plain values."""
        return {"title": self.title, "foot": self.foot}

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

    def block(self, text: str) -> Markup:
        return Markup(self._unlink(str(self._md.block(text))))

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
#: how far inside the trim a printed card's outline stands (mm): clear of a cut that
#: misses its line by a little, and of the corner index
KEYLINE = 1.5


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
            elif code.startswith("pnp-face-"):
                text = cardart.card_face(code[9:], style="full", keyline_mm=KEYLINE)
            elif code.startswith("pnp-bleedface-"):
                text = cardart.card_face(code[14:], style="full", bleed_mm=L.BLEED,
                                         keyline_mm=KEYLINE)
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
        self.env.globals.update(mm=helper(mm), marks=helper(self._marks),
                                label_html=helper(self._label))
        # the macros the sheets' pieces call from Python, each call a bounded render
        self.texts = macros(self.env.get_template("components/texts.html.j2"))
        self.cover_macro = macros(self.env.get_template("components/cover.html.j2")).cover
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
            raise ComponentError(
                f"{target.name}: text does not fit: " + "; ".join(dict.fromkeys(problems))
                + " (hint: shorten that component's sections under kit: in the game's "
                  "game.yaml, or set fewer of them; a wider typeface needs more room)")
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
    return L.BLEED if code.startswith(("pnp-back-", "pnp-lowback-", "pnp-bleedface-")) else 0.0


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


def game_sheets(r: Renderer, game, paper: str) -> tuple[list[L.Sheet], Kit]:
    from .kinds import game_kit  # the vocabulary's builders use this module's pieces

    kit = game_kit(r, game, paper)
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
def face_code(card: Card, low: bool) -> str:
    return f"pnp-grey-{card}" if low else f"pnp-face-{card}"


def back_code(design: str, low: bool) -> str:
    return f"pnp-lowback-{design}" if low else f"pnp-back-{design}"


def duplex_card_sheets(paper: str, cards: list[Card], design: str, low: bool,
                       label: str = "deck") -> list[L.Sheet]:
    """Nine poker cards a sheet, each sheet of faces followed by its backs in ``design``,
    mirrored for a long-edge flip."""
    back_bleed = 0.0 if low else L.BLEED   # low-ink backs are white to the trim
    out: list[L.Sheet] = []
    per = 9
    for k in range(math.ceil(len(cards) / per)):
        chunk = cards[k * per:(k + 1) * per]
        first, last = k * per + 1, k * per + len(chunk)
        fr = L.Sheet(paper, False, f"{label} {design.upper()}, cards {first}\u2013{last}, faces",
                     side="front")
        w, h = fr.size
        for c, (box, bleed) in zip(chunk, L.grid(w, h, len(chunk), 3, 3, CARD_W, CARD_H)):
            fr.items.append(L.Item(box, "card", str(c), bleed, ref=face_code(c, low),
                                   size_label="63 x 88 mm"))
        bk = L.Sheet(paper, False, f"{label} {design.upper()}, cards {first}\u2013{last}, backs",
                     side="back")
        slots = L.grid(w, h, len(chunk), 3, 3, CARD_W, CARD_H, bleed=back_bleed)
        for c, (box, bleed) in zip(chunk, slots):
            # the back of the card at (row, col) lies at (row, 2 - col): a long-edge flip
            item = L.Item(box, "card-back", f"back of {c}", bleed, ref=back_code(design, low),
                          ref_bleed=ref_bleed(back_code(design, low)), size_label="63 x 88 mm")
            bk.items.append(item.mirrored(w))
        out += [fr, bk]
    return out


def deck_sheets(r: Renderer, paper: str, title: str) -> tuple[list[L.Sheet], list[L.Sheet]]:
    """(duplex sheets, gutter-fold sheets), each list starting with its cover."""
    cards = full_deck()
    low = r.ink.low
    back_bleed = 0.0 if low else L.BLEED
    duplex: list[L.Sheet] = []
    for design in cardart.BACK_DESIGNS:
        duplex += duplex_card_sheets(paper, cards, design, low)
    n = len(duplex)
    rows = [CoverRow("Playing cards, 52 faces with back A (dark red)", "52",
                     f"{CARD_W:g} x {CARD_H:g} mm (poker)", f"2 to {1 + n // 2}"),
            CoverRow("Playing cards, 52 faces with back B (dark blue), a second deck for "
                     "games in which each player has a whole deck", "52",
                     f"{CARD_W:g} x {CARD_H:g} mm (poker)", f"{2 + n // 2} to {1 + n}")]
    steps = [
        f"Print on {L.PAPER_NAMES[paper]} paper at actual size (100 %), turning off “fit to "
        f"page”. Check the square below.",
        f"Deck A is sheets 2 to {1 + n // 2}, deck B sheets {2 + n // 2} to {1 + n}. Print "
        f"them double-sided, flipping on the long edge: each sheet of faces is followed by its "
        f"backs, mirrored so that every back lands behind its face. Most games need one deck; "
        f"a game in which each player has a whole deck needs both.",
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
                        "nothing more. The 52 cards make one deck; print both decks for a "
                        "game in which each player has a whole deck.", steps)
    duplex_sheets = number_sheets([cover] + duplex)

    # gutter fold: four cards a landscape page, faces above the fold, backs below it,
    # turned (three a portrait page took 10 sheets more)
    fold: list[L.Sheet] = []
    per = FOLD_PER
    for design in cardart.BACK_DESIGNS:
        for k in range(math.ceil(len(cards) / per)):
            chunk = cards[k * per:(k + 1) * per]
            first, last = k * per + 1, k * per + len(chunk)
            fold.append(_fold_sheet(paper, chunk, lambda c: face_code(c, low),
                                    back_code(design, low), back_bleed,
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
        f"Print landscape. Each sheet holds {NUMBER_WORDS.get(FOLD_PER, FOLD_PER)} cards: faces above the dashed fold line, their backs below it, "
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
FOLD_PER = 4     # cards a gutter-fold sheet (landscape: 4 x 63 mm across, 2 x 93 mm down)
NUMBER_WORDS = {3: "three", 4: "four"}


def _fold_sheet(paper: str, chunk: list[Card], face_code, back: str, back_bleed: float,
                title: str) -> L.Sheet:
    """Faces in a row above the fold, backs below it at the mirror position across the fold
    (same x: a fold along a horizontal line keeps x) and turned half round."""
    s = L.Sheet(paper, True, title, side="fold")
    w, h = s.size
    fold = h / 2
    x0 = (w - FOLD_PER * CARD_W) / 2
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

    faces = [f"pnp-face-{c}" for c in full_deck()]
    backs = [f"pnp-back-{d}" for d in cardart.BACK_DESIGNS]
    bleed_faces = [f"pnp-bleedface-{c}" for c in full_deck()]
    lib = r.library(faces + backs + bleed_faces)
    sizes = {"print": (L.px(CARD_W), L.px(CARD_H)), "tts": tts_card_size()}
    #: print-on-demand card services take the art with 3 mm (1/8 in) bleed on every side
    bleed_size = (L.px(CARD_W + 2 * L.BLEED), L.px(CARD_H + 2 * L.BLEED))
    docs: dict[int, Any] = {}
    out: dict[str, dict[str, Any]] = {"print": {}, "tts": {}, "bleed": {}}
    codes = faces + backs + bleed_faces
    try:
        for code in codes:
            reader, idx = lib[code]
            doc = docs.get(id(reader))
            if doc is None:
                doc = docs[id(reader)] = pdfium.PdfDocument(r._lib_data[id(reader)])
            page = doc[idx]
            b = ref_bleed(code) * L.PT_PER_MM
            name = code.rsplit("-", 1)[1] if "face-" in code else "back-" + code[-1]
            if code.startswith("pnp-bleedface-"):
                kinds = {}
            else:
                kinds = sizes
            for kind, want in kinds.items():
                scale = want[0] / (CARD_W * L.PT_PER_MM)
                img = page.render(scale=scale, crop=(b, b, b, b), rev_byteorder=True).to_pil()
                out[kind][name] = _exact(img, want).convert("RGB")
            if code.startswith(("pnp-bleedface-", "pnp-back-")):
                scale = bleed_size[0] / ((CARD_W + 2 * L.BLEED) * L.PT_PER_MM)
                img = page.render(scale=scale, rev_byteorder=True).to_pil()
                out["bleed"][name] = _exact(img, bleed_size).convert("RGB")
            page.close()
    finally:
        for d in docs.values():
            d.close()
    return out["print"], out["tts"], out["bleed"]


def _exact(img, want: tuple[int, int]):
    from PIL import Image

    if img.size == want:
        return img
    if img.size[0] >= want[0] and img.size[1] >= want[1] and \
            max(img.size[0] - want[0], img.size[1] - want[1]) <= 3:
        return img.crop((0, 0) + want)
    return img.resize(want, Image.LANCZOS)


def bleed_size_text() -> str:
    w, h = L.px(CARD_W + 2 * L.BLEED), L.px(CARD_H + 2 * L.BLEED)
    return f"{w} x {h} px"


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
        by_code, tts, bleed = card_images(pr)
        paths = []
        for name, img in by_code.items():
            path = png_dir / "cards" / f"{name}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            save_png(img, path, DPI)
            paths.append(path)
        for name, img in bleed.items():
            path = png_dir / "cards-bleed" / f"{name}.png"
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
        say(f"wrote png/cards ({len(by_code)} cards), png/cards-bleed (the same with 3 mm bleed,"
            f" {bleed_size_text()}) and png/tts (2 deck sheets, 2 backs)")
    say(f"wrote {len(written)} component and card PNGs at {DPI} dpi")
    total = time.perf_counter() - t0
    r.timings.update({k: v for k, v in pr.timings.items() if k not in r.timings})
    r.timings["total"] = total
    say(f"components: {r.pages} sheets in {total:.1f} s")
    return r.timings
