"""Bleed for pages that are their own trim: the rulebooks' and the compendium's pages in
the print-shop copies (issue 27, item 3).

A rulebook page is laid out at its paper size: its cover and part titles are coloured to
the edge, and nothing of it lies past the edge. A print shop trims a book from a larger
sheet and asks for 3 mm of bleed round every page, so that a cut a little off the line
leaves no white hairline. The home copy keeps its paper size (a home printer cannot print
to the edge, and a viewer shows what is printed); the print-shop copy gets the bleed here:

- the page's boxes grow by :data:`BLEED` on every side: the MediaBox and the BleedBox become
  ``[-b, -b, w + b, h + b]``, the TrimBox stays the page (a MediaBox need not start at the
  origin, so nothing already on the page moves: its content, its links and its tag tree's
  references stay as they are);
- the bleed is filled with the page's own edge, mirrored: the page is drawn again, behind
  itself, reflected in each edge and each corner and clipped to that band of the bleed.
  A colour that reaches the trim (a cover's tint, a band) runs on into the bleed
  unchanged; a white margin gives a white bleed. It is how prepress tools make bleed for
  art that has none ("mirror edge"), and it needs to know nothing about the page.

The mirrored copies are drawn as an artifact (``/Artifact BMC``): they belong to no
structure element, and a reader that follows the tags reads each page once.
"""

from __future__ import annotations

import pikepdf
from pikepdf import Array, Dictionary, Name

#: the bleed a print shop asks for round a trimmed page, in points (3 mm)
BLEED = 3.0 * 72 / 25.4


def _box(page: pikepdf.Page, name: str) -> list[float] | None:
    box = page.obj.get(name)
    return [float(v) for v in box] if box is not None else None


def own_trim(page: pikepdf.Page) -> bool:
    """Whether ``page`` is its own trim: no TrimBox, or one that is its MediaBox (a
    rulebook's page; a print-and-play sheet's TrimBox is the pieces on it, inside)."""
    media = [float(v) for v in page.mediabox]
    trim = _box(page, "/TrimBox")
    return trim is None or all(abs(a - b) < 0.01 for a, b in zip(trim, media))


def is_book(pdf: pikepdf.Pdf) -> bool:
    """Whether every page of ``pdf`` is its own trim: a book, whose pages are cut to size
    (not a sheet of pieces to cut out)."""
    return len(pdf.pages) > 0 and all(own_trim(p) for p in pdf.pages)


def _content(page: pikepdf.Page) -> bytes:
    contents = page.obj.get("/Contents")
    if contents is None:
        return b""
    if isinstance(contents, pikepdf.Array):
        return b"\n".join(c.read_bytes() for c in contents)
    return contents.read_bytes()


def add_bleed(pdf: pikepdf.Pdf, page: pikepdf.Page, bleed: float = BLEED) -> None:
    """Give ``page`` (a page that is its own trim) ``bleed`` points of mirrored bleed."""
    x0, y0, x1, y1 = [float(v) for v in page.mediabox]
    w, h = x1 - x0, y1 - y0
    b = bleed
    res = page.obj.get("/Resources")
    if res is None:
        res = page.obj.Resources = Dictionary()
    form = pikepdf.Stream(pdf, _content(page))
    form.Type, form.Subtype = Name.XObject, Name.Form
    form.BBox = Array([x0, y0, x1, y1])
    # the form's resources are the page's as they were (not holding the form itself)
    form.Resources = Dictionary({k: v for k, v in res.items()})
    xobjects = res.get("/XObject")
    if xobjects is None:
        xobjects = res.XObject = Dictionary()
    else:
        xobjects = res.XObject = Dictionary({k: v for k, v in xobjects.items()})
    name = "/WbBleed"
    while name in xobjects:
        name += "x"
    xobjects[name] = pdf.make_indirect(form)
    # each band of the bleed (x, y, width, height) and the reflection that fills it:
    # x -> 2*x0 - x (the left edge), 2*x1 - x (the right), the same for y
    left, right = (2 * x0, x0 - b, b), (2 * x1, x1, b)
    bottom, top = (2 * y0, y0 - b, b), (2 * y1, y1, b)
    keep_x, keep_y = (None, x0, w), (None, y0, h)
    ops = ["q /Artifact BMC"]
    for fx, bx, bw in (left, keep_x, right):
        for fy, by, bh in (bottom, keep_y, top):
            if fx is None and fy is None:
                continue  # the page itself
            a, e = (1, 0) if fx is None else (-1, fx)
            d, f = (1, 0) if fy is None else (-1, fy)
            ops.append(f"q {bx:.4f} {by:.4f} {bw:.4f} {bh:.4f} re W n "
                       f"{a} 0 0 {d} {e:.4f} {f:.4f} cm {name} Do Q")
    ops.append("EMC Q")
    behind = pikepdf.Stream(pdf, "\n".join(ops).encode() + b"\n")
    contents = page.obj.get("/Contents")
    parts = list(contents) if isinstance(contents, pikepdf.Array) else \
        ([contents] if contents is not None else [])
    # the mirrored bands first (behind the page), then the page as it was, in its own q/Q
    page.obj.Contents = Array([pdf.make_indirect(behind),
                               pdf.make_indirect(pikepdf.Stream(pdf, b"q\n")),
                               *parts,
                               pdf.make_indirect(pikepdf.Stream(pdf, b"\nQ\n"))])
    grown = Array([x0 - b, y0 - b, x1 + b, y1 + b])
    page.obj.MediaBox = grown
    page.obj.BleedBox = Array([x0 - b, y0 - b, x1 + b, y1 + b])
    page.obj.TrimBox = Array([x0, y0, x1, y1])
    if "/CropBox" in page.obj:
        page.obj.CropBox = Array([x0 - b, y0 - b, x1 + b, y1 + b])
    if "/ArtBox" in page.obj:
        del page.obj["/ArtBox"]


#: pages to a folded sheet: a book bound from folded sheets (saddle-stitched, or sewn in
#: signatures) has a number of pages that this divides
LEAF = 4


def pad_book(pdf: pikepdf.Pdf, leaf: int = LEAF) -> int:
    """Make a book's page count a multiple of ``leaf`` (issue 27, item 6) with blank pages
    put before its last page, which stays last: it is the back cover (the quick
    reference); after the last page of a book that ends with its index (the compendium).
    Returns the pages added; a sheet of pieces (:func:`is_book` false) gets
    none."""
    if not is_book(pdf) or len(pdf.pages) < 2:
        return 0
    short = -len(pdf.pages) % leaf
    last = pdf.pages[-1]
    # a book that ends with an index (the compendium's last part) has no back cover of its
    # own there: the blanks follow the index
    at = len(pdf.pages) if ends_with_index(pdf) else len(pdf.pages) - 1
    for _ in range(short):
        blank = pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=Array(last.mediabox),
                                        Resources=Dictionary(),
                                        Contents=pdf.make_stream(b"")))
        pdf.pages.insert(at, blank)
    return short


def ends_with_index(pdf: pikepdf.Pdf) -> bool:
    """Whether the book's last pages are an index: its page labels' last range is the
    index's ("Index 1", as ``book/bind.py`` labels the compendium's)."""
    from .book.bind import INDEX_TITLE

    nums = pdf.Root.get("/PageLabels", {}).get("/Nums", [])
    return len(nums) >= 2 and str(nums[-1].get("/P", "")) == f"{INDEX_TITLE} "


def bleed_book(pdf: pikepdf.Pdf, bleed: float = BLEED) -> bool:
    """Give every page of ``pdf`` mirrored bleed if it is a book (:func:`is_book`); returns
    whether it did."""
    if not is_book(pdf):
        return False
    for page in pdf.pages:
        add_bleed(pdf, page, bleed)
    return True
