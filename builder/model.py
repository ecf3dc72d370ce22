"""The validated content model: what :mod:`builder.content` loads and every later stage reads.

Nothing here knows about files or YAML: values are plain (dicts, lists, text, numbers),
and positions are kept as :class:`Located` (an example's as :class:`Positions`, a key path
to where its value was written) so the checker can point at the line an example was
written on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .diagnostics import Located
from .errors import InternalError


@dataclass
class Rule:
    """A numbered rule or section: ``1.`` (level 1), ``1.1`` (level 2), ``1.1.1`` (level 3)."""

    id: str
    number: str
    title: str
    level: int
    body: str  # Markdown, cross-references still written [[rule-id]]
    where: Located
    children: list["Rule"] = field(default_factory=list)
    parent: str | None = None
    part: str = "rules"  # "golden", "rules" or "clarifications"

    @property
    def label(self) -> str:
        return f"{self.number} {self.title}"

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


@dataclass
class Term:
    term: str
    definition: str  # Markdown
    see: list[str]  # rule ids
    where: Located

    @property
    def anchor(self) -> str:
        return "term-" + "".join(ch if ch.isalnum() else "-" for ch in self.term.lower()).strip("-")


@dataclass
class Change:
    """One entry of a game's list of changes to its rules (``changes:`` in game.yaml): an
    erratum or a revision, dated, naming the rule it changed."""
    date: str  # ISO, YYYY-MM-DD
    rule: str  # the rule id
    text: str  # Markdown, one paragraph
    where: Located


@dataclass
class OptionInfo:
    name: str
    default: Any
    label: str
    text: str  # Markdown


@dataclass(frozen=True)
class Positions:
    """Where each value of one example file was written, found by its key path:
    ``("setup", "piles", "p1.deck", 2)`` is the third card of the pile ``p1.deck``.

    ``at`` falls back to the nearest ancestor that was written (a key left out is reported
    at the mapping that lacks it); ``key_at`` is where a mapping key itself was written
    (a misspelt name). ``within`` is the same positions seen from inside one value (a
    step), its paths relative to that value. Built once by the reader
    (:func:`builder.yamlsrc.located_paths`)."""

    values: Mapping[tuple, Located]
    keys: Mapping[tuple, Located] = field(default_factory=dict)
    prefix: tuple = ()

    def at(self, *path: Any) -> Located:
        full = self.prefix + path
        for end in range(len(full), -1, -1):
            found = self.values.get(full[:end])
            if found is not None:
                return found
        raise InternalError(f"no position recorded for {full} nor any part of it (the "
                            f"reader records the document itself)")

    def key_at(self, *path: Any) -> Located:
        return self.keys.get(self.prefix + path) or self.at(*path)

    def written(self, *path: Any) -> bool:
        """Whether a value was written at exactly this path."""
        return self.prefix + path in self.values

    def within(self, *path: Any) -> "Positions":
        return Positions(self.values, self.keys, self.prefix + path)


@dataclass
class Step:
    index: int  # 1-based, as printed
    where: Located
    decide: dict[str, Any] | None  # player -> decision (plain data, as written)
    chance: Any  # the outcome as written, or None
    expect: dict[str, Any] | None  # view key (or events) -> expected (plain data), or None
    comment: str  # Markdown
    repeat: int = 1
    #: the rule a refused step's decision breaks (``refused:``): the engine must refuse
    #: ``decide`` citing it, and the state does not change; None for a step that is played
    refused: str | None = None
    #: where each part of the step was written, by its path inside the step
    #: (``("decide", "p1")``, ``("expect", "events", 0)``)
    positions: Positions = field(default_factory=lambda: Positions({}))
    #: a turn made of parts (``turn:``): each part a step of its own (``decide`` or
    #: ``chance``, positions inside the part), replayed in order and printed as this one
    #: step, with one diagram; None for a step of one part
    parts: "list[Step] | None" = None


@dataclass
class Example:
    id: str
    title: str
    where: Located
    rules: list[str]
    options: dict[str, Any]
    setup: dict[str, Any]  # as written (plain data)
    steps: list[Step]
    intro: str
    outro: str
    #: the whole file as written (plain data), which ``warbook record`` rewrites
    written: dict[str, Any] = field(default_factory=dict)
    #: where each value of the file was written, by its key path (``("setup", "piles")``)
    positions: Positions = field(default_factory=lambda: Positions({}))

    @property
    def anchor(self) -> str:
        """Its place name in the book and on the website, within its game's."""
        return "ex-" + self.id


@dataclass
class Game:
    slug: str
    title: str
    engine: str
    designer: str
    credit: str
    tagline: str
    summary: str
    players_min: int
    players_max: int
    player_names: dict[str, str]
    time: str
    components: list[dict[str, Any]]
    options: list[OptionInfo]  # variants the players may choose; printed
    compare: dict[str, str]
    quickref: list[str]
    rules: list[Rule]  # top-level sections, in order
    glossary: list[Term]
    examples: list[Example]
    dir: str
    where: Located
    #: the engine that plays the game (a ``builder.engine.core.GameDef``), found by the
    #: loader; None when it could not be found (an error says why)
    gamedef: Any = None
    #: engine options fixed by this game (not printed): Peace is War's engine with
    #: ``wins: lower``
    settings: dict[str, Any] = field(default_factory=dict)
    #: the game's colour (#rrggbb) in every product, and each player's (mats, tokens)
    accent: str = "#5b554e"
    player_colours: dict[str, str] = field(default_factory=dict)
    #: the cards drawn on the rulebook's cover (card codes)
    cover_cards: list[str] = field(default_factory=list)
    #: the print-and-play kit (``builder.content.kit.Component``s), defaults filled in
    kit: list[Any] = field(default_factory=list)
    #: the balance lab's settings and the designer's claims (``balance:`` in game.yaml,
    #: read by builder/content/balance.py); None when the game states none
    balance: "Balance | None" = None
    #: the game's own decks (``builder.content.decks.DeckSpec``: the engine's deck, the
    #: card size, face and back), in game.yaml's order; [] for the French 52
    decks: list[Any] = field(default_factory=list)
    #: the changes to the rules (``changes:`` in game.yaml), newest first
    changes: list[Change] = field(default_factory=list)

    def rule_index(self) -> dict[str, Rule]:
        return {r.id: r for top in self.rules for r in top.walk()}

    def option_defaults(self) -> dict[str, Any]:
        out = dict(self.settings)
        out.update({o.name: o.default for o in self.options})
        return out

    def names(self, count: int | None = None) -> dict[str, str]:
        return dict(self.player_names)

    @property
    def players_label(self) -> str:
        if self.players_min == self.players_max:
            return str(self.players_min)
        return f"{self.players_min}-{self.players_max}"


@dataclass
class Claim:
    """One balance claim the designer states and ``warbook check --balance`` tests:
    ``kind`` is length, seat, skill, draws or cap (see docs/balance.md)."""

    kind: str
    where: Located
    bots: str | None = None  # the line-up: seat/length/draws/cap with equal bots
    against: str | None = None  # skill: the weaker bot
    at_least: float | None = None
    at_most: float | None = None
    rounds: int | None = None  # length: the game ends within this many rounds ...
    share: float | None = None  # ... in at least this share of games
    confidence: float = 0.95


@dataclass
class Balance:
    """``balance:`` in game.yaml: how long a round takes at the table, how many games the
    figures rest on, and the claims."""

    seconds_per_round: float | None = None
    games: int | None = None
    claims: list[Claim] = field(default_factory=list)
    where: Located | None = None


@dataclass
class Book:
    """The look of the whole project (``book:`` in the content's ``index.yaml``)."""

    title: str = "Rules"  # the compendium's and the website's title, and running heads
    subtitle: str = ""
    credits: str = ""
    accent: str | None = None  # the rulebooks' colour; None keeps the stylesheet's
    paper: str = "a4"  # the default paper; ``warbook build --paper`` overrides it
    logo: str | None = None  # an SVG or PNG file inside the content folder (absolute path)
    #: the content's own typefaces: the shipped face's file name -> a font file's path
    fonts: dict[str, str] = field(default_factory=dict)
    #: the rules' version (``book.version``, such as "1.2") and date (ISO), printed on the
    #: covers and the website; "" when the content states none
    version: str = ""
    date: str = ""


@dataclass(frozen=True)
class Words:
    """The few lines the shipped templates print around the games on the website's home
    page and the compendium's comparison (``words:`` in ``index.yaml``): neutral unless
    the content says otherwise, so no shipped template speaks of any game by name."""

    #: the home page's line under its title
    lead: str = ("The full numbered rules of each game, a glossary, and worked examples "
                 "you can step through card by card.")
    #: the home page's heading over the introduction (``intro:``)
    intro_title: str = "About these games"
    #: the home page's heading over the table of the games side by side
    compare_title: str = "How the games differ"
    #: a line under the comparison's heading, on the home page and in the compendium
    compare_note: str = ""


@dataclass
class Content:
    root: str
    games: list[Game]
    intro: str = ""  # Markdown for the compendium and website home page; '' prints none
    book: Book = field(default_factory=Book)
    words: Words = field(default_factory=Words)

    def game(self, slug: str) -> Game:
        for g in self.games:
            if g.slug == slug:
                return g
        raise KeyError(slug)
