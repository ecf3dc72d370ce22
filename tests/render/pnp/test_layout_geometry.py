"""The print-and-play geometry of builder/render/pnp/layout.py on small sheets worked by
hand from the module's conventions (its docstring: 5 mm margin, 3 mm bleed, crop marks
1 mm clear of the art and 5 mm long, the label between the marks), in millimetres from the
page's top-left corner. The sheets the build makes are read back from their PDFs in
test_components.py; these pin each rule on a sheet small enough to count by hand."""

from __future__ import annotations

import pytest

from builder.render.pnp import layout
from builder.settings import PAPERS

A4 = (210.0, 297.0)
PT = 72 / 25.4


def sheet(*items: layout.Item, title: str = "t") -> layout.Sheet:
    s = layout.Sheet(PAPERS["a4"], False, title, list(items))
    s.number = s.total = 1
    return s


def test_a_box_is_inside_another_only_when_no_edge_passes_it():
    page = layout.Box(0, 0, 210, 297)
    assert layout.Box(5, 5, 200, 287).inside(page)
    assert not layout.Box(-0.5, 5, 63, 88).inside(page)          # half a millimetre off the paper
    assert not layout.Box(150, 5, 60.5, 88).inside(page)
    assert layout.Box(5, 5, 63, 88).overlaps(layout.Box(60, 50, 63, 88))
    assert not layout.Box(5, 5, 63, 88).overlaps(layout.Box(68, 5, 63, 88))   # side by side: touching


def test_cards_that_abut_bleed_only_where_nothing_abuts():
    """Three 63 x 88 mm cards on a 2 x 2 grid, centred on A4: x0 = (210 - 126) / 2 = 42,
    y0 = (297 - 176) / 2 = 60.5. A card bleeds 3 mm on an edge with no card beyond it (the
    block's outside, or the empty fourth slot), 0 where a card abuts: (left, top, right,
    bottom)."""
    got = layout.grid(*A4, 3, 2, 2, 63, 88, bleed=3)
    assert [(b.x, b.y, b.w, b.h) for b, _ in got] == [(42, 60.5, 63, 88), (105, 60.5, 63, 88),
                                                       (42, 148.5, 63, 88)]
    assert [bleed for _, bleed in got] == [(3, 3, 0, 0), (0, 3, 3, 3), (3, 0, 3, 3)]


def test_cards_apart_bleed_on_every_side_and_the_gap_holds_two_bleeds():
    got = layout.grid(*A4, 2, 2, 1, 63, 88, gap=6, bleed=3)     # exactly two bleeds apart
    assert [bleed for _, bleed in got] == [(3, 3, 3, 3)] * 2
    assert got[1][0].x - got[0][0].right == 6
    with pytest.raises(layout.LayoutError, match="a gap of 5.9 mm cannot hold two bleeds of 3 mm"):
        layout.grid(*A4, 2, 2, 1, 63, 88, gap=5.9, bleed=3)


def test_each_cut_line_has_a_mark_at_both_ends_one_millimetre_clear_of_the_art():
    """One 63 x 88 card at (50, 50) with 3 mm bleed: art (47, 47) to (116, 141); cut lines
    x = 50 and 113, y = 50 and 138. Each gets a 5 mm mark beyond each end, starting 1 mm
    outside the art: above from y 46 up to 41, below from 142 to 147, left from x 46 to 41,
    right from 117 to 122."""
    s = sheet(layout.Item(layout.Box(50, 50, 63, 88), "card", "c", (3, 3, 3, 3)))
    marks = {(m.x1, m.y1, m.x2, m.y2) for m in layout.crop_marks(s)}
    want = set()
    for x in (50, 113):
        want |= {(x, 46, x, 41), (x, 142, x, 147)}
    for y in (50, 138):
        want |= {(46, y, 41, y), (117, y, 122, y)}
    assert marks == want


def test_marks_between_two_bands_stand_between_them():
    """Two bands (the pieces of two components, one above the other, BAND_GAP apart): the
    marks of the lower band's vertical cut lines stand above it, in the clear paper between
    the bands, and the sheet passes its own proof."""
    top = layout.Item(layout.Box(50, 20, 63, 88), "card", "top", (3, 3, 3, 3), band=0)
    y = 20 + 88 + 3 + layout.BAND_GAP + 3                        # art to art: BAND_GAP
    low = layout.Item(layout.Box(50, y, 63, 88), "card", "low", (3, 3, 3, 3), band=1)
    s = layout.finish(sheet(top, low))
    between = [m for m in s.marks if m.vertical and 20 + 88 + 3 < min(m.y1, m.y2)
               and max(m.y1, m.y2) < y - 3]
    assert len(between) == 4                       # two lines, below one band, above the other
    for m in between:
        assert not m.box().overlaps(low.art) and not m.box().overlaps(top.art)
    above_low = [m for m in between if m.y1 == y - 3 - layout.MARK_GAP]
    assert len(above_low) == 2 and all(m.y2 < m.y1 for m in above_low)     # drawn upwards


def test_a_sheet_that_does_not_hold_says_what_is_wrong():
    a = layout.Item(layout.Box(50, 50, 63, 88), "card", "a")
    b = layout.Item(layout.Box(100, 60, 63, 88), "card", "b")
    with pytest.raises(layout.LayoutError) as e:
        layout.check_sheet(sheet(a, b))
    # a: x 50 to 113, y 50 to 138; b: x 100 to 163, y 60 to 148: each cuts through the other
    assert str(e.value) == ("sheet 1 (t, A4): a and b overlap; the bleed of a or b runs onto "
                            "the other; vertical cut line x=100.00 cuts through a; vertical "
                            "cut line x=113.00 cuts through b; horizontal cut line y=60.00 "
                            "cuts through a; horizontal cut line y=138.00 cuts through b")


def test_pdf_boxes_are_in_points_from_the_bottom_left():
    """A 63 x 88 mm box at (10.1, 20.2) on a 297 mm page: x from 10.1 to 73.1 mm, y (from
    the bottom) from 297 - 108.2 = 188.8 to 276.8 mm; times 72 / 25.4 points a millimetre,
    to four places."""
    got = layout.pdf_box(layout.Box(10.1, 20.2, 63, 88), 297)
    want = [round(v * PT, 4) for v in (10.1, 188.8, 73.1, 276.8)]
    assert got == pytest.approx(want, abs=1e-4)
    assert got[2] == round(73.1 * PT, 4) and got[2] != round(73.1 * PT)


LINE = 7 * 25.4 / 72 * 1.25       # a 7 pt label's line (1.25 times its size), in mm


def test_the_label_goes_to_the_top_margin_of_an_empty_page():
    s = sheet()
    s.marks = layout.crop_marks(s)
    lab = layout.place_label(s)
    assert (lab.size_pt, lab.rotate) == (7.0, 0)
    assert lab.x == pytest.approx(105) and lab.y == pytest.approx(5 + LINE / 2)


def test_the_label_turns_into_a_side_margin_when_top_and_bottom_are_full():
    """Art from the top margin's edge to the bottom margin's (y 5 to 292): no room above or
    below. With room on the left (art from x 20) the label reads upwards there (-90), in a
    band at the paper's side of the margin; with art from x 5, it goes right (90), in a band
    ending at the margin's outer edge (x 205)."""
    s = sheet(layout.Item(layout.Box(20, 5, 170, 287), "mat", "m"))
    s.marks = layout.crop_marks(s)
    lab = layout.place_label(s)
    assert (lab.size_pt, lab.rotate) == (7.0, -90)
    assert lab.x == pytest.approx(5 + LINE / 2) and lab.y == pytest.approx(148.5)
    s = sheet(layout.Item(layout.Box(5, 5, 170, 287), "mat", "m"))
    s.marks = layout.crop_marks(s)
    lab = layout.place_label(s)
    assert (lab.size_pt, lab.rotate) == (7.0, 90)
    assert lab.x == pytest.approx(205 - LINE / 2) and lab.y == pytest.approx(148.5)


def test_the_label_goes_below_when_the_top_is_full():
    s = sheet(layout.Item(layout.Box(20, 5, 170, 200), "mat", "m"))
    s.marks = layout.crop_marks(s)
    lab = layout.place_label(s)
    assert (lab.size_pt, lab.rotate) == (7.0, 0)
    assert lab.y == pytest.approx(292 - LINE / 2) and lab.x == pytest.approx(105)
