"""The stated limits on what valid content may ask a build to do.

Content is untrusted: a valid content folder could otherwise ask for a 100,000-step example
(replayed, then drawn as 100,000 diagrams) or a glossary of a thousand pages. Each limit
below sits far above the shipped content (its largest figure is in the comment) and far
below what hurts (``bench/limits.py`` builds a game at every limit at once and reports the
time and memory). The readers (``builder/content/``) checks each before
anything replays or renders, with a located error that names the limit; the whole list is
documented in docs/content-format.md, "Limits".
"""

from __future__ import annotations

#: games in one content folder (shipped: 7)
MAX_GAMES = 20
#: example files of one game (shipped: at most 14)
MAX_EXAMPLES = 40
#: steps of one example, each repeat of a ``repeat:`` step counted (shipped: at most 14)
MAX_STEPS = 100
#: diagrams of one rulebook: each example's setup and each step as replayed (shipped: 58,
#: Deck Management's 14 examples and 44 steps)
MAX_DIAGRAMS = 400
#: diagrams of the whole compendium, all games together (shipped: 218)
MAX_DIAGRAMS_ALL = 1_500
#: numbered rules (headings) in one rules.md (shipped: at most 53)
MAX_RULES = 300
#: characters of one rules.md (shipped: at most 11,572)
MAX_RULES_CHARS = 200_000
#: terms in one glossary (shipped: at most 12)
MAX_TERMS = 300
#: entries in one game's list of changes to its rules (shipped: at most 1)
MAX_CHANGES = 200
#: characters of one change's text
MAX_CHANGE_CHARS = 1_000
#: characters of one glossary's terms and definitions (shipped: at most 1,327)
MAX_GLOSSARY_CHARS = 60_000
#: characters of one example's words: intro, outro and every step's comment (shipped: at
#: most about 2,500)
MAX_EXAMPLE_CHARS = 20_000
#: characters of one rulebook's prose: rules.md, the glossary, the examples' words, and
#: game.yaml's texts (shipped: at most about 20,000); with MAX_DIAGRAMS this bounds the
#: rulebook's pages
MAX_BOOK_CHARS = 300_000
#: cards in one example's setup, all its piles (or hands, or other lists) together
#: (shipped: 52, one deck)
MAX_SETUP_CARDS = 520
#: lines of game.yaml's quickref (shipped: at most 8)
MAX_QUICKREF = 40
#: components of a game's print-and-play kit (shipped: at most 3; the kit's contents sheet holds
#: six components with two-sided sheets on US Letter, nine on A4)
MAX_KIT = 6
#: cards of a kit's deck (shipped: 52)
MAX_DECK_CARDS = 520
#: variants (copies) of one kit component (shipped: at most 4)
MAX_COPIES = 24
#: bytes of a font file given in book.fonts (the shipped faces are at most 760 kB)
MAX_FONT_BYTES = 20 * 1024 * 1024


def over(what: str, count: int, limit: int, per: str) -> str:
    """The message for a limit passed: "example 'x' has 1,204 steps; at most 100 steps per
    example"."""
    return f"{what} has {count:,} {per.split()[0]}; at most {limit:,} {per}"
