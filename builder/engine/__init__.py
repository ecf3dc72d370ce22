"""The engine API: everything a game's ``engine.py`` is written against, and nothing more.

``from builder.engine import GameDef, State, OneOf, ...``. Every name here is documented in
``docs/writing-an-engine.md`` ("Reference"); a test holds the two to each other, so a name
cannot be added without its documentation. The shipped games are modules beside this one
(:mod:`.war`, :mod:`.battle`, ...), each ending in ``GAME = GameDef(...)``; engines are found,
not listed (:mod:`.registry`).
"""

from __future__ import annotations

from .core import (
    ACE_HIGH,
    ACE_LOW,
    MARK_KINDS,
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    SUITS,
    Bot,
    Card,
    CardError,
    ChanceNode,
    Choice,
    DecisionFormatError,
    DecisionNode,
    Event,
    GameDef,
    IllegalDecision,
    IntRange,
    OneOf,
    Option,
    OrderOf,
    Parts,
    Result,
    SetupError,
    State,
    SubsetOf,
    Zone,
    cards_str,
    full_deck,
    parse_cards,
    play_game,
    random_bot,
)
from .decks import FRENCH, Deck, DeckCard
from .drawing import ArtContext, Drawing, Ink
from .words import a_rank, count, joined, trick_marks, winner_reveal, won_in_place

__all__ = [
    # cards
    "Card", "CardError", "RANKS", "SUITS", "RANK_NAMES", "SUIT_NAMES", "ACE_HIGH", "ACE_LOW",
    "full_deck", "parse_cards", "cards_str",
    # a game's own cards (docs/decks.md)
    "Deck", "DeckCard", "FRENCH",
    # the state and what it returns
    "State", "DecisionNode", "ChanceNode", "Event", "Zone", "Result",
    # choices and refusals
    "Choice", "OneOf", "IntRange", "SubsetOf", "OrderOf", "Parts", "IllegalDecision",
    "DecisionFormatError", "SetupError",
    # the game
    "GameDef", "Option", "Bot", "MARK_KINDS", "random_bot", "play_game",
    # the table in words
    "count", "joined", "a_rank", "winner_reveal", "trick_marks", "won_in_place",
    # art
    "ArtContext", "Drawing", "Ink",
]
