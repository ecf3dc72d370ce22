"""The rulebooks and the compendium are PDF/UA-1 (issue 27, item 8), as far as a machine can
check: ``pdfua`` (the machine-checkable subset of PDF/UA-1, on pikepdf) finds nothing in
any of them: no figure without words (the covers' cards are decoration, drawn as
backgrounds, which the tag tree marks as artifacts), every table header scoped
(:mod:`builder.render.book.tagging`), the XMP packet that claims PDF/UA-1."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest
from pdf_kit import figure_alts, pdfua_findings, struct_elems
from weasyprint import HTML

from builder.render.book.tagging import scope_table_headers


@pytest.mark.slow
@pytest.mark.build
def test_every_book_passes_the_pdfua_checks(built):
    pdfs = sorted((built / "pdf").glob("*-rules.pdf")) + [built / "pdf" / "compendium.pdf"]
    assert len(pdfs) >= 9
    found = [f for pdf in pdfs for f in pdfua_findings(pdf)]
    assert not found, "\n".join(found[:20])
    for pdf in pdfs:
        with pikepdf.open(pdf) as doc:
            alts = figure_alts(doc)
        # every figure has words of its own: a chart says what it shows and what it reads
        assert alts and all(a.strip() and a != "Pygal" for a in alts), pdf.name
        assert any(a.startswith("Wins by seat") for a in alts), pdf.name
    for pdf in pdfs:
        with pikepdf.open(pdf) as doc:
            xmp = bytes(doc.Root.Metadata.read_bytes())
        # the PDF/UA identification, as an attribute or an element
        assert re.search(rb'pdfuaid:part(?:="1"|>1</pdfuaid:part>)', xmp), pdf.name


def _tagged(html: str) -> pikepdf.Pdf:
    data = HTML(string=f'<html lang="en"><head><title>t</title></head><body>{html}</body></html>'
                ).write_pdf(pdf_tags=True)
    return pikepdf.open(io.BytesIO(data))


def _scopes(pdf: pikepdf.Pdf) -> list[str]:
    out = []
    for th in struct_elems(pdf, "/TH"):
        attrs = th.get("/A")
        attrs = list(attrs) if isinstance(attrs, pikepdf.Array) else [attrs]
        out.append(next(str(a.Scope) for a in attrs if "/Scope" in a))
    return out


def test_headers_of_a_row_and_of_a_column_are_scoped_so():
    pdf = _tagged("<table><tr><th>Seat</th><th>Wins</th></tr>"
                  "<tr><th>North</th><td>51 %</td></tr><tr><th>South</th><td>49 %</td></tr>"
                  "</table>")
    assert scope_table_headers(pdf) == 4
    assert _scopes(pdf) == ["/Column", "/Column", "/Row", "/Row"]
    assert scope_table_headers(pdf) == 0          # a second pass finds nothing to do


def test_a_table_of_header_rows_only_scopes_columns():
    pdf = _tagged("<table><tr><th>Players</th><th>Time</th></tr></table>")
    scope_table_headers(pdf)
    assert _scopes(pdf) == ["/Column", "/Column"]
