"""Balanced columns by bisection (builder/render/book/columns.py): the same columns as
WeasyPrint's own balancing, within the bisection's precision, in far fewer layouts.

Each case is a small page laid out twice, with WeasyPrint's ``columns_layout`` and with
warbook's, counting the blocks laid out inside the column set; the paragraph after the
columns says how tall they came out, and every block is checked to be on the page.
"""

from __future__ import annotations

import pytest
import weasyprint
from weasyprint import HTML
from weasyprint.layout import block as wp_block

from builder.render.book import columns


def test_the_copy_is_of_the_weasyprint_the_project_runs():
    """The bisection is a copy of WeasyPrint 70.0's ``columns_layout`` with its balancing
    changed. Another WeasyPrint keeps its own balancing (``install`` says False) and this
    test fails: copy the function again from the new release and mark the changes."""
    assert weasyprint.__version__ == columns.FROM_VERSION
    assert columns.install()
    assert wp_block.columns_layout is columns.columns_layout


def glossary(terms: int, lines=lambda i: 1 + i % 3) -> str:
    """A two-column list of short entries, each kept whole (as the books' glossary), and a
    paragraph after it."""
    entries = "".join(
        f'<div class="t" id="t{i}"><b>Term {i}</b> ' + "words of the entry " * 4 * lines(i)
        + "</div>" for i in range(terms))
    return (f"<html><head><style>@page {{ size: A4; margin: 20mm }} body {{ font: 10pt serif }}"
            f" .cols {{ columns: 2; column-gap: 7mm }} .t {{ break-inside: avoid;"
            f" margin-bottom: 2mm }}</style></head><body><p>Before.</p>"
            f'<div class="cols">{entries}</div><p id="after">After.</p></body></html>')


def lay_out(render, way) -> tuple[list, int]:
    """The pages ``render()`` lays out and the blocks laid out inside column sets, with
    ``way`` as the column layout."""
    counted = {"n": 0}
    layout = wp_block.block_box_layout

    def counting(*a, **k):
        counted["n"] += 1
        return layout(*a, **k)

    def column_set(*a, **k):
        wp_block.block_box_layout = counting
        try:
            return way(*a, **k)
        finally:
            wp_block.block_box_layout = layout

    saved = wp_block.columns_layout
    wp_block.columns_layout = column_set
    try:
        doc = render()
    finally:
        wp_block.columns_layout = saved
    return doc.pages, counted["n"]


def where(pages, element_id: str) -> tuple[int, float]:
    """(page index, y) of the element's box."""
    for n, page in enumerate(pages):
        for box in walk(page._page_box):
            if box.element is not None and box.element.get("id") == element_id:
                return n, box.position_y
    raise AssertionError(f"no box for #{element_id}")


def walk(box):
    yield box
    for child in getattr(box, "children", []):
        yield from walk(child)


@pytest.mark.parametrize("terms", [7, 24, 61])
def test_the_columns_come_out_as_weasyprints_within_the_precision(terms):
    html = glossary(terms)
    theirs, their_work = lay_out(HTML(string=html).render, columns._ORIGINAL)
    ours, our_work = lay_out(HTML(string=html).render, columns.columns_layout)
    assert len(ours) == len(theirs)
    page, y = where(ours, "after")
    their_page, their_y = where(theirs, "after")
    assert page == their_page
    # the shortest height that fits, never taller than WeasyPrint's, and short of it by at
    # most the precision (WeasyPrint may overshoot by its last step)
    assert their_y - 3 * columns.PRECISION <= y <= their_y + columns.PRECISION, (y, their_y)
    for i in range(terms):  # every entry on a page, in order
        where(ours, f"t{i}")
    assert our_work <= their_work


def test_the_war_rulebook_takes_a_fraction_of_the_layouts(report, tmp_path):
    """The case that made WeasyPrint slow: War's rulebook, whose glossary of short entries
    kept whole grew a pixel or two a round under WeasyPrint's balancing (2,096 blocks laid
    out for it alone; bench/columns.py). The same pages, in under half the work."""
    from builder.render.book.pdf import BookRenderer
    from builder.settings import Settings

    war = next(g for g in report.games if g.game.slug == "war")
    renderer = BookRenderer(Settings(content_root=report.content.root, output=tmp_path),
                            figures=None)
    _, html = renderer.book_html(war)
    theirs, their_work = lay_out(lambda: renderer._html(html), columns._ORIGINAL)
    ours, our_work = lay_out(lambda: renderer._html(html), columns.columns_layout)
    assert len(ours) == len(theirs)
    assert our_work * 2 <= their_work, (our_work, their_work)

