"""Stage 1, the checks of content prose (Markdown in rules.md and in YAML text values):
no raw HTML, no pictures, links only to safe addresses, cross-references ``[[id]]`` to
rules that exist, and paragraphs small enough for the Markdown renderer. Every place is
found in the file itself, also inside a YAML block text (``where.span``).

:class:`ProseReader` is the base of the readers whose files hold prose.
"""

from __future__ import annotations

import re

from ..diagnostics import Located
from ..links import LINK_SCHEMES, safe_href
from .base import Reader

# Every pattern below runs in time linear in the line (no two unbounded parts that can
# trade characters): bench/textpasses.py feeds each a 1 MB pathological line.
XREF_RE = re.compile(r"\[\[([^\[\]]*)\]\]")
# Raw HTML in Markdown: an opening, closing or self-closing tag, a comment or a
# processing instruction. Content is data: it may not carry markup of its own.
HTML_RE = re.compile(r"(?<!\\)<(?:/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?|!--|\?|!\[CDATA\[|![A-Za-z])[^<>]*>?")
CODE_SPAN_RE = re.compile(r"`[^`]*`")
#: a Markdown link's target: inline ``[text](target)`` or a reference ``[id]: target``
LINK_RE = re.compile(r"\]\(\s*<?([^)>\s]*)|^\s{0,3}\[[^\]]+\]:\s*<?([^>\s]+)")
IMAGE_RE = re.compile(r"!\[[^\[\]]*\][ \t]*[(\[]")

# What the Markdown renderer (Python-Markdown) is given is bounded here, because some of
# its passes take time growing with the square of a paragraph's '[' or length, and it
# recurses once per nested list or quote marker: a paragraph (text between blank lines)
# holds at most MAX_PARAGRAPH characters and MAX_BRACKETS '[', and a line opens at most
# MAX_MARKERS nested list or quote markers. The shipped content stays far below (its
# longest paragraph is 548 characters, its most '[' in one paragraph 8).
MAX_PARAGRAPH = 4_000
MAX_BRACKETS = 100
MAX_MARKERS = 8
MARKER_RE = re.compile(r"[ \t]*(?:[-*+>]|[0-9]{1,9}[.)])(?=[ \t]|$)")


def text_start(text: str, where: Located) -> int:
    """The line a YAML text value starts on: a block scalar (``|`` or ``>``, which ends in a
    newline) starts on the line after its key; a plain or quoted one on the key's line. A
    rule's text in rules.md (stripped of its newlines) starts on ``where``'s line."""
    return where.line + (1 if text.endswith("\n") else 0)


class ProseReader(Reader):
    """A reader whose files hold Markdown: the prose checks, at file positions."""

    @staticmethod
    def place(where: Located, col: int) -> Located:
        """The position of column ``col`` (1-based) of a line whose start is ``where``; when
        ``where`` carries a YAML text value's span (``where.span``, with ``where.col`` the
        line's offset in the value), the file's own line and column of that character."""
        span = getattr(where, "span", None)
        if span is not None:
            value, offset = span
            found = value[0].locate(value[1], offset + col - 1)
            if found is not None:
                return Located(where.path, *found)
            return Located(where.path, where.line)
        return Located(where.path, where.line, col)

    def check_links(self, line: str, where: Located) -> None:
        """Refuse pictures, and links anywhere but http, https, mailto or within the site,
        on one line of Markdown (code spans already blanked out)."""
        pictures = []
        for m in IMAGE_RE.finditer(line):
            pictures.append(m.end())
            self.diags.error(self.place(where, m.start() + 1),
                             "pictures are not allowed in content text (a picture's address "
                             "would be fetched by the build and by readers' browsers)")
        for m in LINK_RE.finditer(line):
            if m.end(0) in pictures or any(m.start() < end <= m.end() for end in pictures):
                continue  # the picture's own address: already refused above
            group = 1 if m.group(1) is not None else 2
            target = m.group(group)
            if not safe_href(target):
                self.diags.error(self.place(where, m.start(group) + 1),
                                 f"a link to '{target[:40]}' is not allowed: links may go to "
                                 f"{', '.join(LINK_SCHEMES)} addresses or within the site")

    def check_markdown(self, text: str, where: Located) -> None:
        """Refuse raw HTML. ``where`` is the position of the YAML value, or of the first
        line of a text in rules.md."""
        start = text_start(text, where)
        if not self.within_budget(text, where, start):
            return
        for i, offset, line in self.text_lines(text):
            scrubbed = CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), line)
            here = self.line_at(where, start + i, text, offset)
            self.check_links(scrubbed, here)
            m = HTML_RE.search(scrubbed)
            if m:
                self.diags.error(
                    self.place(here, m.start() + 1),
                    f"raw HTML is not allowed in content ('{m.group()[:30]}'); "
                    f"write Markdown, or escape the '<' as '\\<'",
                )

    def within_budget(self, text: str, where: Located, start: int) -> bool:
        """Whether a Markdown text is small enough for the renderer (see MAX_PARAGRAPH);
        False after a located error at the first paragraph or line over a bound."""
        para_start, length, brackets = 0, 0, 0
        lines = list(self.text_lines(text))
        for i, offset, line in lines + [(len(lines), len(text) + 1, "")]:
            if line.strip():
                if not length:
                    para_start, para_offset = i, offset
                length += len(line) + 1
                brackets += line.count("[")
                markers, pos = 0, 0
                while markers <= MAX_MARKERS and (m := MARKER_RE.match(line, pos)):
                    markers, pos = markers + 1, m.end()
                if markers > MAX_MARKERS:
                    self.diags.error(self.place(self.line_at(where, start + i, text, offset), 1),
                                     f"more than {MAX_MARKERS} list or quote markers open on one "
                                     f"line; nest lists at most {MAX_MARKERS} deep")
                    return False
                continue
            if length > MAX_PARAGRAPH or brackets > MAX_BRACKETS:
                what = (f"{length - 1:,} characters long (at most {MAX_PARAGRAPH:,})"
                        if length > MAX_PARAGRAPH else
                        f"{brackets:,} '[' (at most {MAX_BRACKETS})")
                self.diags.error(self.place(self.line_at(where, start + para_start, text,
                                                         para_offset), 1),
                                 f"this paragraph is too large for the rulebook's Markdown: "
                                 f"{what}; split it with blank lines")
                return False
            length, brackets = 0, 0
        return True

    @staticmethod
    def text_lines(text: str):
        """(index, offset in ``text``, line) of each line of a text."""
        offset = 0
        for i, line in enumerate(text.split("\n")):
            yield i, offset, line
            offset += len(line) + 1

    @staticmethod
    def line_at(where: Located, line: int, text: str, offset: int) -> Located:
        """Where a line of a text starts: in rules.md its line; in a YAML text value (whose
        ``where`` carries a span) the span, the value and the line's offset in it."""
        span = getattr(where, "span", None)
        if span is None:
            return Located(where.path, line)
        return Located(where.path, line, span=((span, text), offset))

    def check_xrefs(self, text: str, where: Located, index: set[str] | dict) -> None:
        start = text_start(text, where)
        for i, offset, line in self.text_lines(text):
            for m in XREF_RE.finditer(line):
                if m.group(1) not in index:
                    self.diags.error(self.place(self.line_at(where, start + i, text, offset),
                                                m.start() + 1),
                                     f"unknown rule id '{m.group(1)}' in cross-reference")

