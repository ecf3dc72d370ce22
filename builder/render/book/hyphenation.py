"""Where a word of the books may break at a line's end: the English patterns, and the
project's own exceptions (issue 27, item 6).

WeasyPrint hyphenates with pyphen's patterns for the page's language (``en``: the British
English patterns). They break a few of the books' commonest words where a reader stumbles
("pos-itions", "oppon-ent", "heur-istic") or where the first half reads as another word
("rein-force"), and they give "positions" two breaks, so one page reads "pos-itions" and the
next "posi-tions". :data:`EXCEPTIONS` says, for those words, the only places they may break;
:func:`install` adds them to the ``en`` patterns as whole-word patterns whose values outrank
any other pattern's (an odd 9 where the word may break, an even 8 everywhere else), so they
hold wherever the text is hyphenated automatically and nowhere else (a heading, a table
cell: ``hyphens: manual`` contexts stay unbroken). The limits still apply: with the books'
``hyphenate-limit-chars: 6 3 3`` a break leaves at least three letters on either side.
"""

from __future__ import annotations

import io
import re

import pyphen

#: each word as it may break ("-" between the parts; a word without one never breaks)
EXCEPTIONS = (
    "clar-i-fi-ca-tion", "clar-i-fi-ca-tions",
    "com-po-nent", "com-po-nents",
    "def-i-ni-tion", "def-i-ni-tions",
    "dis-card-ed",
    "fam-i-lies",
    "heu-ris-tic", "heu-ris-tics",
    "in-for-ma-tion",
    "op-po-nent", "op-po-nents",
    "po-si-tion", "po-si-tions", "po-si-tioned",
    "print-ed",
    "re-inforce", "re-inforced", "re-inforces", "re-inforc-ing", "re-inforce-ment",
    "re-inforce-ments",
    "re-mem-ber", "re-mem-bers",
    "si-mul-ta-ne-ous", "si-mul-ta-ne-ous-ly",
    "tra-di-tion-al",
)

LANG = "en"


def pattern(word: str) -> str:
    """The whole-word pattern that lets ``word`` ("po-si-tion") break at its hyphens only:
    ``.p8o9s8i9t8i8o8n.``"""
    letters = word.replace("-", "")
    if not re.fullmatch(r"[a-z]+(?:-[a-z]+)*", word):
        raise ValueError(f"a hyphenation exception is lower-case letters and hyphens: {word!r}")
    breaks, at = set(), 0
    for part in word.split("-")[:-1]:
        at += len(part)
        breaks.add(at)
    out = ["."]
    for i, letter in enumerate(letters):
        out.append(letter)
        if i + 1 < len(letters):
            out.append("9" if i + 1 in breaks else "8")
    return "".join(out) + "."


class _Patterns:
    """A hyphenation dictionary held in memory, read by :class:`pyphen.HyphDict` as it
    reads a file (``open`` and ``read_text``)."""

    def __init__(self, text: str):
        self.text = text

    def open(self, mode: str = "rb"):
        return io.BytesIO(self.text.encode("utf-8"))

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other) -> bool:
        return isinstance(other, _Patterns) and other.text == self.text


def install() -> None:
    """Make the ``en`` patterns pyphen (and so WeasyPrint) uses the English ones plus
    :data:`EXCEPTIONS`. Done once per process, before the books are laid out."""
    key = pyphen.language_fallback(LANG)
    source = pyphen.LANGUAGES[key]
    if isinstance(source, _Patterns):
        return
    with source.open("rb") as fd:
        encoding = fd.readline().decode().strip()
    lines = source.read_text(encoding).split("\n")
    text = "\n".join(["UTF-8"] + lines[1:] + [pattern(w) for w in EXCEPTIONS]) + "\n"
    pyphen.LANGUAGES[key] = _Patterns(text)
