"""Markdown to HTML for every renderer, with warbook's two additions:

* ``[[rule-id]]`` becomes a cross-reference showing the rule's number and title (for print,
  with a placeholder for the target's page, filled in after layout by ``pagerefs``);
* raw HTML is never passed through: the loader refuses it with a ``path:line`` error, and
  this renderer escapes whatever might remain, so content can never inject markup;
* links go only to http, https and mailto addresses or within the site, and content has
  no pictures: the loader refuses others at their line, and this renderer drops them;
* typography: curly quotes (Markdown's ``smarty``), en dashes in number ranges ("2–4"),
  "an 8", and card codes printed as cards are named at the table, K♠ with the suit in its
  colour (``card_sign``). The same typographer sets the texts that do not go through
  Markdown (``prose`` for engine narration and state lines, ``smart`` for titles), so a
  book, a sheet and the site print the same words.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from typing import Callable

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup, escape

from ..engine.core import RANK_NAMES
from ..links import LINK_SCHEMES, safe_href

XREF = r"\[\[([a-z0-9][a-z0-9-]*)\]\]"
#: what a printed cross-reference adds after the title: ", p. " and the page
PAGE_REF_LEAD = ", p.\u00a0"
PAGE_REF_PLACEHOLDER = "00"


class _XrefProcessor(InlineProcessor):
    def __init__(self, pattern: str, resolve: Callable[[str], tuple[str, str] | None],
                 page_refs: bool = False):
        super().__init__(pattern)
        self.resolve = resolve
        self.page_refs = page_refs

    def handleMatch(self, m, data):  # noqa: N802 - markdown's API
        target = self.resolve(m.group(1))
        if target is None:
            el = etree.Element("span")
            el.set("class", "xref-missing")
            el.text = m.group(1)
            return el, m.start(0), m.end(0)
        href, label = target
        el = etree.Element("a")
        el.set("class", "xref")
        el.set("href", href)
        el.text = label
        if self.page_refs and href.startswith("#"):
            page = etree.SubElement(el, "span")
            page.set("class", "xref-page")
            page.text = PAGE_REF_LEAD
            number = etree.SubElement(page, "span")
            number.set("class", "pg")
            number.set("data-ref", href[1:])
            number.text = PAGE_REF_PLACEHOLDER
        return el, m.start(0), m.end(0)


class _SafeLinks(Treeprocessor):
    """The last word on links and pictures in rendered content: a link whose target is not
    safe loses it (its words stay, as plain text), and a picture is replaced by its
    alternative text. Content has no pictures of its own; a picture's address would be
    fetched by a reader's browser or by the PDF build."""

    def run(self, root):
        for parent in list(root.iter()):
            for i, el in enumerate(list(parent)):
                if el.tag == "a" and not safe_href(el.get("href", "")):
                    el.tag = "span"
                    el.attrib.pop("href", None)
                    el.attrib.pop("title", None)
                elif el.tag == "img":
                    span = etree.Element("span")
                    span.text = el.get("alt", "")
                    span.tail = el.tail
                    parent.remove(el)
                    parent.insert(i, span)
        return None


#: a card code in running text: rank (A 2-10 J Q K) then suit (C D H S), a word of its own
CARD_CODE = re.compile(r"(?<![\w\-/.])(10|[2-9AJQK])([CDHS])(?![\w\-/])")
SUIT_SIGNS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: hearts and diamonds in their colour wherever the text is shown (set on the sign itself,
#: so the site and the sheets need no stylesheet of their own for it); black suits take
#: the text's colour, which also reads on a dark page
RED_SUIT = "#c0392b"
#: a hyphen between two numbers is a range: an en dash ("2-4 players" -> "2–4 players")
_RANGE = re.compile(r"(?<=\d)-(?=\d)")
#: "a" before a word said with a vowel sound: "a 8" -> "an 8", "a 11" -> "an 11", "a AS" ->
#: "an A♠" (an ace), "a 8H" -> "an 8♥"
_AN = re.compile(r"\b([Aa]) (?=(?:8\d*|11|18)(?:[CDHS])?\b|A[CDHS]\b)")


def _name(rank: str, suit: str) -> str:
    return f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"


def _words(text: str) -> str:
    """The typographer's word-level fixes, on plain text."""
    text = _RANGE.sub("\u2013", text)
    return _AN.sub(lambda m: m.group(1) + "n ", text)


def _quotes(text: str) -> str:
    """Straight quotes to curly ones (the rules Markdown's smarty follows)."""
    text = re.sub(r"(?<=\w)'(?=\w)", "\u2019", text)  # North's, don't
    text = re.sub(r"(^|[\s(\[{\u2014\u2013-])'", "\\1\u2018", text)  # opening
    text = text.replace("'", "\u2019")
    text = re.sub(r'(^|[\s(\[{\u2014\u2013-])"', "\\1\u201c", text)
    return text.replace('"', "\u201d")


def no_lone_word(text: str) -> Markup:
    """``text`` with each paragraph's last two words kept on one line (a ``<span
    class="keep">``, which the stylesheet does not let wrap), so that no line of it holds
    one word alone (the covers' title, tagline, credit and summary). Plain text is escaped;
    markup keeps its tags, the last two words before each closing ``</p>`` kept together
    where no tag stands between them. Not a no-break space: a font's space glyph would then
    read back from the PDF as one, in every heading set in that font."""
    if isinstance(text, Markup):
        return Markup(re.sub(r"([^\s<>]+) ([^\s<>]+)(\s*</p>)",
                             r'<span class="keep">\1 \2</span>\3', str(text)))
    words = text.rstrip().rsplit(" ", 2)
    if len(words) < 2:
        return escape(text)
    head = escape(words[0]) + Markup(" ") if len(words) == 3 else Markup("")
    return head + Markup('<span class="keep">') + escape(" ".join(words[-2:])) + \
        Markup("</span>")


def smart(text: str) -> str:
    """Plain text typeset: curly quotes, en dashes in ranges, "an 8". For titles and
    labels, which stay plain text (bookmarks, running heads, alternative text)."""
    return _words(_quotes(text or ""))


def card_sign(rank: str, suit: str, unseen: str = "") -> Markup:
    """A card as a player names it: rank and suit sign, the suit in its colour.

    ``unseen``: who may see the card, when the table has not ("seen by Blue only"): the
    sign is then set apart (class ``card-unseen``: the book and the site set it in
    italic, grey, with a dotted underline), its title says so, and so does a note that
    only a screen reader reads (``unseen-note``: hidden on the page, left out of print)."""
    colour = "red" if suit in "DH" else "black"
    style = f' style="color: {RED_SUIT}"' if suit in "DH" else ""
    if not unseen:
        return Markup('<span class="card-sign suit-{}" title="{}">{}<span class="suit"{}>{}</span></span>').format(
            colour, _name(rank, suit), rank, Markup(style), SUIT_SIGNS[suit])
    said = f"not seen by the table: {unseen}"
    return Markup('<span class="card-sign card-unseen suit-{}" title="{}, {}">{}<span class="suit"{}>{}</span>'
                  '<span class="unseen-note"> ({})</span></span>').format(
        colour, _name(rank, suit), said, rank, Markup(style), SUIT_SIGNS[suit], said)


def cards_in(text: str, unseen: "dict[str, str] | None" = None) -> Markup:
    """Escaped text whose card codes are printed as cards (``card_sign``); a card of
    ``unseen`` (code -> who may see it) set apart as one the table has not seen."""
    out, last = [], 0
    unseen = unseen or {}
    for m in CARD_CODE.finditer(text):
        out.append(escape(text[last:m.start()]))
        out.append(card_sign(m.group(1), m.group(2), unseen.get(m.group(0), "")))
        last = m.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def prose(text: str, unseen: "dict[str, str] | None" = None) -> Markup:
    """A plain text for print and screen (engine narration, state lines, chance outcomes):
    typeset (``smart``), escaped, its card codes printed as cards; those of ``unseen``
    (code -> "seen by Blue only"), which the table has not seen, set apart."""
    return cards_in(smart(text), unseen)


def signs_plain(text: str) -> str:
    """Card codes as rank and suit sign, in plain text (search, alternative text)."""
    return CARD_CODE.sub(lambda m: m.group(1) + SUIT_SIGNS[m.group(2)], text)


class _Typographer(Treeprocessor):
    """After the inline patterns: en dashes, "an 8" and card codes in every text of the
    rendered tree (code spans included: a code in the content is still a card)."""

    def run(self, root):
        for el in list(root.iter()):
            if el.text:
                el.text = _words(el.text)
                self._cards(el, None)
            for child in list(el):
                if child.tail:
                    child.tail = _words(child.tail)
                    self._cards(el, child)
        return None

    @staticmethod
    def _cards(parent, after) -> None:
        """Split the text (``after`` None) or a child's tail at card codes into spans."""
        text = parent.text if after is None else after.tail
        matches = list(CARD_CODE.finditer(text))
        if not matches:
            return
        head = text[:matches[0].start()]
        if after is None:
            parent.text = head
            index = 0
        else:
            after.tail = head
            index = list(parent).index(after) + 1
        for i, m in enumerate(matches):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
            span = etree.Element("span")
            span.set("class", f"card-sign suit-{'red' if m.group(2) in 'DH' else 'black'}")
            span.set("title", _name(m.group(1), m.group(2)))
            span.text = m.group(1)
            suit = etree.SubElement(span, "span")
            suit.set("class", "suit")
            if m.group(2) in "DH":
                suit.set("style", f"color: {RED_SUIT}")
            suit.text = SUIT_SIGNS[m.group(2)]
            span.tail = text[m.end():end]
            parent.insert(index + i, span)


class _Warbook(Extension):
    def __init__(self, resolve, page_refs: bool = False, **kw):
        self.resolve = resolve
        self.page_refs = page_refs
        super().__init__(**kw)

    def extendMarkdown(self, md):  # noqa: N802 - markdown's API
        # content is data: no raw HTML blocks or inline tags survive
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.inlinePatterns.register(_XrefProcessor(XREF, self.resolve, self.page_refs), "warbook_xref", 175)
        md.treeprocessors.register(_SafeLinks(md), "warbook_safe_links", 0)
        md.treeprocessors.register(_Typographer(md), "warbook_typographer", 1)


class Markdown:
    """A renderer bound to one way of resolving cross-references.

    ``resolve(rule_id)`` returns ``(href, label)`` or ``None``. With ``page_refs`` a
    cross-reference carries a placeholder for its target's page (print only).
    """

    def __init__(self, resolve: Callable[[str], tuple[str, str] | None], page_refs: bool = False):
        self._md = markdown.Markdown(extensions=[_Warbook(resolve, page_refs), "sane_lists", "smarty"],
                                     output_format="html")

    def block(self, text: str) -> Markup:
        if not text or not text.strip():
            return Markup("")
        self._md.reset()
        return Markup(self._md.convert(_escape_angles(text)))

    def inline(self, text: str) -> Markup:
        html = str(self.block(text))
        m = re.fullmatch(r"\s*<p>(.*)</p>\s*", html, re.S)
        return Markup(m.group(1) if m and "<p>" not in m.group(1) else html)


def page_ref(href: str) -> Markup:
    """The page part of a printed cross-reference, as the Markdown renderer writes it."""
    return Markup('<span class="xref-page">{}<span class="pg" data-ref="{}">{}</span></span>').format(
        PAGE_REF_LEAD, href.lstrip("#"), PAGE_REF_PLACEHOLDER)


def _escape_angles(text: str) -> str:
    # Every '<' is text, never the start of a tag (escaped before Markdown sees it).
    return text.replace("\\<", "&lt;").replace("<", "&lt;")


def plain(text: str, resolve: Callable[[str], tuple[str, str] | None] | None = None) -> str:
    """Markdown reduced to plain text (for PDF metadata, search indexes, alt text).
    A cross-reference becomes the rule's number and title when ``resolve`` knows it."""

    def xref(m: re.Match) -> str:
        target = resolve(m.group(1)) if resolve else None
        return target[1] if target else m.group(1)

    text = re.sub(XREF, xref, text)
    text = re.sub(r"[*_`#>]", "", text)
    # no bracket inside the brackets: linear on a line of many '[' (issue 13)
    text = re.sub(r"\[([^\[\]]*)\]\([^()]*\)", r"\1", text)
    return " ".join(text.split())


__all__ = ["Markdown", "Markup", "escape", "page_ref", "plain", "safe_href", "LINK_SCHEMES",
           "smart", "prose", "cards_in", "card_sign", "signs_plain", "CARD_CODE"]
