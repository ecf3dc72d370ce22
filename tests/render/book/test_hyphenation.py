"""The project's hyphenation exceptions (builder/render/book/hyphenation.py, issue 27 item 6):
a listed word breaks only where the list says, in the books' own layout."""

from __future__ import annotations

import pyphen
from weasyprint import HTML

from builder.render.book import hyphenation
from builder.render.book.hyphenation import EXCEPTIONS, install, pattern


def test_a_pattern_marks_the_breaks_odd_and_every_other_place_even():
    # worked by hand: p|o|s|i|t|i|o|n, breaks after "po" and "posi"
    assert pattern("po-si-tion") == ".p8o9s8i9t8i8o8n."
    assert pattern("reinforce") == ".r8e8i8n8f8o8r8c8e."


def test_installed_the_listed_words_break_only_where_listed():
    install()
    install()   # twice is once
    d = pyphen.Pyphen(lang=hyphenation.LANG, left=3, right=3)
    assert d.inserted("positions") == "posi-tions"          # en_GB alone: pos-i-tions
    assert d.inserted("reinforce") == "reinforce"            # en_GB alone: rein-force
    assert d.inserted("reinforcement") == "reinforce-ment"
    assert d.inserted("opponent") == "oppo-nent"             # en_GB alone: oppon-ent
    assert d.inserted("Positions") == "Posi-tions"
    # a word not listed keeps the patterns' breaks
    assert d.inserted("battlefield") == "bat-tle-field"
    for word in EXCEPTIONS:     # every entry, at the limits the books use
        plain = word.replace("-", "")
        allowed = {i for i in range(3, len(plain) - 2) if plain[:i] in _prefixes(word)}
        assert set(d.positions(plain)) == allowed, word


def _prefixes(word: str) -> set[str]:
    parts = word.split("-")
    return {"".join(parts[:k]) for k in range(1, len(parts))}


def _line_ends(html: str) -> list[str]:
    """The last word of each laid-out line."""
    doc = HTML(string=html).render()
    ends = []

    def walk(box):
        if type(box).__name__ == "LineBox":
            text = "".join(t.text for t in _texts(box))
            if text.strip():
                ends.append(text.split()[-1])
            return
        for child in getattr(box, "children", []):
            walk(child)

    walk(doc.pages[0]._page_box)
    return ends


def _texts(box):
    if type(box).__name__ == "TextBox":
        yield box
    for child in getattr(box, "children", []):
        yield from _texts(child)


def test_a_justified_column_breaks_the_listed_words_where_listed():
    install()
    words = " ".join(["the positions of an opponent reinforce it"] * 12)
    broken = []
    for width in (20, 24, 27, 31, 35):   # columns that break the words in different places
        ends = _line_ends(f'<html lang="en"><body style="width: {width}mm; font-size: 10pt">'
                          f'<p style="hyphens: auto; text-align: justify; '
                          f'hyphenate-character: \'-\'; hyphenate-limit-chars: 6 3 3">'
                          f'{words}</p>')
        broken += [e for e in ends if e.endswith("-")]
    # without the exceptions these columns end lines in "rein-" and "oppon-" too
    assert "posi-" in broken and "oppo-" in broken, broken
    assert set(broken) <= {"posi-", "oppo-"}, broken
