"""Page references filled in after one layout pass (builder/render/book/pagerefs.py)."""

from __future__ import annotations

import pytest
from weasyprint import HTML
from weasyprint.formatting_structure import boxes

from builder.render.book.pagerefs import PageRefError, fill_page_refs
from builder.render.markup import page_ref

PAGES = """
<style>@page { size: A6; margin: 10mm } p { font-size: 11pt; text-align: justify }
.toc a { display: block }</style>
<div class="toc"><a href="#far">Far away<span class="pg pg-r" data-ref="far">00</span></a></div>
<p>Read <a class="xref" href="#near">the near rule{ref_near}</a> and then carry on reading this
line, which is long enough to wrap over several lines of the small page.</p>
{fillers}
<h2 id="near" style="break-before: page">Near</h2>
{fillers2}
<h2 id="far" style="break-before: page">Far</h2>
"""


def layout():
    return HTML(string=page("#near", "<div style='break-before: page'>x</div>" * 10)).render()


def page(ref: str, fillers: str) -> str:
    return PAGES.replace("{ref_near}", page_ref(ref)).replace("{fillers}", "").replace(
        "{fillers2}", fillers)


def text_boxes(doc):
    for page in doc.pages:
        for box in page._page_box.descendants():
            if isinstance(box, boxes.TextBox):
                yield box


def number_box(doc, placeholder_parent_ref):
    for page in doc.pages:
        for box in page._page_box.descendants():
            if (isinstance(box, boxes.InlineBox) and box.element is not None
                    and box.element.get("data-ref") == placeholder_parent_ref):
                (text,) = [c for c in box.children if isinstance(c, boxes.TextBox)]
                return text
    raise AssertionError(placeholder_parent_ref)


def following(doc, box):
    """The text box laid out right after ``box`` on its line."""
    seq = list(text_boxes(doc))
    return seq[seq.index(box) + 1]


def test_numbers_replace_placeholders_and_the_line_closes_up():
    doc = layout()
    near = number_box(doc, "near")
    far = number_box(doc, "far")
    assert near.text == far.text == "00"
    entry = next(b for p in doc.pages for b in p._page_box.descendants()
                 if isinstance(b, boxes.BlockBox) and b.element_tag == "a")
    far_right = entry.padding_box_x() + entry.padding_width()
    assert far.position_x + far.width < far_right - 50  # before: right after the title
    placeholder_width = near.width
    after = following(doc, near)
    assert after.position_x == pytest.approx(near.position_x + near.width)

    assert fill_page_refs(doc) == 2
    assert near.text == "2" and far.text == "13"
    # running text: what follows the number starts where the number now ends
    assert after.position_x == pytest.approx(near.position_x + near.width)
    assert near.width < placeholder_width * 0.6  # one digit, not two: the line closed up
    # the contents: the number is set flush right in its entry
    assert far.position_x + far.width == pytest.approx(far_right)


def test_the_link_box_shrinks_with_its_number():
    doc = layout()
    link = next(b for p in doc.pages for b in p._page_box.descendants()
                if isinstance(b, boxes.InlineBox) and b.element_tag == "a"
                and b.element.get("href") == "#near")
    near = number_box(doc, "near")
    fill_page_refs(doc)
    assert link.position_x + link.width == pytest.approx(near.position_x + near.width)


def test_a_reference_to_a_missing_anchor_is_an_error():
    doc = HTML(string=page("#nowhere", "")).render()
    with pytest.raises(PageRefError, match="nowhere"):
        fill_page_refs(doc)


def test_the_links_follow_the_numbers():
    """A link's rectangle is its text's once the number replaces the placeholder (WeasyPrint
    gathered it from the boxes as laid out: a digit too wide, over the next link)."""
    doc = HTML(string="""<style>@page { size: A6; margin: 10mm } p { font-size: 11pt }</style>
    <p id="here"><a href="#here">one&nbsp;&middot;&nbsp;<span class="pg" data-ref="here">00</span></a>,
    <a href="#there">two</a></p><h2 id="there">There</h2>""").render()
    fill_page_refs(doc)
    (first, second) = [link for link in doc.pages[0].links if link[0] == "internal"
                       and link[3].element_tag == "a"]
    number = number_box(doc, "here")
    assert number.text == "1"
    end = first[2][2]  # a rectangle: x0, y0, x1, y1
    assert end == pytest.approx(number.position_x + number.width, abs=0.01)
    comma = following(doc, number)  # ", " between the links
    assert comma.text.startswith(",") and end <= comma.position_x + 0.01
    assert second[2][0] == pytest.approx(following(doc, comma).position_x, abs=0.01)
