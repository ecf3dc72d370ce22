"""Stage 3a: the PDF rulebooks and the compendium, through Jinja templates and WeasyPrint.

One renderer, one shared FontConfiguration and one image cache for every book: card art is
served from memory under ``card:`` URLs. WeasyPrint lays out and writes each book with
every worked example's diagram as an empty, described picture; ``stamp`` then draws the
diagrams (felt, cards, words) into the written PDF where those pictures landed. This
module says what each diagram shows (``diagram_art``, ``diagram_runs``) and where it
landed (``diagram_placements``).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from markupsafe import Markup
from weasyprint import CSS, HTML
from weasyprint.formatting_structure import boxes
from weasyprint.urls import URLFetcherResponse

from ... import __version__
from ...engine.core import full_deck
from ...model import Book
from ...settings import Margins, Paper, Settings
from ..faces import Faces, back_ref, split_ref
from ..fetch import CardFetcher, card_url
from ..fonts import font_configuration, font_face_css
from ..marks import LABEL_FONT, OUTSIDE, card_shapes, place_sign, swatch_for
from ..marks import Path as SignPath
from ..marks import Text as SignText
from ..marks import ground as place_ground
from ..markup import Markdown, no_lone_word, page_ref
from ..present import FAN_STEP, GameView, Links, Presenter
from ..templating import TEMPLATES, environment, helper, read_template_file
from . import clearance, hyphenation, quickref
from .glyphs import PT, Run, Style, block, wrap
from .pagerefs import anchor_pages, fill_page_refs
from .stamp import Art, CardForms, Placed, stamp

#: the most columns of places a printed diagram holds in one band (``step_layout``)
MAX_COLS = 14

#: the quick reference's page: the same on either side (it is the back cover)
QUICKREF_MARGINS = Margins(top=14.0, bottom=16.0, inner=16.0, outer=16.0)


def page_css(paper: Paper) -> str:
    """The rulebook's page size and margins, from the paper table, as CSS given to
    WeasyPrint after ``book.css``: every right-hand and left-hand page, the first and blank
    ones included, has the margins the text block is measured with (``Paper.text_width``,
    ``text_height``), whatever margins a content's own ``book.css`` gives those pages (the
    rules here come later, with selectors at least as specific). A named page (the cover,
    the quick reference) keeps the margins the stylesheet gives it: a page name outranks
    these selectors, and no worked example is set on such a page. The quick reference's
    page (the book's back cover) gets its margins here too, and its section the height of
    that page's text block, so that it can spread down the whole page."""
    m = paper.book
    recto = f"margin: {m.top}mm {m.outer}mm {m.bottom}mm {m.inner}mm;"
    verso = f"margin: {m.top}mm {m.inner}mm {m.bottom}mm {m.outer}mm;"
    q = QUICKREF_MARGINS
    quickref = (f"@page quickref {{ margin: {q.top}mm {q.outer}mm {q.bottom}mm {q.inner}mm; }}\n"
                f".quickref {{ height: {paper.height - q.top - q.bottom - 0.5:.1f}mm; }}\n")
    return (quickref + f"@page {{ size: {paper.css}; }}\n"
            f"@page :right {{ {recto} }}\n@page :first:right {{ {recto} }}\n"
            f"@page :blank:right {{ {recto} }}\n"
            f"@page :left {{ {verso} }}\n@page :blank:left {{ {verso} }}\n")


def book_links() -> Links:
    """Anchors carry the game's slug, so that the rulebooks can be bound into the
    compendium without two anchors of the same name."""
    return Links(anchor=lambda slug, rid: f"{slug}--{rid}",
                 href=lambda slug, rid: f"#{slug}--{rid}", card=card_url, page_refs=True)


class BookFetcher(CardFetcher):
    """The shared card art (:class:`~builder.render.fetch.CardFetcher`), plus
    ``diagram:blank``, the empty picture that stands for a diagram until ``stamp`` draws
    it. Keeps every diagram's drawing (``Art``) by the number its picture carries."""

    BLANK = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'

    def __init__(self, four_colour: bool = False, faces: Faces | None = None):
        super().__init__(four_colour, faces)
        self.cards: CardForms | None = None
        self.art: list[Art] = []
        self.logo: Path | None = None  # the project's logo (``logo:book``), if any

    def diagram_id(self, g) -> int:
        """Keep the drawing of a placed diagram (``present.Geometry``); returns the number
        its picture carries (``data-diagram``)."""
        self.art.append(diagram_art(g))
        return len(self.art) - 1

    def fetch(self, url: str, headers: Any = None):
        if url == "logo:book" and self.logo is not None:
            kind = "image/svg+xml" if self.logo.suffix.lower() == ".svg" else "image/png"
            return URLFetcherResponse(url, body=self.logo.read_bytes(),
                                      headers={"Content-Type": kind})
        if url == "diagram:blank":
            return URLFetcherResponse(url, body=self.BLANK,
                                      headers={"Content-Type": "image/svg+xml"})
        if (swatch := swatch_for(url)) is not None:  # a picture of a diagram's key
            return URLFetcherResponse(url, body=swatch.encode(),
                                      headers={"Content-Type": "image/svg+xml"})
        return super().fetch(url, headers)

    def draw_cards(self, codes: list[str], width_mm: float, height_mm: float) -> None:
        """Draw the given cards (their references: ``render/faces.py``) once, from their
        SVG art, one to a page, for the diagrams, which show the same 53 small cards some
        2,500 times: ``stamp`` copies each card's page into a book once, as a vector
        picture (a form), and shows it wherever the card lies. Drawn again, cards already
        drawn are left as they are (the French 52 first, then a game's own decks, each at
        its own size)."""
        if self.cards is not None:
            codes = [c for c in codes if c not in self.cards]
            if not codes:
                return
        pages = "".join(f'<img src="{card_url(c)}" alt="">' for c in codes)
        html = (f'<html lang="en"><style>@page {{ size: {width_mm}mm {height_mm}mm; margin: 0 }}'
                f" body {{ margin: 0 }} img {{ display: block; width: {width_mm}mm;"
                f" height: {height_mm}mm }} img + img {{ break-before: page }}</style>{pages}")
        pdf = HTML(string=html, url_fetcher=self).write_pdf()
        if self.cards is None:
            self.cards = CardForms(pdf, codes)
        else:
            self.cards.add(pdf, codes)

    def draw_own_cards(self, view: "GameView") -> None:
        """Draw the cards of a game's own decks that its diagrams show (and each deck's
        back), each deck at its own width to height, 10 mm wide as the French cards."""
        refs = sorted({c.art for d in diagrams_of(view) for row in d.rows for z in row
                       if z is not None for c in z.cards if "/" in c.art})
        by_deck: dict[str, list[str]] = {}
        for ref in refs:
            by_deck.setdefault(split_ref(ref)[0], []).append(ref)
        for key, deck_refs in by_deck.items():
            ratio = self.faces.ratio(key) or 1.4
            back = back_ref(key)
            self.draw_cards(deck_refs + ([back] if back not in deck_refs else []),
                            10, round(10 * ratio, 3))


def diagrams_of(view: "GameView") -> list:
    """Every diagram of a game's book: the table dealt, each example's setup and steps."""
    out = [view.table] if view.table is not None else []
    for e in view.examples:
        out += [e.setup] + [s.diagram for s in e.steps]
    return out


def diagram_keeper(art: list) -> "Callable[[Any], int]":
    """``diagram_id`` for the templates: keeps the drawing of a placed diagram in ``art``
    (the fetcher's list, which ``stamp`` draws from) and returns its number. A function
    over that list alone, so a template never holds the fetcher (which reads the logo)."""
    from ..present import Geometry

    def diagram_id(g) -> int:
        if not isinstance(g, Geometry):
            raise TypeError("diagram_id takes a placed diagram (step_layout(...).geos)")
        art.append(diagram_art(g))
        return len(art) - 1

    return helper(diagram_id)


#: the books are written as PDF/UA-1 (WeasyPrint tags them and writes the XMP packet that
#: claims it; :mod:`.tagging` adds the table headers' scopes)
PDF_VARIANT = "pdf/ua-1"

#: the diagrams' words: Cabin, the owner bold on the label's first line, the place below it.
#: Nothing in a diagram is set under MIN_PT (issue 14: 7 pt is the least a player reads at
#: the table); the columns widen to hold the words at that size (``column_widths``).
MIN_PT = 7.0
WORDS_INK = "#4a5a47"
FELT, FELT_EDGE = "#eef3ec", "#c8d3c4"
LABEL = Style("Cabin-Regular.otf", MIN_PT, line=MIN_PT * 1.12 * PT, ink=WORDS_INK)
OWNER = Style("Cabin-Bold.otf", MIN_PT, line=LABEL.line, ink=WORDS_INK)
FOOT = Style("Cabin-Regular.otf", MIN_PT, line=MIN_PT * 1.12 * PT, ink=WORDS_INK)
EMPTY = Style("Cabin-Regular.otf", MIN_PT, line=6.0, ink="#7b8c77")
#: a label's lines: the owner and two lines of the place's name
LABEL_LINES = 3
#: the room (mm) under a label's last line, down to the cards or an empty place's outline
#: (its ink then stands some 0.6 mm clear: ``clearance.CLEAR`` asks 0.25)
LABEL_GAP = 0.7
#: the marks drawn round a card, outside it (``marks.card_shapes``)
RINGED = {"moved", "won"}
#: the height (mm) the geometry gives the counts below the cards (a label's band is as
#: tall as its words: ``_label_lines``)
FOOT_H = FOOT.line + 0.3
#: room (mm) left either side of a column's words
WORD_PAD = 0.6


def _lines_width(text: str, style: Style, lines: int) -> float:
    """The narrowest column (mm) in which ``text`` breaks into at most ``lines`` lines at
    full size: its longest word at least, widened half a millimetre at a time."""
    shown = text.upper() if style.upper else text
    w = max((style.face.width(word, style.size, style.tracking) for word in shown.split()),
            default=0.0)
    while len(wrap(text, style, w)) > lines:
        w += 0.5
    return w


def _foot_words(z) -> str:
    words = []
    if z.count is not None and z.style == "pile" and (z.cards or not z.note):
        words.append(f"{z.count} card{'s' if z.count != 1 else ''}")
    if z.note:
        words.append(z.note)
    return " \u00b7 ".join(words)


def column_widths(diagram) -> list[float]:
    """Each column's least width (mm) for its words at full size: the owner on one line,
    the place's name on the label's other lines, the count and note on the foot's."""
    out = []
    for j in range(diagram.cols):
        need = 0.0
        for row in diagram.rows:
            z = row[j] if j < len(row) else None
            if z is None:
                continue
            lines = LABEL_LINES
            if z.owner or z.hidden:  # the owner's line, with a hidden place's sign
                need = max(need, (_lines_width(z.owner, OWNER, 1) if z.owner else 0.0)
                           + (SIGN_ROOM if z.hidden else 0.0))
                lines -= 1
            need = max(need, _lines_width(z.label, LABEL, lines))
            if foot := _foot_words(z):
                need = max(need, _lines_width(foot, FOOT, 2 if z.note else 1))
            if not z.cards and not z.tokens:
                need = max(need, EMPTY.face.width("empty", EMPTY.size))
        out.append(need + 2 * WORD_PAD if need else 0.0)
    return out


def _label_lines(diagram, widths: list[float], card: float = 10.0) -> int:
    """The most lines a label of the diagram takes at full size (the owner's one and the
    place's), at most LABEL_LINES: the labels' band is no taller than its words."""
    most = 1
    for j, w in enumerate(widths):
        for row in diagram.rows:
            z = row[j] if j < len(row) else None
            if z is None:
                continue
            width = max(w, diagram.widths[j] * card)  # as geometry() sizes the column
            lines = (1 if z.owner or z.hidden else 0) \
                + (len(wrap(z.label, LABEL, width)) if z.label else 0)
            most = max(most, min(lines, LABEL_LINES))
    return most


#: a printed diagram's card width (mm), and the smaller widths it may be drawn at, down to
#: a floor, so that a step shares a page rather than leave a gap (``fit_plan``) or fits
#: one of the page's two columns (``column_layout``); the words stay at 7 pt whatever the
#: cards' size. The floor, three quarters of the width, still prints a card's corner
#: index about 3 mm tall (read at arm's length); at 8 mm, ten pages of the shipped books
#: stood under 60 % full, at 7.5 mm two
CARD = 10.0
SMALLER_CARDS = (9.5, 9.0, 8.5, 8.0, 7.5)


def diagram_geometry(diagram, card: float = CARD, narrow: bool = False):
    """A diagram (or a band of one) placed for print, its columns wide enough for its
    words and its label and foot tall enough for them; where a card is ringed or a
    hidden place has a ground, the words stand clear of those too (``marks.OUTSIDE``).
    ``narrow``: with cards smaller than ``CARD``, the columns narrow with the cards (to a
    page column, ``column_layout``), their words wrapped again."""
    widths = column_widths(diagram)
    if card < CARD and not narrow:
        # smaller cards in columns as wide as at full size: the words keep their lines, so
        # the diagram only loses height (narrower columns would wrap labels onto more lines)
        widths = [max(w, diagram.widths[j] * CARD) for j, w in enumerate(widths)]
    label = _label_lines(diagram, widths, card) * LABEL.line + LABEL_GAP
    return diagram.geometry(card=card, label=label, foot=FOOT_H, min_widths=widths,
                            ring=OUTSIDE * card / 10, ringed=_ringed)


def _ringed(z) -> bool:
    """Whether something is drawn round a place's cards, outside them: a ring round a
    marked card, the grey ground of a hidden place."""
    return bool(z.cards) and (bool(z.hidden) or any(set(c.signs) & RINGED for c in z.cards))


def diagram_runs(g) -> list[Run]:
    """The words of a placed diagram (``present.Geometry``), set in lines.

    Each place has its label above its cards (the owner in bold, then what the place is,
    centred in the column and wrapped to it, three lines in all at most); below them how
    many cards a pile holds and any note; in an empty place the word "empty". Nothing is
    set smaller than its style: ``column_widths`` made the columns wide enough."""
    return [r for p in g.zones for _part, runs in zone_words(p, g) for r in runs]


def zone_words(p, g) -> list[tuple[str, list[Run]]]:
    """A placed zone's blocks of words, each with its part: "owner", "label", "foot" or
    "empty" (``diagram_runs``)."""
    z = p.zone
    owner, _sign = _owner_line(p)
    out = [("owner", owner)] if owner else []
    lines = 1 if owner or _sign else 0
    out.append(("label", block(z.label, LABEL, p.x, p.y + lines * LABEL.line, p.w,
                               max_lines=LABEL_LINES - lines, min_scale=1.0)))
    if words := _foot_words(z):
        out.append(("foot", block(words, FOOT, p.x, p.foot_top + 0.3, p.w,
                                  max_lines=max(1, int((p.foot_h - 0.3 + 1e-6) // FOOT.line)),
                                  min_scale=1.0)))
    elif not p.cards and not p.tokens:
        out.append(("empty", block("empty", EMPTY, p.empty_x, p.body_top, g.card)))
    return out


def _place_words(z) -> str:
    """A place as a reader names it: "North's Play area (p1.play)"."""
    name = f"{z.owner}’s {z.label}" if z.owner else (z.label or "the place")
    return f"{name} ({z.id})"


def diagram_clashes(g) -> list[clearance.Clash]:
    """Where a placed diagram's words would touch its cards, marks or each other
    (``clearance``): an empty list for a diagram that prints clean."""
    words = [clearance.Words(p.zone.id, _place_words(p.zone), part, tuple(runs))
             for p in g.zones for part, runs in zone_words(p, g)]
    art = diagram_art(g, runs=[r for w in words for r in w.runs])
    things: list[tuple[str, clearance.Box]] = []
    for p in g.zones:
        for c, x, y in p.cards:
            things.append((f"a card of {_place_words(p.zone)}", (x, y, x + g.card, y + g.card_h)))
        things += [(f"a stone of {_place_words(p.zone)}", (cx - r, cy - r, cx + r, cy + r))
                   for cx, cy, r in p.tokens]
    things += [("a mark drawn on or round a card", clearance.path_box(s.ops, s.width))
               for s in art.signs]
    things += [("the grey ground of a hidden place", clearance.path_box(s.ops, s.width))
               for s in art.grounds]
    outlines = [(p.zone.id, f"the dashed outline of {_place_words(p.zone)}",
                 (p.empty_x, p.body_top, p.empty_x + g.card, p.body_top + g.empty))
                for p in g.zones if not p.cards and not p.tokens]
    return clearance.clashes(g.width, g.height, words, things, outlines)


def check_diagrams(game_report, view: GameView, text_width: float, max_cols: int) -> None:
    """The layout check of every diagram a game's book prints, as the book places it
    (``step_layout``): the first clash is an error at the example step it draws, so that
    a book never prints words over a card."""
    from ...diagnostics import Diagnostic

    game = game_report.game
    located = [(game.where, "the table as dealt", view.table)] if view.table is not None else []
    for e, rep in zip(view.examples, game_report.replays):
        ex = rep.example
        located.append((ex.where, f"Example {e.number}, the setup", e.setup))
        by_index = {st.index: st.where for st in ex.steps}
        for s in e.steps:
            located.append((by_index.get(s.index, ex.where), f"Example {e.number}, {s.label.lower()}",
                            s.diagram))
    for where, what, diagram in located:
        for g in step_layout(diagram, text_width, max_cols).geos:
            if found := diagram_clashes(g):
                more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
                raise Diagnostic.at(where, f"{what}: the diagram cannot be printed: "
                                    f"{found[0]}{more}", detail=(
                                        "hint: this is warbook's layout failing on these words, "
                                        "not a mistake in the example; a shorter name for the "
                                        "place (or its owner) avoids it. Please report it."))


#: a hidden place's sign in its label (render/marks.py ``place_sign``): the radius of its
#: disc (mm), as tall as the owner's capitals and a little more, and the room it takes on
#: the owner's line with the space after it
SIGN_R = 1.2
SIGN_ROOM = 2 * SIGN_R + 0.8


def _owner_line(p) -> tuple[list[Run], tuple[float, float] | None]:
    """The first line of a place's label: the owner's name in bold, and for a hidden place
    (``ZoneView.hidden``) the closed eye before it, the two centred together in the
    column; returns the runs and the sign's centre (or None)."""
    z = p.zone
    runs = block(z.owner, OWNER, p.x, p.y, p.w, max_lines=1, min_scale=1.0) if z.owner else []
    if not z.hidden:
        return runs, None
    f = OWNER.face
    # the middle of the capitals of the first line, where its baseline is (or would be)
    baseline = p.y + (OWNER.line - (f.ascent + f.descent) * OWNER.size) / 2 + f.ascent * OWNER.size
    cy = baseline - 0.36 * OWNER.size
    if not runs:
        return [], (p.x + p.w / 2, cy)
    shift = SIGN_ROOM / 2
    runs = [replace(r, x=r.x + shift) for r in runs]
    return runs, (runs[0].x - SIGN_ROOM + SIGN_R, cy)


def diagram_art(g, runs: list[Run] | None = None) -> Art:
    """A placed diagram (``present.Geometry``) as what ``stamp`` draws: the felt, the
    cards where they lie, the outline of each empty place, the marks and the words
    (``runs``: its words already set, ``diagram_runs``'s)."""
    art = Art(width=g.width, height=g.height, felt=FELT, edge=FELT_EDGE,
              runs=diagram_runs(g) if runs is None else runs)
    for p in g.zones:
        for c, x, y in p.cards:
            art.cards.append((c.art, x, y, g.card, g.card_h))
        if p.zone.hidden and p.cards:
            # a place the table may not look into: its cards on a grey ground, the closed
            # eye before the owner's name
            art.grounds.append(place_ground(
                min(x for _, x, _ in p.cards), min(y for _, _, y in p.cards),
                max(x for _, x, _ in p.cards) + g.card, max(y for _, _, y in p.cards) + g.card_h,
                g.card / 10))
            _, at = _owner_line(p)
            art.signs += [sh for sh in place_sign(p.zone.hidden, *at, SIGN_R)
                          if isinstance(sh, SignPath)]
        # a card is marked where it shows: a fan's next card covers all but its left
        # strip, a stack's all but its top strip, so the marks go round that part
        fan, stack = p.zone.style == "fan", p.zone.style == "stack"
        for i, (c, x, y) in enumerate(p.cards):
            if not c.signs:
                continue
            last = i == len(p.cards) - 1
            w = g.card if (last or not fan) else FAN_STEP * g.card
            h = g.card_h if (last or not stack) else p.cards[i + 1][2] - y
            for shape in card_shapes(c.signs, x, y, g.card, g.card_h, shown=(w, h),
                                     covered_below=stack and not last, label=c.label):
                if isinstance(shape, SignText):
                    style = Style(LABEL_FONT, shape.size / PT, line=shape.size * 1.1, ink=shape.ink)
                    width = style.face.width(shape.text, shape.size)
                    art.runs.append(Run(style, shape.text, shape.x - width / 2, shape.y, shape.size))
                else:
                    art.signs.append(shape)
        art.tokens += p.tokens
        if not p.cards and not p.tokens:
            art.empties.append((p.empty_x, p.body_top, g.card, g.empty))
    return art


def diagram_placements(doc, fetcher: "CardFetcher") -> list[Placed]:
    """Where each diagram's picture landed in a laid-out document, with its drawing."""
    placed = []
    for i, page in enumerate(doc.pages):
        # placeholders too: a diagram beside its text is in an absolutely placed column
        for box in page._page_box.descendants(placeholders=True):
            element = getattr(box, "element", None)
            if (isinstance(box, boxes.ReplacedBox) and element is not None
                    and (n := element.get("data-diagram")) is not None):
                placed.append(Placed(page=i, x=box.content_box_x(), y=box.content_box_y(),
                                     art=fetcher.art[int(n)]))
    return placed


#: the step texts' type, for estimating heights (see book.css): the text face at 10.6 pt
#: on 1.38 lines, the comment in its italic, the state lines in Cabin at 7.8 pt on 1.3
BODY = Style("EBGaramond-Regular.ttf", 10.6, line=10.6 * 1.38 * PT)
COMMENT = Style("EBGaramond-Italic.ttf", 10.6, line=10.6 * 1.38 * PT)
STATE = Style("Cabin-Regular.otf", 7.8, line=7.8 * 1.3 * PT)
META = Style("EBGaramond-Italic.ttf", 9, line=9 * 1.38 * PT)
#: the widest an example's running text is set (mm; book.css .ex-text and the rest): about
#: 80 characters of the text face, where the page's full width held some 120 (issue 14)
MEASURE = 100
META_MEASURE = 74


def _paras(html) -> list[str]:
    """The paragraphs of rendered HTML (or plain text) as plain text."""
    parts = re.split(r"</p>|<br\s*/?>|\n", str(html or ""))
    return [t for t in (Markup(p).striptags() for p in parts) if t]


def _height(paras: list[str], style: Style, width: float, gap: float = 1.6) -> float:
    """How tall ``paras`` set in ``style`` in a column ``width`` mm wide are, in mm: their
    lines as the font's widths break them (justified, hyphenated text sometimes needs a
    line less)."""
    lines = sum(len(wrap(p, style, width)) for p in paras)
    return lines * style.line + gap * max(0, len(paras) - 1)


@dataclass
class StepLayout:
    """How a step's diagram is placed (_game.html.j2 prints it so, and the estimates below
    measure it so): its bands, its width and height (mm), and whether it stands beside the
    text (one band, narrow enough to leave the text a column) or above it."""

    geos: list
    width: float
    height: float
    side: bool
    #: the card width it is drawn at (mm), and the diagram's key in the book being laid out
    #: (``fitted_layout``: the step's HTML carries it, so that ``fit_plan`` finds it)
    card: float = CARD
    key: int = 0
    #: its seats set in two groups side by side (``seats_side_by_side``)
    seats: bool = False


#: the least number of seats' rows a diagram has for ``seats_side_by_side`` to set them
#: in two groups, and the room between the groups (in card widths)
SEAT_ROWS = 3
SEAT_SPACER = 0.4
#: the wider, shorter diagram is taken when it is at most this part of the tall one's height
SEATS_SHORTER = 0.8


def seats_side_by_side(diagram):
    """A diagram whose every row is one seat's places (each row's places all have one
    owner, a different one each row, and the same columns), of ``SEAT_ROWS`` or more:
    the same places with the seats in two groups side by side, the first half of the
    rows on the left, the rest on the right, ``SEAT_SPACER`` apart; else None. Happy
    Families' four players' hands and families stood 107 mm tall and 40 mm wide beside
    three lines of text; side by side they are half as tall."""
    rows = diagram.rows
    if len(rows) < SEAT_ROWS or diagram.cols < 1:
        return None
    shape = [z is None for z in rows[0]]
    owners = []
    for row in rows:
        found = {z.owner for z in row if z is not None}
        if [z is None for z in row] != shape or len(found) != 1 or not next(iter(found)):
            return None
        owners.append(found.pop())
    if len(set(owners)) != len(owners):
        return None
    half = (len(rows) + 1) // 2
    blank = [None] * diagram.cols
    paired = [rows[i] + [None] + (rows[half + i] if half + i < len(rows) else blank)
              for i in range(half)]
    return replace(diagram, rows=paired, cols=2 * diagram.cols + 1,
                   widths=list(diagram.widths) + [SEAT_SPACER] + list(diagram.widths))


def step_layout(diagram, text_width: float, max_cols: int, card: float = CARD,
                narrow: bool = False) -> StepLayout:
    """How a step's diagram is placed (``StepLayout``): beside its text when one band of
    it leaves the text a column, else above it. A diagram of seats' rows that stands
    beside its text is set with its seats side by side (``seats_side_by_side``) where
    that is still beside and markedly shorter. ``narrow``: for one of the page's two
    columns (``column_layout``)."""
    plain = _step_layout(diagram, text_width, max_cols, card, narrow)
    paired = None if narrow or not plain.side else seats_side_by_side(diagram)
    if paired is not None:
        wide = _step_layout(paired, text_width, max_cols, card, narrow)
        if wide.side and wide.height <= plain.height * SEATS_SHORTER:
            # the places in seat order, as the tall diagram lists them (the picture's
            # alternative text reads them so), not row by row across the two groups
            seat = {z.owner: i for i, row in enumerate(diagram.rows) for z in row if z}
            for g in wide.geos:
                g.zones.sort(key=lambda p: (seat.get(p.zone.owner, 0), p.x))
            return replace(wide, seats=True)
    return plain


def _step_layout(diagram, text_width: float, max_cols: int, card: float,
                 narrow: bool) -> StepLayout:
    # bands of at most ``max_cols`` columns, fewer where the words widen the columns past
    # the text block
    while True:
        geos = [diagram_geometry(b, card, narrow) for b in diagram.bands(max_cols)]
        if max_cols <= 1 or max((g.width for g in geos), default=0) <= text_width:
            break
        max_cols -= 1
    dw = max((g.width for g in geos), default=0)
    dh = sum(g.height for g in geos) + 1.5 * max(0, len(geos) - 1)
    return StepLayout(geos, dw, dh, len(geos) == 1 and dw <= text_width * 0.62, card)


def fitted_layout(plan: dict[int, float], seen: dict[int, Any],
                  column: bool = False) -> "Callable[..., StepLayout | None]":
    """``step_layout`` (or, ``column``, ``column_layout``) for the book templates: each
    diagram at the card width ``plan`` gives it (by its key; in a column, at most that
    width), else ``CARD``; the diagrams laid out are kept in ``seen`` by key, for
    ``fit_plan``. A function over those two dicts alone."""

    def layout(diagram, text_width: float, max_cols: int) -> StepLayout | None:
        key = id(diagram)
        seen[key] = diagram
        card = plan.get(key, CARD)
        if column:
            d = column_layout(diagram, text_width, max_cols, card)
            return None if d is None else replace(d, key=key)
        return replace(step_layout(diagram, text_width, max_cols, card), key=key)

    return helper(layout)


#: how many more layouts a book may take to close its gaps (``BookRenderer.lay_out_book``)
FIT_PASSES = 1
#: a gap at a page's foot worth a second layout to close by drawing the next step's cards
#: smaller, in text heights: 30 %, since a page whose steps stand beside shorter text is
#: under 60 % full (issue 27) with less than 40 % left under them (bench/page_fill.py
#: measures each column to its last line: the text's column ends above the diagrams')
FIT_GAP = 0.3
#: what the gap loses to the space between blocks: the last block's padding and the
#: margin between two examples (book.css), and a millimetre to spare (mm)
FIT_SPARE = 8.0
#: the same for a step that goes on from its own example at the gap's head (a step, or
#: the opening of an example in the columns): only the padding under the last block
#: (1.2 mm, book.css ``.ex-step``) lies between them, and a little to spare (mm)
FIT_SPARE_WITHIN = 3.0


def fit_plan(doc, seen: dict[int, Any], text_width: float, max_cols: int,
             plan: dict[int, float]) -> dict[int, float]:
    """Where a laid-out book leaves a gap at a page's foot because the step that opens the
    next page did not fit in it, the card width at which that step's diagram would fit
    (the largest of ``SMALLER_CARDS`` that does, its words still at 7 pt and clear of its
    cards: ``clearance``). A step set in one of the page's two columns needs only its
    diagram and the first two lines of its text in the gap: the rest runs on into the next
    column. The other steps of its example that stand the same way (beside their text,
    above it, or in a column) are drawn at that width too: an example's diagrams keep one
    size, and a run of tall steps that left the same gap on each of its pages (two to a
    page where three nearly fit) closes them all, where drawing the one step smaller only
    moved the gap to the next page. Returns the steps to draw smaller, by key, ``plan``
    added."""
    out = dict(plan)
    pages = doc.pages
    examples = _example_steps(pages)
    in_column = _column_steps(pages)

    def layout(key: int, card: float = CARD) -> StepLayout | None:
        if key in in_column:
            return column_layout(seen[key], text_width, max_cols, card)
        return step_layout(seen[key], text_width, max_cols, card)

    def fits(key: int, card: float, like: StepLayout) -> StepLayout | None:
        """``key``'s diagram at ``card``, if that is smaller and stands as ``like`` does."""
        now, less = layout(key), layout(key, card)
        if now is None or less is None or less.card >= now.card or less.side != like.side \
                or less.seats != now.seats:  # seats side by side at one size, not another
            return None
        return None if any(diagram_clashes(g) for g in less.geos) else less

    for page, nxt in zip(pages, pages[1:]):
        block = _opening_block(nxt)
        if block is None:
            continue
        height, grid, text, goes_on = block
        key = grid.element.get("data-step")  # a content's own template may write anything
        key = int(key) if key.isdigit() else None
        if key is None or key in plan or key not in seen:
            continue
        pb = page._page_box
        gap = (pb.content_box_y() + pb.height - _used_bottom(page)) / PX_PER_MM
        room = gap - (FIT_SPARE_WITHIN if goes_on else FIT_SPARE)
        if gap < FIT_GAP * pb.height / PX_PER_MM or height <= room:
            continue
        now = layout(key)
        grid_h = grid.margin_height() / PX_PER_MM
        text_h = text.margin_height() / PX_PER_MM if text is not None else 0.0
        drawn = out.get(key, CARD)  # smaller already, with another step of its example
        for card in SMALLER_CARDS:
            smaller = fits(key, card, now)
            if smaller is None:
                continue
            if key in in_column or not now.side:  # the diagram over its text
                new_grid = grid_h - (now.height - smaller.height)
            else:
                new_grid = max(text_h, smaller.height)
            if height - (grid_h - new_grid) <= room:
                if card < drawn:  # the example's steps at the smallest width one needs
                    out[key] = card
                    for other in examples.get(key, ()):
                        if other not in plan and other in seen and out.get(other, CARD) > card \
                                and (other in in_column) == (key in in_column) \
                                and fits(other, card, now):
                            out[other] = card
                break
    return out


def _column_steps(pages) -> set[int]:
    """The keys (``data-step``) of the steps laid out in one of the page's two columns
    (``.in-column``)."""
    return {int(b.element.get("data-step")) for page in pages
            for b in page._page_box.descendants()
            if isinstance(b, boxes.BlockBox) and getattr(b, "element", None) is not None
            and "in-column" in (b.element.get("class") or "").split()
            and (b.element.get("data-step") or "").isdigit()}


def _example_steps(pages) -> dict[int, list[int]]:
    """For each step's diagram (its key, ``data-step``), the keys of every diagram of its
    example (the ``article.example`` it is laid out in), read off the laid-out pages."""
    found: dict[str, list[int]] = {}

    def walk(box, example: str | None) -> None:
        element = getattr(box, "element", None)
        if element is not None and getattr(box, "element_tag", "") == "article" and \
                "example" in (element.get("class") or "").split():
            example = element.get("id")
        key = element.get("data-step") if element is not None else None
        if example and key and key.isdigit() and int(key) not in found.setdefault(example, []):
            found[example].append(int(key))
        for child in getattr(box, "children", ()):
            walk(child, example)

    for page in pages:
        walk(page._page_box, None)
    return {key: keys for keys in found.values() for key in keys}


#: CSS pixels to millimetres
PX_PER_MM = 96 / 25.4


def _used_bottom(page) -> float:
    """The lowest line or picture of a page's body (its running heads and folio aside)."""
    bottoms = [b.position_y + b.margin_height()
               for c in page._page_box.children if not isinstance(c, boxes.MarginBox)
               for b in c.descendants(placeholders=True)
               if isinstance(b, (boxes.LineBox, boxes.ReplacedBox))]
    return max(bottoms, default=page._page_box.content_box_y())


#: what travels with the example that follows it: a section's heading, the examples' lead
LEADS_IN = {"sec-title", "ex-lead"}


def _opening_block(page):
    """The step (or an example's opening, heading to setup) a page begins with, when it
    begins with one, or with only a section's heading and lead (``LEADS_IN``) above it:
    (the height from the page's top to its foot, in mm; its diagram-and-text box; that
    box's text column or None; whether it is a step of an example begun on the page
    before, rather than an example's opening). For a step in one of the page's two columns, or an
    opening kept with the columns under it (``.before-cols``), the height is to the end of
    the second line of the column's first step: a column's text may run on into the next
    column, and two lines is as few as it leaves (``orphans``, book.css)."""
    top = page._page_box.content_box_y()
    lead_bottom = top
    for c in page._page_box.children:
        if isinstance(c, boxes.MarginBox):
            continue
        for b in c.descendants():
            if isinstance(b, (boxes.LineBox, boxes.ReplacedBox)):
                if b.position_y >= lead_bottom - 0.5:
                    return None  # words or a picture open the page
                continue
            element = getattr(b, "element", None)
            if element is None or not isinstance(b, boxes.BlockBox):
                continue
            classes = set((element.get("class") or "").split())
            if classes & LEADS_IN:
                lead_bottom = max(lead_bottom, b.position_y + b.margin_height())
                continue
            if "ex-opening" in classes or ("ex-step" in classes and "ex-setup" not in classes):
                if b.position_y - lead_bottom > 6 * PX_PER_MM:  # an example's top margin
                    return None  # something else opens the page
                bottom = b.position_y + b.margin_height()
                within = b
                if "before-cols" in classes:  # the columns' first step comes with it
                    within, bottom = c, None
                grid = next((d for d in within.descendants() if isinstance(d, boxes.BlockBox)
                             and getattr(d, "element", None) is not None
                             and d.element.get("data-step")), None)
                if grid is None:
                    return None
                text = next((d for d in grid.children
                             if "ex-text" in (d.element.get("class") or "").split()), None)
                if "in-column" in (grid.element.get("class") or "").split():
                    lines = [d for d in (text.descendants() if text is not None else ())
                             if isinstance(d, boxes.LineBox)][:2]
                    end = lines[-1] if lines else grid
                    bottom = end.position_y + end.margin_height()
                if bottom is None:
                    return None
                return (bottom - top) / PX_PER_MM, grid, text, "ex-opening" not in classes
    return None


def _state_height(lines, width: float) -> float:
    return _height([Markup(f"{who}: {text}").striptags() for who, text in lines], STATE, width, gap=0)


def _key_height(d, col: float) -> float:
    """The height (mm) of a diagram's key (shared/_diagram.html.j2 ``mark_key``): the
    moment it shows, then each mark's picture (about two capitals wide) and words."""
    if not d.legend and d.moment != "reveal":
        return 0.0
    text = ("Drawn at the reveal, before the step resolves. " if d.moment == "reveal" else "") \
        + "; ".join(f"MM {k.words}" for k in d.legend)
    return _height([text], STATE, col) + 0.8


def _step_text(step, col: float, with_comment: bool) -> float:
    h = 4.5 + _height([Markup(" ").join(step.narration).striptags()], BODY, col) + _state_height(step.state, col)
    h += _key_height(step.diagram, col)
    if step.decided:
        h += 4
    if with_comment and step.comment:
        h += 1.5 + _height(_paras(step.comment), COMMENT, col)
    return h


def comment_below(step, text_width: float, max_cols: int = 14) -> bool:
    """Whether a step's commentary goes below its diagram and text rather than with them:
    when in the column beside the diagram it would run well past the diagram's foot, or
    when the text is under the diagram anyway.

    A step is kept whole on a page, so a long comment in the column made a step taller
    than the space left on many pages and left that space empty. Below, across the page,
    the comment may go on over the page (two lines at least on each side), while the
    diagram, what happened and what each player has stay together."""
    if not step.comment:
        return False
    d = step_layout(step.diagram, text_width, max_cols)
    if not d.side:
        return True
    return _step_text(step, min(text_width - d.width - 4, MEASURE), with_comment=True) > d.height + 12


def _step_height(step, text_width: float, max_cols: int) -> float:
    if step.kind == "refused":   # words only: the table stays as it was
        see = f" See {step.refused[1]}." if step.refused else ""
        text = 4.5 + _height([Markup(" ").join(step.narration).striptags() + see
                              + " The table stays as it was."], BODY, MEASURE)
        if step.comment:
            text += 1.5 + _height(_paras(step.comment), COMMENT, MEASURE)
        return text + 4
    d = step_layout(step.diagram, text_width, max_cols)
    below = comment_below(step, text_width, max_cols)
    col = min(text_width - d.width - 4 if d.side else text_width, MEASURE)
    text = _step_text(step, col, with_comment=not below)
    h = (max(d.height, text) if d.side else d.height + 1.5 + text) + 4
    if below:
        h += 1.5 + _height(_paras(step.comment), COMMENT, MEASURE)
    return h


#: the gap between the book's two columns (mm; book.css ``.sec-cols``, ``.ex-cols``)
COLUMN_GAP = 7.0


def column_layout(diagram, text_width: float, max_cols: int,
                  largest: float = CARD) -> StepLayout | None:
    """A step's diagram laid out for one of the page's two columns (``example_columns``):
    in one band, at the largest card width (``CARD``, then ``SMALLER_CARDS``, none wider
    than ``largest``: ``fit_plan``'s) at which it is no wider than the column and its
    words stay clear of its cards; None if it is too wide even at the smallest."""
    col = (text_width - COLUMN_GAP) / 2
    for card in (CARD, *SMALLER_CARDS):
        if card > largest:
            continue
        d = step_layout(diagram, text_width, max_cols, card, narrow=True)
        if len(d.geos) != 1 or d.width > col:
            continue
        if card != CARD and any(diagram_clashes(g) for g in d.geos):
            continue
        return replace(d, side=False)
    return None


def _column_step_height(step, text_width: float, max_cols: int) -> float:
    """A step's height (mm) set in one of the page's two columns: its diagram, then its
    text and its comment, the column's width."""
    if step.kind == "refused":  # words only, set at the running text's measure anyway
        return _step_height(step, text_width, max_cols)
    col = min((text_width - COLUMN_GAP) / 2, MEASURE)
    d = column_layout(step.diagram, text_width, max_cols)
    h = d.height + 1.5 + _step_text(step, col, with_comment=False) + 4
    if step.comment:
        h += 1.5 + _height(_paras(step.comment), COMMENT, col)
    return h


#: a step is tall when, its text beside its diagram, it takes more than this part of the
#: text block's height (a page holds one such step and leaves the rest of it empty)
TALL_STEP = 0.5
#: the tallest a diagram may be to go in a column (a part of the text block's height),
#: leaving room under it for the first lines of its text
COLUMN_DIAGRAM = 0.8


def spans_columns(step, text_width: float, max_cols: int = 14,
                  text_height: float = 0.0) -> bool:
    """Whether a step of an example set in the columns (``example_columns``) spans both of
    them, across the page with its text beside or under its diagram as outside the
    columns: when its diagram does not fit a column (``column_layout``) or would stand
    taller than ``COLUMN_DIAGRAM`` in one. The columns before it are balanced, and they go
    on under it."""
    if step.kind == "refused":
        return False
    d = column_layout(step.diagram, text_width, max_cols)
    return d is None or (text_height > 0 and d.height > text_height * COLUMN_DIAGRAM)


#: the most of an example's drawn steps that may span the columns (``spans_columns``) for
#: the rest to be set in them: a few wide steps among many narrow, tall ones
SPANNING = 1 / 3


def example_columns(e, text_width: float, max_cols: int = 14,
                    text_height: float = 0.0) -> bool:
    """Whether an example's steps flow in the page's two columns, each step's diagram over
    its text (issue 27, item 1). So when at least half its steps that fit a column
    (``column_layout``, no taller than ``COLUMN_DIAGRAM``) are tall (``TALL_STEP``: beside
    its text, each would take a page of its own and leave the rest of it empty), and at
    least two do: the text then runs on from column to column as the rules' text does,
    and the pages fill. A step that does not fit a column spans both (``spans_columns``),
    when no more than ``SPANNING`` of the steps do. Refused steps (words only) go along in
    the columns."""
    drawn = [s for s in e.steps if s.kind != "refused"]
    if len(drawn) < 2 or text_height <= 0:
        return False
    tall = wide = 0
    for s in drawn:
        if spans_columns(s, text_width, max_cols, text_height):
            wide += 1
            continue
        tall += _step_height(s, text_width, max_cols) > text_height * TALL_STEP
    fit = len(drawn) - wide
    return wide <= len(drawn) * SPANNING and fit >= 2 and 2 * tall >= fit


def setup_in_columns(e, text_width: float, max_cols: int = 14) -> bool:
    """Whether the setup of an example set in the columns (``example_columns``, asked
    first) is the columns' first piece, beside its first step, rather than across the page
    under its intro: when the setup's diagram fits a column with its cards at full size
    (narrowed, it would gain a column's width and lose the page the intro opens on)."""
    d = _step_layout(e.setup, text_width, max_cols, CARD, False)  # as a column sets it:
    # one seat a row (``column_layout`` never sets them side by side), at full size
    return len(d.geos) == 1 and d.width <= (text_width - COLUMN_GAP) / 2


def column_runs(examples, text_width: float, max_cols: int = 14,
                text_height: float = 0.0) -> list[bool]:
    """Which examples share one pair of columns with the examples next to them: runs of
    two or more examples, one after another, each set in the columns with its setup in
    them too and no step spanning them (``example_columns``, ``setup_in_columns``,
    ``spans_columns``). Each example of a run opens in a column under the last step of
    the one before, where it would otherwise have waited for a page of its own: its
    opening and setup, kept together, were too tall for what the last page of columns
    left under them."""
    flows = [example_columns(e, text_width, max_cols, text_height)
             and setup_in_columns(e, text_width, max_cols)
             and not any(spans_columns(s, text_width, max_cols, text_height) for s in e.steps)
             for e in examples]
    return [f and ((i > 0 and flows[i - 1]) or (i + 1 < len(flows) and flows[i + 1]))
            for i, f in enumerate(flows)]


def example_height(e, text_width: float, max_cols: int = 14, text_height: float = 0.0) -> float:
    """An estimate (mm) of an example's height in print, so that only an example that fits
    on one page is kept from breaking across pages (within a few per cent of the laid-out
    height: tests/render/book/test_book_layout.py measures it). Given the text block's
    height, an example set in the page's two columns (``example_columns``) counts half the
    height of what the columns hold: its steps, and its setup when that goes in them."""
    h = 14 + _height(_paras(e.outro), BODY, MEASURE)
    if example_columns(e, text_width, max_cols, text_height):
        wide = [spans_columns(s, text_width, max_cols, text_height) for s in e.steps]
        h += sum(_step_height(s, text_width, max_cols) for s, w in zip(e.steps, wide) if w)
        pieces = [_column_step_height(s, text_width, max_cols)
                  for s, w in zip(e.steps, wide) if not w]
        if setup_in_columns(e, text_width, max_cols):
            d = column_layout(e.setup, text_width, max_cols)
            col = min((text_width - COLUMN_GAP) / 2, MEASURE)
            pieces.append(d.height + 1.5 + 4.5 + _key_height(e.setup, col)
                          + _state_height(e.setup_state, col) + 4)
            h += _lead_height(e, MEASURE)
        else:
            h += _opening_height(e, text_width, max_cols)
        return h + sum(pieces) / 2
    return h + _opening_height(e, text_width, max_cols) + sum(
        _step_height(s, text_width, max_cols) for s in e.steps)


def _lead_height(e, width: float) -> float:
    """The height (mm) of an example's "Shows" line and intro set ``width`` mm wide (the
    "Shows" line at most ``META_MEASURE``)."""
    return _height(_paras(e.intro), BODY, width) + _height(
        [" ".join(line for _, line in e.rules)], META, min(width, META_MEASURE))


def opening_beside(e, text_width: float, max_cols: int = 14) -> bool:
    """Whether an example's "Shows" line and intro are set beside its setup's diagram,
    above the setup's own words, rather than across the page above it: whenever the setup
    stands beside its text (``step_layout``). The column beside such a diagram holds only
    "Setup" and a few lines of who holds what, and the opening, kept whole, is then
    shorter by the intro's height, which is what most often kept it off the foot of the
    page before (the next example's opening waited for a page of its own)."""
    return step_layout(e.setup, text_width, max_cols).side


def _opening_height(e, text_width: float, max_cols: int) -> float:
    """The height (mm) of an example's "Shows" line, intro and setup, across the page: the
    setup's text beside or under its diagram, the intro beside it too where
    ``opening_beside``, else above it."""
    d = step_layout(e.setup, text_width, max_cols)
    col = min(text_width - d.width - 4 if d.side else text_width, MEASURE)
    setup = 4.5 + _key_height(e.setup, col) + _state_height(e.setup_state, col)
    if d.side:  # opening_beside: the lead beside the diagram too, over the setup's words
        return max(d.height, _lead_height(e, col) + 2 + setup) + 4
    return _lead_height(e, MEASURE) + d.height + 1.5 + setup + 4


class BookRenderer:
    """Lays out and writes rulebooks and the compendium on ``settings.paper`` (its text
    block and margins), with the content's own templates (``templates``), accent colour,
    logo and the balance lab's figures (``lab.figures.BookFigures``, or None)."""

    def __init__(self, settings: Settings, *, templates: Path | None = None,
                 accent: str | None = None, logo: str | None = None, figures=None,
                 content_root: Path | None = None, rules: str = ""):
        from . import columns

        columns.install()  # balanced columns in about ten layouts, not hundreds
        self.paper = settings.paper
        self.figures = figures
        #: the rules' version and date as printed ("Rules version 1.2, 28 November 2026")
        self.rules = rules
        self.env = environment(templates, extensions=["jinja2.ext.do"])
        self.env.globals["example_height"] = helper(example_height)
        self.env.globals["comment_below"] = helper(comment_below)
        self.env.globals["example_columns"] = helper(example_columns)
        self.env.globals["setup_in_columns"] = helper(setup_in_columns)
        self.env.globals["opening_beside"] = helper(opening_beside)
        self.env.globals["spans_columns"] = helper(spans_columns)
        self.env.globals["column_runs"] = helper(column_runs)
        #: the diagrams drawn smaller in the book being laid out (``fit_plan``), by key,
        #: and the diagrams its templates laid out
        self._plan: dict[int, float] = {}
        self._seen: dict[int, Any] = {}
        #: the key terms on the book's quick reference (``key_terms``), the room it
        #: measured for them, and how many of them the layout has had to leave out
        self._terms: list[list[Any]] = []
        self._room: quickref.Room | None = None
        self._dropped = 0
        self.env.globals["step_layout"] = fitted_layout(self._plan, self._seen)
        self.env.globals["column_layout"] = fitted_layout(self._plan, self._seen, column=True)
        self.env.globals["page_ref"] = helper(page_ref)
        self.env.globals["no_lone_word"] = helper(no_lone_word)
        self.font_config = font_configuration()
        root = content_root if content_root is not None else (
            templates.parent if templates is not None else None)
        self.fetcher = BookFetcher(settings.four_colour, Faces(root, settings.four_colour))
        self.fetcher.logo = Path(logo) if logo else None
        self.env.globals["diagram_id"] = diagram_keeper(self.fetcher.art)
        self.image_cache: dict = {}
        css_text = (font_face_css() + "\n" + read_template_file("book/book.css", templates)
                    + "\n" + page_css(self.paper)
                    + (f"\n:root {{ --accent: {accent}; }}\n" if accent else ""))
        #: the stylesheet's text, as given to WeasyPrint
        self.css_text = css_text
        self.css = CSS(string=css_text, font_config=self.font_config,
                       url_fetcher=self.fetcher)
        # the hyphenation patterns, the project's exceptions added (hyphenation.py), parsed
        # once (pyphen keeps them) rather than by each book, and before the build forks, so
        # that both processes share them
        import pyphen

        hyphenation.install()
        pyphen.Pyphen(lang=hyphenation.LANG)
        # the diagrams' cards: 52 faces and a back, drawn once per build
        self.fetcher.draw_cards([str(c) for c in full_deck()] + ["back"], 10, 14)
        self.pages = 0

    def view(self, game_report) -> GameView:
        self.fetcher.faces.add(game_report.game)  # its own decks' art, if it has any
        return Presenter(book_links(), self.figures).game(game_report)

    def _html(self, html: str, fill: bool = True):
        """Lay the HTML out (once) and, with ``fill``, fill in its page references."""
        doc = HTML(string=html, base_url=str(TEMPLATES), url_fetcher=self.fetcher).render(
            stylesheets=[self.css], font_config=self.font_config, cache=self.image_cache,
            pdf_tags=True)
        if fill:
            fill_page_refs(doc)
        return doc

    def _book(self, **kw: Any) -> dict[str, Any]:
        book = {
            "version": __version__, "paper": self.paper.name, "date": _dt.date.today().isoformat(),
            "text_width": self.paper.text_width, "text_height": self.paper.text_height,
            "max_cols": MAX_COLS, "compendium": False,
            "heading": "", "intro": "", "cover_cards": [], "tagline": "", "credits": "", "logo": "",
            "compare_note": "", "rules": self.rules,
            "key_terms": [], "term_width": self._term_width(),
        }
        book.update(kw)
        return book

    def book_html(self, game_report) -> tuple[GameView, str]:
        """One game's rulebook as HTML (cheap: the layout is the costly part)."""
        g = self.view(game_report)
        check_diagrams(game_report, g, self.paper.text_width, MAX_COLS)
        self.fetcher.draw_own_cards(g)
        self._plan.clear()
        self._seen.clear()
        self._room, self._dropped = None, 0
        self._terms = self.key_terms(g)
        return g, self._game_html(g)

    def _term_width(self) -> float:
        """The width of each of the quick reference's two columns of key terms (mm), cut
        to a tenth of a millimetre, as the templates print it: rounded to the nearest, the
        two columns and their gap could overrun the line by a twentieth of a millimetre
        (on Letter, 88.45 mm to 88.5) and the second would fall under the first."""
        q = QUICKREF_MARGINS
        return math.floor((self.paper.width - q.inner - q.outer - quickref.TERMS_GAP) * 5) / 10

    def key_terms(self, g: GameView, leave_out: int = 0) -> list[list[Any]]:
        """The glossary's terms the quick reference has room for, as its two columns
        (``quickref.pick``), measured on the page laid out alone (``book/quickref.html.j2``:
        a page or two, a fraction of the book's layout); [] when none fits."""
        if not g.glossary:
            return []
        if leave_out == 0 or self._room is None:
            book = self._book(title=g.title)
            html = self.env.get_template("book/quickref.html.j2").render(book=book, games=[g])
            self._room = quickref.measure(self._html(html, fill=False))
        cols = quickref.pick(g.glossary, g.quickref, g.summary, self._room, leave_out)
        return [[g.glossary[i] for i in col] for col in cols]

    def _game_html(self, g: GameView) -> str:
        book = self._book(
            title=f"{g.title}: rules", author=g.designer,
            subject=f"Rules of {g.title}, a card game for {g.players} players. {g.tagline}",
            keywords=", ".join(["card game", "rules", g.title]),
            cover_cards=[card_url(ref, "full") for ref in g.cover_cards],
            key_terms=self._terms,
        )
        return self.env.get_template("book/book.html.j2").render(book=book, games=[g])

    def _book_with_terms(self, g: GameView, doc=None):
        """Lay the book out with its key terms (``doc``, when already laid out so); should
        they run into the comparison under them after all (their heights were measured
        apart from the book), with one fewer, until they are clear. A term once left out
        stays out in the layouts that follow (the fitting pass's)."""
        if doc is None:
            doc = self._html(self._game_html(g))
        while quickref.overlap(doc) > 0 and any(self._terms):
            self._dropped += 1
            self._terms = self.key_terms(g, leave_out=self._dropped)
            doc = self._html(self._game_html(g))
        return doc

    def lay_out_book(self, g: GameView, html: str):
        """Lay out a rulebook (``book_html``'s), then again with the diagrams that would
        close a gap at a page's foot drawn smaller (``fit_plan``), while that finds more
        (twice at most: each pass is a whole layout)."""
        doc = self._book_with_terms(g, self._html(html))
        for _ in range(FIT_PASSES):
            plan = fit_plan(doc, self._seen, self.paper.text_width, MAX_COLS, self._plan)
            if plan == self._plan:
                break
            self._plan.update(plan)
            doc = self._book_with_terms(g)
        return doc

    def render_game(self, game_report):
        """Lay out one game's rulebook; returns the WeasyPrint document."""
        g, html = self.book_html(game_report)
        doc = self.lay_out_book(g, html)
        doc.game_view = g
        return doc

    def write(self, doc, target: Path) -> int:
        """Write a laid-out document, its diagrams' words drawn over their pictures."""
        placed = diagram_placements(doc, self.fetcher)
        stamp(doc.write_pdf(pdf_variant=PDF_VARIANT), placed, self.fetcher.cards, target)
        self.pages += len(doc.pages)
        return len(doc.pages)

    def write_book(self, g: GameView, html: str, target: Path) -> "BookInfo":
        """Lay out and write one rulebook; returns where its anchors landed (plain data,
        so that a child process can hand it back)."""
        doc = self.lay_out_book(g, html)
        count = self.write(doc, target)
        return BookInfo(slug=g.slug, title=g.title, path=target, count=count,
                        pages=anchor_pages(doc))

    def front_html(self, games: list[GameView], intro: str, look: Book,
                   compare_note: str = "") -> str:
        """The compendium's front matter (cover, one contents for the whole book, the
        introduction when there is one, and the comparison table) as HTML; ``look``: the
        project's title; ``compare_note``: a line under the comparison's heading."""
        book = self._book(
            title=_project_title(look),
            heading=look.title, tagline=look.subtitle, credits=look.credits,
            logo="logo:book" if look.logo else "",
            compendium=True,
            author="; ".join(f"{g.title}: {g.designer}" for g in games),
            subject="Rules, worked examples and quick references for "
                    + ", ".join(g.title for g in games),
            keywords=", ".join(["card game", "rules"] + [g.title for g in games]),
            cover_cards=[card_url(ref, "full") for ref in compendium_cover(games)],
            intro=Markdown(lambda rid: None).block(intro) if intro.strip() else "",
            compare_note=compare_note,
        )
        return self.env.get_template("book/front.html.j2").render(book=book, games=games)

    def index_html(self, games: list[GameView], look: Book) -> str:
        """The compendium's index (``backindex.py``) as HTML, bound after the last part."""
        from .backindex import compendium_index

        book = self._book(title=_project_title(look), compendium=True)
        return self.env.get_template("book/index.html.j2").render(
            book=book, groups=compendium_index(games))

    def layout_front(self, html: str):
        """Lay the front matter out; the page numbers of the parts' sections stay
        placeholders until ``bind_compendium`` knows them, so this can run while the
        rulebooks are still being written."""
        return self._html(html, fill=False)

    def bind_compendium(self, front, books: list["BookInfo"], target: Path, back=None) -> int:
        """Bind the written rulebooks into one book behind the laid-out front matter, and
        the laid-out index (``back``, if given) after them.

        The rulebooks are not laid out again: their PDFs become the book's parts (see
        ``bind``), each keeping its own page numbers (the PDF's page labels say "War 3"),
        and the front matter is numbered i, ii, iii. The contents and the index print, for
        every section, rule and term, the page of its part on which it landed in the
        rulebook; the index's own pages are numbered as a part of its own ("Index 1").
        """
        from .bind import INDEX_TITLE, Part, bind

        pages = {a: p for b in books for a, p in b.pages.items()}
        fill_page_refs(front, {**pages, **(anchor_pages(back) if back is not None else {})})
        front_path = target.with_name(f".{target.stem}-front.pdf")
        back_path = target.with_name(f".{target.stem}-index.pdf")
        try:
            front.write_pdf(str(front_path), pdf_variant=PDF_VARIANT)
            parts = [Part(b.title, b.path) for b in books]
            if back is not None:
                fill_page_refs(back, pages)
                back.write_pdf(str(back_path), pdf_variant=PDF_VARIANT)
                parts.append(Part(INDEX_TITLE, back_path))
            n = bind(front_path, parts, target)
        finally:
            front_path.unlink(missing_ok=True)
            back_path.unlink(missing_ok=True)
        self.pages += n
        return n


def _project_title(look: Book) -> str:
    """The compendium's title, as its documents' metadata give it: "Title: subtitle"."""
    return f"{look.title}: {look.subtitle}" if look.subtitle else look.title


#: the compendium's cover when every game plays the French 52
FRENCH_COVER = ("AS", "KH", "QC", "JD")


def compendium_cover(games: list[GameView]) -> list[str]:
    """The cards on the compendium's cover (references): four French cards when every game
    plays the French 52; else the games' own cover cards, the first of each game, then the
    second of each, up to four."""
    if all("/" not in ref for g in games for ref in g.cover_cards):
        return list(FRENCH_COVER)
    out: list[str] = []
    for i in range(4):
        for g in games:
            if i < len(g.cover_cards) and len(out) < 4:
                out.append(g.cover_cards[i])
    return out


@dataclass
class BookInfo:
    """A written rulebook: its file, its page count and the page of each anchor."""

    slug: str
    title: str
    path: Path
    count: int
    pages: dict[str, int]


