"""Print-shop copies of the written PDFs: PDF/X-4, every colour in CMYK, with the CMYK
profile they were separated for as the output intent (``warbook build --print-shop``).

The PDFs warbook writes are RGB: WeasyPrint paints CSS and SVG colours as DeviceRGB, and
``stamp.py`` draws the diagrams in RGB too. A print shop wants the separation done and
said: every colour in DeviceCMYK, and an output intent naming the printing condition. So a
copy of each finished PDF is made here, with pikepdf:

- every RGB colour operator (``rg``, ``RG``, and ``sc``/``scn`` in an RGB colour space) in
  every content stream (pages, forms, tiling patterns, any Type 3 font's glyphs,
  annotations' appearances) becomes its CMYK value, as LittleCMS (Pillow's ImageCms)
  converts it from sRGB into the output profile, relative colorimetric; a neutral grey
  becomes black ink alone (0 0 0 k), as prepress does for text and rules, so that no
  hairline needs four plates in register;
- shadings' colour functions, transparency groups and RGB images are converted the same way;
- the catalogue gains the output intent (``/GTS_PDFX``, the profile embedded) and the XMP
  metadata ``pdfxid:GTS_PDFXVersion = PDF/X-4``; every page gets a TrimBox (the sheets'
  own, else the page) and a BleedBox within the MediaBox;
- a book (a rulebook, the compendium: every page its own trim) is padded to a multiple of
  four pages with blanks before its last page (the back cover), and its pages get 3 mm of
  bleed, the page's edges mirrored into it (:mod:`builder.render.pagebleed`).

WeasyPrint 70 has a ``pdf/x-4`` variant of its own, but it only writes that metadata and
an output intent: it leaves the colours RGB, and the PDFs are finished after WeasyPrint
(diagrams stamped, crop marks drawn), so the separation is done here, on the finished file.

The CMYK profile is Ghostscript's ``default_cmyk.icc`` from Debian's ``libgs10-common``
(``scripts/setup`` installs it), or any CMYK profile named with ``--cmyk-profile``.
The fonts stay as they are: every one is embedded, a subset of its font file, the
diagrams' words too (``stamp.py``); the books hold no Type 3 font, which some RIPs
rasterise and preflight flags (a Type 3 font's glyphs, should a PDF have one, are
separated like any other content stream).
"""

from __future__ import annotations

import io
import logging
import os
import zlib
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, Operator

from .errors import RenderError
from .pagebleed import bleed_book, pad_book

log = logging.getLogger("warbook.render.printshop")

#: where Debian's libgs10-common puts Ghostscript's CMYK profile
DEFAULT_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
CONDITION = "CMYK as warbook separated it (see the embedded output profile)"


class PrintShopError(RenderError):
    """The print-shop copies cannot be made (no CMYK profile, an unsupported colour)."""


def cmyk_profile(path: Path | None = None) -> bytes:
    """The bytes of a CMYK ICC profile (``path``, else Ghostscript's), checked to be one."""
    p = Path(path) if path else DEFAULT_PROFILE
    try:
        data = p.read_bytes()
    except OSError:
        hint = ("install Debian's libgs10-common (bash scripts/setup does)" if path is None
                else "name a readable CMYK .icc file")
        raise PrintShopError(f"{p}: error: no CMYK colour profile there (hint: {hint})") from None
    if len(data) < 128 or data[36:40] != b"acsp" or data[16:20] != b"CMYK":
        raise PrintShopError(f"{p}: error: not a CMYK ICC profile (its colour space is "
                             f"{data[16:20].decode('latin-1', 'replace').strip() or 'unknown'})")
    return data


class Separator:
    """sRGB to the output profile's CMYK, colour by colour (cached) and image by image."""

    def __init__(self, profile: bytes):
        from PIL import ImageCms

        self.profile = profile
        self._transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(profile)),
            "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self._cache: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}

    def colour(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        key = tuple(max(0, min(255, round(float(v) * 255))) for v in (r, g, b))
        if key[0] == key[1] == key[2]:  # neutral: black ink alone
            return (0.0, 0.0, 0.0, round(1 - key[0] / 255, 4))
        if key not in self._cache:
            from PIL import Image, ImageCms

            px = ImageCms.applyTransform(Image.new("RGB", (1, 1), key), self._transform)
            self._cache[key] = tuple(round(v / 255, 4) for v in px.getpixel((0, 0)))
        return self._cache[key]

    def image(self, img):
        from PIL import ImageCms

        return ImageCms.applyTransform(img.convert("RGB"), self._transform)


def _is_rgb(cs, resources) -> bool:
    """Whether a colour space (a name, maybe one of the resources') is an RGB one."""
    if isinstance(cs, Name):
        if cs == Name.DeviceRGB:
            return True
        named = resources.get("/ColorSpace", {}).get(cs) if resources is not None else None
        return named is not None and _is_rgb(named, None)
    if isinstance(cs, Array) and len(cs) >= 2 and cs[0] == Name.ICCBased:
        return int(cs[1].get("/N", 0)) == 3
    return False


class _Pass:
    def __init__(self, pdf: pikepdf.Pdf, sep: Separator):
        self.pdf = pdf
        self.sep = sep
        self.done: set[tuple[int, int]] = set()

    def _first(self, obj) -> bool:
        if obj.is_indirect:
            if obj.objgen in self.done:
                return False
            self.done.add(obj.objgen)
        return True

    def stream(self, holder, resources) -> None:
        """Rewrite the colours of one content stream (a page's or a form's) in place."""
        instructions = pikepdf.parse_content_stream(holder)
        out = []
        rgb = {"fill": False, "stroke": False}
        changed = False
        for operands, op in instructions:
            o = str(op)
            if o in ("rg", "RG"):
                c = self.sep.colour(*operands)
                out.append((list(c), Operator("k" if o == "rg" else "K")))
                changed = True
                continue
            if o in ("cs", "CS"):
                side = "fill" if o == "cs" else "stroke"
                rgb[side] = _is_rgb(operands[0], resources)
                if rgb[side]:
                    out.append(([Name.DeviceCMYK], op))
                    changed = True
                    continue
            if o in ("sc", "scn", "SC", "SCN") and rgb["fill" if o.islower() else "stroke"] \
                    and len(operands) == 3:
                out.append((list(self.sep.colour(*operands)), op))
                changed = True
                continue
            out.append((operands, op))
        if changed:
            data = pikepdf.unparse_content_stream(out)
            if isinstance(holder, pikepdf.Page):
                holder.contents_coalesce()
                holder.obj.Contents.write(data)
            else:
                holder.write(data)
        self.resources(resources)

    def resources(self, res) -> None:
        if res is None:
            return
        for name, xobj in list(res.get("/XObject", {}).items()):
            if not self._first(xobj):
                continue
            if xobj.get("/Subtype") == Name.Form:
                self.group(xobj)
                self.stream(xobj, xobj.get("/Resources", res))
            elif xobj.get("/Subtype") == Name.Image:
                self.image(xobj)
        for pat in res.get("/Pattern", {}).values():
            if not self._first(pat):
                continue
            if int(pat.get("/PatternType", 0)) == 1:
                self.stream(pat, pat.get("/Resources"))
            elif "/Shading" in pat:
                self.shading(pat.Shading)
        for sh in res.get("/Shading", {}).values():
            if self._first(sh):
                self.shading(sh)
        for font in res.get("/Font", {}).values():
            if font.get("/Subtype") == Name.Type3 and self._first(font):
                for proc in font.get("/CharProcs", {}).values():
                    if self._first(proc):
                        self.stream(proc, font.get("/Resources", res))
        for gs in res.get("/ExtGState", {}).values():
            mask = gs.get("/SMask")
            if isinstance(mask, Dictionary) and "/G" in mask and self._first(mask.G):
                self.group(mask.G)
                self.stream(mask.G, mask.G.get("/Resources"))
        cspaces = res.get("/ColorSpace")
        if cspaces is not None:
            for key, cs in list(cspaces.items()):
                if _is_rgb(cs, None):
                    cspaces[key] = Name.DeviceCMYK

    def group(self, form) -> None:
        g = form.get("/Group")
        if g is not None and _is_rgb(g.get("/CS"), None):
            g.CS = Name.DeviceCMYK

    def _function(self, fn) -> None:
        t = int(fn.get("/FunctionType", -1))
        if t == 2:
            for key in ("/C0", "/C1"):
                vals = fn.get(key, Array([0, 0, 0] if key == "/C0" else [1, 1, 1]))
                fn[key] = Array(list(self.sep.colour(*vals)))
        elif t == 3:
            for sub in fn.Functions:
                self._function(sub)
        else:
            raise PrintShopError(f"a shading colour function of type {t} cannot be separated")

    def shading(self, sh) -> None:
        if not _is_rgb(sh.get("/ColorSpace"), None):
            return
        fn = sh.get("/Function")
        if fn is None or isinstance(fn, Array):
            raise PrintShopError("an RGB shading without one colour function cannot be separated")
        self._function(fn)
        sh.ColorSpace = Name.DeviceCMYK

    def image(self, xobj) -> None:
        if not _is_rgb(xobj.get("/ColorSpace"), None):
            return
        from pikepdf import PdfImage

        img = self.sep.image(PdfImage(xobj).as_pil_image())
        xobj.write(zlib.compress(img.tobytes()), filter=Name.FlateDecode)
        xobj.ColorSpace = Name.DeviceCMYK
        xobj.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in xobj:
                del xobj[key]


def separate(src: Path, target: Path, profile: bytes) -> None:
    """Write ``target``, the print-shop copy of ``src`` (see the module's description)."""
    sep = Separator(profile)
    with pikepdf.open(src) as pdf:
        work = _Pass(pdf, sep)
        for page in pdf.pages:
            work.group(page.obj)
            work.stream(page, page.obj.get("/Resources"))
            for annot in page.obj.get("/Annots", []):
                for ap in annot.get("/AP", {}).values():
                    if isinstance(ap, pikepdf.Stream) and work._first(ap):
                        work.stream(ap, ap.get("/Resources"))
            media = [float(v) for v in page.mediabox]
            if "/TrimBox" not in page.obj:
                page.obj.TrimBox = Array(media)
            if "/BleedBox" not in page.obj:
                page.obj.BleedBox = Array(media)
        # a book's pages (cut to size): as many as fold into sheets of four, the back cover
        # last, each with 3 mm of bleed, its own edges mirrored into it
        pad_book(pdf)
        bleed_book(pdf)
        icc = pikepdf.Stream(pdf, profile)
        icc.N = 4
        pdf.Root.OutputIntents = Array([Dictionary(
            Type=Name.OutputIntent, S=Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String("Custom"),
            OutputCondition=pikepdf.String(CONDITION),
            Info=pikepdf.String(CONDITION),
            DestOutputProfile=pdf.make_indirect(icc))])
        pdf.trailer.Info = pdf.make_indirect(pdf.trailer.get("/Info", Dictionary()))
        pdf.trailer.Info.Trapped = Name("/False")
        with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
            meta.register_xml_namespace("http://www.npes.org/pdfx/ns/id/", "pdfxid")
            meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
            meta["pdf:Trapped"] = "False"
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            pdf.save(tmp, object_stream_mode=pikepdf.ObjectStreamMode.generate,
                     force_version="1.6")
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)


def separate_all(pdf_dir: Path, shop_dir: Path, profile: bytes) -> int:
    """The print-shop copy of every PDF in ``pdf_dir``, into ``shop_dir``; returns how many."""
    shop_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    for src in sorted(pdf_dir.glob("*.pdf")):
        separate(src, shop_dir / src.name, profile)
        n += 1
    log.info(f"wrote {shop_dir.name}/ ({n} PDF/X-4 CMYK copies)")
    return n
