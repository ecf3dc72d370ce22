"""The books speak to players (issue 27, item 5): no word of the tool that made them (its
name, its engine, seeds, simulations, bots, "the project") and no option key
(``max_turns``) in any rulebook or the compendium, read from the PDFs the whole build
wrote; and narration reads numbers naturally ("has no cards left", never "has only 0
cards")."""

from __future__ import annotations

import re
import subprocess

import pytest

from builder.engine import battle, deck_management

#: the tool's words, and an option key (lower-case words joined by underscores)
TOOL_WORDS = re.compile(r"\b(?:warbook|engines?|seeds?|seeded|simulations?|bots?|"
                        r"project(?:'s|’s)?|heuristic|[a-z]+_[a-z_]+)\b", re.I)
ZERO = re.compile(r"\bonly 0\b")


@pytest.mark.slow
@pytest.mark.build
def test_no_tool_word_or_option_key_in_any_book(built):
    found = []
    pdfs = sorted((built / "pdf").glob("*-rules.pdf")) + [built / "pdf" / "compendium.pdf"]
    assert len(pdfs) >= 8
    for pdf in pdfs:
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        text = re.sub(r"-\n", "", text)      # a word hyphenated at a line's end, whole again
        for rx in (TOOL_WORDS, ZERO):
            for m in rx.finditer(text):
                line = text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.end())]
                found.append(f"{pdf.name}: {m.group(0)!r} in {line.strip()!r}")
    assert not found, "\n".join(found[:40])


def test_a_player_short_of_cards_has_none_or_only_some():
    """The two engines that say how many cards a short player has: none is "no cards"."""
    for mod in (battle, deck_management):
        assert mod._only(0) == "no cards"
        assert mod._only(1) == "only 1 card"
        assert mod._only(3, "face-down card") == "only 3 face-down cards"


def test_no_cover_line_holds_one_word_alone():
    """The covers' texts keep their last two words together (issue 27, item 6), in plain
    text (escaped) and in the summary's paragraphs, tags kept; with a span the stylesheet
    keeps from wrapping, never a no-break space (a font's space glyph would then read back
    from the PDF as one)."""
    from markupsafe import Markup

    from builder.render.markup import no_lone_word

    keep = '<span class="keep">'
    assert no_lone_word("Winning the Battle, Losing the War") == \
        f"Winning the Battle, Losing {keep}the War</span>"
    assert no_lone_word("Cats & Dogs") == f"Cats {keep}&amp; Dogs</span>"
    assert no_lone_word("War") == "War"
    assert no_lone_word("<b>") == "&lt;b&gt;"
    out = no_lone_word(Markup("<p>Keep the battlefield.</p>\n<p>Two <em>or</em> more.</p>"))
    assert isinstance(out, Markup)
    assert str(out) == f"<p>Keep {keep}the battlefield.</span></p>\n<p>Two <em>or</em> more.</p>"
    assert "\u00a0" not in str(out)
