"""Which links content may hold: one rule, used where content is loaded (a located error)
and where it is rendered (a link that got that far is dropped)."""

from __future__ import annotations

import html
import re

#: the only schemes a link in content may use; anything else (javascript:, data:, file:,
#: vbscript:, ...) is refused by the loader and dropped here if it ever got this far
LINK_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")


def safe_href(href: str) -> bool:
    """A link target content may use: http, https or mailto, or a link within the site (a
    fragment or a relative path). Entities and the blanks and control characters browsers
    ignore inside a scheme are taken out first (``java&#x09;script:`` is javascript:)."""
    value = re.sub(r"[\x00-\x20\x7f]", "", html.unescape(href)).lower()
    if value.startswith("//") or value.startswith("\\"):
        return False  # another host, without saying so
    m = _SCHEME.match(value)
    return m is None or m.group(1) in LINK_SCHEMES
