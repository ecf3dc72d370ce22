"""The rulebook's page margins come from the paper table (``builder/settings.py``), whatever
a content's own ``book.css`` says: the text block the worked examples are measured
against (``Paper.text_width``, ``text_height``) is the one WeasyPrint lays out. A named
page (the cover) keeps the margins the stylesheet gives it.

The truth is measured from outside: the laid-out pages' boxes, against the paper sizes and
the margins printed on the page (A4 210 x 297 mm, US Letter 215.9 x 279.4 mm; 19 mm top,
21 mm bottom, 21 mm inner, 17 mm outer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.render.book.pdf import BookRenderer
from builder.render.templating import TEMPLATES
from builder.settings import PAPERS, Settings

PX_PER_MM = 96 / 25.4
#: three pages of text: a right-hand page, a left-hand one, a right-hand one
THREE_PAGES = ('<html lang="en"><body><p>one</p><p style="break-before: page">two</p>'
               '<p style="break-before: page">three</p></body></html>')
#: what a designer's own book.css adds: other margins on every kind of page
OTHER_MARGINS = ("\n@page { margin: 40mm 5mm; }\n@page :left { margin: 40mm 5mm; }\n"
                 "@page :right { margin: 40mm 5mm; }\n@page :first { margin: 40mm 5mm; }\n"
                 "@page :blank { margin: 40mm 5mm; }\n")


def page_boxes(renderer: BookRenderer, html: str = THREE_PAGES) -> list[dict[str, float]]:
    """Each laid-out page's text block and margins, in mm."""
    doc = renderer._html(html, fill=False)
    out = []
    for page in doc.pages:
        box = page._page_box
        out.append({name: round(value / PX_PER_MM, 2) for name, value in (
            ("width", box.width), ("height", box.height), ("top", box.margin_top),
            ("bottom", box.margin_bottom), ("left", box.margin_left),
            ("right", box.margin_right))})
    return out


def renderer(paper: str, templates: Path | None = None) -> BookRenderer:
    settings = Settings(content_root=Path("content"), output=Path("output"),
                        paper=PAPERS[paper])
    return BookRenderer(settings, templates=templates)


@pytest.fixture(scope="module")
def own_css(tmp_path_factory) -> Path:
    """A content's templates folder whose book.css is the shipped one with other margins."""
    templates = tmp_path_factory.mktemp("content") / "templates"
    (templates / "book").mkdir(parents=True)
    shipped = (TEMPLATES / "book" / "book.css").read_text(encoding="utf-8")
    (templates / "book" / "book.css").write_text(shipped + OTHER_MARGINS, encoding="utf-8")
    return templates


@pytest.mark.parametrize("paper,width,height", [("a4", 210.0, 297.0),
                                                ("letter", 215.9, 279.4)])
def test_the_text_block_is_the_paper_less_the_printed_margins(paper, width, height):
    pages = page_boxes(renderer(paper))
    assert len(pages) == 3
    for page in pages:
        assert page["width"] == pytest.approx(width - 38, abs=0.02)
        assert page["height"] == pytest.approx(height - 40, abs=0.02)
        assert (page["top"], page["bottom"]) == pytest.approx((19, 21), abs=0.02)
    # the inner margin is at the binding: left on a right-hand page, right on a left-hand one
    assert (pages[0]["left"], pages[0]["right"]) == pytest.approx((21, 17), abs=0.02)
    assert (pages[1]["left"], pages[1]["right"]) == pytest.approx((17, 21), abs=0.02)
    assert PAPERS[paper].text_width == pytest.approx(width - 38)
    assert PAPERS[paper].text_height == pytest.approx(height - 40)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_content_book_css_with_other_margins_does_not_move_the_text_block(paper, own_css):
    """The override is read (its other rules apply) but the paper table's margins win on
    every left and right page, so the Python's text block and the layout agree."""
    shipped = page_boxes(renderer(paper))
    overridden = page_boxes(renderer(paper, own_css))
    assert overridden == shipped
    for page in overridden:
        assert page["width"] == pytest.approx(PAPERS[paper].text_width, abs=0.02)
        assert page["height"] == pytest.approx(PAPERS[paper].text_height, abs=0.02)


def test_the_override_is_read_and_a_named_page_keeps_its_own_margins(own_css, tmp_path):
    """The content's book.css is the one in use (a rule of its own shows), and the cover
    (a named page, ``margin: 0`` in book.css) is not given the text block's margins."""
    templates = tmp_path / "templates"
    (templates / "book").mkdir(parents=True)
    css = (own_css / "book" / "book.css").read_text(encoding="utf-8")
    (templates / "book" / "book.css").write_text(
        css + "\n@page wide { margin: 3mm; }\n.wide { page: wide; }\n", encoding="utf-8")
    html = ('<html lang="en"><body><p>one</p><div class="wide">'
            '<p style="break-before: page">two</p></div></body></html>')
    first, wide = page_boxes(renderer("a4", templates), html)
    assert first["width"] == pytest.approx(PAPERS["a4"].text_width, abs=0.02)
    assert (wide["left"], wide["right"], wide["top"]) == pytest.approx((3, 3, 3), abs=0.02)
    assert wide["width"] == pytest.approx(210 - 6, abs=0.02)
