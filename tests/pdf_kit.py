"""Reading a tagged PDF back, for the PDF/UA tests of the books (tests/render/book) and of
the print-and-play files (tests/render/pnp): the validator's findings and the tag tree."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf


def pdfua_findings(path: Path) -> list[str]:
    """What ``pdfua`` (the machine-checkable part of PDF/UA-1) finds in the file, one line
    each, named by the file."""
    import pdfua

    report = pdfua.validate(str(path))
    return [f"{path.name}: {f.rule_id} {f.severity}: {f.message[:160]}" for f in report.findings]


def struct_elems(pdf: pikepdf.Pdf, tag: str | None = None) -> list[pikepdf.Dictionary]:
    """The structure elements of the tag tree, in tree order (of type ``tag``, such as
    "/Figure", if given)."""
    out: list[pikepdf.Dictionary] = []

    def walk(elem):
        if isinstance(elem, pikepdf.Array):
            for k in elem:
                walk(k)
        elif isinstance(elem, pikepdf.Dictionary):
            if "/S" in elem and (tag is None or elem.S == pikepdf.Name(tag)):
                out.append(elem)
            if "/K" in elem:
                walk(elem.K)

    walk(pdf.Root.StructTreeRoot.K)
    return out


def figure_alts(pdf: pikepdf.Pdf) -> list[str]:
    """The alternative text of every /Figure of the tag tree ("" for one without)."""
    return [str(e.get("/Alt", "")) for e in struct_elems(pdf, "/Figure")]


def _marks_content(elem) -> bool:
    if isinstance(elem, int):
        return True
    if isinstance(elem, pikepdf.Array):
        return any(_marks_content(k) for k in elem)
    if isinstance(elem, pikepdf.Dictionary):
        return "/MCID" in elem or ("/K" in elem and _marks_content(elem.K))
    return False


def empty_headings(pdf: pikepdf.Pdf) -> list[str]:
    """The headings (/H1 to /H6) of the tag tree that mark no content (pdfua's own check of
    this, UA-14-001, fails to run on pikepdf 10: it is done here)."""
    return [str(e.S) for e in struct_elems(pdf)
            if re.fullmatch(r"/H[1-6]", str(e.S)) and not _marks_content(e.get("/K"))]
