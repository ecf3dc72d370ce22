"""Markdown to HTML for every renderer, with warbook's two additions:

* ``[[rule-id]]`` becomes a cross-reference showing the rule's number and title (for print,
  with a placeholder for the target's page, filled in after layout by ``pagerefs``);
* raw HTML is never passed through: the loader refuses it with a ``path:line`` error, and
  this renderer escapes whatever might remain, so content can never inject markup;
* links go only to http, https and mailto addresses or within the site, and content has
  no pictures: the loader refuses others at their line, and this renderer drops them.
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

    def run(self, root):  # noqa: D401 - markdown's API
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


__all__ = ["Markdown", "Markup", "escape", "page_ref", "plain", "safe_href", "LINK_SCHEMES"]
