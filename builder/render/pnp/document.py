"""The component sheets as PDF documents: the :class:`Renderer` draws a list of laid-out
sheets (:mod:`builder.render.pnp.layout`) as one absolutely positioned HTML page each,
through ``templates/components/`` and WeasyPrint, and writes the PDF.

One WeasyPrint FontConfiguration, one URL fetcher (:class:`PnpFetcher`: the rulebooks' card
images plus the sheets' bleeding and low-ink variants) and one image cache serve every
document of a build. A finisher writes each page's TrimBox (the union of the trims) and
BleedBox (the union of the art) and the document's ViewerPreferences (PrintScaling None;
DuplexFlipLongEdge for a file with backs, the duplex deck and a kit's cards or tokens,
Simplex for one without). Boxes of class ``fit`` are checked after layout
(:func:`overflows`): text that does not fit stops the build.

Card art is the rulebooks' SVG (:mod:`builder.render.cards`). WeasyPrint draws an SVG anew at
every use, so each card artwork is rendered once into a "library" PDF
(:meth:`Renderer.library`) and placed on the sheets as a Form XObject (:func:`place_forms`):
the 2 x 52 faces and backs of the deck cost one drawing each.

Every file is PDF/UA-1 (issue 27 item 8), as the rulebooks are: WeasyPrint writes the tag
tree and the XMP packet that claims it. Each piece is a described figure: an SVG piece
carries its name as its ``<title>`` (:meth:`Renderer.item_html`), and a placed card is laid
out as an empty picture whose alternative text names the card ("Queen of hearts, face"),
its drawing then placed as an artifact; the cover's table headers get their scope
(:func:`builder.render.book.tagging.scope_table_headers`). The crop marks and fold lines
are printer's marks, drawn last (:func:`prepress`) as artifacts in the registration colour
(``/Separation /All``: every ink at 100 %, black on an RGB screen or printer), which the
print-shop copy (:mod:`builder.render.printshop`) leaves as it is.
"""

from __future__ import annotations

import io
import re
import time
from pathlib import Path
from typing import Any

import pikepdf
import pydyf
from markupsafe import Markup, escape
from weasyprint import CSS, HTML

from ... import __version__
from ...engine.core import Card
from ...settings import Paper
from .. import cards as cardart
from ..faces import Faces, split_ref
from ..fetch import CardFetcher
from ..fonts import font_configuration, font_face_css
from ..templating import environment, helper, macros, read_template_file, shipped
from . import art, layout
from .pieces import CARD_H, CARD_W, ComponentError, mm

#: a game's own card in the library (``pnp-own-<reference>``; see owncards.own_code)
OWN, OWN_GREY = "pnp-own-", "pnp-owngrey-"

#: every print-and-play file is PDF/UA-1 (issue 27 item 8), as the rulebooks are
PDF_VARIANT = "pdf/ua-1"

#: the empty picture a placed card is laid out as (``card:pnp-blank``): it carries the
#: card's description in the tag tree, and :func:`place_forms` draws the card over it
BLANK = "pnp-blank"

#: what a piece of a kind is, when the file's pieces do not say (``write_pdf``'s ``alts``)
KIND_WORDS = {"token": "A token", "mat": "A play mat", "tracker": "A tracker",
              "track": "A score track", "aid": "A player aid", "card": "A card",
              "card-back": "The back of a card"}


def own_ref(code: str) -> str | None:
    """The card reference of a library code ``pnp-own-<reference>`` (None: not one)."""
    for prefix in (OWN_GREY, OWN):
        if code.startswith(prefix):
            return code[len(prefix):]
    return None

# --------------------------------------------------------------------------- fetcher


class PnpFetcher(CardFetcher):
    """The rulebooks' in-memory card images, plus what the sheets need: backs with a 3 mm
    bleed (``pnp-back-a``), low-ink backs (``pnp-lowback-a``) and greyscale faces
    (``pnp-grey-QD``)."""

    def svg(self, code: str) -> bytes:
        if code not in self.cache:
            if code == BLANK:
                text = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
            elif code.startswith("pnp-back-"):
                text = cardart.card_back(code[9:], bleed_mm=layout.BLEED)
            elif code.startswith("pnp-lowback-"):
                text = art.low_ink_back(code[12:], layout.BLEED)
            elif code.startswith("pnp-face-"):
                # no outline: a line within 3 mm of a cut shows every cut a little off it
                text = cardart.card_face(code[9:], style="full", outline=False)
            elif code.startswith("pnp-bleedface-"):
                text = cardart.card_face(code[14:], style="full", bleed_mm=layout.BLEED,
                                         outline=False)
            elif code.startswith("pnp-grey-"):
                text = art.greyscale_svg(cardart.card_face(code[9:], style="full"), 0.25)
            elif own_ref(code) is not None:   # a game's own card or back (owncards.py)
                text = self.faces.svg(own_ref(code), "full", bleed_mm=layout.BLEED)
                if code.startswith(OWN_GREY):
                    text = art.greyscale_svg(text, 0.25)
            else:
                return super().svg(code)
            self.cache[code] = text.encode("utf-8")
        return self.cache[code]


# --------------------------------------------------------------------------- renderer
class Renderer:
    """Draws laid-out sheets as PDF documents on one paper in one ink. ``share``: another
    renderer whose FontConfiguration, URL fetcher and image cache this one reuses (the PNG
    exports of a low-ink build are drawn by a full-ink one)."""

    def __init__(self, paper: Paper, ink: str = "full", share: "Renderer | None" = None,
                 templates: Path | None = None, content_root: Path | None = None):
        self.paper = paper
        self.ink = art.Ink(ink)
        self.env = environment(templates)
        self.env.globals.update(mm=helper(mm), item_html=helper(self.item_html),
                                label_html=helper(self._label))
        # the macros the sheets' pieces call from Python, each call a bounded render
        self.texts = macros(self.env.get_template("components/texts.html.j2"))
        self.cover_macro = macros(self.env.get_template("components/cover.html.j2")).cover
        self.font_config = share.font_config if share else font_configuration()
        # the games' own decks are added to the fetcher's Faces as their sheets are made
        self.fetcher = share.fetcher if share else PnpFetcher(faces=Faces(content_root))
        self.image_cache: dict = share.image_cache if share else {}
        self.base_css = (font_face_css() + "\n"
                         + read_template_file("components/components.css", templates))
        self.sheet_css = CSS(string=self.base_css + (
            f"\n@page {{ size: {paper.css}; margin: 0; }}\n"
            f"@page landscape {{ size: {paper.css} landscape; margin: 0; }}\n"),
            font_config=self.font_config, url_fetcher=self.fetcher)
        self.timings: dict[str, float] = {}
        self.pages = 0
        self._lib: dict[str, tuple[Any, int]] = {}
        self._lib_data: dict[int, bytes] = {}
        #: the titles of the pieces of the file being written, by piece name (write_pdf)
        self._alts: dict[str, str] = {}

    # -- template helpers
    def item_html(self, it: layout.Item) -> Markup:
        """An item's markup, described for the tag tree: a placed card is an empty picture
        whose alternative text names it (the card is drawn over it by :func:`place_forms`);
        an SVG piece gets its name as the SVG's ``<title>``, which WeasyPrint makes the
        figure's alternative text."""
        if it.ref:
            return Markup(f'<img src="card:{BLANK}" alt="{escape(self.alt(it))}" '
                          f'style="left:0;top:0;width:100%;height:100%">')
        html = str(it.html)
        if "<svg" not in html:
            return Markup(html)
        title = f"<title>{escape(self.alt(it))}</title>"
        return Markup(re.sub(r"(<svg\b[^>]*?)(/?)>",
                             lambda m: (m.group(1) + ">" + title + "</svg>") if m.group(2)
                             else m.group(0) + title, html, count=1))

    def alt(self, it: layout.Item) -> str:
        """What an item is, in players' words: a card by its name and side ("Queen of
        hearts, face"), any other piece by its title ("Stone token, back")."""
        if it.kind in ("card", "card-back"):
            side = "back" if it.kind == "card-back" else "face"
            name = self._card_name(it)
            return f"{name[:1].upper()}{name[1:]}, {side}" if name else KIND_WORDS[it.kind]
        name = it.name.split(":")[0]   # a back: "<back piece>:<the front's item>"
        while name:
            if name in self._alts:
                return self._alts[name]
            head, dash, tail = name.rpartition("-")   # a numbered copy: "stone-front-2"
            if not dash or not tail.isdigit():
                break
            name = head
        return KIND_WORDS.get(it.kind, it.kind.replace("-", " ").capitalize())

    def _card_name(self, it: layout.Item) -> str:
        """The name of the card an item shows, from its name ("QH", "back of QH",
        "<deck>/<code>", "back of <deck>/<code>") and its artwork's reference."""
        code = it.name.removeprefix("back of ").rpartition("/")[2]
        own = own_ref(it.ref)
        try:
            if own is not None:
                key = split_ref(own)[0]
                return self.fetcher.faces.art(key).spec.deck.card(code).name()
            return Card.parse(code).name()
        except (KeyError, ValueError, AttributeError):   # no card's name: the kind says
            return ""

    def _label(self, label: layout.Label) -> Markup:
        """The sheet's label, drawn by the ``sheet_label`` macro (components/texts.html.j2)
        in the box the layout gave it."""
        along = label.box.h if label.rotate else label.box.w
        across = label.box.w if label.rotate else label.box.h
        turn = f" rot{label.rotate}" if label.rotate else ""
        return Markup(self.texts.sheet_label(label.text, turn, label.x - along / 2,
                                             label.y - across / 2, along, across,
                                             label.size_pt))

    # -- documents
    def write_pdf(self, sheets: list[layout.Sheet], target: Path, *, title: str, subject: str,
                  author: str = "warbook", duplex: bool = False,
                  alts: dict[str, str] | None = None) -> int:
        """Write ``sheets`` as the PDF ``target``; ``alts``: the title of each piece by its
        name (``Piece.title`` by ``Piece.name``), the words a screen reader says for it."""
        t0 = time.perf_counter()
        self._alts = dict(alts or {})
        doc_meta = {"title": title, "author": author, "subject": subject,
                    "keywords": title, "version": __version__, "low": self.ink.low}
        html = self.env.get_template("components/sheets.html.j2").render(doc=doc_meta,
                                                                         sheets=sheets)
        doc = HTML(string=html, base_url=str(shipped()), url_fetcher=self.fetcher).render(
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
        data = doc.write_pdf(finisher=_finisher(sheets, duplex), pdf_variant=PDF_VARIANT)
        if refs:
            data = place_forms(data, sheets, self.library(refs))
        target.write_bytes(prepress(data, sheets))
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
                cw, ch = self.card_size(code)
                w, h = cw + 2 * b, ch + 2 * b
                css.append(f"@page q{i} {{ size: {mm(w)} {mm(h)}; margin: 0; }} "
                           f".q{i} {{ page: q{i}; }}")
                pages.append(f'<section class="page q{i}" style="width:{mm(w)};height:{mm(h)}">'
                             f'<img src="card:{code}" alt="" style="position:absolute;left:0;'
                             f'top:0;width:{mm(w)};height:{mm(h)}"></section>')
            data = self.pages_pdf("".join(pages), "\n".join(css))
            reader = PdfReader(io.BytesIO(data))
            self._lib_data[id(reader)] = data
            for i, code in enumerate(todo):
                self._lib[code] = (reader, i)
        return {c: self._lib[c] for c in codes}

    def card_size(self, code: str) -> tuple[float, float]:
        """A library artwork's card size in mm (its trim): a game's own deck's, else poker."""
        ref = own_ref(code)
        if ref is None:
            return CARD_W, CARD_H
        w, h = self.fetcher.faces.art(split_ref(ref)[0]).size_mm
        return float(w), float(h)

    def library_data(self, reader) -> bytes:
        """The PDF bytes of a library :meth:`library` returned (``reader``, its pages)."""
        return self._lib_data[id(reader)]

    def pages_pdf(self, body: str, css: str) -> bytes:
        html = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>warbook</title>'
                f'</head><body>{body}</body></html>')
        stylesheet = CSS(string=self.base_css + "\n" + css, font_config=self.font_config,
                         url_fetcher=self.fetcher)
        doc = HTML(string=html, base_url=str(shipped()), url_fetcher=self.fetcher).render(
            stylesheets=[stylesheet], font_config=self.font_config, cache=self.image_cache)
        return doc.write_pdf()


def _finisher(sheets: list[layout.Sheet], duplex: bool):
    def finish(document, pdf):
        pages = [o for o in pdf.objects
                 if isinstance(o, pydyf.Dictionary) and o.get("Type") == "/Page"]
        for page, s in zip(pages, sheets):
            _, h = s.size
            media = [float(v) for v in page["MediaBox"]]

            def clamp(box: list[float]) -> list[float]:
                return [max(box[0], media[0]), max(box[1], media[1]),
                        min(box[2], media[2]), min(box[3], media[3])]

            trim = clamp(layout.pdf_box(s.trim_box(), h))
            bleed = clamp(layout.pdf_box(s.bleed_box(), h))
            # the bleed box holds the trim box (PDF 32000, 14.11.2)
            bleed = [min(bleed[0], trim[0]), min(bleed[1], trim[1]),
                     max(bleed[2], trim[2]), max(bleed[3], trim[3])]
            page["TrimBox"] = pydyf.Array(trim)
            page["BleedBox"] = pydyf.Array(bleed)
        # WeasyPrint's (PDF/UA: DisplayDocTitle) and the print dialog's
        prefs = pdf.catalog.get("ViewerPreferences") or pydyf.Dictionary()
        prefs.update({"PrintScaling": "/None", "PickTrayByPDFSize": "true",
                      "DisplayDocTitle": "true"})
        # the print dialog's default: a file with backs is printed whole, double-sided,
        # flipped on the long edge (cover.duplex_file ordered its pages for that)
        two_sided = duplex or any(s.side == "back" for s in sheets)
        prefs["Duplex"] = "/DuplexFlipLongEdge" if two_sided else "/Simplex"
        pdf.catalog["ViewerPreferences"] = prefs
    return finish


def ref_bleed(code: str) -> float:
    """How far a shared card artwork runs past the card's trim."""
    return layout.BLEED if code.startswith(("pnp-back-", "pnp-lowback-", "pnp-bleedface-",
                                            OWN, OWN_GREY)) else 0.0


#: the registration colour's name in a page's resources: every ink at 100 %
REGISTRATION = "/WbRegistration"


def registration(pdf: pikepdf.Pdf) -> pikepdf.Object:
    """The registration colour space: ``/Separation /All``, whose tint 1 is 100 % of every
    ink (its alternate, DeviceCMYK 1 1 1 1, is black on an RGB screen or printer)."""
    tint = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0],
                              C1=[1, 1, 1, 1], N=1)
    return pdf.make_indirect(pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.All,
                                            pikepdf.Name.DeviceCMYK, pdf.make_indirect(tint)]))


def marks_content(sheet: layout.Sheet) -> bytes:
    """A sheet's printer's marks as PDF drawing, page coordinates (points, y up): each crop
    mark and the fold line of a gutter-fold sheet (dashed, between the margins), stroked
    :data:`layout.MARK_WIDTH` thick with butt ends in the registration colour, and marked
    as an artifact (they are no part of what the page says). Empty: a sheet without."""
    w, h = sheet.size
    k = layout.PT_PER_MM
    lines = [(m.x1, m.y1, m.x2, m.y2) for m in sheet.marks]
    if not lines and sheet.fold_y is None:
        return b""

    def f(v: float) -> str:
        return f"{v:.4f}".rstrip("0").rstrip(".")

    def seg(x1: float, y1: float, x2: float, y2: float) -> str:
        return f"{f(x1 * k)} {f((h - y1) * k)} m {f(x2 * k)} {f((h - y2) * k)} l S"

    ops = ["/Artifact BMC", "q", f"{REGISTRATION} CS 1 SCN", f"{f(layout.MARK_WIDTH * k)} w",
           "0 J 0 j [] 0 d"]
    ops += [seg(*line) for line in lines]
    if sheet.fold_y is not None:
        ops.append(f"[{f(1.5 * k)} {f(1.0 * k)}] 0 d")
        ops.append(seg(layout.MARGIN, sheet.fold_y, w - layout.MARGIN, sheet.fold_y))
    ops += ["Q", "EMC"]
    return ("\n".join(ops) + "\n").encode("ascii")


def prepress(pdf_bytes: bytes, sheets: list[layout.Sheet]) -> bytes:
    """The last pass over a written file: every sheet's printer's marks drawn over its page
    (:func:`marks_content`), and the cover table's headers given their scope, which
    PDF/UA asks for and WeasyPrint does not write. The PDF's version (its ``%PDF-1.7``
    header) and its tag tree are kept."""
    from ..book.tagging import scope_table_headers

    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        scope_table_headers(pdf)
        space = None
        for page, sheet in zip(pdf.pages, sheets):
            marks = marks_content(sheet)
            if not marks:
                continue
            if space is None:
                space = registration(pdf)
            res = page.obj.get("/Resources")
            if res is None:
                res = page.obj.Resources = pikepdf.Dictionary()
            if "/ColorSpace" not in res:
                res.ColorSpace = pikepdf.Dictionary()
            res.ColorSpace[REGISTRATION] = space
            # the page's own drawing inside q ... Q: WeasyPrint's first matrix is outside
            # any saved state, and the marks are drawn in page coordinates
            page.contents_add(pdf.make_stream(b"q\n"), prepend=True)
            page.contents_add(pdf.make_stream(b"\nQ\n" + marks), prepend=False)
        out = io.BytesIO()
        pdf.save(out, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return out.getvalue()


def place_forms(pdf_bytes: bytes, sheets: list[layout.Sheet], lib: dict[str, tuple[Any, int]]) -> bytes:
    """Draw every item with a shared artwork (``Item.ref``) into the PDF: each artwork
    becomes one Form XObject, placed with its trim on the item's trim and clipped to the
    item's art box (so abutting cards bleed only outwards)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        FloatObject,
        NameObject,
    )

    reader = PdfReader(io.BytesIO(pdf_bytes))
    writer = PdfWriter(clone_from=reader)
    writer.pdf_header = reader.pdf_header   # WeasyPrint's %PDF-1.7, not pypdf's %PDF-1.3
    forms: dict[str, Any] = {}
    # one name per artwork for the whole file: WeasyPrint shares one resource dictionary
    # between all its pages
    names = {code: f"/WbCard{i}" for i, code in enumerate(sorted(lib))}
    k = layout.PT_PER_MM

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
        # the drawing of the described pictures WeasyPrint laid out (item_html): an artifact
        ops = ["/Artifact BMC", *ops, "EMC"]
        res = page["/Resources"].get_object()
        xo = res.get("/XObject")
        if xo is None:
            xo = DictionaryObject()
            res[NameObject("/XObject")] = xo
        xo = xo.get_object()
        for code in sorted({it.ref for it in items}):  # sorted: the same file every build
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
