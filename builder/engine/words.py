"""The table in words: helpers for a game's ``describe`` hook (``GameDef.describe``).

A game's ``describe(view, options)`` says what a player would say about the table after a
step, a line per player and at most one for the game: ``[("p1", "12 cards in deck"),
("", "North took the last trick")]``. Player ids in the text are written ``{p1}``, as in
event narration, so the renderers put the game's names in; cards are written as their
codes (``KS``), which the renderers print as K♠. Only what matters to a player is said:
nothing for an empty pile that is always empty at that moment, no internal counters.
"""

from __future__ import annotations

from typing import Any, Iterable

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
           "ten", "eleven", "twelve")


def count(n: int, noun: str, plural: str | None = None, words: bool = False) -> str:
    """``count(3, "card")`` -> "3 cards"; ``count(0, "card")`` -> "no cards";
    with ``words`` small numbers are spelled out ("two stones")."""
    many = plural or noun + "s"
    if n == 0:
        return f"no {many}"
    number = NUMBERS[n] if words and n < len(NUMBERS) else str(n)
    return f"{number} {noun if n == 1 else many}"


RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine",
              "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three",
              "2": "two"}


def a_rank(rank: str) -> str:
    """A rank with its article, as a player says it: "an eight", "an ace", "a king"."""
    word = RANK_WORDS[rank]
    return ("an " if word[0] in "aeiou" else "a ") + word


def size(v: Any) -> int:
    """A pile's size: a view value is a list of cards or already a number."""
    if isinstance(v, (list, tuple)):
        return len(v)
    return int(v or 0)


def who(v: Any) -> str | None:
    """A player id from a view value ("p1"), or None for "none", "" or None."""
    if isinstance(v, str) and v.startswith("p") and v[1:].isdigit():
        return v
    return None


def joined(parts: Iterable[str], last: str = "and") -> str:
    """"a, b and c"."""
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {last} " + parts[-1]


def cards(v: Any) -> str:
    """The cards of a pile, as codes separated by spaces (the renderers print them)."""
    return " ".join(str(c) for c in v)


def players_in(view: dict[str, Any]) -> list[str]:
    """The player ids a view mentions, in order ("p1", "p2", ...)."""
    seen: list[str] = []
    for key in view:
        p = key.partition(".")[0]
        if who(p) and p not in seen:
            seen.append(p)
    return sorted(seen, key=lambda p: int(p[1:]))


def result_line(view: dict[str, Any]) -> str:
    """"game over: {p1} wins" / "game over: a draw", or "" while the game goes on."""
    r = view.get("result", "none")
    if who(r):
        return f"game over: {{{r}}} wins"
    if r == "draw":
        return "game over: a draw"
    return ""


def winner_reveal(events: Iterable[Any], win_kinds: tuple[str, ...] = ("take",),
                  shown_kinds: tuple[str, ...] = ("reveal",)) -> dict[str, str]:
    """The ``marks`` of a trick game: for each event that gives a player the cards (one of
    ``win_kinds``), the last card that player showed before it (one of ``shown_kinds``)
    won it (kind ``"won"``)."""
    shown: dict[str, str] = {}
    out: dict[str, str] = {}
    for e in events:
        if e.kind in shown_kinds and e.player and e.cards:
            shown[e.player] = str(e.cards[-1])
        elif e.kind in win_kinds and e.player in shown:
            out[shown[e.player]] = "won"
    return out


def trick_marks(events: Iterable[Any], table: Iterable[Any] = ()) -> dict[str, str]:
    """``GameDef.marks`` of a trick game as it stands: the winner's last card turned up."""
    return winner_reveal(events)


def won_in_place(events: Iterable[Any], table: Iterable[Any], kind: str) -> dict[str, str]:
    """The ``marks`` of a game of places: of each ``kind`` event's cards (a capture, a
    pair), those lying in a place of the player who won it (kind ``"won"``)."""
    owner = {str(c): z.owner for z in table for c, _ in z.cards}
    out: dict[str, str] = {}
    for e in events:
        if e.kind == kind and e.player:
            out.update({str(c): "won" for c in e.cards if owner.get(str(c)) == e.player})
    return out
