"""What the books' tag trees need beyond WeasyPrint's (PDF/UA-1, issue 27 item 8).

WeasyPrint 70 tags a table's header cells as ``/TH`` and links each data cell to its
headers (``/Headers``), but writes no ``/Scope`` on the headers, which PDF/UA checkers ask
for. :func:`scope_table_headers` adds it as HTML's "auto" scope reads a table: a header
in a row that also holds data cells heads that row, a header in a row of headers heads its
column.
"""

from __future__ import annotations

from pikepdf import Array, Dictionary, Name, Pdf


def _kids(elem) -> list:
    k = elem.get("/K")
    if k is None:
        return []
    return list(k) if isinstance(k, Array) else [k]


def _is(elem, tag: str) -> bool:
    return isinstance(elem, Dictionary) and elem.get("/S") == Name(tag)


def scope_table_headers(pdf: Pdf) -> int:
    """Give every ``/TH`` of ``pdf``'s tag tree a ``/Scope`` (``/Row`` or ``/Column``);
    returns how many it gave one. A header that already has a scope keeps it."""
    root = pdf.Root.get("/StructTreeRoot")
    if root is None:
        return 0
    done = 0
    seen: set = set()
    stack = _kids(root)
    while stack:
        elem = stack.pop()
        if not isinstance(elem, Dictionary):
            continue
        key = elem.objgen if elem.is_indirect else id(elem)
        if key in seen:
            continue
        seen.add(key)
        kids = _kids(elem)
        if _is(elem, "/TR"):
            cells = [k for k in kids if _is(k, "/TH") or _is(k, "/TD")]
            scope = Name.Row if any(_is(c, "/TD") for c in cells) else Name.Column
            for cell in cells:
                if not _is(cell, "/TH"):
                    continue
                attrs = cell.get("/A")
                if attrs is None:
                    cell.A = Dictionary(O=Name.Table, Scope=scope)
                    done += 1
                    continue
                table = next((a for a in (attrs if isinstance(attrs, Array) else [attrs])
                              if isinstance(a, Dictionary) and a.get("/O") == Name.Table),
                             None)
                if table is None:
                    cell.A = Array(([*attrs] if isinstance(attrs, Array) else [attrs])
                                   + [Dictionary(O=Name.Table, Scope=scope)])
                    done += 1
                elif "/Scope" not in table:
                    table.Scope = scope
                    done += 1
        stack.extend(kids)
    return done
