"""What the templates see: the checked content and its replays, shaped for rendering.

Both the PDF and the website render from these objects, so a rule, an example step or a
diagram reads the same on paper and on screen. Only the link targets differ, through
``Links``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..check import GameReport, Replay, StepRecord
from ..engine.core import Card, Event, Zone
from ..model import Rule
from . import marks as mk
from .faces import card_ref, code_ref
from .markup import Markdown, Markup, plain, prose, smart
from .numbers import numbers_view


@dataclass
class Links:
    """How a renderer names anchors and card images."""

    anchor: Callable[[str, str], str]  # (game slug, rule id) -> anchor id
    href: Callable[[str, str], str]  # (game slug, rule id) -> href
    #: a card reference (``render/faces.py`` ``card_ref``: "QD", "back",
    #: "high-colours/colours/R6") -> image URL
    card: Callable[[str], str]
    #: print: a cross-reference also shows the page of its target (see render/book/pagerefs.py)
    page_refs: bool = False


@dataclass
class RuleView:
    id: str
    anchor: str
    number: str
    title: str
    level: int
    body: Markup
    children: list["RuleView"]
    part: str
    text: str  # plain text, for search


@dataclass
class CardView:
    code: str  # the card's code ("QD", "R6"), or "back" for a face-down card
    src: str
    alt: str
    up: bool
    #: the card left this place when the step resolved (the diagram shows the reveal)
    moved: bool = False
    #: what the step did to the card, as the engine's ``marks`` says, a kind of the game's
    #: vocabulary (``render/marks.py``: "played", "revealed", "won", "killed" or one of the
    #: game's own; an old name read as the new one), or ""
    mark: str = ""
    #: the signs drawn on the card, in drawing order: "moved" (unless it won: the won
    #: card's outline stands for it) and its mark
    signs: tuple[str, ...] = ()
    #: the tag of a game's own kind ("T")
    label: str = ""
    #: the signs as the website lays them over the card (an SVG), or ""
    sign_svg: Markup = field(default_factory=lambda: Markup(""))
    #: the picture drawn: the card's reference (``render/faces.py`` ``card_ref``): its
    #: code ("QD") or "back" for the French 52, "<deck key>/<code>" or "<deck key>/_back"
    #: for a game's own deck; "" means ``code``
    art: str = ""

    def __post_init__(self) -> None:
        if not self.art:
            self.art = self.code


@dataclass
class ZoneView:
    id: str
    label: str
    owner: str
    style: str
    cards: list[CardView]
    count: int | None
    note: str
    #: round tokens (stones) drawn in the place, for a zone of style "tokens"
    tokens: int = 0
    #: a place the table may not look into, drawn face up for the reader: its sign
    #: (``render/marks.py``: "owner-only" for a hand, ``seen_by="owner"``; "no-one" for
    #: ``seen_by="nobody"``), or "" (everyone sees it, or it shows no card face up)
    hidden: str = ""
    #: who may look, in words ("seen by Blue only", "seen by no one"), or ""
    seen: str = ""
    #: the sign as the website sets it in the label (an SVG), or ""
    sign_svg: Markup = field(default_factory=lambda: Markup(""))


@dataclass
class Diagram:
    rows: list[list[ZoneView | None]]
    cols: int
    #: width of each column in card widths (a fan of n cards is wider than one card)
    widths: list[float] = field(default_factory=list)
    #: "reveal": the diagram shows the cards as they are revealed, before the step
    #: resolves (cards that then move are marked); "": the table as it lies
    moment: str = ""
    #: the kinds of mark the diagram shows, in the legend's order ("moved", "won",
    #: "killed", then a hidden place's "owner-only" or "no-one"), for its key
    marks: list[str] = field(default_factory=list)
    #: the key: a line a kind shown, with the picture of its sign and its words
    legend: list[mk.MarkKey] = field(default_factory=list)
    #: a card's height in card widths, for a game's own deck (its size: 1.43 for a mini
    #: card); None for the French 52, drawn 10 by 14
    ratio: float | None = None

    def width(self, card: float, gap: float) -> float:
        """The diagram's width for a card width and a gap between columns."""
        return sum(w * card + gap for w in self.widths) + gap

    def geometry(self, card: float = 10.0, ratio: float | None = None, gap: float = 1.6,
                 label: float = 6.0, foot: float = 2.8, empty: float = 6.0,
                 stack_step: float = 3.5, pad: float = 1.2,
                 min_widths: list[float] | None = None, ring: float = 0.0,
                 ringed: Callable[["ZoneView"], bool] | None = None) -> "Geometry":
        """Every zone and card placed in absolute coordinates (in the unit of ``card``).

        Print uses this: absolutely placed boxes cost WeasyPrint one layout each, where
        inline blocks would be measured again and again. ``ratio``: a card's height in
        widths (the diagram's own, else the French card's 1.4). ``ring``: room kept
        between the cards and the words above and below them, for the marks drawn round
        the cards (rings, a hidden place's ground), in the rows where a zone is
        ``ringed`` (every row without it)."""
        ch = card * (ratio if ratio is not None else self.ratio or FRENCH_RATIO)
        # each column as wide as its cards, or as ``min_widths`` asks (room for its words)
        cw = [max(w * card, (min_widths or [])[j] if j < len(min_widths or []) else 0.0)
              for j, w in enumerate(self.widths)]
        xs, x = [], pad
        for w in cw:
            xs.append(x)
            x += w + gap
        width = x - gap + pad
        placed: list[PlacedZone] = []
        y = pad
        for row in self.rows:
            zones = [(j, z) for j, z in enumerate(row) if z is not None]
            heights = []
            for j, z in zones:
                if z.style == "tokens" and z.tokens:
                    rows = _token_rows(z.tokens, cw[j] / card)
                    heights.append(rows * TOKEN * card + (rows - 1) * TOKEN_GAP * card)
                elif not z.cards:
                    heights.append(empty)
                elif z.style == "stack":
                    heights.append(ch + (len(z.cards) - 1) * stack_step)
                else:
                    heights.append(ch)
            body = max(heights, default=empty)
            has_foot = any((z.count is not None and z.style == "pile") or z.note for _, z in zones)
            has_note = any(z.note for _, z in zones)
            foot_h = (foot * 2 if has_note else foot) if has_foot else 0
            room = ring if ringed is None or any(ringed(z) for _, z in zones) else 0.0
            top = y + label + room  # the cards' top
            foot_top = top + body + (room if has_foot else 0)
            row_h = foot_top + foot_h - y
            for (j, z), h in zip(zones, heights):
                zw = cw[j]
                cards = []
                if z.style == "fan":
                    span = card + (len(z.cards) - 1) * FAN_STEP * card
                    left = xs[j] + (zw - span) / 2
                    cards = [(c, left + i * FAN_STEP * card, top) for i, c in enumerate(z.cards)]
                elif z.style == "stack":
                    left = xs[j] + (zw - card) / 2
                    cards = [(c, left, top + i * stack_step) for i, c in enumerate(z.cards)]
                elif z.cards:  # a pile shows its top card
                    cards = [(z.cards[-1], xs[j] + (zw - card) / 2, top)]
                tokens = _tokens(z.tokens, xs[j], top, zw, card) if z.style == "tokens" else []
                placed.append(PlacedZone(zone=z, x=xs[j], y=y, w=zw, label_h=label,
                                         body_top=top, body_h=h, foot_top=foot_top,
                                         foot_h=foot_h,
                                         cards=cards, empty_x=xs[j] + (zw - card) / 2,
                                         tokens=tokens))
            y += row_h + gap
        return Geometry(width=round(width, 2), height=round(y - gap + pad, 2), zones=placed,
                        card=card, card_h=ch, empty=empty)

    def bands(self, max_cols: int) -> list["Diagram"]:
        """The diagram cut into bands of at most ``max_cols`` columns, for lines of cards
        too long for one row of the page."""
        if self.cols <= max_cols:
            return [self]
        out = []
        for start in range(0, self.cols, max_cols):
            cols = slice(start, start + max_cols)
            rows = [r[cols] for r in self.rows]
            rows = [r for r in rows if any(z is not None for z in r)]
            out.append(Diagram(rows=rows, cols=len(self.widths[cols]), widths=self.widths[cols],
                               ratio=self.ratio))
        return out


@dataclass
class StepView:
    index: int
    kind: str
    narration: list[Markup]
    comment: Markup
    diagram: Diagram
    state: list[tuple[str, Markup]]  # (who, "12 cards in deck"): the table after the step
    repeat: int
    decided: Markup
    round: int = 1
    #: the diagram shows the reveal, before the step resolved (the state lines say what
    #: the table holds after it; the cards that then moved are marked)
    at_reveal: bool = False
    #: a refused step (kind "refused"): (href, "2.1 Following suit") of the rule that
    #: forbids the decision; the narration says what was tried and why it is refused
    refused: tuple[str, str] | None = None
    #: the moments of the step, for the site's viewer: ``moments`` are the distinct
    #: tables, and ``moment_at`` gives, for each position (before the step, after each
    #: line of the narration, after the step), the index of its table in ``moments``, or
    #: -1 where the engine recorded none (the step's own diagram stands for it). Empty
    #: for a refused step (the table stays as it was) and one with no narration
    moments: list[Diagram] = field(default_factory=list)
    moment_at: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"Step {self.index}" + (f" ({self.round} of {self.repeat})" if self.repeat > 1 else "")


@dataclass
class ExampleView:
    id: str
    anchor: str
    number: int
    title: str
    intro: Markup
    outro: Markup
    rules: list[tuple[str, str]]  # (href, "3.2 Outflanking")
    options: list[str]
    setup: Diagram
    setup_state: list[tuple[str, Markup]]
    steps: list[StepView]
    result: str
    text: str


@dataclass
class TermView:
    term: str
    anchor: str
    definition: Markup
    see: list[tuple[str, str]]
    text: str


@dataclass
class GameView:
    slug: str
    title: str
    designer: str
    credit: str
    tagline: str
    summary: Markup
    players: str
    time: str
    components: list[dict[str, Any]]
    options: list[dict[str, Any]]
    compare: dict[str, str]
    quickref: list[Markup]
    golden: list[RuleView]
    rules: list[RuleView]
    clarifications: list[RuleView]
    examples: list[ExampleView]
    glossary: list[TermView]
    names: dict[str, str]
    all_rules: list[RuleView] = field(default_factory=list)
    #: "By the numbers" (render/numbers.py), from the balance lab's figures; None without
    numbers: Any = None
    #: the table ready to play, dealt by the engine (None without an engine)
    table: "Diagram | None" = None
    #: the same table for the book's quick reference: a diagram of its own, so that the
    #: book's fitting (which keys a diagram's size by the diagram) draws each where it is
    quick_table: "Diagram | None" = None
    #: an example draws a place the table may not look into (a hand) face up, marked as
    #: hidden (``ZoneView.hidden``): the examples' lead says how
    hidden: bool = False
    #: the cards on the rulebook's cover, as references (``render/faces.py``)
    cover_cards: list[str] = field(default_factory=list)
    #: the changes to the rules, newest first: date (as printed), iso, href, label (the
    #: rule's number and title), text (Markup)
    changes: list[dict[str, Any]] = field(default_factory=list)


#: a French card's height in widths, as the diagrams draw it (10 by 14 mm)
FRENCH_RATIO = 1.4


def deck_ratio(game) -> float | None:
    """The height in widths of the cards a game's diagrams draw: its tallest own deck's
    (a game may play decks of two sizes; a shorter card is drawn within that height),
    None for a game of the French 52."""
    sizes = [spec.size_mm for spec in getattr(game, "decks", None) or []]
    if not sizes:
        return None
    return round(max(h / w for w, h in sizes), 4)


def rank_label(code: str) -> str:
    try:
        return Card.parse(code).name()
    except Exception:  # noqa: BLE001 - a back or an unknown code: described plainly
        return "face-down card"


class Presenter:
    def __init__(self, links: Links, figures=None):
        self.links = links
        #: the balance lab's figures (``lab.figures.BookFigures``), or None: no numbers
        self.figures = figures
        #: the diagrams' card height in widths: the game's tallest own deck's, None for
        #: the French 52 (set by :meth:`game`)
        self.ratio: float | None = None

    # ------------------------------------------------------------------ game
    def game(self, gr: GameReport) -> GameView:
        g = gr.game
        index = g.rule_index()
        slug = g.slug
        self.ratio = deck_ratio(g)

        def resolve(rid: str):
            r = index.get(rid)
            if r is None:
                return None
            return self.links.href(slug, rid), r.label

        md = Markdown(resolve, page_refs=self.links.page_refs)
        self._resolve = resolve

        def rv(r: Rule) -> RuleView:
            return RuleView(
                id=r.id, anchor=self.links.anchor(slug, r.id), number=r.number, title=smart(r.title),
                level=r.level, body=md.block(r.body), children=[rv(c) for c in r.children],
                part=r.part, text=plain(r.body, resolve),
            )

        tops = [rv(r) for r in g.rules]
        players = players_text(g.gamedef.player_counts()) if g.gamedef is not None else smart(g.players_label)
        view = GameView(
            slug=slug, title=smart(g.title), designer=smart(g.designer), credit=smart(g.credit),
            tagline=smart(g.tagline),
            summary=md.block(g.summary), players=players, time=smart(g.time),
            components=[{**c, "name": smart(str(c.get("name", "")))} for c in g.components],
            options=[{"name": o.name, "label": smart(o.label), "default": o.default,
                      "text": md.block(o.text)} for o in g.options],
            compare={**{k: smart(str(v)) for k, v in g.compare.items()}, "players": players},
            quickref=[md.inline(q) for q in g.quickref],
            golden=[t for t in tops if t.part == "golden"],
            rules=[t for t in tops if t.part == "rules"],
            clarifications=[t for t in tops if t.part == "clarifications"],
            examples=[], glossary=[], names=dict(g.player_names),
            cover_cards=[code_ref(g, c) for c in g.cover_cards],
        )
        view.all_rules = [x for t in tops for x in _walk(t)]
        figures = self.figures
        view.numbers = numbers_view(
            figures.of(slug) if figures is not None else None, slug, g.accent,
            options={o.name: o.label for o in g.options},
            stale=bool(figures is not None and getattr(figures, "is_stale", None)
                       and figures.is_stale(slug)))
        if view.numbers is not None and view.numbers.time:
            view.time = view.numbers.time  # measured on played games, not typed
        view.table = self.opening_table(g)
        view.quick_table = replace(view.table) if view.table is not None else None
        for i, rep in enumerate(gr.replays, start=1):
            view.examples.append(self.example(rep, i, md, index))
        view.hidden = any(z is not None and z.hidden for e in view.examples
                          for d in [e.setup, *(s.diagram for s in e.steps)]
                          for row in d.rows for z in row)
        for c in g.changes:
            view.changes.append({"date": day_text(c.date), "iso": c.date,
                                 "href": self.links.href(slug, c.rule),
                                 "label": index[c.rule].label, "text": md.inline(c.text)})
        for t in g.glossary:
            view.glossary.append(TermView(
                term=smart(t.term), anchor=self.links.anchor(slug, t.anchor), definition=md.block(t.definition),
                see=[(self.links.href(slug, s), index[s].label) for s in t.see if s in index],
                text=plain(t.definition, resolve)))
        return view

    def opening_table(self, g) -> "Diagram | None":
        """The table as the engine deals it for a game with the printed options, for the
        rules' "At a glance" figure: where every pile lies and whose it is."""
        if g.gamedef is None:
            return None
        import random

        state = g.gamedef.new_game(g.gamedef.resolve(g.option_defaults()), random.Random(14))
        return self.diagram(state.table(), g.player_names)

    # ------------------------------------------------------------------ examples
    def example(self, rep: Replay, number: int, md: Markdown, index: dict[str, Rule]) -> ExampleView:
        ex = rep.example
        g = rep.game
        names = g.player_names
        opts = []
        defaults = g.option_defaults()
        labels = {o.name: o.label for o in g.options}
        for k, v in rep.options.items():
            if k in ex.options and v != defaults.get(k):
                opts.append(f"{labels.get(k, k)}: {v}")
        describe = _describer(g, rep.options)
        hook = getattr(g.gamedef, "marks", None) if g.gamedef is not None else None
        vocab = mk.Vocabulary.of(g.gamedef)
        steps, before = [], rep.initial_table
        for s in rep.steps:
            steps.append(self.step(s, names, md, describe, hook, vocab, before=before,
                                   attempt=getattr(g.gamedef, "attempt", None)))
            before = s.after if s.after is not None else s.table
        for view, s in zip(steps, rep.steps):
            if s.refusal is not None and s.refusal[1] in index:
                view.refused = (self.links.href(g.slug, s.refusal[1]), index[s.refusal[1]].label)
        return ExampleView(
            id=ex.id, anchor=self.links.anchor(g.slug, ex.anchor), number=number,
            title=smart(ex.title), intro=md.block(ex.intro), outro=md.block(ex.outro),
            rules=[(self.links.href(g.slug, r), index[r].label) for r in ex.rules if r in index],
            options=opts, setup=self.diagram(rep.initial_table, names),
            setup_state=describe(rep.initial_view, names), steps=steps, result=rep.result,
            text=plain(ex.intro + " " + " ".join(s.comment for s in ex.steps), self._resolve),
        )

    def step(self, s: StepRecord, names: dict[str, str], md: Markdown,
             describe: Callable | None = None, marks: Callable | None = None,
             vocab: mk.Vocabulary | None = None, before: list[Zone] | None = None,
             attempt: Callable | None = None) -> StepView:
        """One step for the renderers. ``before``: the table before the step, for the
        narration: a card it names that the table has not seen (``unseen_cards``: it lies
        in a hidden place after the step and was shown face up in no open place) is set
        apart, as the diagram draws the hidden place apart. ``attempt``: the engine's
        words for a decision the rules refuse (``GameDef.attempt``)."""
        describe = describe or (lambda view, names: [(w, prose(t)) for w, t in state_strip(view, names)])
        unseen = unseen_cards(s.after if s.after is not None else s.table,
                              [before or [], s.table], names)
        narration = [prose(e.narrate(names), unseen) for e in s.events if e.text]
        if s.refusal is not None:
            player, _rule, message = s.refusal
            value = s.decisions.get(player, "")
            said = attempt(player, value) if attempt is not None else None
            if said:   # the engine's words: "to ask {p2} for Mrs Thimble"
                tried = "to " + re.sub(r"\{(p\d+)\}",
                                       lambda m: names.get(m.group(1), m.group(1)), said)
            else:
                tried = _fmt(value)
            who = names.get(player, player)
            reason = re.sub(r"\bp\d+\b", lambda m: names.get(m.group(), m.group()),
                            message.rstrip("."))
            narration = [prose(f"{who} tries {tried}. {reason[:1].upper()}{reason[1:]}.")]
        decided = Markup("")
        if s.kind == "chance":
            decided = prose("Chance: " + "; ".join(_fmt(v) for v in s.decisions.values()))
        moments, moment_at = ([], []) if s.refusal is not None or not narration else \
            self.moments(s, before, names, marks, vocab)
        return StepView(
            index=s.index, kind=s.kind, narration=narration, comment=md.block(s.comment),
            diagram=self.diagram(s.table, names, after=s.after,
                                 marks=marks(s.events, s.table) if marks else None,
                                 vocab=vocab),
            state=describe(s.view, names),
            repeat=s.repeat, decided=decided, round=s.round, at_reveal=s.after is not None,
            moments=moments, moment_at=moment_at,
        )

    def moments(self, s: StepRecord, before: list[Zone] | None, names: dict[str, str],
                marks: Callable | None, vocab: mk.Vocabulary | None
                ) -> tuple[list[Diagram], list[int]]:
        """The tables of :attr:`StepView.moments`: before the step, after each event the
        narration tells (the table the engine drew as it made the event, with the marks
        of the events so far), and after the step (with the step's marks). A table equal
        to one already drawn (and marked alike) is drawn once. A ``marks`` hook that
        cannot mark a moment from the events so far leaves that moment unmarked."""
        def marked(events: list[Event], table: list[Zone]) -> dict[str, str] | None:
            if marks is None or not events:
                return None
            try:
                return marks(events, table)
            except Exception:  # noqa: BLE001 - a hook written for a whole step's events
                return None

        after = s.after if s.after is not None else s.table
        wanted: list[tuple[list[Zone] | None, dict[str, str] | None]] = [(before, None)]
        for i, e in enumerate(s.events):
            if e.text:
                wanted.append((e.moment, marked(s.events[:i + 1], e.moment)
                               if e.moment is not None else None))
        wanted.append((after, marked(s.events, after)))
        seen: list[tuple[list[Zone], dict[str, str] | None]] = []
        drawn: list[Diagram] = []
        at: list[int] = []
        for table, mark in wanted:
            if table is None:
                at.append(-1)
                continue
            for k, (t, m) in enumerate(seen):
                if t == table and m == mark:
                    at.append(k)
                    break
            else:
                seen.append((table, mark))
                drawn.append(self.diagram(table, names, marks=mark, vocab=vocab))
                at.append(len(drawn) - 1)
        return drawn, at

    def diagram(self, zones: list[Zone], names: dict[str, str],
                after: list[Zone] | None = None, marks: dict[str, str] | None = None,
                vocab: mk.Vocabulary | None = None) -> Diagram:
        """The table as ``zones`` show it; with ``after`` (the table once the step has
        resolved), each face-up card that then left its place is marked as moved; with
        ``marks`` (card code -> a kind of ``vocab``, the game's vocabulary, from the
        engine's ``marks``), those face-up cards carry that mark too. An old name of a kind
        ("win", "kill") is read as the new one; a kind the vocabulary lacks is dropped."""
        vocab = vocab or mk.Vocabulary()
        marks = {str(code): kind for code, raw in (marks or {}).items()
                 if (kind := vocab.kind(raw)) is not None}
        labels = vocab.labels()
        stays = {z.id: {c for c, _ in z.cards} for z in after or []}
        # a pile shows its top card only: one the step covered, the pile no smaller, stays
        grown = {z.id for z in after or [] if z.style == "pile" and z.count is not None
                 and any(b.id == z.id and b.count is not None and z.count >= b.count
                         for b in zones)}
        if not zones:
            return Diagram(rows=[], cols=0, ratio=self.ratio)
        nrows = max(z.row for z in zones) + 1
        ncols = max(z.col for z in zones) + 1
        grid: list[list[ZoneView | None]] = [[None] * ncols for _ in range(nrows)]
        for z in zones:
            cards = []
            for i, (card, up) in enumerate(z.cards):
                code = str(card) if up else "back"
                art = card_ref(card, up)
                moved = (after is not None and up and card not in stays.get(z.id, ())
                         and z.id not in grown)
                mark = marks.get(str(card), "") if up else ""
                drawn = mk.signs(mark, moved)
                label = labels.get(mark, "")
                # the part in view of a card under the next one: a fan's left strip, a
                # stack's top strip (the marks go round it)
                under = i < len(z.cards) - 1
                shown = ((FAN_STEP, 1.0) if under and z.style == "fan"
                         else (1.0, 1 - STACK_OVERLAP) if under and z.style == "stack"
                         else (1.0, 1.0))
                cards.append(CardView(code=code, src=self.links.card(art),
                                      alt=card.name() if up else "a face-down card", up=up,
                                      moved=moved, mark=mark, signs=drawn, label=label,
                                      sign_svg=mk.card_svg(drawn, label, shown, self.ratio),
                                      art=art))
            if z.style == "pile" and z.count == 0:
                cards = []
            owner = names.get(z.owner, z.owner or "") if z.owner else ""
            # a place the table may not look into, marked when it shows a card face up
            hidden = mk.PLACES.get(getattr(z, "seen_by", "everyone"), "") \
                if any(c.up for c in cards) else ""
            seen = seen_words(hidden, owner)
            grid[z.row][z.col] = ZoneView(id=z.id, label=smart(z.label), owner=owner, style=z.style,
                                          cards=cards, count=z.count, note=smart(z.note),
                                          tokens=(z.count or 0) if z.style == "tokens" else 0,
                                          hidden=hidden, seen=seen,
                                          sign_svg=mk.place_svg(hidden, seen))
        # drop empty rows and columns (keeping the layout's order)
        rows = [r for r in grid if any(c is not None for c in r)]
        keep = [j for j in range(ncols) if any(r[j] is not None for r in rows)]
        rows = [[r[j] for j in keep] for r in rows]
        widths = []
        for j in range(len(keep)):
            w = MIN_COL
            for r in rows:
                z = r[j]
                if z is not None and z.style == "fan" and len(z.cards) > 1:
                    w = max(w, 1 + (len(z.cards) - 1) * FAN_STEP)
            widths.append(round(w, 3))
        shown = vocab.sorted([k for r in rows for z in r if z for c in z.cards for k in c.signs]
                             + [z.hidden for r in rows for z in r if z and z.hidden])
        return Diagram(rows=rows, cols=len(keep), widths=widths,
                       moment="reveal" if after is not None else "",
                       marks=shown, legend=mk.legend(shown, vocab), ratio=self.ratio)


def seen_words(hidden: str, owner: str) -> str:
    """Who may look into a hidden place, in words: "seen by Blue only" (its owner's name,
    or "its owner" without one), "seen by no one"; "" for a place everyone sees."""
    if hidden == mk.OWNER_ONLY:
        return f"seen by {owner or 'its owner'} only"
    if hidden == mk.NO_ONE:
        return "seen by no one"
    return ""


def unseen_cards(table: list[Zone], before: list[list[Zone]],
                 names: dict[str, str]) -> dict[str, str]:
    """The cards the table has not seen in a step, with who may see them ("seen by Blue
    only"): those lying after the step in a place the table may not look into (``table``,
    the table once the step has resolved) that neither the table before the step nor the
    step's diagram (``before``: those tables) shows face up in a place everyone sees. A card played
    from a hand, or one that goes back to a hand from the table, the table has seen."""
    shown = {str(c) for zones in before for z in zones
             if not z.secret() for c, up in z.cards if up}
    out: dict[str, str] = {}
    for z in table:
        hidden = mk.PLACES.get(getattr(z, "seen_by", "everyone"), "")
        if not hidden:
            continue
        owner = names.get(z.owner, z.owner or "") if z.owner else ""
        for card, _up in z.cards:
            code = str(card)
            if code not in shown:
                out.setdefault(code, seen_words(hidden, owner))
    return out


#: in a fan, each further card shows this much of the card before it (in card widths)
FAN_STEP = 0.45
#: on the website, a stack's next card covers this much of the one before (site.css)
STACK_OVERLAP = 0.75
#: a token's diameter and the gap between tokens, in card widths
TOKEN, TOKEN_GAP = 0.42, 0.12


def _tokens_per_row(width: float) -> int:
    """How many tokens fit side by side in a place ``width`` card widths wide."""
    return max(1, int((width + TOKEN_GAP) // (TOKEN + TOKEN_GAP)))


def _token_rows(n: int, width: float) -> int:
    return max(1, -(-n // _tokens_per_row(width)))


def _tokens(n: int, x: float, y: float, w: float, card: float) -> list[tuple[float, float, float]]:
    """Where ``n`` tokens lie in a place ``w`` wide at (x, y): (centre x, centre y, radius),
    in rows centred in the place."""
    per_row = _tokens_per_row(w / card)
    d, gap = TOKEN * card, TOKEN_GAP * card
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        left = x + (w - (in_row * d + (in_row - 1) * gap)) / 2
        out.append((left + col * (d + gap) + d / 2, y + row * (d + gap) + d / 2, d / 2))
    return out
#: the narrowest column, in card widths: room for a two-line label beside a single card
MIN_COL = 1.3


@dataclass
class PlacedZone:
    zone: ZoneView
    x: float
    y: float
    w: float
    label_h: float
    body_top: float
    body_h: float
    foot_top: float
    foot_h: float
    cards: list[tuple[CardView, float, float]]
    empty_x: float
    tokens: list[tuple[float, float, float]] = field(default_factory=list)


@dataclass
class Geometry:
    width: float
    height: float
    zones: list[PlacedZone]
    card: float
    card_h: float
    empty: float


def _walk(r: RuleView):
    yield r
    for c in r.children:
        yield from _walk(c)


def _fmt(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return " ".join(_fmt(x) for x in v)
    return str(v)


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def day_text(iso: str) -> str:
    """2026-11-28 as printed: "28 November 2026"."""
    year, month, day = (int(x) for x in iso.split("-"))
    return f"{day} {MONTHS[month - 1]} {year}"


def rules_line(book) -> str:
    """The rules' version and date as the covers and the website print them ("Rules
    version 1.2, 28 November 2026"); "" when the content states neither."""
    version, date = getattr(book, "version", ""), getattr(book, "date", "")
    if version and date:
        return f"Rules version {version}, {day_text(date)}"
    if version:
        return f"Rules version {version}"
    return f"Rules of {day_text(date)}" if date else ""


def players_text(counts: tuple[int, ...]) -> str:
    """How many may play, from the engine's counts: "2", "2 or 4", "2–4"."""
    counts = tuple(sorted(set(counts)))
    if len(counts) == 1:
        return str(counts[0])
    if len(counts) > 2 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}\u2013{counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


def _describer(g, options: dict[str, Any]) -> Callable[[dict[str, Any], dict[str, str]], list[tuple[str, Markup]]]:
    """The state lines of a game: its engine's ``describe`` (the table in words) with the
    player names put in, or the view as it is for an engine without one."""
    hook = getattr(g.gamedef, "describe", None) if g.gamedef is not None else None

    def describe(view: dict[str, Any], names: dict[str, str]) -> list[tuple[str, Markup]]:
        if hook is None:
            return [(w, prose(t)) for w, t in state_strip(view, names)]
        out = []
        for who, text in hook(view, options):
            text = text.format_map(_PlayerNames(names))
            out.append((names.get(who, who) if who else "Game", prose(text[:1].upper() + text[1:])))
        return [(w, t) for w, t in out if str(t)]
    return describe


class _PlayerNames(dict):
    def __missing__(self, key: str) -> str:
        if key.startswith("p") and key[1:].isdigit():
            return f"Player {key[1:]}"
        return "{" + key + "}"


def state_strip(view: dict[str, Any], names: dict[str, str]) -> list[tuple[str, str]]:
    """The visible state in a line per player: pile sizes, counters, results."""
    per: dict[str, list[str]] = {}
    order: list[str] = []
    for key, value in view.items():
        who, _, what = key.partition(".")
        if not (who.startswith("p") and who[1:].isdigit()):
            who, what = "", key
        if value is None or value == "none" or value == "":
            continue
        if isinstance(value, (list, tuple)):
            text = f"{what.replace('.', ' ')} {len(value)}"
        elif isinstance(value, bool):
            text = f"{what.replace('.', ' ')}: {'yes' if value else 'no'}"
        elif isinstance(value, (int, float)):
            text = f"{what.replace('.', ' ')} {value}"
        else:
            v = names.get(str(value), str(value))
            text = f"{what.replace('.', ' ')}: {v}"
        if who not in per:
            per[who] = []
            order.append(who)
        per[who].append(text)
    out = []
    for who in sorted(order, key=lambda w: (w == "", w)):
        out.append((names.get(who, who) if who else "Game", " · ".join(per[who])))
    return out
