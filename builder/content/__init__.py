"""Stage 1: load the content folder into the validated model.

Layout of a content folder::

    index.yaml              games in order, and the introduction to War      (index.py)
                            book: the project's look, logo and fonts  (book.py, fonts.py, svg.py)
    <slug>/game.yaml        metadata, options, comparison row, quick reference  (game.py)
                            kit: the print-and-play components          (kit.py)
                            balance: the pace of play and balance claims  (balance.py)
    <slug>/rules.md         numbered rules: '#' 1., '##' 1.1, '###' 1.1.1, each '{#id}'  (rules.py)
    <slug>/glossary.yaml    terms and definitions                        (glossary.py)
    <slug>/examples/*.yaml  worked examples (one per file)               (examples.py)

One reader per file kind, each a :class:`.base.Reader` (the content folder, the
diagnostics, one field's checks); the prose checks shared by the readers of Markdown are
:mod:`.markdown`'s, the field validators :mod:`.fields`'. Every problem found is collected
as a :class:`Diagnostic` with file, line and column; the readers go on after an error so
that one run reports them all.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics, Located
from ..model import Content
from .base import ID_RE, Reader, rel
from .index import IndexReader
from .markdown import CODE_SPAN_RE, HTML_RE, MAX_BRACKETS, MAX_PARAGRAPH, ProseReader
from .rules import HEADING_RE, heading_id

#: the reader of a whole content folder (the name tests and benches know it by)
Loader = IndexReader

__all__ = ["CODE_SPAN_RE", "HEADING_RE", "HTML_RE", "ID_RE", "IndexReader", "Loader",
           "MAX_BRACKETS", "MAX_PARAGRAPH", "ProseReader", "Reader", "heading_id",
           "load_content", "rel"]


def load_content(root: Path | str, diags: Diagnostics | None = None) -> tuple[Content, Diagnostics]:
    """The content folder ``root`` read into the model, and every problem found."""
    diags = diags if diags is not None else Diagnostics()
    root = Path(root)
    if not root.is_dir():
        diags.error(Located(str(root), 0, 0),
                    "the content folder is a file, not a folder" if root.exists()
                    else "content folder not found")
        return Content(root=str(root), games=[]), diags
    content = IndexReader(root, diags).read()
    return content, diags
