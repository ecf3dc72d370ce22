"""Markdown to HTML for every renderer, with warbook's two additions:

* ``[[rule-id]]`` becomes a cross-reference showing the rule's number and title (the PDF adds
  the page through CSS ``target-counter``);
* raw HTML is never passed through: the loader refuses it with a ``path:line`` error, and
  this renderer escapes whatever might remain, so content can never inject markup.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from typing import Callable

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markupsafe import Markup, escape

XREF = r"\[\[([a-z0-9][a-z0-9-]*)\]\]"


class _XrefProcessor(InlineProcessor):
    def __init__(self, pattern: str, resolve: Callable[[str], tuple[str, str] | None]):
        super().__init__(pattern)
        self.resolve = resolve

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
        return el, m.start(0), m.end(0)


class _Warbook(Extension):
    def __init__(self, resolve, **kw):
        self.resolve = resolve
        super().__init__(**kw)

    def extendMarkdown(self, md):  # noqa: N802 - markdown's API
        # content is data: no raw HTML blocks or inline tags survive
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.inlinePatterns.register(_XrefProcessor(XREF, self.resolve), "warbook_xref", 175)


class Markdown:
    """A renderer bound to one way of resolving cross-references.

    ``resolve(rule_id)`` returns ``(href, label)`` or ``None``.
    """

    def __init__(self, resolve: Callable[[str], tuple[str, str] | None]):
        self._md = markdown.Markdown(extensions=[_Warbook(resolve), "sane_lists", "smarty"],
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
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.split())


__all__ = ["Markdown", "Markup", "escape", "plain"]
