"""Stage 1, the safety of an SVG the content gives (``book.logo``): what goes on the
website and into a PDF may draw, and nothing else.
"""

from __future__ import annotations


def unsafe_svg(data: bytes) -> str:
    """Why an SVG is not safe to put on the website and into a PDF ('' if it is): it must
    parse, and hold no script, no foreign object, no event handler attribute and no link
    other than to a fragment of itself."""
    import xml.etree.ElementTree as ET

    if b"<!ENTITY" in data or b"<!DOCTYPE" in data:
        return "declares a DOCTYPE or entities"
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return f"is not well-formed SVG ({e})"
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if tag in ("script", "foreignobject", "iframe", "object", "embed"):
            return f"holds a <{tag}> element"
        for name, value in el.attrib.items():
            attr = name.rsplit("}", 1)[-1].lower()
            if attr.startswith("on"):
                return f"has an event handler ({attr})"
            if attr == "href" and not value.strip().startswith("#"):
                return f"links to '{value[:40]}'"
            if "url(" in value.replace(" ", "").lower() and "url(#" not in value.replace(" ", "").lower():
                return f"refers to an outside resource in '{attr}'"
    return ""
