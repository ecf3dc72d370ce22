"""What every pygal chart warbook writes goes through (the books' "By the numbers" and
``warbook sweep --chart``): pygal puts a configuration script and comments into each chart
for its interactive tooltips, and a random id; :func:`clean` takes them out and sets a fixed
id, so that no script reaches a PDF, the site or a designer's file, and a chart is the same
bytes every time."""

from __future__ import annotations

import re

_ID = re.compile(r"chart-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def clean(svg: str, chart_id: str) -> str:
    """``svg`` without scripts or comments, its random id ``chart_id``; a chart that still
    holds a script is a ValueError (checked, not assumed)."""
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = _ID.sub(chart_id, svg)
    svg = _UUID.sub(chart_id, svg)
    if "<script" in svg or "javascript:" in svg:
        raise ValueError("a chart still holds a script")
    return svg
