"""The compendium's index (issue 27, item 6): every defined term and every numbered rule
of every game, in one alphabet, each with the parts and pages where it stands.

An entry is a heading (a term of a glossary, a rule's title) and its references, in the
games' order, gathered by game: the game's title as the part's folios print it, then for
each place the rule's number or "glossary" and the page of that part on which it stands
("Battle 5 · 4, glossary · 31"). A heading two games share
("Deck", "War") is one entry with a reference for each. Entries are sorted as a reader
looks them up: by their words, a leading "The", "A" or "An" passed over, case ignored.

The index is laid out with the front matter, its page numbers placeholders
(``pagerefs.py``) until the parts are written, and bound after the last part.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..present import GameView

#: a leading article, passed over when sorting
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)


@dataclass
class IndexRef:
    game: str  # the game's title, as the part's folios print it
    what: str  # the rule's number ("3.2"), or "glossary"
    anchor: str  # where it stands (a named destination of the bound book)


@dataclass
class IndexEntry:
    heading: str
    refs: list[IndexRef] = field(default_factory=list)

    @property
    def by_game(self) -> list[tuple[str, list[IndexRef]]]:
        """The references gathered by game, in the games' order: ("Battle", [5, glossary])."""
        out: list[tuple[str, list[IndexRef]]] = []
        for r in self.refs:
            if out and out[-1][0] == r.game:
                out[-1][1].append(r)
            else:
                out.append((r.game, [r]))
        return out


@dataclass
class IndexGroup:
    letter: str  # "A" ... "Z", or "#" for a heading that starts with neither
    entries: list[IndexEntry]


def sort_key(heading: str) -> tuple[str, str]:
    """How ``heading`` is filed: its words without a leading article, accents and case
    ignored (then the heading itself, so the order is total)."""
    plain = unicodedata.normalize("NFKD", _ARTICLE.sub("", heading.strip()))
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    return plain, heading


def _letter(heading: str) -> str:
    first = sort_key(heading)[0][:1].upper()
    return first if "A" <= first <= "Z" else "#"


def compendium_index(games: list[GameView]) -> list[IndexGroup]:
    """The index of ``games``: entries grouped by their first letter."""
    entries: dict[str, IndexEntry] = {}

    def add(heading: str, ref: IndexRef) -> None:
        heading = " ".join(str(heading).split())
        if not heading:
            return
        key = sort_key(heading)[0]
        entry = entries.setdefault(key, IndexEntry(heading))
        if ref not in entry.refs:
            entry.refs.append(ref)

    for g in games:
        for t in g.glossary:
            add(t.term, IndexRef(g.title, "glossary", t.anchor))
        for r in g.all_rules:  # a section's number is printed "4." in the rules: "4" here
            add(r.title, IndexRef(g.title, r.number.rstrip("."), r.anchor))
    order = {g.title: i for i, g in enumerate(games)}
    groups: dict[str, list[IndexEntry]] = {}
    for entry in sorted(entries.values(), key=lambda e: sort_key(e.heading)):
        entry.refs.sort(key=lambda r: (order.get(r.game, len(order)), r.what == "glossary"))
        groups.setdefault(_letter(entry.heading), []).append(entry)
    return [IndexGroup(letter, groups[letter]) for letter in sorted(groups, key=lambda k: (k == "#", k))]
