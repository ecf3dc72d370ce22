"""Tests of the SVG card artwork (builder/render/cards.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from builder.engine.core import RANKS, SUITS, Card, full_deck
from builder.render import cards as card_art

SVG = "{http://www.w3.org/2000/svg}"
DECK = full_deck()
PAINTS = {"#b3202a", "#1a1a1a", "#1f5fbf", "#1e7a3a"}
TWO = {"C": "#1a1a1a", "S": "#1a1a1a", "D": "#b3202a", "H": "#b3202a"}
FOUR = {"C": "#1e7a3a", "S": "#1a1a1a", "D": "#1f5fbf", "H": "#b3202a"}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def walk(el: ET.Element, inherited: dict | None = None):
    """Yield (element, effective presentation attributes) for every descendant."""
    attrs = dict(inherited or {})
    attrs.update({k: v for k, v in el.attrib.items() if k in ("fill", "stroke", "stroke-width")})
    yield el, attrs
    for child in el:
        yield from walk(child, attrs)


def inked_colours(root: ET.Element) -> set[str]:
    return {v.lower() for el in root.iter() for k, v in el.attrib.items()
            if k in ("fill", "stroke")}


def suit_paths(root: ET.Element, suit: str):
    d = card_art.suit_path(suit)
    return [(el, attrs) for el, attrs in walk(root)
            if el.tag == SVG + "path" and el.get("d") == d]


# --------------------------------------------------------------------------- faces
@pytest.mark.parametrize("style", card_art.STYLES)
@pytest.mark.parametrize("four_colour", [False, True])
def test_every_face_is_valid_svg_with_label(style, four_colour):
    for card in DECK:
        svg = card_art.card_face(card, style=style, four_colour=four_colour)
        root = parse(svg)
        assert root.get("viewBox") == "0 0 630 880"
        assert root.get("role") == "img"
        assert root.get("aria-label") == card.name()
        assert root.find(SVG + "title").text == card.name()
        assert "width" not in root.attrib and "height" not in root.attrib
        assert "<script" not in svg.lower() and "<image" not in svg.lower()
        assert "href" not in svg and " id=" not in svg and "url(" not in svg
        # The rank is written once per corner (full) or once (compact), as text.
        texts = [t.text for t in root.iter(SVG + "text")]
        assert set(texts) == {card.rank}
        for t in root.iter(SVG + "text"):
            assert "Cabin" in t.get("font-family") and t.get("font-weight") == "bold"


def test_aria_label_examples():
    assert parse(card_art.card_face(Card("Q", "D"))).get("aria-label") == "queen of diamonds"
    assert parse(card_art.card_face("10S", style="compact")).get("aria-label") == "ten of spades"


@pytest.mark.parametrize("style", card_art.STYLES)
@pytest.mark.parametrize("four_colour,table", [(False, TWO), (True, FOUR)])
def test_colours(style, four_colour, table):
    for card in DECK:
        root = parse(card_art.card_face(card, style=style, four_colour=four_colour))
        want = table[card.suit]
        used = inked_colours(root) & PAINTS
        assert used == {want}, (card, used)
        # every suit symbol and every rank is painted in the suit's colour
        symbols = suit_paths(root, card.suit)
        assert symbols
        assert all(attrs.get("fill") == want for _, attrs in symbols)
        texts = [(el, attrs) for el, attrs in walk(root) if el.tag == SVG + "text"]
        assert all(attrs.get("fill") == want for _, attrs in texts)


def test_suit_colour():
    assert [card_art.suit_colour(s) for s in "CDHS"] == ["#1a1a1a", "#b3202a", "#b3202a", "#1a1a1a"]
    assert [card_art.suit_colour(s, True) for s in "CDHS"] == ["#1e7a3a", "#1f5fbf", "#b3202a",
                                                        "#1a1a1a"]


def test_full_faces_have_traditional_pip_counts():
    for card in DECK:
        root = parse(card_art.card_face(card))
        n = len(suit_paths(root, card.suit))
        if card.rank == "A":
            expected = 2 + 1
        elif card.rank in "JQK":
            expected = 2 + 1 + 4      # indices, the divider's pip, two beside each letter
        else:
            expected = 2 + int(card.rank)
        assert n == expected, card


def test_compact_faces_have_one_large_symbol_and_an_index_a_fan_shows():
    """A large suit symbol, and one under the rank inside the strip of 0.45 card widths a
    fanned card leaves in view (issue 14: 10♣ and 5♠ overlapped showed only their ranks)."""
    for card in DECK:
        root = parse(card_art.card_face(card, style="compact"))
        symbols = suit_paths(root, card.suit)
        assert len(symbols) == 2
        placed = []
        for el, *_ in symbols:
            t = el.get("transform")
            x, y = (float(v) for v in re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", t).groups())
            scale = float(re.search(r"scale\(([-\d.]+)\)", t)[1])
            placed.append((scale, x, y))
        placed.sort()
        (small, sx, sy), (big, _, _) = placed
        assert big >= 3          # at least 30 mm of a 63 mm card: ~8 mm at 16 mm wide
        assert sx >= 0 and sx + small * 100 <= 0.45 * card_art.CARD_W   # wholly in the fan's strip
        assert small * 100 >= 150                                 # 15 of 63 mm: ~2.4 mm at 10 mm
        size = float(next(root.iter(SVG + "text")).get("font-size"))
        assert size >= 300
        assert sy >= 318 - 40    # under the rank's baseline (318), not over it


def test_court_cards_differ():
    faces = {r: card_art.card_face(Card(r, "S")) for r in "JQK"}
    bodies = {r: re.sub(r"<text.*?</text>|aria-label=\"[^\"]*\"|<title>.*?</title>", "", s)
              for r, s in faces.items()}
    assert len(set(bodies.values())) == 3


# --------------------------------------------------------------------------- pip layout
def _box(x, y, half):
    return (x - half, y - half, x + half, y + half)


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("rank", RANKS[1:10])
def test_pip_layout_grid(rank):
    pips = card_art.pip_positions(rank)
    assert len(pips) == int(rank)
    columns = {card_art.CARD_W / 2 - 140, card_art.CARD_W / 2, card_art.CARD_W / 2 + 140}
    assert {x for x, _, _ in pips} <= columns
    for x, y, flipped in pips:
        assert flipped == (y > card_art.CARD_H / 2 + 1e-9)   # lower half turned, as on real cards
    # every layout but the 7 is symmetric under a half turn
    if rank != "7":
        pts = Counter((round(x, 6), round(y, 6)) for x, y, _ in pips)
        turned = Counter((round(card_art.CARD_W - x, 6), round(card_art.CARD_H - y, 6)) for x, y, _ in pips)
        assert pts == turned
    # pips keep clear of each other and of both corner indices
    half = card_art._PIP_SIZE / 2
    boxes = [_box(x, y, half) for x, y, _ in pips]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not _overlap(a, b)
    index = (0, 0, 110, card_art._INDEX_SUIT_Y + card_art._INDEX_SUIT_SIZE / 2)
    index_turned = (card_art.CARD_W - index[2], card_art.CARD_H - index[3], card_art.CARD_W, card_art.CARD_H)
    for b in boxes:
        assert not _overlap(b, index) and not _overlap(b, index_turned)
        assert 0 < b[0] and b[2] < card_art.CARD_W and 0 < b[1] and b[3] < card_art.CARD_H


def test_ten_is_condensed():
    for style in card_art.STYLES:
        root = parse(card_art.card_face("10H", style=style))
        for t in root.iter(SVG + "text"):
            assert re.search(r"scale\(0\.\d+ 1\)", t.get("transform", "")), style


# --------------------------------------------------------------------------- size, bleed
def test_width_height_passthrough():
    root = parse(card_art.card_face("AS", width="16mm"))
    assert root.get("width") == "16mm" and "height" not in root.attrib
    root = parse(card_art.card_back("b", width="63mm", height="88mm"))
    assert (root.get("width"), root.get("height")) == ("63mm", "88mm")
    root = parse(card_art.face_down(width="40px"))
    assert root.get("width") == "40px"


@pytest.mark.parametrize("make", [
    lambda b: card_art.card_face("QD", bleed_mm=b),
    lambda b: card_art.card_face("7C", style="compact", bleed_mm=b),
    lambda b: card_art.card_back("a", bleed_mm=b),
    lambda b: card_art.card_back("b", bleed_mm=b),
])
def test_bleed_enlarges_viewbox_and_background(make):
    assert parse(make(0)).get("viewBox") == "0 0 630 880"
    root = parse(make(3))
    # 63 + 2 x 3 mm by 88 + 2 x 3 mm, in 0.1 mm units; the card stays at 0 0 630 880.
    assert root.get("viewBox") == "-30 -30 690 940"
    # the first drawn shape is a background covering the whole enlarged box
    first = next((el, attrs) for el, attrs in walk(root) if el.tag == SVG + "rect")
    el, attrs = first
    dx, dy = 0.0, 0.0
    for g in root.iter(SVG + "g"):
        m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", ""))
        if m and el in list(g.iter()):
            dx, dy = float(m[1]), float(m[2])
    x, y = float(el.get("x")) + dx, float(el.get("y")) + dy
    assert (x, y) == (-30, -30)
    assert (float(el.get("width")), float(el.get("height"))) == (690, 940)
    assert attrs.get("fill") not in (None, "none")
    assert parse(make(1.5)).get("viewBox") == "-15 -15 660 910"


def test_face_bleed_is_white():
    root = parse(card_art.card_face("KH", bleed_mm=3))
    rect = next(root.iter(SVG + "rect"))
    assert rect.get("fill") == "#ffffff"


# --------------------------------------------------------------------------- backs
def _shape_key(el: ET.Element, attrs: dict, turn: bool) -> tuple:
    """A canonical description of one shape, optionally turned 180 degrees about (0, 0)."""
    s = -1.0 if turn else 1.0
    paint = tuple(sorted(attrs.items()))
    tag = el.tag[len(SVG):]
    f = lambda name: float(el.get(name, "0"))  # noqa: E731
    if tag == "rect":
        x, y, w, h = f("x"), f("y"), f("width"), f("height")
        if turn:
            x, y = -x - w, -y - h
        return (tag, x, y, w, h, f("rx"), paint)
    if tag == "circle":
        return (tag, s * f("cx"), s * f("cy"), f("r"), paint)
    if tag == "line":
        ends = sorted([(s * f("x1"), s * f("y1")), (s * f("x2"), s * f("y2"))])
        return (tag, tuple(ends), paint)
    if tag == "polygon":
        pts = [tuple(s * float(v) for v in p.split(",")) for p in el.get("points").split()]
        # same polygon whichever vertex is listed first and whichever way round
        forms = []
        for seq in (pts, pts[::-1]):
            forms += [tuple(seq[i:] + seq[:i]) for i in range(len(seq))]
        return (tag, min(forms), paint)
    raise AssertionError(f"unexpected element <{tag}> in a back")


def _centred_shapes(svg: str):
    root = parse(svg)
    groups = [g for g in root if g.tag == SVG + "g"]
    assert len(groups) == 1
    (group,) = groups
    # drawn about the card's centre, so a half turn of the card is negation
    assert group.get("transform") == "translate(315 440)"
    return [(el, attrs) for el, attrs in walk(group)
            if el is not group and el.tag != SVG + "g"]


@pytest.mark.parametrize("svg", [
    card_art.card_back("a"), card_art.card_back("b"), card_art.card_back("a", bleed_mm=3),
    card_art.card_back("b", bleed_mm=3), card_art.face_down(), card_art.face_down(design="b"),
    card_art.face_down("full"), card_art.face_down("full", design="b"),
], ids=["a", "b", "a-bleed", "b-bleed", "down", "down-b", "down-full", "down-full-b"])
def test_backs_are_symmetric_under_a_half_turn(svg):
    shapes = _centred_shapes(svg)
    assert len(shapes) > 5
    as_drawn = Counter(_shape_key(el, attrs, False) for el, attrs in shapes)
    turned = Counter(_shape_key(el, attrs, True) for el, attrs in shapes)
    assert as_drawn == turned


def test_back_description_is_symmetric():
    for design in card_art.BACK_DESIGNS:
        for bleed in (0, 30):
            shapes = card_art._back_shapes(design, bleed)
            svg = card_art._render_shapes(shapes)
            wrapped = (f'<svg xmlns="http://www.w3.org/2000/svg">'
                       f'<g transform="translate(315 440)">{svg}</g></svg>')
            items = _centred_shapes(wrapped)
            assert len(items) == len(shapes)
            assert (Counter(_shape_key(e, a, False) for e, a in items)
                    == Counter(_shape_key(e, a, True) for e, a in items))


def test_backs_differ_and_parse():
    a, b = card_art.card_back("a"), card_art.card_back("b")
    assert a != b
    ra, rb = parse(a), parse(b)
    for root in (ra, rb):
        assert root.get("viewBox") == "0 0 630 880"
        assert root.get("role") == "img" and root.get("aria-label")
        assert root.find(SVG + "title") is not None
    # different colour schemes and different geometry
    assert inked_colours(ra) & inked_colours(rb) == {"none"}
    tags = lambda r: Counter(el.tag for el in r.iter())  # noqa: E731
    assert tags(ra)[SVG + "polygon"] > 50 and tags(rb)[SVG + "circle"] > 50
    for svg in (a, b, card_art.face_down()):
        assert "<script" not in svg and "<image" not in svg and " id=" not in svg


def test_back_art_runs_to_the_edge():
    for design in card_art.BACK_DESIGNS:
        shapes = _centred_shapes(card_art.card_back(design))
        el, attrs = shapes[0]
        assert el.tag == SVG + "rect" and "rx" not in el.attrib
        assert [float(el.get(k)) for k in ("x", "y", "width", "height")] == [-315, -440,
                                                                             630, 880]


def test_face_down():
    for style in card_art.STYLES:
        root = parse(card_art.face_down(style))
        assert root.get("viewBox") == "0 0 630 880"
        assert root.get("aria-label") == "face-down card"
    assert card_art.face_down() == card_art.face_down("compact", design="a")


# --------------------------------------------------------------------------- suit paths
def test_suit_paths_fit_the_box():
    for suit in SUITS:
        d = card_art.suit_path(suit)
        assert re.fullmatch(r"[MLCQAZ0-9 .\-]+", d), suit
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        assert nums and all(0 <= v <= 100 for v in nums)
        # drawn as a path in the face, never as a font glyph
        assert d in card_art.card_face(Card("5", suit))
        assert "\u2660" not in card_art.card_face(Card("5", suit))
    assert len({card_art.suit_path(s) for s in SUITS}) == 4
    with pytest.raises(ValueError):
        card_art.suit_path("X")


def test_bad_arguments():
    with pytest.raises(ValueError):
        card_art.card_face("QD", style="tiny")
    with pytest.raises(ValueError):
        card_art.card_back("c")
    with pytest.raises(ValueError):
        card_art.face_down("huge")
    with pytest.raises(ValueError):
        card_art.card_face("QD", bleed_mm=-1)


def test_idprefix_is_accepted_and_no_ids_are_emitted():
    svg = card_art.card_face("QD", idprefix="p1-")
    assert " id=" not in svg and svg == card_art.card_face("QD")


# --------------------------------------------------------------------------- speed
def test_full_faces_are_drawn_once_then_served_from_the_cache():
    """Each face is drawn once a build and then served again: the speed of both is measured
    in bench/cards.py, not asserted here."""
    card_art._card_face.cache_clear()
    first = [card_art.card_face(card) for card in DECK]
    again = [card_art.card_face(card) for card in DECK]
    assert all(a is b for a, b in zip(first, again))
    info = card_art._card_face.cache_info()
    assert (info.misses, info.hits) == (52, 52)
