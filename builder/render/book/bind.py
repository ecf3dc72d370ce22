"""Bind the compendium: the front matter's PDF, then each rulebook's PDF as a part.

The rulebooks are already laid out and written; laying them out again for the compendium
would double the cost of the build. Binding copies their pages (with qpdf, through
pikepdf) and merges what makes the whole a single, navigable and tagged book:

- the tag trees: one Document whose children are the front matter and the parts, with
  the structure parent numbers of each part's pages and annotations renumbered;
- the named destinations, so every cross-reference inside a part still lands (anchors carry
  the game's slug, so no two parts share a name);
- the links of the front matter's contents and of the index (bound as the last part),
  written as ``warbook-dest:<anchor>`` URIs because the anchors live in the parts; they
  become links to the named destinations;
- the bookmarks: the front matter's, then one closed entry per part holding the part's own;
- the page labels: i, ii ... for the front matter, then "War 1", "War 2" ... per part;
- the fonts: each face's subsets (one per part) become one subset holding all their glyphs
  (:mod:`.fontshare`), so a face is embedded once.

Every part starts on a right-hand page, as in a printed book: a part (or the front matter)
with an odd number of pages is followed by a blank page.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, OutlineItem, Pdf, String

from ..fonts import embeddable_files
from .fontshare import share_fonts
from .tagging import scope_table_headers

#: URI scheme of a link to an anchor in another part of the bound book
DEST_SCHEME = "warbook-dest:"
#: the title of the index, bound as the last part (its pages labelled "Index 1" ...)
INDEX_TITLE = "Index"


@dataclass
class Part:
    title: str  # the game's title; the page labels read "<title> <page>"
    path: Path  # the rulebook's PDF


def _number_tree(node) -> list:
    """A PDF number tree (or name tree, with ``key``) flattened to [key, value, ...]."""
    out: list = []
    if node is None:
        return out
    for key in ("/Nums", "/Names"):
        if key in node:
            out.extend(node[key])
    for kid in node.get("/Kids", []):
        out.extend(_number_tree(kid))
    return out


def _copy(book: Pdf, obj):
    """``obj`` of another PDF copied into ``book``: indirect objects through qpdf's copier
    (which maps what was already copied, the pages among them, to its copy), direct arrays
    and dictionaries element by element."""
    if isinstance(obj, (Array, Dictionary)) and not obj.is_indirect:
        if isinstance(obj, Array):
            return Array([_copy(book, x) for x in obj])
        return Dictionary({k: _copy(book, v) for k, v in obj.items()})
    if isinstance(obj, pikepdf.Object) and obj.is_indirect:
        return book.copy_foreign(obj)
    return obj


def _blank_after(pdf: Pdf) -> None:
    """Add a blank page of the last page's size, so that what follows starts on a right page."""
    box = pdf.pages[-1].mediabox
    pdf.add_blank_page(page_size=(float(box[2]) - float(box[0]), float(box[3]) - float(box[1])))


def _copy_outline(items, page_index: dict, start: int) -> list[OutlineItem]:
    """Copies of a part's bookmarks pointing at the bound book's pages."""
    out = []
    for item in items:
        dest = item.destination
        if dest is None and item.action is not None and item.action.get("/S") == Name.GoTo:
            dest = item.action.get("/D")
        kw = {}
        index = start
        if isinstance(dest, Array) and len(dest) >= 1:
            index = start + page_index[dest[0].objgen]
            if len(dest) >= 4 and dest[1] == Name.XYZ:
                kw = {"page_location": "XYZ", "left": float(dest[2]), "top": float(dest[3])}
        copy = OutlineItem(item.title, index, **kw)
        copy.is_closed = item.is_closed
        copy.children.extend(_copy_outline(item.children, page_index, start))
        out.append(copy)
    return out


def bind(front: Path, parts: list[Part], target: Path) -> int:
    """Write ``target`` from the front matter and the parts; returns the number of pages."""
    book = Pdf.open(front)
    root = book.Root
    struct = root.StructTreeRoot
    namespaces = struct.get("/Namespaces", Array())
    front_namespace = namespaces[0] if len(namespaces) else None

    # one Document element over the front matter and the parts
    document = book.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=struct,
                                             K=Array()))
    if front_namespace is not None:
        document.NS = front_namespace
    tops = struct.K if isinstance(struct.K, Array) else Array([struct.K])
    for el in tops:
        el.S = Name.Sect
        el.P = document
        document.K.append(el)
    struct.K = Array([document])

    nums = _number_tree(struct.get("/ParentTree"))
    next_key = max((int(k) for k in nums[0::2]), default=-1) + 1
    dests = _number_tree(root.get("/Names", {}).get("/Dests"))

    labels = Array([0, Dictionary(S=Name("/r"))])
    if len(book.pages) % 2:
        _blank_after(book)
    with book.open_outline() as outline:
        for part in parts:
            src = Pdf.open(part.path)
            start = len(book.pages)
            page_index = {p.obj.objgen: i for i, p in enumerate(src.pages)}
            with warnings.catch_warnings():  # named destinations are merged below
                warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
                book.pages.extend(src.pages)
            labels.extend([start, Dictionary(S=Name.D, P=String(f"{part.title} "), St=1)])

            # tags: the part's Document becomes a Part of the book's; renumber the parents.
            # The structure root is copied in one go: qpdf maps its references to the
            # pages just copied.
            src_struct = _copy(book, src.Root.StructTreeRoot)
            src_tops = src_struct.K if isinstance(src_struct.K, Array) else Array([src_struct.K])
            for el in src_tops:
                el.S = Name.Part
                el.P = document
                document.K.append(el)
            for ns in src_struct.get("/Namespaces", []):
                namespaces.append(ns)
            src_nums = _number_tree(src_struct.get("/ParentTree"))
            offset = next_key
            for key, value in zip(src_nums[0::2], src_nums[1::2]):
                nums.extend([int(key) + offset, value])
            next_key = offset + max((int(k) for k in src_nums[0::2]), default=-1) + 1
            for page in book.pages[start:]:
                if "/StructParents" in page.obj:
                    page.obj.StructParents = int(page.obj.StructParents) + offset
                for annot in page.obj.get("/Annots", []):
                    if "/StructParent" in annot:
                        annot.StructParent = int(annot.StructParent) + offset

            # named destinations (copied with their pages) and bookmarks
            src_dests = _number_tree(src.Root.get("/Names", {}).get("/Dests"))
            for name, dest in zip(src_dests[0::2], src_dests[1::2]):
                dests.extend([name, _copy(book, dest)])
            with src.open_outline() as src_outline:
                item = OutlineItem(part.title, start)
                item.is_closed = True
                item.children.extend(_copy_outline(src_outline.root, page_index, start))
                outline.root.append(item)
            if len(src.pages) % 2 and part is not parts[-1]:
                _blank_after(book)

    # the front matter's and the index's links to anchors in the parts
    for page in book.pages:
        for annot in page.get("/Annots", []):
            action = annot.get("/A")
            if action is not None and action.get("/S") == Name.URI:
                uri = str(action.URI)
                if uri.startswith(DEST_SCHEME):
                    del annot["/A"]
                    annot.Dest = String(uri[len(DEST_SCHEME):])

    pairs = sorted(zip(dests[0::2], dests[1::2]), key=lambda p: str(p[0]).encode("utf-8"))
    root.Names = Dictionary(Dests=Dictionary(Names=Array([x for p in pairs for x in p])))
    ordered = sorted(zip(nums[0::2], nums[1::2]), key=lambda p: int(p[0]))
    struct.ParentTree = book.make_indirect(Dictionary(Nums=Array([x for p in ordered for x in p])))
    struct.ParentTreeNextKey = next_key
    if len(namespaces):
        struct.Namespaces = namespaces
    root.PageLabels = Dictionary(Nums=labels)
    scope_table_headers(book)  # the front matter's tables (the parts' have theirs)
    # each face embedded once, not once a part (issue 27, item 6)
    share_fonts(book, embeddable_files())

    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        book.save(tmp, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return len(book.pages)
