"""The quick reference's key terms (issue 27, item 6): the glossary's terms the room between
the turn and the comparison holds, the ones the quick reference's own words use first, in
two columns, never running into the comparison."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from weasyprint.formatting_structure import boxes

from builder.render.book import quickref
from builder.render.book.pdf import BookRenderer
from builder.render.book.quickref import Room, pick
from builder.settings import Settings


@dataclass
class T:
    term: str


TERMS = [T("Army"), T("Banner"), T("Camp")]


def test_the_terms_the_quick_reference_uses_come_first():
    """Heights 5, 5 and 8 mm; 16 mm of room less a 6 mm heading and 2 mm spare leaves 8.
    Camp (8) fits a column alone; Army (5) beside it still fits; Banner would make a
    column 10 tall. Without Camp in the words, Army and Banner (5 each) fit first and
    Camp no longer does."""
    room = Room(room=16.0, head=6.0, heights=[5.0, 5.0, 8.0])
    assert pick(TERMS, ["Pitch your camp."], "", room) == [[0], [2]]
    assert pick(TERMS, ["Raise a flag."], "", room) == [[0], [1]]
    # a mention is a whole word, in any case, in the summary too
    assert pick(TERMS, [], "<p>The CAMP moves.</p>", room) == [[0], [2]]
    assert pick(TERMS, ["Campaign."], "", room) == [[0], [1]]


def test_the_columns_are_balanced_and_keep_the_glossarys_order():
    """Heights 10, 12, 8 and 20 with 22 mm to fill: Army, Banner and Camp fit (a column of
    10 beside one of 12 + 8); Dune (20) would make the shorter pair of columns 28 tall."""
    terms = [*TERMS, T("Dune")]
    room = Room(room=30.0, head=6.0, heights=[10.0, 12.0, 8.0, 20.0])
    assert pick(terms, [], "", room) == [[0], [1, 2]]
    # with 30 to fill, all four: 10 + 12 beside 8 + 20 (28), not 30 beside 20
    assert pick(terms, [], "", Room(room=38.0, head=6.0, heights=room.heights)) == [[0, 1], [2, 3]]


def test_leaving_out_drops_the_least_wanted_term_and_none_that_fit_prints_none():
    room = Room(room=16.0, head=6.0, heights=[5.0, 5.0, 8.0])
    # Camp is mentioned, so Army (taken second) goes first
    assert pick(TERMS, ["camp"], "", room, leave_out=1) == [[2], []]
    assert pick(TERMS, ["camp"], "", room, leave_out=2) == []
    assert pick(TERMS, [], "", Room(room=12.0, head=6.0, heights=[5.0, 5.0, 8.0])) == []


@pytest.fixture(scope="module")
def books():
    return BookRenderer(Settings(content_root=Path("content"), output=Path("output")))


def _names(doc) -> list[str]:
    last = doc.pages[-1]._page_box
    return [b.element.find("b").text for b in last.descendants()
            if isinstance(b, boxes.BlockBox) and b.element is not None
            and "qr-term" in (b.element.get("class") or "").split()]


@pytest.mark.slow
def test_the_back_cover_holds_the_terms_that_fit_clear_of_the_comparison(books, report):
    """War's turn is short: all five of its terms fit under it. Battle's turn and table
    fill most of the page: some of its ten terms fit, those its quick reference names
    first. Laid out, every term is on the last page and clear of the comparison."""
    war = next(g for g in report.games if g.game.slug == "war")
    g, html = books.book_html(war)
    doc = books.lay_out_book(g, html)
    assert sorted(_names(doc)) == sorted(t.term for t in g.glossary)
    assert quickref.overlap(doc) == 0

    battle = next(g for g in report.games if g.game.slug == "battle")
    g, html = books.book_html(battle)
    doc = books.lay_out_book(g, html)
    names = _names(doc)
    assert 0 < len(names) < len(g.glossary)
    words = " ".join(str(q) for q in g.quickref).lower() + str(g.summary).lower()
    assert all(n.lower() in words for n in names), names
    assert quickref.overlap(doc) == 0


@pytest.mark.slow
def test_terms_measured_too_short_are_dropped_until_clear(books, report, monkeypatch):
    """Should the measured room be wrong (here: claimed to be 30 mm more than it is, room
    for a few more of Battle's terms), the book laid out finds its terms running into the
    comparison and drops them, one by one, until they are clear, rather than printing them
    over it. (Claimed at half a metre, all ten terms were taken and dropped again in seven
    whole layouts, half a minute, to test the same.)"""
    real = quickref.measure

    def roomy(doc) -> Room:
        measured = real(doc)
        return Room(measured.room + 30.0, measured.head, measured.heights)

    battle = next(g for g in report.games if g.game.slug == "battle")
    books.book_html(battle)
    fit = sum(map(len, books._terms))  # what the real measure takes
    monkeypatch.setattr(quickref, "measure", roomy)
    g, html = books.book_html(battle)
    claimed = sum(map(len, books._terms))
    assert fit < claimed <= len(g.glossary)  # more than fit claimed to
    doc = books.lay_out_book(g, html)
    assert quickref.overlap(doc) == 0
    assert 0 < len(_names(doc)) < claimed
    assert books._dropped >= claimed - len(_names(doc)) > 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_two_columns_of_terms_and_their_gap_fit_their_line(paper):
    """Each column's width is cut to the tenth of a millimetre the templates print: on
    Letter half the line less the gap is 88.45 mm, which printed as 88.5 made the two
    columns and their gap a twentieth of a millimetre wider than the line, and the second
    column fell under the first."""
    from builder.render.book.pdf import QUICKREF_MARGINS
    from builder.settings import PAPERS

    r = BookRenderer(Settings(content_root=Path("content"), output=Path("unused"),
                              paper=PAPERS[paper]))
    width = r._term_width()
    line = PAPERS[paper].width - QUICKREF_MARGINS.inner - QUICKREF_MARGINS.outer
    assert f"{width:.1f}" == f"{width:.10g}"          # printed as it is
    assert 0 <= line - (2 * width + quickref.TERMS_GAP) < 0.2
