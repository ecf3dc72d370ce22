"""What a card is: the French 52's :class:`Card` (interned, ordered, named), the base every
card shares (:class:`CardBase`, whatever its deck), and the words and numbers of the French
ranks and suits. A deck file's cards are :mod:`builder.engine.decks`'."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen",
    "K": "king",
}

#: Ace high: 2..10, J=11, Q=12, K=13, A=14.
ACE_HIGH = {r: i for i, r in enumerate(RANKS[1:] + ("A",), start=2)}
#: Ace low: A=1, 2..10, J=11, Q=12, K=13.
ACE_LOW = {r: i for i, r in enumerate(RANKS, start=1)}


class CardError(ValueError):
    """A card name that does not name a card."""


class CardBase:
    """What every card is, whatever its deck: the French 52's :class:`Card` and a deck
    file's cards (:class:`builder.engine.decks.DeckCard`). ``str(card)`` is its code."""

    __slots__ = ()


def parser_for(cards: Iterable[Any]) -> Callable[[Any], Any]:
    """How a code names one of ``cards``: their deck's ``parse`` (the French 52's
    :meth:`Card.parse` for French cards or no cards)."""
    for c in cards:
        deck = getattr(c, "deck", None)
        if deck is not None:
            return deck.parse
        break
    return Card.parse


class Card(CardBase):
    """A playing card. Cards are interned: there is one object per rank and suit, so
    equality is identity and hashing is cheap (the engine compares cards a great deal)."""

    __slots__ = ("rank", "suit", "_key")
    _interned: dict[tuple[str, str], "Card"] = {}

    def __new__(cls, rank: str, suit: str) -> "Card":
        card = cls._interned.get((rank, suit))
        if card is None:
            if rank not in RANKS or suit not in SUITS:
                raise CardError(f"unknown card '{rank}{suit}'")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "_key", (SUITS.index(suit), RANKS.index(rank)))
            cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    def __eq__(self, other: object) -> bool:
        # interned: one object per card, so equal is identical. Said here rather than left
        # to object's default, which a class with its own ordering reaches only slowly
        # (``card in hand`` and ``hand.remove(card)`` compare a card a great deal)
        if self is other:
            return True
        if type(other) is Card:
            return False
        return NotImplemented

    __hash__ = CardBase.__hash__   # by identity, as before: the same order in a set

    def __lt__(self, other: "Card") -> bool:
        return self._key < other._key

    def __le__(self, other: "Card") -> bool:
        return self._key <= other._key

    def __gt__(self, other: "Card") -> bool:
        return self._key > other._key

    def __ge__(self, other: "Card") -> bool:
        return self._key >= other._key

    @staticmethod
    def parse(text: Any) -> "Card":
        if isinstance(text, Card):
            return text
        if not isinstance(text, (str, int)):
            raise CardError(f"expected a card such as QD or 10H, got {text!r}")
        s = str(text).strip().upper()
        rank, suit = s[:-1], s[-1:]
        if suit not in SUITS or rank not in RANKS:
            raise CardError(
                f"unknown card '{text}' (a card is a rank A 2-10 J Q K then a suit C D H S, "
                f"e.g. QD or 10H)"
            )
        return Card(rank, suit)

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"

    # cards are immutable: copies of a state share them
    def __copy__(self) -> "Card":
        return self

    def __deepcopy__(self, memo: dict) -> "Card":
        return self

    @property
    def red(self) -> bool:
        return self.suit in ("D", "H")

    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


def parse_cards(items: Iterable[Any]) -> list[Card]:
    return [Card.parse(x) for x in items]


def full_deck(suits: Sequence[str] = SUITS) -> list[Card]:
    """The cards of ``suits`` in order (a suit's ace to king, suit by suit): a new list
    each time, of the same interned cards (made once, as a game deals several decks)."""
    key = tuple(suits)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = tuple(Card(r, s) for s in key for r in RANKS)
    return list(deck)


_DECKS: dict[tuple[str, ...], tuple[Card, ...]] = {}


def cards_str(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards) or "(none)"
