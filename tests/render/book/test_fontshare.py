"""The compendium embeds each face once (issue 27, item 6; :mod:`builder.render.book.fontshare`):
the subsets of one face that the bound parts brought are replaced by one subset holding all
their glyphs, the pages draw exactly as before, their text reads the same, and a font whose
glyph numbers are not the face's is left alone."""

from __future__ import annotations

import io
import subprocess
from collections import defaultdict

import pikepdf
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

from builder.render.book.fontshare import share_fonts
from builder.render.fonts import embeddable_files, font_face_css

PARTS = ["<h1>Alpha</h1><p>Quick brown foxes jump; <b>bold</b> <i>italic</i>.</p>",
         "<h1>Omega</h1><p>Zebras wax lyrical over 1,234 vexed judges. <b>Zap</b></p>"]


def _programs(pdf: pikepdf.Pdf) -> dict[str, set]:
    """Each embedded font program's face (its PostScript name), by the objects holding it."""
    out: dict[str, set] = defaultdict(set)
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.FontDescriptor:
            for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                if key in obj:
                    font = TTFont(io.BytesIO(obj[key].read_bytes()), lazy=True)
                    out[str(font["name"].getDebugName(6))].add(obj[key].objgen)
    return out


def _bound() -> bytes:
    """Two documents set in the book's faces, bound as the compendium is (pages copied)."""
    docs = []
    for body in PARTS:
        fc = FontConfiguration()
        css = CSS(string=font_face_css() + 'body { font-family: "EB Garamond" } '
                  'h1 { font-family: "Cabin" }', font_config=fc)
        docs.append(HTML(string=f'<html lang="en"><body>{body}</body></html>').write_pdf(
            stylesheets=[css], font_config=fc))
    book = pikepdf.open(io.BytesIO(docs[0]))
    for data in docs[1:]:
        book.pages.extend(pikepdf.open(io.BytesIO(data)).pages)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _render(data: bytes, folder) -> list[Image.Image]:
    folder.mkdir()
    (folder / "in.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(folder / "in.pdf"), str(folder / "p")],
                   check=True)
    return [Image.open(p).convert("RGB") for p in sorted(folder.glob("p-*.png"))]


def _text(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True,
                          check=True).stdout.decode()


def test_each_face_is_embedded_once_and_the_pages_are_unchanged(tmp_path):
    before = _bound()
    with pikepdf.open(io.BytesIO(before)) as pdf:
        programs = _programs(pdf)
        assert any(len(objs) > 1 for objs in programs.values())  # the test can fail
        dropped = share_fonts(pdf, embeddable_files())
        buf = io.BytesIO()
        pdf.save(buf)
    after = buf.getvalue()
    with pikepdf.open(io.BytesIO(after)) as pdf:
        shared = _programs(pdf)
    assert set(shared) == set(programs)
    assert all(len(objs) == 1 for objs in shared.values()), shared
    assert dropped == sum(len(o) for o in programs.values()) - len(programs)
    for old, new in zip(_render(before, tmp_path / "a"), _render(after, tmp_path / "b"),
                        strict=True):
        assert ImageChops.difference(old, new).getbbox() is None
    assert _text(after) == _text(before)


def test_a_subset_numbered_otherwise_is_left_alone():
    before = _bound()
    with pikepdf.open(io.BytesIO(before)) as pdf:
        # one of the parts' fonts claims other widths for its glyphs than the face's: its
        # numbers may not be the face's, so it keeps its own program
        fonts = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary)
                 and o.get("/Type") == pikepdf.Name.Font and o.get("/Subtype") == pikepdf.Name.Type0]
        odd = fonts[0].DescendantFonts[0]
        own = odd.FontDescriptor
        key = next(k for k in ("/FontFile2", "/FontFile3") if k in own)
        program = own[key].objgen
        widths = list(odd.W)
        widths[1] = pikepdf.Array([float(widths[1][0]) + 37] + list(widths[1])[1:])
        odd.W = pikepdf.Array(widths)
        share_fonts(pdf, embeddable_files())
        assert own[key].objgen == program


@pytest.mark.slow
@pytest.mark.build
def test_the_built_compendium_embeds_each_face_once(built):
    """Every subset of a face that keeps the face's glyph numbers (the body text's and the
    diagrams' words alike) is one program; a subset whose widths are not the face's (one
    EB Garamond italic glyph, as WeasyPrint wrote it) may keep its own."""
    from builder.render.book.fontshare import _Face, _widths

    faces = {}
    for path in embeddable_files():
        face = _Face(path)
        faces.setdefault(face.name, face)
    shared: dict[str, set] = defaultdict(set)
    alone = 0
    with pikepdf.open(built / "pdf" / "compendium.pdf") as pdf:
        for obj in pdf.objects:
            if not (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font
                    and obj.get("/Subtype") == pikepdf.Name.Type0):
                continue
            cid = obj.DescendantFonts[0]
            desc = cid.FontDescriptor
            key = next(k for k in ("/FontFile", "/FontFile2", "/FontFile3") if k in desc)
            name = str(TTFont(io.BytesIO(desc[key].read_bytes()), lazy=True)["name"].getDebugName(6))
            if name in faces and faces[name].keeps_numbering(_widths(cid.W)):
                shared[name].add(desc[key].objgen)
            else:
                alone += 1
    assert {"Cabin-Regular", "Cabin-Bold"} <= set(shared)   # the diagrams' faces among them
    twice = {name: len(objs) for name, objs in shared.items() if len(objs) > 1}
    assert not twice, twice
    assert alone <= 3, alone
