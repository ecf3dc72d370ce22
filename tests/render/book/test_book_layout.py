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


@pytest.fixture(scope="module")
def battle_lines(books, report):
    """Battle Lines laid out as the build lays it out (``lay_out_book``): its HTML, its
    first layout, the layout with its gaps closed (``fit_plan``), the plan and the
    diagrams seen (copies: the next book empties them)."""
    gr = next(g for g in report.games if g.game.slug == "battle-lines")
    g, html = books.book_html(gr)
    laid = []
    real = books._book_with_terms
    books._book_with_terms = lambda *a: laid.append(real(*a)) or laid[-1]
    try:
        fitted = books.lay_out_book(g, html)
    finally:
        del books._book_with_terms
    return html, laid[0], fitted, dict(books._plan), dict(books._seen)


def test_a_long_comment_is_laid_out_below_and_may_cross_a_page(battle_lines):
    """Battle Lines has the longest comments: they run across the page below their step,
    and no step leaves more than half a page empty before the next example starts."""
    html, _, doc, _, _ = battle_lines
    assert html.count("ex-comment-below") >= 5
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


def gaps(doc) -> list[float]:
    """Each page's blank at its foot (mm) below its body's lowest line or picture."""
    from builder.render.book.pdf import _used_bottom

    return [(p._page_box.content_box_y() + p._page_box.height - _used_bottom(p)) / PX_PER_MM
            for p in doc.pages]


def step_pages(doc) -> dict[int, int]:
    """The page (from 0) each step's diagram-and-text box starts on, by its key."""
    out: dict[int, int] = {}
    for i, page in enumerate(doc.pages):
        for box in page._page_box.descendants():
            el = getattr(box, "element", None)
            if isinstance(box, boxes.BlockBox) and el is not None and el.get("data-step"):
                out.setdefault(int(el.get("data-step")), i)
    return out


def test_a_step_that_would_leave_half_a_page_empty_is_drawn_smaller_to_fit(books, report):
    """Issue 27, item 1: in War with Deck Management, steps as tall as half the page
    leave pages more than 30 % empty (``FIT_GAP``) where the next did not fit; laid out
    again with those diagrams' cards smaller (the words stay at 7 pt), they share the
    pages, and the other diagrams of their examples that stand the same way are drawn at
    the same size (an example keeps one size of card). Measured on the layout itself: a
    step moves up a page onto a page that had the gap, every smaller diagram is clear of
    its words, the big gaps are no more and the book is shorter (36 pages to 33 when this
    was written). (It was Ultimate's Example 2 until each example's intro went beside a
    setup that stands beside its words, and Battle Lines' Example 6 before that.)"""
    from builder.render.book import pdf

    gr = next(g for g in report.games if g.game.slug == "deck-management")
    g, html = books.book_html(gr)
    plain = books._html(html)
    assert books._plan == {}
    fitted = books.lay_out_book(g, html)
    plan = dict(books._plan)
    assert plan and set(plan.values()) <= set(pdf.SMALLER_CARDS)
    assert min(plan.values()) >= 7.5  # the floor: three quarters of a card's width
    before, after = step_pages(plain), step_pages(fitted)
    text_height = PAPERS["a4"].text_height
    width = PAPERS["a4"].text_width
    moved = [key for key in plan if after[key] == before[key] - 1
             and gaps(plain)[before[key] - 1] > pdf.FIT_GAP * text_height]
    assert moved, (before, after)
    examples = pdf._example_steps(plain.pages)
    in_column = pdf._column_steps(plain.pages)

    def layout(key, card=pdf.CARD):
        if key in in_column:
            return pdf.column_layout(books._seen[key], width, pdf.MAX_COLS, card)
        return pdf.step_layout(books._seen[key], width, pdf.MAX_COLS, card)

    for key, card in plan.items():
        # one size of card in an example: its diagrams that stand as this one does (beside
        # their text, above it, or in a column), the smallest one of them needed
        kind = (key in in_column, layout(key).side)
        same = [k for k in examples[key] if (k in in_column, layout(k).side) == kind
                and layout(k).card > card]
        assert {plan.get(k) for k in same} == {card}, (key, same)
        smaller = layout(key, card)
        assert all(pdf.diagram_clashes(geo) == [] for geo in smaller.geos)
        assert smaller.height < layout(key).height
    assert len(fitted.pages) < len(plain.pages)
    big = [x for x in gaps(fitted)[:-1] if x > 0.4 * text_height]
    assert len(big) <= len([x for x in gaps(plain)[:-1] if x > 0.4 * text_height])


def test_a_step_in_the_columns_needs_only_its_diagram_and_two_lines_in_the_gap(battle_lines):
    """Battle Lines' Example 3 sets its steps in the page's two columns; its opening fits at
    a page's foot, and its first step's diagram and first lines of text did not (by 3 mm):
    the step waited for the next page and left 110 mm of it empty. Drawn with smaller
    cards (``fit_plan``), the step starts under the opening, its text runs on into the next
    column, and the steps set in the columns after it keep its size."""
    from builder.render.book import pdf

    _, plain, fitted, plan, seen = battle_lines
    in_column = pdf._column_steps(plain.pages)
    moved = [key for key in plan if key in in_column
             and step_pages(fitted)[key] == step_pages(plain)[key] - 1]
    assert moved, plan
    for key in moved:
        page = fitted.pages[step_pages(fitted)[key]]
        opening = [b for b in page._page_box.descendants() if getattr(b, "element", None)
                   is not None and "ex-opening" in (b.element.get("class") or "").split()]
        assert opening  # its example's opening stands on the page it moved to
        siblings = [k for k in pdf._example_steps(plain.pages)[key] if k in in_column]
        assert len(siblings) >= 2 and {plan[k] for k in siblings} == {plan[key]}
    width = PAPERS["a4"].text_width
    for key in moved:
        small = pdf.column_layout(seen[key], width, pdf.MAX_COLS, plan[key])
        assert small.card == plan[key] and pdf.diagram_clashes(small.geos[0]) == []


def test_the_words_of_a_smaller_diagram_stay_at_7_pt():
    """A diagram drawn with 8 mm cards sets its words as one with 10 mm cards does."""
    from builder.engine.core import Card, Zone
    from builder.render import marks as mk
    from builder.render.book import pdf
    from builder.render.present import Links, Presenter

    links = Links(anchor=lambda s, r: r, href=lambda s, r: "#" + r, card=lambda c: c)
    zones = [Zone("p1.hand", "Hand", 0, 0, cards=[(Card.parse(c), True) for c in ("4S", "9H")],
                  owner="p1", style="fan"),
             Zone("pile", "Pile", 0, 1, cards=[(Card.parse("2C"), True)], count=1, style="pile")]
    d = Presenter(links).diagram(zones, {"p1": "North"}, vocab=mk.Vocabulary())
    big, small = pdf.diagram_geometry(d), pdf.diagram_geometry(d, 8.0)
    sizes = {(r.text, round(r.size, 4)) for r in pdf.diagram_runs(big)}
    assert sizes == {(r.text, round(r.size, 4)) for r in pdf.diagram_runs(small)}
    assert small.card == 8.0 and small.height < big.height
    assert pdf.diagram_clashes(small) == []


def test_the_quick_reference_draws_its_own_table(report):
    """The table ready to play stands at the front (At a glance) and on the back cover;
    the fitting sizes a diagram by the diagram, so each is its own: the front's drawn
    smaller leaves the back cover's as it is."""
    import re

    r = BookRenderer(Settings(content_root=Path("content"), output=Path("unused")))
    gr = next(g for g in report.games if g.game.slug == "war")
    g, html = r.book_html(gr)

    def drawn(html: str, section: str) -> tuple[str, str]:  # (its key, its diagram's height)
        m = re.search(rf'id="{section}".*?data-step="(\d+)".*?min-height: ([\d.]+)mm', html, re.S)
        return m.group(1), m.group(2)

    (glance, front), (back, cover) = drawn(html, "war--_glance"), drawn(html, "war--_quickref-sec")
    assert glance != back
    r._plan[int(glance)] = 8.0   # the front's cards drawn smaller, as fit_plan would
    html = r._game_html(g)
    assert drawn(html, "war--_glance")[1] != front and drawn(html, "war--_quickref-sec")[1] == cover


def column_pieces(doc) -> list[tuple[int, str, float]]:
    """Each piece of a step set in a column (``.in-column``), in the order laid out: (its
    page from 0, "head <its words>" or "diagram", its left edge in mm)."""
    out = []
    for i, page in enumerate(doc.pages):
        for grid in page._page_box.descendants():
            el = getattr(grid, "element", None)
            if not (isinstance(grid, boxes.BlockBox) and el is not None
                    and "in-column" in (el.get("class") or "").split()):
                continue
            for box in grid.descendants(placeholders=True):
                el = getattr(box, "element", None)
                if el is None:
                    continue
                if isinstance(box, boxes.BlockBox) and "ex-step-head" in (el.get("class") or ""):
                    words = "".join(t.text for t in box.descendants()
                                    if isinstance(t, boxes.TextBox)).lower()
                    out.append((i, f"head {words}", box.position_x / PX_PER_MM))
                elif isinstance(box, boxes.ReplacedBox) and el.get("data-diagram") is not None:
                    out.append((i, "diagram", box.position_x / PX_PER_MM))
    return out


def test_narrow_tall_steps_flow_two_to_a_page_in_the_columns(books, report):
    """Issue 27, item 1: Winning the Battle's steps are 59 mm wide and some 140 mm tall
    beside their text, so a page held one and stood half empty. Set in the page's two
    columns (each diagram over its text, the text running on into the next column), its
    Example 1's three steps take two pages, not three; each step's heading stands over its
    diagram, in the same column of the same page. War's short steps keep their layout.
    Battle's four-player crosses go into the columns where smaller cards, their columns
    narrowed with them, make them fit one (Example 10's second step is 86 mm wide with
    10 mm cards, 82 with 9.5 mm ones), and so does Example 11's fifth step, 85 mm wide even
    with 8 mm cards, with 7.5 mm ones (the floor); a step that even the floor leaves too
    wide for a column spans both (``test_a_step_too_wide_for_a_column_spans_both``)."""
    from builder.render.book import pdf

    width, height = PAPERS["a4"].text_width, PAPERS["a4"].text_height
    views = {gr.game.slug: (gr, books.view(gr)) for gr in report.games}
    wtb = views["winning-the-battle"][1].examples[0]
    assert pdf.example_columns(wtb, width, pdf.MAX_COLS, height)
    for s in wtb.steps:  # the reason, measured: one a page beside the text
        assert pdf._step_height(s, width, pdf.MAX_COLS) > height / 2
    assert not any(pdf.example_columns(e, width, pdf.MAX_COLS, height)
                   for e in views["war"][1].examples)
    battle = views["battle"][1].examples
    col = (width - pdf.COLUMN_GAP) / 2
    wide = battle[9].steps[1].diagram
    assert pdf.step_layout(wide, width, pdf.MAX_COLS).width > col
    narrowed = pdf.column_layout(wide, width, pdf.MAX_COLS)
    assert narrowed.width <= col and narrowed.card < pdf.CARD
    assert all(pdf.diagram_clashes(geo) == [] for geo in narrowed.geos)
    assert pdf.example_columns(battle[9], width, pdf.MAX_COLS, height)
    fifth = pdf.column_layout(battle[10].steps[4].diagram, width, pdf.MAX_COLS)
    assert fifth is not None and fifth.card == min(pdf.SMALLER_CARDS) and fifth.width <= col

    gr = views["winning-the-battle"][0]
    g, html = books.book_html(gr)
    doc = books.lay_out_book(g, html)
    pieces = column_pieces(doc)
    assert pieces
    heads = [p for p in pieces if p[1].startswith("head")]
    diagrams = [p for p in pieces if p[1] == "diagram"]
    assert len(heads) == len(diagrams)
    for (hp, _, hx), (dp, _, dx) in zip(heads, diagrams):
        assert hp == dp and abs(hx - dx) < 1, (hp, hx, dp, dx)
    # Example 1's setup and three steps on two pages: the setup first, in the columns
    # (its diagram fits one), side by side with Step 1 on the page the example opens on
    assert [h[1] for h in heads[:4]] == ["head setup", "head step 1", "head step 2",
                                         "head step 3"]
    first = diagrams[:4]
    assert len({p for p, _, _ in first}) == 2
    (a, _, ax), (b, _, bx) = first[:2]
    assert a == b and abs(bx - ax - (width + pdf.COLUMN_GAP) / 2) < 1


def test_a_step_too_wide_for_a_column_spans_both(books, report, monkeypatch):
    """Battle's Example 11 plays five steps on four-player crosses: four fit a column (with
    cards from 10 down to 8 mm), the fifth is 85 mm wide even with 8 mm cards (a column is
    82.5). Before, that one step kept the whole example across the page, a cross 130 mm
    tall beside its text on each of five pages. Now the example is set in the columns and
    that step alone spans both, whole, across the text block, after the four. Since the
    floor went down to 7.5 mm cards, the fifth fits a column too and no shipped step spans
    them: the floor is set back to 8 mm here, where a designer's wider table would be."""
    from builder.render.book import pdf

    monkeypatch.setattr(pdf, "SMALLER_CARDS", tuple(c for c in pdf.SMALLER_CARDS if c >= 8.0))

    width, height = PAPERS["a4"].text_width, PAPERS["a4"].text_height
    gr = next(g for g in report.games if g.game.slug == "battle")
    e = books.view(gr).examples[10]
    assert [pdf.spans_columns(s, width, pdf.MAX_COLS, height) for s in e.steps] == [
        False, False, False, False, True]
    assert pdf.example_columns(e, width, pdf.MAX_COLS, height)
    # a refused step never spans: it is words only
    assert not any(pdf.spans_columns(s, width, pdf.MAX_COLS, height)
                   for x in books.view(gr).examples for s in x.steps if s.kind == "refused")

    g, html = books.book_html(gr)
    assert html.count(" ex-span") == 1  # the step's class: only the fifth step of Example 11
    doc = books.lay_out_book(g, html)
    spans = [(i, box) for i, page in enumerate(doc.pages) for box in page._page_box.descendants()
             if isinstance(box, boxes.BlockBox) and box.element is not None
             and "ex-span" in (box.element.get("class") or "").split()]
    assert len(spans) == 1  # whole, on one page
    page, box = spans[0]
    assert box.width / PX_PER_MM > 0.95 * width  # across the page, not a column
    # the four steps before it in the columns: "step 4" on the page before or the same
    heads = [(p, words) for p, words, _ in column_pieces(doc) if words.startswith("head step")]
    assert page - 1 <= max(p for p, words in heads if words == "head step 4") <= page


def example_pages(doc) -> dict[str, list[int]]:
    """The pages (from 0) each example (by its anchor) is laid out on."""
    pages: dict[str, list[int]] = {}
    for i, page in enumerate(doc.pages):
        for box in page._page_box.descendants():
            el = box.element
            if (isinstance(box, boxes.BlockBox) and el is not None and box.element_tag == "article"
                    and "example" in el.get("class", "").split()):
                pages.setdefault(el.get("id"), []).append(i)
    return pages


def test_examples_in_the_columns_one_after_another_share_them(books, report):
    """Winning the Battle's Examples 1 to 5 are each set in the columns with their setup
    in them: they make one run, and each after the first opens in a column on the page the
    one before ends on. Before, each waited for a page of its own, its opening and setup
    (kept together, some 170 mm) too tall for what the last page of the one before left:
    pp. 10, 13, 15 and 17 stood under 60 % full. Examples 6 and 7 are not in a run (6's
    setup does not fit a column), nor is any of War's; one such example alone is no run."""
    from builder.render.book import pdf

    width, height = PAPERS["a4"].text_width, PAPERS["a4"].text_height
    gr = next(g for g in report.games if g.game.slug == "winning-the-battle")
    examples = books.view(gr).examples
    runs = pdf.column_runs(examples, width, pdf.MAX_COLS, height)
    assert runs == [True] * 5 + [False] * 2
    assert pdf.column_runs(examples[:1], width, pdf.MAX_COLS, height) == [False]
    war = next(g for g in report.games if g.game.slug == "war")
    assert not any(pdf.column_runs(books.view(war).examples, width, pdf.MAX_COLS, height))

    g, html = books.book_html(gr)
    assert html.count('class="ex-cols ex-run"') == 1
    doc = books.lay_out_book(g, html)
    pages = example_pages(doc)
    shared = 0
    for before, after in zip(examples[:4], examples[1:5]):
        end, start = pages[before.anchor][-1], pages[after.anchor][0]
        if start == end:
            shared += 1
            continue
        # else the one before filled its last page: the next opens the page after
        page = doc.pages[end]
        top, height = page._page_box.content_box_y(), page._page_box.height
        assert start == end + 1 and (pdf._used_bottom(page) - top) / height > 0.6, after.number
    assert shared >= 2, pages
    # Example 6, after the run, opens on a page of its own as before
    assert pages[examples[5].anchor][0] == pages[examples[4].anchor][-1] + 1


def test_the_height_estimate_of_an_example_in_columns_is_a_close_lower_bound(books, report,
                                                                             monkeypatch):
    """``example_height`` given the text block's height counts half of what the columns
    hold, and a step that spans them (``spans_columns``) whole: never more than the
    example takes laid out (over its pages, each piece to its foot), and within 30 % of it
    (a diagram, which cannot break, leaves the columns of an example's last page uneven).
    Measured on the examples in the columns of Winning the Battle, Battle (Example 11,
    whose last step spans them with the floor at 8 mm cards, as here, among them) and Deck
    Management, except those that share their columns with the examples next to them
    (``column_runs``: in a run an example's pieces are the run's columns)."""
    from builder.render.book import pdf

    monkeypatch.setattr(pdf, "SMALLER_CARDS", tuple(c for c in pdf.SMALLER_CARDS if c >= 8.0))

    a4 = PAPERS["a4"]
    measured = []
    for slug in ("winning-the-battle", "battle", "deck-management"):
        gr = next(g for g in report.games if g.game.slug == slug)
        real = laid_out_examples(books, gr)
        view = books.view(gr).examples
        runs = pdf.column_runs(view, a4.text_width, pdf.MAX_COLS, a4.text_height)
        examples = [e for e, run in zip(view, runs) if not run
                    and pdf.example_columns(e, a4.text_width, pdf.MAX_COLS, a4.text_height)]
        measured += [(slug, e.number) for e in examples]
        for e in examples:
            laid_out = sum(real[e.anchor])
            estimate = pdf.example_height(e, a4.text_width, pdf.MAX_COLS, a4.text_height)
            assert 0.7 * laid_out <= estimate <= laid_out, (slug, e.number, estimate, laid_out)
            assert estimate < pdf.example_height(e, a4.text_width, pdf.MAX_COLS)
    assert len(measured) >= 3 and ("battle", 11) in measured, measured


def test_only_the_books_last_step_is_kept_from_breaking(books, report):
    """The last step of the last example is never split (a split would leave its last
    lines alone on the page before "By the numbers"); the last step of an example inside a
    run of examples sharing the columns (Winning the Battle's) is not the book's last and
    breaks as any step does."""
    gr = next(g for g in report.games if g.game.slug == "winning-the-battle")
    g, html = books.book_html(gr)
    assert "ex-run" in html and html.count("ex-last") == 1
    last = g.examples[-1].anchor
    assert html.index(f'id="{last}"') < html.index("ex-last")


def test_the_intro_stands_beside_a_setup_that_stands_beside_its_words(books, report):
    """Issue 27, item 1: where an example's setup stands beside its words, its "Shows"
    line and intro stand there too, above "Setup" (``opening_beside``): the opening kept
    whole is shorter by the intro, and fits the foot of a page more often. Measured on
    Deck Management's layout: every such intro is right of its diagram and starts above
    the diagram's foot, and the estimate of the opening's height (``_opening_height``,
    which decides what goes in columns and what is kept whole) is within a tenth of the
    height laid out."""
    from builder.render.book import pdf

    gr = next(g for g in report.games if g.game.slug == "deck-management")
    view = books.view(gr)
    width = PAPERS["a4"].text_width
    beside = {e.anchor: e for e in view.examples
              if pdf.opening_beside(e, width, pdf.MAX_COLS)
              and not pdf.example_columns(e, width, pdf.MAX_COLS, PAPERS["a4"].text_height)}
    assert len(beside) >= 5
    g, html = books.book_html(gr)
    doc = books._html(html)
    found = {}
    for page in doc.pages:
        for box in page._page_box.descendants():
            el = getattr(box, "element", None)
            if el is None or box.element_tag != "article" or el.get("id") not in beside \
                    or el.get("id") in found:  # the example's first page holds its opening
                continue
            opening = next(b for b in box.descendants() if getattr(b, "element", None) is not None
                           and b.element.get("class") == "ex-opening")
            diagram = next(b for b in opening.descendants()
                           if "ex-diagram" in (getattr(b, "element", None) is not None
                                               and b.element.get("class") or ""))
            lead = next(b for b in opening.descendants()
                        if getattr(b, "element", None) is not None
                        and b.element.get("class") == "ex-lead-beside")
            assert lead.position_x >= diagram.position_x + diagram.margin_width()
            assert lead.position_y < diagram.position_y + diagram.margin_height()
            found[el.get("id")] = opening.margin_height() / PX_PER_MM
    assert set(found) == set(beside)
    for anchor, height in found.items():
        # the opening's estimate: the heading's 14 mm of example_height's less its margins
        estimate = pdf._opening_height(beside[anchor], width, pdf.MAX_COLS) + 14 - 5
        assert abs(estimate / height - 1) <= 0.1, (anchor, height, estimate)


def test_no_anchor_is_defined_twice_in_a_book(books, report):
    """A rule's anchor is its id under the game's slug, and the book's own sections
    (contents, options table, examples, glossary...) take a name no rule id can
    (``--_``, an underscore): Deck Management's chapter "Options" (id ``options``) and
    the options table both answered to ``deck-management--options``, and the contents'
    link went to whichever WeasyPrint met first."""
    import re

    for gr in report.games:
        _, html = books.book_html(gr)
        ids = re.findall(r'\bid="([^"]+)"', html)
        twice = sorted({i for i in ids if ids.count(i) > 1})
        assert twice == [], (gr.game.slug, twice)


# --------------------------------------------------------------------------- seats side by side
def _zone(owner: str, label: str):
    from builder.render.present import ZoneView

    return ZoneView(id=f"{owner}-{label}", label=label, owner=owner, style="fan", cards=[],
                    count=None, note="")


def _seats(*owners: str):
    from builder.render.present import Diagram

    return Diagram(rows=[[_zone(o, "Hand"), _zone(o, "Families")] for o in owners], cols=2,
                   widths=[1.0, 1.0])


def test_seats_rows_are_set_in_two_groups_side_by_side():
    """A diagram whose every row is one seat's places, three rows or more: the first half
    of the seats on the left, the rest on the right, an empty column between; the
    places and their order kept. Anything else is left as it is."""
    from builder.render.book.pdf import SEAT_SPACER, seats_side_by_side

    four = seats_side_by_side(_seats("Owen", "Ruby", "Felix", "Hazel"))
    assert four.cols == 5 and four.widths == [1.0, 1.0, SEAT_SPACER, 1.0, 1.0]
    assert [[z.id if z else None for z in row] for row in four.rows] == [
        ["Owen-Hand", "Owen-Families", None, "Felix-Hand", "Felix-Families"],
        ["Ruby-Hand", "Ruby-Families", None, "Hazel-Hand", "Hazel-Families"]]
    three = seats_side_by_side(_seats("Owen", "Ruby", "Hazel"))
    assert [[z.owner if z else None for z in row] for row in three.rows] == [
        ["Owen", "Owen", None, "Hazel", "Hazel"], ["Ruby", "Ruby", None, None, None]]

    assert seats_side_by_side(_seats("Owen", "Ruby")) is None          # two rows: as they are
    assert seats_side_by_side(_seats("Owen", "Ruby", "Owen")) is None  # one seat, two rows
    middle = _seats("North", "Table", "South")                          # a shared row
    middle.rows[1] = [None, _zone("", "Out of the game")]
    assert seats_side_by_side(middle) is None
    mixed = _seats("A", "B", "C")                                        # a row of two owners
    mixed.rows[0][1] = _zone("B", "Families")
    assert seats_side_by_side(mixed) is None


def test_a_tall_column_of_seats_beside_its_text_is_set_side_by_side(books, report):
    """Issue 27, item 1: Happy Families' four players' hands and families stood 107 mm
    tall and 40 mm wide beside a few lines of text, and its Example 5's opening (92 mm)
    did not fit the 75 mm its Example 4 left on p. 12, a page then 58 % full. Its diagrams
    now stand with the seats side by side, still beside their text, at most four fifths as
    tall, their words clear of their cards; Deck Management's, whose middle row is shared,
    keep their shape."""
    from builder.render.book import pdf

    width = PAPERS["a4"].text_width
    views = {gr.game.slug: books.view(gr) for gr in report.games}
    setup = views["happy-families"].examples[3].setup     # Example 4: four players
    tall = pdf._step_layout(setup, width, pdf.MAX_COLS, pdf.CARD, False)
    laid = pdf.step_layout(setup, width, pdf.MAX_COLS)
    assert tall.side and tall.height > 100 and tall.width < 45     # measured, mm
    assert laid.side and laid.height <= pdf.SEATS_SHORTER * tall.height
    assert laid.width > 1.8 * tall.width and not pdf.diagram_clashes(laid.geos[0])
    for e in views["deck-management"].examples:
        d = e.setup
        assert pdf.step_layout(d, width, pdf.MAX_COLS) == \
            pdf._step_layout(d, width, pdf.MAX_COLS, pdf.CARD, False)
    # in one of the page's two columns the seats stay one under another: a row each
    column = pdf.column_layout(setup, width, pdf.MAX_COLS)
    assert column is not None and len({z.y for z in column.geos[0].zones}) == len(setup.rows)
    assert len({z.y for z in laid.geos[0].zones}) == 2
    # the picture's alternative text lists the places seat by seat, as before
    seats = [row[0].owner for row in setup.rows]
    assert [p.zone.owner for p in laid.geos[0].zones] == [o for o in seats for _ in (0, 1)]
    # whether a setup goes in a column is judged on the diagram a column prints: a seat
    # a row, 40 mm wide, which fits one (side by side it would be some 86 mm)
    first = views["happy-families"].examples[0]                 # three players
    assert pdf.seats_side_by_side(first.setup) is not None
    assert pdf.step_layout(first.setup, width, pdf.MAX_COLS).width > (width - pdf.COLUMN_GAP) / 2
    assert pdf.setup_in_columns(first, width, pdf.MAX_COLS)
