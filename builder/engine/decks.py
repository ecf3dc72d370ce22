"""Decks: a game's cards as data.

A :class:`Deck` is what an engine deals and what the check reads card codes against: its
distinct cards in order (one row each of a deck file), how many copies of each, and how a
code written in the content names one of them. Each card of a deck is one interned object
(one per code, shared by every copy and every state, so equality is identity and hashing
is cheap, as for :class:`~builder.engine.core.Card`) that carries the row's fields as
attributes: a deck whose file has the columns ``colour`` and ``number`` gives cards with
``card.colour`` and ``card.number``.

The French 52 is one deck like any other (:data:`FRENCH`, read from ``french52.csv``
beside this module), whose cards are the engine's own :class:`~builder.engine.core.Card`
(``rank`` and ``suit``), so the shipped engines play it unchanged. A game made with
``GameDef(cards="own")`` plays the decks its ``game.yaml`` declares instead; the content
stage reads them (``builder.content.decks``) and hands them to the game with
:meth:`GameDef.use_decks`, so its engine reads them as ``GAME.deck`` (the first) and
``GAME.decks[name]``.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..diagnostics import suggest
from .cards import Card, CardBase, CardError

#: a row's keys that are not fields of the card: what the card is called, and how many
#: copies the deck holds
RESERVED = ("code", "name", "count")
#: attributes every card has, which a deck's fields may not redefine
_CARD_ATTRIBUTES = ("code", "title", "deck", "index", "name", "red", "rank", "suit")


class DeckCard(CardBase):
    """A card of a deck read from data. Immutable and interned per deck: ``deck.card(code)``
    is the one object for that code. ``str(card)`` is its code; ``card.name()`` the name
    written in the deck file (its code when none is written). Cards of a deck order by
    their row in the file."""

    __slots__ = ("code", "title", "deck", "index")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self):
        return (_card_of, (self.deck.key, self.code))

    def __copy__(self) -> "DeckCard":
        return self

    def __deepcopy__(self, memo: dict) -> "DeckCard":
        return self

    def __lt__(self, other: "DeckCard") -> bool:
        return self.index < other.index

    def __le__(self, other: "DeckCard") -> bool:
        return self.index <= other.index

    def __gt__(self, other: "DeckCard") -> bool:
        return self.index > other.index

    def __ge__(self, other: "DeckCard") -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"{self.deck.name}:{self.code}"

    def name(self) -> str:
        return self.title

    def __getattr__(self, name: str) -> Any:
        # reached only when nothing has the name: a field misspelt in an engine. The
        # card's own slots are answered plainly (unset while a card is being made).
        if name.startswith("__") or name in DeckCard.__slots__:
            raise AttributeError(name)
        deck = self.deck
        known = ", ".join(deck.fields) or "none"
        raise AttributeError(f"card '{self.code}' of deck '{deck.name}' has no field "
                             f"'{name}' (its fields: {known}){suggest(name, deck.fields)}")

    def fields(self) -> dict[str, Any]:
        """The card's fields by name, as the deck file gives them."""
        return {f: getattr(self, f) for f in self.deck.fields}


#: every deck made in this process, by key, so that a card pickled into a worker process
#: (the lab's pool) comes back as the worker's interned card
_DECKS: dict[str, "Deck"] = {}


def _card_of(key: str, code: str):
    return _DECKS[key].card(code)


class Deck:
    """A deck: its distinct cards in order, each with a count, and how a code names one.

    ``rows``: one mapping per distinct card, with ``code``, optionally ``name`` and
    ``count`` (default 1), and the card's fields (every row the same keys). Raises
    :class:`ValueError` for rows no deck can have (duplicate codes, a field named like a
    card attribute); the content stage checks the file first and says where."""

    def __init__(self, name: str, rows: Iterable[Mapping[str, Any]], *, key: str | None = None,
                 card_type: Any = None, parser: Any = None):
        self.name = name
        self.key = key or name
        rows = [dict(r) for r in rows]
        fields: list[str] = []
        for r in rows:
            for f in r:
                if f not in RESERVED and f not in fields:
                    fields.append(f)
        bad = [f for f in fields if f in _CARD_ATTRIBUTES or not f.isidentifier()
               or f.startswith("_")]
        if bad and card_type is None:
            raise ValueError(f"deck '{name}': a card cannot have a field named '{bad[0]}'")
        self.fields: tuple[str, ...] = tuple(fields)
        self._parser = parser
        self.cards: tuple = ()
        self.counts: dict[Any, int] = {}
        self._by_code: dict[str, Any] = {}
        self._by_upper: dict[str, Any] = {}
        if card_type is None:
            card_type = type(f"{name.title().replace('-', '').replace('_', '')}Card",
                             (DeckCard,), {"__slots__": self.fields})
        self.card_type = card_type
        cards = []
        for i, r in enumerate(rows):
            code = str(r["code"])
            if code in self._by_code:
                raise ValueError(f"deck '{name}': the code '{code}' is on two rows")
            if issubclass(card_type, DeckCard):
                card = object.__new__(card_type)
                object.__setattr__(card, "code", code)
                object.__setattr__(card, "title", str(r.get("name") or code))
                object.__setattr__(card, "deck", self)
                object.__setattr__(card, "index", i)
                for f in self.fields:
                    object.__setattr__(card, f, r.get(f))
            else:  # the engine's own card type (the French 52): made from its fields
                card = card_type(**{f: r[f] for f in self.fields})
                if str(card) != code:
                    raise ValueError(f"deck '{name}': row '{code}' makes the card '{card}'")
            cards.append(card)
            self._by_code[code] = card
            self._by_upper.setdefault(code.upper(), card)
            self.counts[card] = int(r.get("count") or 1)
        self.cards = tuple(cards)
        _DECKS[self.key] = self

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards, {self.size()} in all)"

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    @property
    def codes(self) -> list[str]:
        return list(self._by_code)

    def size(self) -> int:
        """How many cards the deck holds, every copy counted."""
        return sum(self.counts.values())

    def card(self, code: str):
        """The card with exactly this code (KeyError if none)."""
        return self._by_code[code]

    def all(self) -> list:
        """Every card of the deck, each as many times as its count, in the file's order:
        what an engine shuffles and deals."""
        return [c for c in self.cards for _ in range(self.counts[c])]

    def supply(self) -> Counter:
        """The deck as a Counter (a ``GameDef.supply`` for a game played with it alone)."""
        return Counter(self.counts)

    def has(self, card: Any) -> bool:
        return self._by_code.get(str(card)) is card

    def parse(self, text: Any):
        """The card a code in the content names: its exact code, or the same letters in
        another case when only one card has them. Raises :class:`CardError` with the
        nearest codes of this deck."""
        if self._parser is not None:
            return self._parser(text)
        if isinstance(text, DeckCard) and text.deck is self:
            return text
        if isinstance(text, bool) or not isinstance(text, (str, int)):
            raise CardError(f"expected a card code of the {self.name} deck such as "
                            f"{self.cards[0] if self.cards else 'X1'}, got {text!r}")
        code = str(text).strip()
        card = self._by_code.get(code) or self._by_upper.get(code.upper())
        if card is None:
            raise CardError(f"unknown card '{code}' (not in the {self.name} deck)"
                            + suggest(code, self._by_code, cutoff=0.5))
        return card

    def parse_all(self, items: Iterable[Any]) -> list:
        return [self.parse(x) for x in items]


def read_rows(path: Path) -> list[dict[str, Any]]:
    """A deck file's rows as the shipped French deck is read (no located errors: a file of
    the package). The content stage reads designers' deck files itself."""
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: v for k, v in row.items()} for row in csv.DictReader(f)]


def _french() -> Deck:
    rows = read_rows(Path(__file__).with_name("french52.csv"))
    return Deck("french", rows, key="french", card_type=Card, parser=Card.parse)


#: the French 52 (ace to king in clubs, diamonds, hearts and spades), one of each: the deck
#: every game plays unless its engine says ``cards="own"``
FRENCH = _french()
