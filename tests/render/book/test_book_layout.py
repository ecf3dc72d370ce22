"""How the rulebooks place worked examples: the height estimate that decides which examples
are kept on one page, and where a step's commentary goes. The estimate is compared with the
heights WeasyPrint actually lays out."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from markupsafe import Markup
from weasyprint.formatting_structure import boxes

from builder.render.book.pdf import BookRenderer, comment_below, example_height
from builder.settings import PAPERS, Settings

PX_PER_MM = 96 / 25.4


@pytest.fixture(scope="module")
def books():
    return BookRenderer(Settings(content_root=Path("content"), output=Path("output")))


def laid_out_examples(books, gr) -> dict[str, list[float]]:
    """Each example's laid-out height (mm) on each page it covers."""
    g, html = books.book_html(gr)
    doc = books._html(html)
    heights: dict[str, list[float]] = {}
    for page in doc.pages:
        for box in page._page_box.descendants():
            el = box.element
            if (isinstance(box, boxes.BlockBox) and el is not None and box.element_tag == "article"
                    and "example" in el.get("class", "").split()):
                heights.setdefault(el.get("id"), []).append(box.margin_height() / PX_PER_MM)
    return heights


def test_the_example_height_estimate_is_close(books, report):
    """For War: the estimate is within a tenth of the height WeasyPrint lays out (examples
    flow from page to page since issue 14: measured on those that land in one piece, as a
    broken example's pieces run to the foot of their page)."""
    gr = next(g for g in report.games if g.game.slug == "war")
    view = books.view(gr)
    real = laid_out_examples(books, gr)
    assert len(real) == len(view.examples)
    whole = [e for e in view.examples if len(real[e.anchor]) == 1]
    assert len(whole) >= 3  # measured on the examples laid out in one piece
    for e in whole:
        (height,) = real[e.anchor]
        estimate = example_height(e, PAPERS["a4"].text_width)
        assert abs(estimate / height - 1) <= 0.1, (e.title, height, estimate)


def test_long_comments_go_below_short_ones_stay_beside(books, report):
    gr = next(g for g in report.games if g.game.slug == "battle-lines")
    step = books.view(gr).examples[0].steps[0]
    width = PAPERS["a4"].text_width
    assert step.comment and comment_below(step, width)  # three paragraphs beside 74 mm of table
    short = replace(step, comment=Markup("<p>Blue keeps the two.</p>"))
    assert not comment_below(short, width)
    assert not comment_below(replace(step, comment=Markup("")), width)


def test_a_long_comment_is_laid_out_below_and_may_cross_a_page(books, report):
    """Battle Lines has the longest comments: they run across the page below their step,
    and no step leaves more than half a page empty before the next example starts."""
    gr = next(g for g in report.games if g.game.slug == "battle-lines")
    g, html = books.book_html(gr)
    assert html.count("ex-comment-below") >= 5
    doc = books._html(html)
    # a page of worked examples is at least half full (the last page of the section aside)
    pages = [p for p in doc.pages if any(
        b.element is not None and "ex-step" in (b.element.get("class") or "").split()
        for b in p._page_box.descendants())]
    for page in pages[:-1]:
        # what the page holds, not its running heads and number (margin boxes)
        content = [c for c in page._page_box.children if not isinstance(c, boxes.MarginBox)]
        bottoms = [b.position_y + b.margin_height() for c in content
                   for b in c.descendants(placeholders=True)
                   if isinstance(b, (boxes.LineBox, boxes.ReplacedBox))]
        top = page._page_box.content_box_y()
        used = (max(bottoms) - top) / PX_PER_MM
        assert used >= PAPERS["a4"].text_height * 0.5, (doc.pages.index(page) + 1, used)
