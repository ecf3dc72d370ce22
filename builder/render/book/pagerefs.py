"""Page references ("3.2 Outflanking, p. 5", the contents' page numbers) filled in after
one layout pass.

CSS ``target-counter()`` would do this, but WeasyPrint resolves it by laying pages out
again: every page that holds a reference is laid out two or three times, which was more
than half the cost of a rulebook. Instead the templates print each page number as
``<span class="pg" data-ref="ANCHOR">00</span>``; after the single layout pass the anchors'
pages are known, and each placeholder's text is replaced by its page number:

- in running text (``pg``) the rest of the line moves left or right by the difference in
  width between the placeholder and the number, so nothing overlaps and no gap is left;
- in the contents (``pg pg-r``) the number is set flush with the right edge of its block
  (its padding box), so the numbers stand aligned under each other, on the baseline of
  the entry's last line. (The leader dots are a CSS background: WeasyPrint's ``leader()``
  makes a box of every dot, thousands a contents page, which cost more than the rest.)
- ``data-style="lower-roman"`` prints the number as i, ii, iii (the compendium's front);
- ``data-prefix`` goes before the number ("Battle · 1", a part's first page in the
  compendium's contents, as the part's folios print it).

The placeholder has two digits, the width of most page numbers in a rulebook, so the
difference is small: the line's length changes by at most the width of one digit.
"""

from __future__ import annotations

from types import SimpleNamespace

from weasyprint.anchors import gather_anchors
from weasyprint.formatting_structure import boxes
from weasyprint.text.line_break import split_first_line

from ..errors import RenderError


class PageRefError(RenderError):
    """A page reference that cannot be filled in after layout."""


def anchor_pages(doc) -> dict[str, int]:
    """The page number (from 1) on which each anchor of a laid-out document landed."""
    where: dict[str, int] = {}
    for i, page in enumerate(doc.pages, start=1):
        for anchor in page.anchors:
            where.setdefault(anchor, i)
    return where


def _is_ref(box) -> bool:
    element = box.element
    return (isinstance(box, boxes.InlineBox) and element is not None
            and box.element_tag == "span" and "data-ref" in element.attrib
            and "pg" in element.get("class", "").split())


def _text_width(box: boxes.TextBox, text: str) -> float:
    # hyphenation never applies to a number: no dictionaries are needed
    return split_first_line(text, box.style, SimpleNamespace(dictionaries={}), None, 0)[3]


def _fill(ref, where: dict[str, int]) -> tuple[boxes.TextBox, float]:
    """Put the page number into a placeholder; returns its text box and the change in its
    width (number less placeholder)."""
    anchor = ref.element.get("data-ref")
    if anchor not in where:
        raise PageRefError(f"page reference to '{anchor}', which is not in the book")
    texts = [c for c in ref.children if isinstance(c, boxes.TextBox)]
    if len(texts) != 1:
        raise PageRefError(f"page reference to '{anchor}' split over {len(texts)} text boxes")
    (box,) = texts
    page = where[anchor]
    text = roman(page) if ref.element.get("data-style") == "lower-roman" else str(page)
    text = ref.element.get("data-prefix", "") + text  # "Battle · " (the compendium's parts)
    width = _text_width(box, text)
    delta = width - box.width
    box.text = text
    box.pango_layout.text = text
    box.width = width
    return box, delta


def _walk(box, where: dict[str, int], shift: float, right: float) -> float:
    """Move ``box`` by ``shift`` and fill the references inside it; returns the shift for
    what follows it on the line. ``right`` is the right edge of the line's block (its
    padding box)."""
    if shift:
        box.position_x += shift
    if _is_ref(box):
        text, delta = _fill(box, where)
        if shift:
            for child in box.children:
                child.translate(dx=shift)
        if "pg-r" in box.element.get("class", "").split():
            box.width += delta
            box.translate(dx=right - (box.position_x + box.margin_width()))
            return shift
        box.width += delta
        return shift + delta
    if isinstance(box, boxes.InlineBox):
        before = shift
        for child in box.children:
            shift = _walk(child, where, shift, right)
        box.width += shift - before  # an inline box holding a reference grows with it
    elif shift:
        # an atomic inline (an inline block or an image) moves whole; the lines inside an
        # inline block are lines of their own, filled on their own
        for child in box.all_children() if isinstance(box, boxes.ParentBox) else ():
            child.translate(dx=shift)
    return shift


def _refs(box) -> int:
    if _is_ref(box):
        return 1
    if isinstance(box, (boxes.LineBox, boxes.InlineBox)):
        return sum(_refs(c) for c in box.children)
    return 0


def roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
                           (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
                           (4, "iv"), (1, "i")):
        while n >= value:
            out += letters
            n -= value
    return out


def fill_page_refs(doc, elsewhere: dict[str, int] | None = None) -> int:
    """Replace every page-number placeholder of a laid-out document; returns how many.
    ``elsewhere`` gives the pages of anchors that are not in the document itself (the
    compendium's contents points into its parts)."""
    where = {**(elsewhere or {}), **anchor_pages(doc)}
    count = 0
    for page in doc.pages:
        before = count
        for block in page._page_box.descendants():
            if not isinstance(block, boxes.BlockContainerBox):
                continue
            right = block.padding_box_x() + block.padding_width()
            for line in block.children:
                if isinstance(line, boxes.LineBox) and (n := _refs(line)):
                    count += n
                    shift = 0.0
                    for child in line.children:
                        shift = _walk(child, where, shift, right)
        if count > before:
            _relink(page)
    return count


def _relink(page) -> None:
    """Gather the page's links again: WeasyPrint took their rectangles from the boxes as
    laid out, before the numbers changed the width of the placeholders and moved what
    follows them on their lines (a link holding "5" where "00" was stood a digit too wide,
    over the next link's first character)."""
    links: list = []
    gather_anchors(page._page_box, {}, links, [], {None: []})
    page.links[:] = links
