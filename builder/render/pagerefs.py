"""Page references ("3.2 Outflanking, p. 5", the contents' page numbers) filled in after
one layout pass.

CSS ``target-counter()`` would do this, but WeasyPrint resolves it by laying pages out
again: every page that holds a reference is laid out two or three times, which was more
than half the cost of a rulebook. Instead the templates print each page number as
``<span class="pg" data-ref="ANCHOR">00</span>``; after the single layout pass the anchors'
pages are known, and each placeholder's text is replaced by its page number:

- in running text (``pg``) the rest of the line moves left or right by the difference in
  width between the placeholder and the number, so nothing overlaps and no gap is left;
- in the contents (``pg pg-r``) the number keeps its right edge, so the numbers stay
  aligned under each other after the leader dots.

The placeholder has two digits, the width of most page numbers in a rulebook, so the
difference is small: the line's length changes by at most the width of one digit.
"""

from __future__ import annotations

from types import SimpleNamespace

from weasyprint.formatting_structure import boxes
from weasyprint.text.line_break import split_first_line


class PageRefError(Exception):
    pass


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
    text = str(where[anchor])
    width = _text_width(box, text)
    delta = width - box.width
    box.text = text
    box.pango_layout.text = text
    box.width = width
    return box, delta


def _walk(box, where: dict[str, int], shift: float) -> float:
    """Move ``box`` by ``shift`` and fill the references inside it; returns the shift for
    what follows it on the line."""
    if shift:
        box.position_x += shift
    if _is_ref(box):
        text, delta = _fill(box, where)
        if shift:
            for child in box.children:
                child.translate(dx=shift)
        if "pg-r" in box.element.get("class", "").split():
            text.position_x -= delta  # keep the right edge where it was
            return shift
        box.width += delta
        return shift + delta
    if isinstance(box, boxes.InlineBox):
        before = shift
        for child in box.children:
            shift = _walk(child, where, shift)
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


def fill_page_refs(doc) -> int:
    """Replace every page-number placeholder of a laid-out document; returns how many."""
    where = anchor_pages(doc)
    count = 0
    for page in doc.pages:
        for line in page._page_box.descendants():
            if isinstance(line, boxes.LineBox) and (n := _refs(line)):
                count += n
                shift = 0.0
                for child in line.children:
                    shift = _walk(child, where, shift)
    return count
