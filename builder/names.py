"""Whether a name or title can be seen: no name made only of invisible characters.

A glossary term written as a zero-width space, a player called U+FEFF, or a rule title of
bidi controls prints as nothing (or as something else), so it vanishes from the book
while the check passes. Names and titles are short single lines, so the rule is strict:

- a name must hold at least one visible character (a letter, digit, mark on a letter,
  punctuation or symbol; not a space, a format or control character, nor one of the
  blank "letters" such as U+3164 HANGUL FILLER);
- format characters (Unicode category Cf: zero-width space U+200B, U+FEFF, word joiner
  U+2060, soft hyphen U+00AD, the bidi embeddings, overrides and isolates, ...) are refused
  anywhere in a name, since inside a visible name they make two names that look the same
  differ (or reorder what is shown), except the zero-width joiner and non-joiner (U+200D,
  U+200C) between two visible characters, which some scripts and emoji need;
- control characters (Cc) other than tab and line breaks are refused (YAML's ``"\\x01"``
  escapes can write them where the file itself holds none).
"""

from __future__ import annotations

import unicodedata

#: letters and symbols that draw nothing (Unicode calls them letters or symbols)
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
#: format characters a visible name may hold between two visible characters
JOINERS = frozenset("\u200c\u200d")


def visible(ch: str) -> bool:
    """Whether one character draws something on its own."""
    if ch in BLANK_LETTERS:
        return False
    return unicodedata.category(ch)[0] in "LNPS"


def name_problem(text: str) -> str:
    """Why ``text`` is not a name that can be seen ('' if it is one)."""
    shown = [ch for ch in text]
    for i, ch in enumerate(shown):
        cat = unicodedata.category(ch)
        if cat == "Cc" and ch not in "\t\n\r":
            return f"holds a control character (U+{ord(ch):04X}); delete it"
        if cat == "Cf":
            between = (0 < i < len(shown) - 1 and visible(shown[i - 1])
                       and visible(shown[i + 1]))
            if ch in JOINERS and between:
                continue
            return (f"holds an invisible character (U+{ord(ch):04X} "
                    f"{unicodedata.name(ch, 'format character')}); delete it")
        if cat in ("Cs", "Co"):
            return f"holds a character that has no meaning here (U+{ord(ch):04X}); delete it"
    if not any(visible(ch) for ch in shown):
        return "has no visible character (only spaces or invisible characters)"
    return ""
