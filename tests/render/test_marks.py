"""Marks from a vocabulary (issue 24, item 8): an engine marks cards with named kinds
(played, revealed, won, killed, and its own, declared with the legend's words); each kind
is drawn its own way, by shape and not by colour alone, in the book (``book/stamp.py``'s
art) and on the site (the SVG laid over a card); each step's key lists exactly the kinds
its diagram shows, in a fixed order.

The structures are read back from what the renderers produce (the book's art, its PDF
drawn and rasterised, the site's HTML), not compared with recorded output."""

from __future__ import annotations

import dataclasses
import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from builder.engine.core import MARK_KINDS, Card, Zone
from builder.render import marks as mk
from builder.render.present import FAN_STEP, Links, Presenter

KINDS = ("moved", "played", "revealed", "won", "killed", "trumped")
OWN = {"trumped": "beaten by a trump"}


def links() -> Links:
    return Links(anchor=lambda s, r: f"{s}--{r}", href=lambda s, r: f"#{s}--{r}",
                 card=lambda c: f"card:{c}")


def one_card(kind: str, code: str = "10H", vocab: mk.Vocabulary | None = None, style: str = "fan"):
    """A diagram of one face-up card in one place, marked ``kind`` ("moved": it leaves
    its place when the step resolves)."""
    card = Card.parse(code)
    before = [Zone("p1.play", "Play area", 0, 0, cards=[(card, True)], style=style)]
    after = [Zone("p1.play", "Play area", 0, 0, cards=[], style=style)] if kind == "moved" else None
    marks = {} if kind == "moved" else {code: kind}
    return Presenter(links()).diagram(before, {}, after=after, marks=marks,
                                      vocab=vocab or mk.Vocabulary(own=OWN))


def card_views(d):
    return [c for row in d.rows for z in row if z for c in z.cards]


# ---------------------------------------------------------------- the vocabulary
def test_old_names_are_read_as_the_new_kinds_and_unknown_kinds_are_dropped():
    codes = ["KS", "7H", "2C", "3D", "4S"]
    zone = Zone("t", "Table", 0, 0, cards=[(Card.parse(c), True) for c in codes[:4]]
                + [(Card.parse("4S"), False)], style="fan")
    d = Presenter(links()).diagram([zone], {}, marks={
        "KS": "win", "7H": "kill", "2C": "bogus", "3D": "trumped", "4S": "won"},
        vocab=mk.Vocabulary(own=OWN))
    got = {c.code: c.mark for c in card_views(d)}
    # the old names as the new kinds; a kind of neither vocabulary dropped; the game's own
    # kept; a face-down card never marked (the reader does not see which card it is)
    assert got == {"KS": "won", "7H": "killed", "2C": "", "3D": "trumped", "back": ""}
    assert d.marks == ["won", "killed", "trumped"]
    # without the game's declaration its kind is dropped too
    d = Presenter(links()).diagram([zone], {}, marks={"3D": "trumped"})
    assert [c.mark for c in card_views(d)] == ["", "", "", "", ""] and d.marks == []


def test_a_card_carries_one_kind_and_the_moved_outline():
    v = mk.Vocabulary()
    assert mk.signs("killed", True) == ("moved", "killed")
    assert mk.signs("played", True) == ("moved", "played")
    assert mk.signs("", True) == ("moved",) and mk.signs("", False) == ()
    # the won card's double outline stands for the moved one: no second outline
    assert mk.signs("won", True) == ("won",)
    assert v.sorted(["killed", "trumped", "moved", "won", "played", "revealed"]) \
        == ["moved", "played", "revealed", "won", "killed", "trumped"]


def test_own_kinds_get_distinct_short_labels():
    v = mk.Vocabulary(own={"trumped": "a", "taken": "b", "xo": "c", "swapped": "d",
                           "stolen": "e", "stole": "f"})
    assert v.labels() == {"trumped": "TR", "taken": "TA", "xo": "X", "swapped": "SW",
                          "stolen": "S1", "stole": "S2"}
    assert len(set(v.labels().values())) == len(v.own)
    assert all(len(label) <= mk.LABEL_MAX for label in v.labels().values())
    # a game may not take the renderers' own name or a shared kind's
    assert mk.Vocabulary.of(SimpleNamespace(mark_kinds={"moved": "x", "won": "y", "z": "w"})).own \
        == {"z": "w"}


def test_a_covered_pile_card_is_not_moved():
    """A pile shows its top card; covered by the step's card, the pile no smaller, the old
    top card stays where it was: not outlined as moving. Taken from the pile, it is."""
    seven, four = Card.parse("7C"), Card.parse("4D")
    pile = lambda cards, n: Zone("killed", "Killed", 0, 0, cards=[(c, True) for c in cards],  # noqa: E731
                                 count=n, style="pile")
    p = Presenter(links())
    covered = p.diagram([pile([seven], 1)], {}, after=[pile([four], 2)])
    assert [c.moved for c in card_views(covered)] == [False] and covered.marks == []
    taken = p.diagram([pile([seven], 1)], {}, after=[pile([], 0)])
    assert [c.moved for c in card_views(taken)] == [True] and taken.marks == ["moved"]


# ---------------------------------------------------------------- the book
def book_art(d):
    from builder.render.book.pdf import diagram_art, diagram_geometry

    return diagram_art(diagram_geometry(d))


def shape_of(path: mk.Path) -> tuple:
    """A path without its colours: how it is built and painted."""
    return (tuple(op[0] for op in path.ops), path.fill is not None, path.stroke is not None,
            bool(path.dash), path.opacity < 1, path.round)


def test_every_kind_is_drawn_differently_in_the_book():
    plain = book_art(one_card("none", vocab=mk.Vocabulary()))
    assert plain.signs == []
    seen = {}
    for kind in KINDS:
        art = book_art(one_card(kind))
        labels = tuple(r.text for r in art.runs if r not in plain.runs)
        seen[kind] = (tuple(sorted(shape_of(p) for p in art.signs)), labels)
        assert art.signs, kind
    # the kinds differ by their shapes, colours left out
    for a, b in itertools.combinations(KINDS, 2):
        assert seen[a] != seen[b], (a, b)

    def around(p: mk.Path, art) -> bool:  # an outline round the whole of the art's card
        (cx, cy, cw, ch), = [c[1:] for c in art.cards]
        x0, y0, x1, y1 = p.bounds()
        return x0 < cx and y0 < cy and x1 > cx + cw and y1 > cy + ch

    moved = book_art(one_card("moved"))
    assert [(around(p, moved), bool(p.dash)) for p in moved.signs] == [(True, True)]
    won = book_art(one_card("won"))
    outlines = [p for p in won.signs if p.stroke and not p.fill]
    assert len(outlines) == 2 and sum(around(p, won) for p in outlines) == 1  # one out, one in
    assert any(p.fill and len(p.ops) == 11 for p in won.signs)  # the star: ten points, closed
    killed_art = book_art(one_card("killed"))
    (cx, cy, cw, ch), = [c[1:] for c in killed_art.cards]
    killed = killed_art.signs
    veil = [p for p in killed if p.opacity < 1]
    assert len(veil) == 1 and veil[0].bounds() == pytest.approx((cx, cy, cx + cw, cy + ch))
    assert [sum(op[0] == "M" for op in p.ops) for p in killed if p.stroke] == [2, 2]  # ✕ on a halo
    played = book_art(one_card("played")).signs
    assert any(p.fill and [op[0] for op in p.ops] == ["M", "L", "L", "Z"] for p in played)
    revealed = book_art(one_card("revealed")).signs
    assert any(p.stroke and not p.fill and [op[0] for op in p.ops] == ["M", "C", "C", "Z"]
               for p in revealed)  # the eye's outline, then its pupil
    own = book_art(one_card("trumped"))
    assert [r.text for r in own.runs if r not in plain.runs] == ["T"]


def test_a_games_own_label_is_set_at_7_pt_in_the_book():
    from builder.render.book.glyphs import PT

    (run,) = [r for r in book_art(one_card("trumped")).runs if r.text == "T"]
    assert run.size / PT >= 7.0 - 1e-6 and run.style.file == mk.LABEL_FONT


def test_a_covered_cards_marks_stay_in_the_part_in_view():
    """A fan's next card covers all but the left strip of a card: its signs stand in that
    strip; a stack's covers all but the top strip: its signs stand in that one."""
    kinds = ("moved", "killed")
    for style in ("fan", "stack"):
        cards = [(Card.parse("QS"), True), (Card.parse("2C"), True)]
        zone = Zone("z", "Z", 0, 0, cards=cards, style=style)
        d = Presenter(links()).diagram([zone], {}, marks={"QS": "killed"},
                                       after=[Zone("z", "Z", 0, 0, cards=cards[1:], style=style)])
        assert card_views(d)[0].signs == kinds
        art = book_art(d)
        (x, y, w, h), (nx, ny, _, _) = [c[1:] for c in art.cards]
        right, foot = (nx, y + h) if style == "fan" else (x + w, ny)
        for p in art.signs:
            if p.dash:  # the outline goes round the part in view, just outside it
                x0, y0, x1, y1 = p.bounds()
                assert x1 == pytest.approx(right + 0.35 + 0.3, abs=0.01), style
                assert y1 == pytest.approx(foot + 0.35 + 0.3, abs=0.01), style
            elif p.opacity == 1:  # the cross, inside the part in view
                x0, y0, x1, y1 = p.bounds()
                assert x <= x0 and x1 <= right and y <= y0 and y1 <= foot, (style, p.bounds())


def _page_with(art, fetcher, tmp_path: Path, name: str, dpi: int = 600):
    """``art`` stamped alone on a page at (20 mm, 20 mm), rasterised: (image, mm -> px)."""
    import pypdfium2 as pdfium
    from weasyprint import HTML

    from builder.render.book.pdf import diagram_placements
    from builder.render.book.stamp import stamp

    fetcher.art[:] = [art]
    html = ('<html lang="en"><style>@page { size: 80mm 80mm; margin: 0 } body { margin: 0 }'
            f' img {{ position: absolute; left: 20mm; top: 20mm; width: {art.width}mm;'
            f' height: {art.height}mm }}</style><img src="diagram:blank" data-diagram="0" alt="t">')
    doc = HTML(string=html, url_fetcher=fetcher).render(pdf_tags=True)
    target = tmp_path / f"{name}.pdf"
    stamp(doc.write_pdf(pdf_tags=True), diagram_placements(doc, fetcher), fetcher.cards, target)
    pdf = pdfium.PdfDocument(str(target))
    img = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return img, lambda mm: round(mm / 25.4 * dpi)


def _ink_box(img, box) -> tuple[int, int, int, int]:
    """The bounding box of the ink (dark or strongly coloured pixels) inside ``box``."""
    x0, y0, x1, y1 = box
    xs, ys = [], []
    for yy in range(y0, y1):
        for xx in range(x0, x1):
            r, g, b = img.getpixel((xx, yy))
            if 0.3 * r + 0.59 * g + 0.11 * b < 170:
                xs.append(xx)
                ys.append(yy)
    assert xs, box
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


@pytest.mark.parametrize("code", ["10H", "QS", "8C"])
def test_the_killed_cross_leaves_the_card_readable(code, tmp_path):
    """The ✕ of a killed card stays off its index (rank and suit in the top left corner)
    and off its large suit (bottom right): measured on the printed pixels, the card's ink
    drawn alone against the cross drawn alone; and the card is faded under its mark."""
    from builder.render.book.pdf import BookFetcher
    from builder.render.book.stamp import Art

    fetcher = BookFetcher()
    fetcher.draw_cards([code], 10, 14)
    x, y, w, h = 5.0, 5.0, 10.0, 14.0
    card = Art(width=20, height=24, felt="#ffffff", edge="#ffffff")
    card.cards.append((code, x, y, w, h))
    img, px = _page_with(card, fetcher, tmp_path, "card")
    ox = 20 + x
    # the index: the ink of the card's upper left part; the large suit: of its lower right
    index = _ink_box(img, (px(ox + 0.4), px(20 + y + 0.4), px(ox + 0.5 * w), px(20 + y + 0.64 * h)))
    big = _ink_box(img, (px(ox + 0.36 * w), px(20 + y + 0.55 * h), px(ox + w - 0.4), px(20 + y + h - 0.4)))
    for shown in ((w, h), (FAN_STEP * w, h)):  # alone, and under the next card of a fan
        cross = Art(width=20, height=24, felt="#ffffff", edge="#ffffff")
        cross.signs = [p for p in mk.card_shapes(("killed",), x, y, w, h, shown=shown)
                       if isinstance(p, mk.Path) and p.opacity == 1 and p.stroke == mk.INK["killed"]]
        assert cross.signs
        mark, _ = _page_with(cross, fetcher, tmp_path, "cross")
        drawn = _ink_box(mark, (px(20), px(20), px(40), px(44)))

        def apart(a, b):
            return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]

        assert apart(drawn, index), (code, shown, drawn, index)
        assert apart(drawn, big), (code, shown, drawn, big)
        assert drawn[2] <= px(ox + shown[0])  # and within the part in view
    # the card under the mark is faded: its large suit is lighter
    killed = Art(width=20, height=24, felt="#ffffff", edge="#ffffff")
    killed.cards.append((code, x, y, w, h))
    killed.signs = [p for p in mk.card_shapes(("killed",), x, y, w, h) if isinstance(p, mk.Path)]
    faded, _ = _page_with(killed, fetcher, tmp_path, "killed")
    centre = ((big[0] + big[2]) // 2, (big[1] + big[3]) // 2)
    assert sum(faded.getpixel(centre)) > sum(img.getpixel(centre)) + 90, code


# ---------------------------------------------------------------- the site
def site_html(d) -> str:
    from builder.render.templating import environment

    env = environment(None)
    env.filters["span"] = lambda widths: round(sum(widths), 3)  # the site renderer's
    return env.from_string('{% from "site/_table.html.j2" import table %}'
                           '{{ table(d, "t") }}').render(d=d)


MARKED = re.compile(r'<span class="card-marked([^"]*)">(<img [^>]*>)(<svg .*?</svg>)</span>', re.S)


def svg_shape(svg: str) -> tuple:
    """An SVG of a card's signs without its colours: each element, how it is built and
    painted."""
    root = ET.fromstring(svg)
    out = []
    for el in root:
        a = el.attrib
        if el.tag == "text":
            out.append(("text", el.text))
            continue
        out.append((el.tag, "".join(re.findall(r"[MLCZ]", a["d"])), a.get("fill", "none") != "none",
                    "stroke" in a, "stroke-dasharray" in a, "fill-opacity" in a))
    return tuple(sorted(out))


def test_every_kind_is_drawn_differently_on_the_site():
    seen = {}
    for kind in KINDS:
        html = site_html(one_card(kind))
        (classes, img, svg), = MARKED.findall(html)
        assert f"mark-{kind}" in classes.split(), (kind, classes)
        assert 'class="card' in img and 'aria-hidden="true"' in svg
        seen[kind] = svg_shape(svg)
    for a, b in itertools.combinations(KINDS, 2):
        assert seen[a] != seen[b], (a, b)
    assert any(s[4] for s in seen["moved"] if s[0] == "path")  # dashed
    assert any(s[5] for s in seen["killed"] if s[0] == "path")  # the veil
    assert ("text", "T") in seen["trumped"]
    # an unmarked card is a bare image, as before
    assert not MARKED.findall(site_html(one_card("none", vocab=mk.Vocabulary())))
    # the same description as the book: the site's shapes are the book's, scaled
    book = sorted(shape_of(p)[:1] for p in book_art(one_card("won")).signs)
    site = sorted((tuple(s[1].replace("", " ").split()),) for s in seen["won"])
    assert book == site


def test_the_site_stylesheet_lays_the_signs_over_the_card():
    css = (Path(__file__).resolve().parents[2] / "templates" / "site" / "site.css").read_text()
    rule = re.search(r"\.card-signs \{([^}]*)\}", css).group(1)
    pad = mk.SITE_PAD / mk.SITE_W
    assert "position: absolute" in rule and "max-width: none" in rule
    assert f"var(--card) * -{str(pad).lstrip('0')}" in rule  # left and top: the viewBox's pad
    assert f"var(--card) * {1 + 2 * pad}" in rule
    # the marked card keeps its place in a fan or a stack: the overlaps apply to any child
    for style in ("fan", "stack", "pile"):
        assert f".zone-{style} .zone-cards > * + *" in css


# ---------------------------------------------------------------- the key
def key_kinds(html: str) -> list[str]:
    return re.findall(r'<span class="mark-key mark-key-([^"]+)">', html)


def render_key(d, book: bool = False) -> str:
    """The key as the site writes it (its pictures inline SVG), or as the book does (each
    picture an image the book's fetcher draws, its sign in words as its alternative text)."""
    from builder.render.templating import environment

    call = "mark_key(d, inline=false)" if book else "mark_key(d)"
    return environment(None).from_string('{% from "shared/_diagram.html.j2" import mark_key %}'
                                         '{{ ' + call + ' }}').render(d=d)


def said(html: str) -> str:
    """The key's words as read: its text without the markup."""
    from markupsafe import Markup

    return " ".join(Markup(html).striptags().split())


def book_pictures(html: str) -> list[tuple[str, str]]:
    """(src, alt) of each picture of a key in the book."""
    return re.findall(r'<img class="mark-sign" src="([^"]+)" alt="([^"]+)">', html)


def test_the_key_lists_exactly_the_kinds_of_its_step(report):
    """Every step of every shipped example: the key lists the kinds drawn on its cards
    and the signs of its hidden places, each once, in the fixed order, each with its
    picture and its words."""
    order = list(mk.ORDER + mk.PLACE_ORDER)
    steps = 0
    kinds_seen = set()
    for gr in report.games:
        view = Presenter(links()).game(gr)
        for ex in view.examples:
            for s in ex.steps:
                d = s.diagram
                drawn = {k for c in card_views(d) for k in c.signs} \
                    | {z.hidden for row in d.rows for z in row if z and z.hidden}
                assert set(d.marks) == drawn, (gr.game.slug, ex.id, s.index)
                assert d.marks == sorted(d.marks, key=order.index)
                assert [k.kind for k in d.legend] == d.marks
                html, book = render_key(d), render_key(d, book=True)
                assert key_kinds(html) == key_kinds(book) == d.marks
                assert book_pictures(book) == [(f"diagram:mark-{k.kind}", k.sign) for k in d.legend]
                for k in d.legend:
                    words = MARK_KINDS.get(k.kind) or mk.PLACE_WORDS.get(k.kind, mk.MOVED_WORDS)
                    assert f'role="img" aria-label="{k.sign}"' in html and words in said(html)
                kinds_seen |= drawn
                steps += 1
    assert steps > 100
    assert {"moved", "won", "killed", "played", "owner-only"} <= kinds_seen


def test_the_key_of_a_step_with_no_marks_is_empty_and_shows_only_what_is_there():
    d = one_card("played")
    assert d.marks == ["played"]
    html = render_key(d)
    assert key_kinds(html) == ["played"] and said(html) == "just played."
    assert "won the step" not in html and "Drawn at the reveal" not in html
    d = one_card("moved")
    assert key_kinds(render_key(d)) == ["moved"]
    assert said(render_key(d)) == "Drawn at the reveal, before the step resolves. moves when the step resolves."
    assert render_key(one_card("none", vocab=mk.Vocabulary())).strip() == ""


def test_a_games_own_kind_shows_its_tag_and_words_in_the_key(report):
    """A game that declares ``mark_kinds`` and marks with it: through the replay's game,
    its kind is kept, drawn as a tag with its label, and the key gives the tag and the
    game's words."""
    gr = next(g for g in report.games if g.game.slug == "battle")
    rep = gr.replays[0]
    old = rep.game.gamedef
    gamedef = dataclasses.replace(
        old, mark_kinds={"trumped": "beaten by a higher card"},
        marks=lambda events, table: {code: ("trumped" if kind == "killed" else kind)
                                     for code, kind in old.marks(events, table).items()})
    rep = dataclasses.replace(rep, game=dataclasses.replace(rep.game, gamedef=gamedef))
    from builder.render.markup import Markdown

    p = Presenter(links())
    p._resolve = lambda rid: None  # as game() sets it
    view = p.example(rep, 1, Markdown(lambda rid: None), rep.game.rule_index())
    d = view.steps[0].diagram
    assert d.marks == ["moved", "won", "trumped", "owner-only"]  # Battle's hands: last
    (key,) = [k for k in d.legend if k.kind == "trumped"]
    assert (key.label, key.words, key.sign) == ("T", "beaten by a higher card", "tag T")
    html = render_key(d)
    assert key_kinds(html) == ["moved", "won", "trumped", "owner-only"]
    assert 'aria-label="tag T"' in html and "beaten by a higher card" in said(html)
    assert "out of the game" not in html
    assert book_pictures(render_key(d, book=True))[-2] == ("diagram:mark-tag-T", "tag T")
    (c,) = [c for c in card_views(d) if c.mark == "trumped"]
    assert c.label == "T" and ">T</text>" in str(c.sign_svg)


def test_battle_marks_the_tied_cards_as_just_played(report):
    """Battle: the cards that tie are marked just played, unless the same step goes on to
    settle them (won, or killed)."""
    gr = next(g for g in report.games if g.game.slug == "battle")
    view = Presenter(links()).game(gr)
    played = 0
    for ex, rep in zip(view.examples, gr.replays):
        for s, rec in zip(ex.steps, rep.steps):
            tied = {str(c) for e in rec.events if e.kind in ("tie", "battle-tie") for c in e.cards}
            shown = {c.code: c.mark for c in card_views(s.diagram) if c.code in tied}
            assert set(shown.values()) <= {"played", "won", "killed"}, (ex.id, s.index, shown)
            played += sum(m == "played" for m in shown.values())
    assert played >= 4


def test_the_books_fetcher_draws_each_picture_of_the_key():
    """Each key picture's address gives the SVG of that sign; an address of no sign gives
    nothing (the fetcher then refuses it as any unknown address)."""
    from builder.render.book.pdf import BookFetcher

    fetcher = BookFetcher()
    drawn = {}
    for kind in mk.ORDER + mk.PLACE_ORDER:
        body = fetcher.fetch(mk.swatch_url(kind)).read()
        drawn[kind] = svg_shape(body.decode().replace(' xmlns="http://www.w3.org/2000/svg"', ""))
    drawn["tag"] = svg_shape(fetcher.fetch(mk.swatch_url("trumped", "T")).read().decode()
                             .replace(' xmlns="http://www.w3.org/2000/svg"', ""))
    assert ("text", "T") in drawn["tag"]
    for a, b in itertools.combinations(drawn, 2):
        assert drawn[a] != drawn[b], (a, b)
    for bad in ("diagram:mark-bogus", "diagram:mark-tag-", "diagram:mark-tag-%3Cscript%3E",
                "diagram:mark-tag-ABCDEFG"):
        assert mk.swatch_for(bad) is None, bad
