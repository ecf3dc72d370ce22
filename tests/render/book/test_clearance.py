"""The printed diagrams' layout check (issue 27, item 2): a place's words never touch a
card, a mark drawn round one, an empty place's outline, other words or the felt's edge;
a diagram that would is an error located at its example step, not a printed overlap.

The boxes of the unit tests are worked by hand; the shipped diagrams are checked as the
books place them, and the check is shown to catch what the layout drew before the words
were given room for the rings (labels 0.52 mm into a won card's ring)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from builder.diagnostics import Diagnostic
from builder.engine.core import Card, Zone
from builder.render import marks as mk
from builder.render.book import clearance, pdf
from builder.render.book.clearance import CLEAR, Words, clashes, gap, inside
from builder.render.book.glyphs import Run
from builder.render.present import Links, Presenter
from builder.settings import PAPERS

ROOT = Path(__file__).resolve().parents[3]


def run(text: str, x: float, baseline: float) -> Run:
    return Run(pdf.LABEL, text, x, baseline, pdf.LABEL.size)


def box_of(text: str, x: float, baseline: float):
    """The ink box worked out from the font's own numbers: the glyphs' highest top and
    lowest bottom (Cabin's "H": flat on the baseline, cap height up; "y": a descender)."""
    face = pdf.LABEL.face
    up, down = face.reach(text)
    return (x, baseline - up * pdf.LABEL.size, x + face.width(text, pdf.LABEL.size),
            baseline + down * pdf.LABEL.size)


# ---------------------------------------------------------------- the geometry of it
def test_gap_and_inside_by_hand():
    assert gap((0, 0, 2, 2), (3, 0, 5, 2)) == 1           # 1 mm apart across
    assert gap((0, 0, 2, 2), (0, 2.5, 2, 4)) == 0.5       # half a millimetre below
    assert gap((0, 0, 2, 2), (1, 1.5, 3, 3)) == -0.5      # overlapping, 0.5 mm deep at most
    assert inside((1, 1, 2, 2), (0, 0, 10, 10)) == 1      # 1 mm in from the nearest side
    assert inside((-1, 1, 2, 2), (0, 0, 10, 10)) == -1    # 1 mm out past the left side


def test_an_h_stands_on_its_baseline_and_a_y_reaches_below_it():
    face = pdf.LABEL.face
    up, down = face.reach("H")
    assert down == 0 and up == pytest.approx(face.cap_height / face.upm, abs=0.01)
    assert face.reach("y")[1] > 0.15  # a descender: about a fifth of the size


def test_words_clear_of_a_card_pass_and_words_on_it_are_a_clash():
    words = [Words("p1.play", "North's Play area (p1.play)", "label", (run("Play", 5, 10),))]
    ink = box_of("Play", 5, 10)
    card_below = (4, ink[3] + CLEAR + 0.01, 14, 30)
    assert clashes(40, 40, words, [("a card", card_below)], []) == []
    card_touching = (4, ink[3] + 0.1, 14, 30)
    found = clashes(40, 40, words, [("a card", card_touching)], [])
    assert [(c.words, c.meets, c.gap) for c in found] == [("Play", "a card", 0.1)]
    assert "the words \u201cPlay\u201d of North's Play area (p1.play) would touch a card " \
           "(they stand 0.10 mm from it; at least 0.25 mm is needed)" == str(found[0])


def test_empty_stands_inside_its_own_outline_and_other_words_outside_any():
    outline = (10, 10, 20, 16)
    mid = Words("p1.play", "p", "empty", (run("empty", 12, 14),))
    assert clashes(40, 40, [mid], [], [("p1.play", "its outline", outline)]) == []
    # the same word in another place's words would be over that outline
    other = Words("p2.play", "q", "label", (run("empty", 12, 14),))
    assert [c.meets for c in clashes(40, 40, [other], [], [("p1.play", "its outline", outline)])] \
        == ["its outline"]
    # and a place's "empty" set against its outline's edge is a clash too
    low = Words("p1.play", "p", "empty", (run("empty", 12, 15.9),))
    assert clashes(40, 40, [low], [], [("p1.play", "its outline", outline)])


def test_blocks_of_words_keep_clear_of_each_other_but_a_label_s_own_lines_need_not():
    owner = Words("p1.hand", "p", "owner", (run("Holly", 5, 10),))
    label = Words("p1.hand", "p", "label", (run("Hand", 5, 10.3),))   # set with leading
    foot = Words("p1.hand", "p", "foot", (run("3 cards", 5, 10.6),))
    assert clashes(40, 40, [owner, label], [], []) == []
    found = clashes(40, 40, [owner, label, foot], [], [])
    assert {c.words for c in found} == {"Holly", "Hand"}  # each meets the foot's words


def test_words_past_the_felt_s_edge_are_a_clash():
    words = [Words("p1.play", "p", "label", (run("Play", 0.1, 10),))]
    assert [c.meets for c in clashes(40, 40, words, [], [])] == ["the edge of the diagram"]


# ---------------------------------------------------------------- as the books print
def diagram(kind: str, label: str = "In play", owner: str = "North"):
    """One place with one card marked ``kind`` under its label."""
    card = Card.parse("10H")
    before = [Zone("p1.play", label, 0, 0, cards=[(card, True)], style="fan", owner="p1")]
    after = [Zone("p1.play", label, 0, 0, cards=[], style="fan", owner="p1")] \
        if kind == "moved" else None
    links = Links(anchor=lambda s, r: r, href=lambda s, r: "#" + r, card=lambda c: c)
    return Presenter(links).diagram(before, {"p1": owner}, after=after,
                                    marks={} if kind == "moved" else {"10H": kind},
                                    vocab=mk.Vocabulary())


@pytest.mark.parametrize("kind", ["moved", "won", "killed", "played"])
def test_a_marked_card_s_label_stands_clear_of_its_rings(kind):
    g = pdf.diagram_geometry(diagram(kind))
    assert pdf.diagram_clashes(g) == []


def test_without_room_for_the_rings_the_label_would_touch_them(monkeypatch):
    """What the books printed before: the label's band ended 0.4 mm above the card, and a
    won card's outer ring reaches 0.83 mm out of it."""
    monkeypatch.setattr(pdf, "OUTSIDE", 0.0)
    found = pdf.diagram_clashes(pdf.diagram_geometry(diagram("won")))
    assert found and {c.meets for c in found} == {"a mark drawn on or round a card"}
    assert min(c.gap for c in found) < 0


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_every_shipped_diagram_prints_clear(report, paper):
    for gr in report.games:
        view = Presenter(pdf.book_links(), None).game(gr)
        pdf.check_diagrams(gr, view, PAPERS[paper].text_width, pdf.MAX_COLS)


def test_a_clash_is_an_error_at_the_example_step(report, monkeypatch):
    """With the rings' room taken away, War's book would print a label over a ring: the
    check says so at the step's line in the example's file."""
    monkeypatch.setattr(pdf, "OUTSIDE", 0.0)
    war = next(gr for gr in report.games if gr.game.slug == "war")
    view = Presenter(pdf.book_links(), None).game(war)
    with pytest.raises(Diagnostic) as caught:
        pdf.check_diagrams(war, view, PAPERS["a4"].text_width, pdf.MAX_COLS)
    d = caught.value
    steps = {(st.where.path, st.where.line): (e, st)
             for e in (r.example for r in war.replays) for st in e.steps}
    assert d.path.startswith("content/war/examples/") and (d.path, d.line) in steps
    example, step = steps[d.path, d.line]
    number = [r.example for r in war.replays].index(example) + 1
    assert d.message.startswith(f"Example {number}, step {step.index}: the diagram cannot be "
                                "printed: the words \u201c")
    assert "would touch a mark drawn on or round a card" in d.message
    assert "(p1.play)" in d.message or "(p2.play)" in d.message
    assert "hint:" in d.detail


def test_the_check_sees_the_clearance_it_is_given(monkeypatch):
    """The room asked for is the module's one number: asked for more than the layout
    keeps, a clean diagram clashes (so the shipped test above is not vacuous)."""
    g = pdf.diagram_geometry(diagram("won"))
    monkeypatch.setattr(clearance, "CLEAR", 2.0)
    assert pdf.diagram_clashes(g)


def test_a_place_is_named_as_a_reader_names_it():
    z = SimpleNamespace(owner="North", label="Play area", id="p1.play")
    assert pdf._place_words(z) == "North\u2019s Play area (p1.play)"
    assert pdf._place_words(SimpleNamespace(owner="", label="Middle", id="middle")) \
        == "Middle (middle)"
