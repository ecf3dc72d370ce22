"""Cards hidden from the table (issue 24, item 5, the render half): the book and the site
keep the reader's all-seeing view (a hand drawn face up), but a place the table may not
look into (``Zone.seen_by`` "owner" or "nobody") is drawn apart, once as a place: its
cards on a grey ground, a closed eye before its owner's name (struck through for a place
seen by no one), the key saying so, last; and the narration sets apart a card the table
has not seen (one drawn into a hand unshown), with words saying who sees it.

As in test_marks.py, the structures are read back from what the renderers produce (the
book's art, its PDF drawn and rasterised, the site's HTML)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from markupsafe import Markup

from builder.check import StepRecord
from builder.engine.core import Card, Event, Zone
from builder.render import marks as mk
from builder.render.markup import Markdown
from builder.render.present import Links, Presenter

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"p1": "North", "p2": "South"}


def links() -> Links:
    return Links(anchor=lambda s, r: f"{s}--{r}", href=lambda s, r: f"#{s}--{r}",
                 card=lambda c: f"card:{c}")


def cards(*codes: str, up: bool = True) -> list:
    return [(Card.parse(c), up) for c in codes]


def table(seen_by: str = "owner", hand=("4S", "9H", "KD"), up: bool = True, stock_seen="nobody",
          stock=()) -> list[Zone]:
    """North's hand (fan) beside a pile everyone sees, and a stock below."""
    return [
        Zone("p1.hand", "Hand", 0, 0, cards=cards(*hand, up=up), owner="p1", style="fan",
             seen_by=seen_by),
        Zone("pile", "Pile", 0, 1, cards=cards("2C"), count=1, style="pile"),
        Zone("stock", "Stock", 1, 0, cards=cards(*stock, up=bool(stock)) or cards("5C", up=False),
             count=max(1, len(stock)), style="pile", seen_by=stock_seen),
    ]


def diagram(zones, marks=None, vocab=None):
    return Presenter(links()).diagram(zones, NAMES, marks=marks, vocab=vocab)


def zone(d, zid: str):
    (z,) = [z for row in d.rows for z in row if z and z.id == zid]
    return z


# ---------------------------------------------------------------- the presenter
def test_a_hidden_place_with_a_card_face_up_is_flagged_with_who_sees_it():
    d = diagram(table())
    hand, pile, stock = zone(d, "p1.hand"), zone(d, "pile"), zone(d, "stock")
    assert (hand.hidden, hand.seen) == ("owner-only", "seen by North only")
    # a place everyone sees, and a stock seen by no one that shows only a back: unmarked
    assert (pile.hidden, pile.seen, stock.hidden, stock.seen) == ("", "", "", "")
    # a hand everyone may see (an open hand) is not marked; nor one held face down
    assert zone(diagram(table(seen_by="everyone")), "p1.hand").hidden == ""
    assert zone(diagram(table(up=False)), "p1.hand").hidden == ""
    # a stock whose order the reader is shown: seen by no one
    d = diagram(table(stock=("6D", "7D")))
    assert (zone(d, "stock").hidden, zone(d, "stock").seen) == ("no-one", "seen by no one")


# ---------------------------------------------------------------- the key
def key_kinds(d, book: bool = False) -> list[str]:
    from builder.render.templating import environment

    call = "mark_key(d, inline=false)" if book else "mark_key(d)"
    html = environment(None).from_string('{% from "shared/_diagram.html.j2" import mark_key %}'
                                         '{{ ' + call + ' }}').render(d=d)
    return re.findall(r'<span class="mark-key mark-key-([^"]+)">', html), \
        " ".join(Markup(html).striptags().split())


def test_the_key_lists_the_hidden_sign_exactly_when_a_hidden_place_shows_a_card():
    assert key_kinds(diagram(table())) == (["owner-only"], "seen by its owner only.")
    assert key_kinds(diagram(table(), ), book=True)[0] == ["owner-only"]
    assert key_kinds(diagram(table(seen_by="everyone"))) == ([], "")
    assert key_kinds(diagram(table(up=False))) == ([], "")
    # both places: the hand's sign, then the stock's; after every kind of card mark (the
    # game's own included): they say what a place is, not what the step did
    vocab = mk.Vocabulary(own={"trumped": "beaten by a trump"})
    d = diagram(table(stock=("6D",)), marks={"2C": "trumped"}, vocab=vocab)
    assert d.marks == ["trumped", "owner-only", "no-one"]
    assert key_kinds(d) == (["trumped", "owner-only", "no-one"],
                            "T beaten by a trump; seen by its owner only; seen by no one.")
    # the book's pictures, drawn by its fetcher, with the sign in words as alt text
    assert [(k.src, k.sign) for k in d.legend][1:] == [
        ("diagram:mark-owner-only", "closed eye"), ("diagram:mark-no-one", "closed eye, struck through")]
    # a game may not take the places' names for kinds of its own
    assert mk.Vocabulary.of(type("G", (), {"mark_kinds": {"owner-only": "x", "no-one": "y"}})).own == {}


def test_the_two_places_signs_differ_by_shape():
    def shape(kind):
        return [(tuple(op[0] for op in p.ops), p.fill is not None) for p in mk.place_sign(kind, 0, 0, 1.45)]

    owner, nobody = shape("owner-only"), shape("no-one")
    assert owner != nobody and nobody[:len(owner)] == owner  # the same eye, struck through
    assert [ops for ops, _ in nobody[len(owner):]] == [("M", "L")]
    # the lid is a curve, the lashes three strokes
    assert ("M", "C") in [ops for ops, _ in owner]
    assert sum(1 for ops, _ in owner if ops == ("M", "L") * 3) == 1


# ---------------------------------------------------------------- the book
def book(d):
    from builder.render.book.pdf import diagram_art, diagram_geometry

    g = diagram_geometry(d)
    return g, diagram_art(g)


def placed(g, zid):
    (p,) = [p for p in g.zones if p.zone.id == zid]
    return p


def test_the_book_sets_a_hidden_places_cards_on_a_grey_ground():
    g, art = book(diagram(table()))
    _, open_art = book(diagram(table(seen_by="everyone")))
    assert open_art.grounds == [] and art.grounds
    (ground,) = art.grounds
    hand = placed(g, "p1.hand")
    # the ground lies under every card of the hand, a little beyond them, and under no
    # other place's card
    x0, y0, x1, y1 = ground.bounds()
    xs = [x for _, x, _ in hand.cards]
    assert x0 < min(xs) and x1 > max(xs) + g.card and y0 < hand.body_top and y1 > hand.body_top + g.card_h
    assert x1 - (max(xs) + g.card) < 1.0 and min(xs) - x0 < 1.0  # a margin, not the column
    for p in g.zones:
        if p.zone.id != "p1.hand":
            for _, x, y in p.cards:
                assert x >= x1 or x + g.card <= x0 or y >= y1 or y + g.card_h <= y0
    # a solid grey panel: filled, a thin edge, no dashes (dashes say "moves", "empty")
    assert ground.fill == mk.HIDDEN_GROUND and ground.stroke and not ground.dash and ground.opacity == 1
    # the cards themselves are the same, each where it lies in its place (the places stand
    # lower: room is kept between the ground and the words, pdf.diagram_geometry), with
    # nothing laid over them
    open_g, _ = book(diagram(table(seen_by="everyone")))

    def in_place(geo):
        return [(c.art, x, round(y - p.body_top, 6)) for p in geo.zones for c, x, y in p.cards]

    assert in_place(g) == in_place(open_g)
    assert [(c, w, h) for c, _, _, w, h in art.cards] == [(c, w, h) for c, _, _, w, h in open_art.cards]
    card_boxes = [(x, y, x + w, y + h) for _, x, y, w, h in art.cards]
    extra = [s for s in art.signs if s not in open_art.signs]
    assert extra
    for s in extra:
        sx0, sy0, sx1, sy1 = s.bounds()
        assert all(sx1 <= a or sx0 >= c or sy1 <= b or sy0 >= d for a, b, c, d in card_boxes), s


def test_the_books_closed_eye_stands_before_the_owners_name_in_the_label():
    g, art = book(diagram(table()))
    hand = placed(g, "p1.hand")
    (owner,) = [r for r in art.runs if r.text == "North"]
    disc = [s for s in art.signs if s.fill == "#ffffff"]
    assert len(disc) == 1
    x0, y0, x1, y1 = disc[0].bounds()
    width = owner.style.face.width(owner.text, owner.size)
    # in the label band, left of the name, the two inside the column, the pair centred
    assert hand.y <= y0 and y1 <= hand.body_top
    assert x1 < owner.x and hand.x <= x0 and owner.x + width <= hand.x + hand.w
    assert (x0 - hand.x) == pytest.approx(hand.x + hand.w - (owner.x + width), abs=0.6)
    # the name's baseline passes through the disc: they stand on one line
    assert y0 < owner.baseline < y1 + 0.5
    # the open hand's name stands alone, centred
    g2, open_art = book(diagram(table(seen_by="everyone")))
    (open_owner,) = [r for r in open_art.runs if r.text == "North"]
    assert open_owner.x < owner.x


def _page_with(art, fetcher, tmp_path: Path, name: str, dpi: int):
    """``art`` stamped alone on a page at (20 mm, 20 mm), rasterised: (image, mm -> px)."""
    import pypdfium2 as pdfium
    from weasyprint import HTML

    from builder.render.book.pdf import diagram_placements
    from builder.render.book.stamp import stamp

    fetcher.art[:] = [art]
    html = ('<html lang="en"><style>@page { size: 90mm 90mm; margin: 0 } body { margin: 0 }'
            f' img {{ position: absolute; left: 20mm; top: 20mm; width: {art.width}mm;'
            f' height: {art.height}mm }}</style><img src="diagram:blank" data-diagram="0" alt="t">')
    doc = HTML(string=html, url_fetcher=fetcher).render(pdf_tags=True)
    target = tmp_path / f"{name}.pdf"
    stamp(doc.write_pdf(pdf_tags=True), diagram_placements(doc, fetcher), fetcher.cards, target)
    pdf = pdfium.PdfDocument(str(target))
    img = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return img, lambda mm: round(mm / 25.4 * dpi)


def test_the_stamped_book_shows_the_grey_ground_beside_the_cards(tmp_path):
    """Drawn into a PDF and rasterised: beside the hand's first card, the hidden hand
    shows its grey ground where the open one shows the felt; the card's index is the
    same ink in both (the ground lies under the card)."""
    from builder.render.book.pdf import BookFetcher

    fetcher = BookFetcher()
    fetcher.draw_cards(["4S", "9H", "KD", "2C", "back"], 10, 14)
    shots = {}
    for seen in ("owner", "everyone"):
        g, art = book(diagram(table(seen_by=seen)))
        img, px = _page_with(art, fetcher, tmp_path, seen, dpi=300)
        hand = placed(g, "p1.hand")
        _, x, y = hand.cards[0]
        beside = (px(20 + x - 0.3), px(20 + y + 7))
        index = [img.getpixel((px(20 + x + dx), px(20 + y + dy)))
                 for dx in (0.8, 1.2, 1.6) for dy in (1.0, 1.5, 2.0)]
        shots[seen] = (img.getpixel(beside), index)

    def luma(c):
        return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]

    assert luma(shots["owner"][0]) < luma(shots["everyone"][0]) - 15, shots
    assert shots["owner"][1] == shots["everyone"][1]


# ---------------------------------------------------------------- the site
def site_html(d) -> str:
    from builder.render.templating import environment

    env = environment(None)
    env.filters["span"] = lambda widths: round(sum(widths), 3)
    return env.from_string('{% from "site/_table.html.j2" import table %}{{ table(d, "t") }}').render(d=d)


def zone_div(html: str, zid: str) -> str:
    m = re.search(r'<div class="zone ([^"]*)" data-zone="' + re.escape(zid) + r'"[^>]*>\s*'
                  r'<div class="zone-label">(.*?)</div>', html, re.S)
    assert m, zid
    return m.group(1), m.group(2)


def test_the_site_draws_a_hidden_place_apart():
    html = site_html(diagram(table(stock=("6D",))))
    classes, label = zone_div(html, "p1.hand")
    assert {"zone-hidden", "zone-owner-only"} <= set(classes.split())
    # the closed eye before the owner's name, its tooltip saying who sees the hand
    m = re.match(r'<span class="zone-owner">(<svg class="place-sign place-sign-owner-only".*?</svg>)North</span>',
                 label, re.S)
    assert m, label
    svg = ET.fromstring(m.group(1))
    assert svg.get("aria-hidden") == "true" and svg.find("title").text == "seen by North only"
    assert [el.tag for el in svg][1:] == ["path"] * 3
    classes, label = zone_div(html, "stock")
    assert "zone-no-one" in classes.split() and "place-sign-no-one" in label
    classes, label = zone_div(html, "pile")
    assert "zone-hidden" not in classes and "place-sign" not in label
    # the diagram's accessible name says who sees the hand
    from builder.render.site.pages import describe

    assert "North's hand (seen by North only): " in describe(diagram(table()), "t")
    open_html = site_html(diagram(table(seen_by="everyone")))
    assert "zone-hidden" not in open_html and "place-sign" not in open_html


def test_the_site_stylesheet_sets_the_hidden_ground_in_both_themes():
    css = (ROOT / "templates" / "site" / "site.css").read_text()
    rule = re.search(r"\.zone-hidden \.zone-cards \{([^}]*)\}", css).group(1)
    assert "background: var(--hidden-ground)" in rule and "var(--hidden-edge)" in rule
    # a ring of shadows: the cards keep their places (no padding, no border, no outline
    # that would move them)
    assert "box-shadow" in rule and "padding" not in rule and "border:" not in rule
    assert css.count("--hidden-ground:") == 3 and css.count("--hidden-edge:") == 3  # light, dark x2
    sign = re.search(r"\.place-sign \{([^}]*)\}", css).group(1)
    assert "height: 1.3em" in sign


# ---------------------------------------------------------------- the narration
def step(events, before, at, after=None):
    rec = StepRecord(index=1, kind="decision", decisions={}, events=events, view={},
                     table=at, comment="", expected=[], after=after)
    return Presenter(links()).step(rec, NAMES, Markdown(lambda rid: None), before=before)


UNSEEN = re.compile(r'<span class="card-sign card-unseen [^"]*" title="([^"]*)">(.*?)'
                    r'<span class="unseen-note"> \(([^)]*)\)</span></span>')


def test_the_narration_sets_apart_a_card_drawn_into_a_hidden_hand():
    seven = Card.parse("7H")
    before = table(hand=("4S",), stock=())
    after = table(hand=("4S", "7H"))
    view = step([Event("draw", "draw", "{p1} draws 7H.", "p1", (seven,))], before, after)
    (line,) = view.narration
    (title, shown, note), = UNSEEN.findall(str(line))
    assert title == "seven of hearts, not seen by the table: seen by North only"
    assert note == "not seen by the table: seen by North only"
    assert shown.startswith("7<span class=\"suit\"")
    assert Markup(line).striptags().startswith("North draws 7♥")
    # the same draw into a hand everyone sees: a card like any other
    (line,) = step([Event("draw", "draw", "{p1} draws 7H.", "p1", (seven,))],
                   table(hand=("4S",), seen_by="everyone"), table(hand=("4S", "7H"), seen_by="everyone")).narration
    assert "card-unseen" not in str(line) and 'class="card-sign suit-red"' in str(line)


def test_the_narration_leaves_a_card_the_table_saw_as_it_is():
    seven = Card.parse("7H")
    play = lambda cs: Zone("p1.play", "Play", 1, 1, cards=cards(*cs), owner="p1")  # noqa: E731
    # played face up from the hand: after the step it lies in the open
    before = table(hand=("4S", "7H")) + [play([])]
    after = table(hand=("4S",)) + [play(["7H"])]
    (line,) = step([Event("play", "play", "{p1} plays 7H.", "p1", (seven,))], before, after).narration
    assert "card-unseen" not in str(line) and "card-sign" in str(line)
    # shown at the reveal, then back to the hand: the table saw it
    at = table(hand=("4S",)) + [play(["7H"])]
    back = table(hand=("4S", "7H")) + [play([])]
    (line,) = step([Event("tie", "tie", "7H goes back to {p1}'s hand.", "p1", (seven,))],
                   before, at, after=back).narration
    assert "card-unseen" not in str(line)
    # on the pile everyone sees before the step, then taken into the hand
    pile_before = table(hand=("4S",))
    pile_before[1] = Zone("pile", "Pile", 0, 1, cards=cards("7H"), count=1, style="pile")
    (line,) = step([Event("take", "take", "{p1} takes 7H.", "p1", (seven,))],
                   pile_before, table(hand=("4S", "7H"))).narration
    assert "card-unseen" not in str(line)


def test_the_narrations_words_stay_escaped():
    names = {"p1": 'Bo "<b>"'}
    rec = StepRecord(index=1, kind="decision", decisions={},
                     events=[Event("draw", "draw", "{p1} draws 7H <script>.", "p1")], view={},
                     table=table(hand=("7H",)), comment="", expected=[])
    (line,) = Presenter(links()).step(rec, names, Markdown(lambda rid: None),
                                      before=table(hand=())).narration
    html = str(line)
    assert "<script>" not in html and "<b>" not in html and "card-unseen" in html
    assert 'seen by Bo &#34;&lt;b&gt;&#34; only"' in html


def test_the_book_and_site_set_an_unseen_card_apart():
    for path, note in (("templates/book/book.css", "display: none"),
                       ("templates/site/site.css", "clip-path: inset(50%)")):
        css = (ROOT / path).read_text()
        rule = re.search(r"\.card-unseen \{([^}]*)\}", css).group(1)
        assert "font-style: italic" in rule and "underline dotted" in rule and "var(--muted)" in rule
        assert note in re.search(r"\.unseen-note \{([^}]*)\}", css).group(1), path


def test_the_shipped_hands_are_hidden_and_their_played_cards_are_not(report):
    """In the shipped examples every hand of Battle, Battle Lines, Ultimate and Happy
    Families that shows a card is drawn apart; the narration names no card as unseen, since every card it names
    the table sees (a reserve shown at the reveal and back to the hand, a tie's cards back
    to their hands)."""
    hands = 0
    with_hands = ("battle", "battle-lines", "ultimate", "happy-families")
    for gr in report.games:
        view = Presenter(links()).game(gr)
        # the examples' lead says how a hand is drawn where an example draws one
        assert view.hidden == (gr.game.slug in with_hands), gr.game.slug
        for ex in view.examples:
            for s in [ex.setup] + [s.diagram for s in ex.steps]:
                for z in (z for row in s.rows for z in row if z):
                    if z.id.endswith(".hand") and z.cards and gr.game.slug in with_hands:
                        assert z.hidden == "owner-only" and z.seen == f"seen by {z.owner} only"
                        hands += 1
                    elif not z.id.endswith(".hand"):
                        assert z.hidden == "", (gr.game.slug, z.id)
            for s in ex.steps:
                assert not any("card-unseen" in str(line) for line in s.narration), (ex.id, s.index)
    assert hands > 100


def test_an_empty_place_says_so_once_on_the_site():
    """A place with no cards reads "empty", unless its note already says what it holds
    (Winning the Battle's "0 stones" printed "empty" and "0 stones" one over the other);
    the book sets the note and no "empty" word alike (pdf.zone_words)."""
    stones = Zone("p1.stones", "Stones", 0, 0, cards=[], count=0, style="tokens", note="0 stones")
    pile = Zone("p1.won", "Won", 0, 1, cards=[], count=0, style="pile")
    html = site_html(diagram([stones, pile]))
    stones_html, won_html = html.split('data-zone="p1.won"')
    assert "0 stones" in stones_html and "zone-none" not in stones_html
    assert '<span class="zone-none">empty</span>' in won_html
