"""The text face's three cuts are the ones the books name: regular, italic and a real bold.

Debian's EB Garamond 12 bold is an unfinished cut of 127 glyphs; fontconfig, which ranks a
font's language coverage before its weight, set every bold word of the books in a regular
face (the 08 cut, which it also chose for the text). The package now ships its own static
cuts of EB Garamond (``builder/fonts``, ``scripts/text_fonts.py``). Checked here on the
font programs embedded in a page set with the books' own ``@font-face`` rules, and by the
ink a bold word lays down; slow: in every built rulebook.
"""

from __future__ import annotations

import io

import pikepdf
import pypdfium2
import pytest
from fontTools.ttLib import TTFont
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

from builder.render.fonts import font_face_css

WORD = "Hamburgefonstiv"


def embedded_faces(pdf: pikepdf.Pdf) -> dict[str, tuple[str, int]]:
    """Each embedded EB Garamond program: PDF font name -> (its own full name, its weight)."""
    out = {}
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != pikepdf.Name.FontDescriptor:
            continue
        program = obj.get("/FontFile2") or obj.get("/FontFile3")
        if program is None or "Garamond" not in str(obj.FontName):
            continue
        font = TTFont(io.BytesIO(program.read_bytes()))
        out[str(obj.FontName)[8:]] = (font["name"].getDebugName(4), font["OS/2"].usWeightClass)
    return out


def set_text(html: str) -> bytes:
    config = FontConfiguration()
    css = CSS(string=font_face_css() + '\nbody { font: 30pt "EB Garamond"; }',
              font_config=config)
    return HTML(string=html).write_pdf(stylesheets=[css], font_config=config)


def test_bold_italic_and_regular_words_are_set_in_their_own_cuts():
    pdf = pikepdf.open(io.BytesIO(set_text(f"<p>{WORD} <b>{WORD}</b> <i>{WORD}</i></p>")))
    faces = sorted(embedded_faces(pdf).values())
    assert faces == [("EB Garamond Bold", 700), ("EB Garamond Italic", 400),
                     ("EB Garamond Regular", 400)], faces


def _ink(html: str) -> int:
    page = pypdfium2.PdfDocument(set_text(html))[0]
    image = page.render(scale=2).to_pil().convert("L")
    return sum(image.histogram()[:128])


def test_a_bold_word_lays_down_more_ink_than_a_regular_one():
    """Set in a regular face, a "bold" word inks as much as the regular one (the defect);
    EB Garamond's bold strokes are about a third heavier."""
    regular, bold = _ink(f"<p>{WORD}</p>"), _ink(f"<p><b>{WORD}</b></p>")
    assert bold > 1.2 * regular, (regular, bold)


@pytest.mark.slow
def test_every_book_sets_its_text_in_the_shipped_cuts(built):
    books = sorted((built / "pdf").glob("*-rules.pdf")) + [built / "pdf" / "compendium.pdf"]
    for path in books:
        with pikepdf.open(path) as pdf:
            faces = set(embedded_faces(pdf).values())
        assert faces and faces <= {("EB Garamond Bold", 700), ("EB Garamond Italic", 400),
                                   ("EB Garamond Regular", 400)}, (path.name, faces)
        assert ("EB Garamond Regular", 400) in faces, (path.name, faces)
