"""Issue 27, item 7: the books' fonts are all embedded font programs, none a Type 3 font.

A print shop's RIP may rasterise a Type 3 font (its glyphs are drawings, with no hints) and
preflight flags it: the diagrams' words (``render/book/stamp.py``) are set in subsets of
the Cabin files themselves, embedded as WeasyPrint embeds the body text's fonts (Type 0,
Identity-H), and still read back as text. Checked in a stamped page of our own (quick) and
in every built rulebook and the compendium (slow: the session's build).
"""

from __future__ import annotations

import io
import re

import pikepdf
import pytest
from fontTools.ttLib import TTFont
from stamp_kit import stamped

from builder.render.book.glyphs import Style, block
from builder.render.book.pdf import EMPTY, FELT, OWNER, BookFetcher
from builder.render.book.stamp import Art

#: a subset's name: six capitals, "+", the font's name
SUBSET = re.compile(r"^[A-Z]{6}\+")


def _fonts(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    """Every font dictionary in the file (pages, forms, patterns, annotations, fonts
    inside fonts: anything the file holds), each once."""
    return [obj for obj in pdf.objects
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream))
            and obj.get("/Type") == pikepdf.Name.Font
            and obj.get("/Subtype") != pikepdf.Name("/CIDFontType0")
            and obj.get("/Subtype") != pikepdf.Name("/CIDFontType2")]


def _used_fonts(pdf: pikepdf.Pdf) -> dict[tuple[int, int], pikepdf.Dictionary]:
    """The fonts the pages and the forms they show name in their resources."""
    found: dict[tuple[int, int], pikepdf.Dictionary] = {}
    seen: set[tuple[int, int]] = set()

    def visit(resources) -> None:
        if resources is None:
            return
        for font in resources.get("/Font", {}).values():
            found[font.objgen] = font
            if font.get("/Subtype") == pikepdf.Name.Type3:
                visit(font.get("/Resources"))
        for xobj in list(resources.get("/XObject", {}).values()) + \
                list(resources.get("/Pattern", {}).values()):
            if xobj.objgen in seen:
                continue
            seen.add(xobj.objgen)
            visit(xobj.get("/Resources"))

    for page in pdf.pages:
        visit(page.obj.get("/Resources"))
        for annot in page.obj.get("/Annots", []):
            for stream in annot.get("/AP", {}).values():
                if isinstance(stream, pikepdf.Stream):
                    visit(stream.get("/Resources"))
    return found


def _problems(font: pikepdf.Dictionary) -> list[str]:
    """What is wrong with a font for a print shop: a Type 3 font, a font not embedded."""
    name = str(font.get("/BaseFont", font.get("/FontDescriptor", {}).get("/FontName", "?")))
    if font.get("/Subtype") == pikepdf.Name.Type3:
        return [f"{name}: a Type 3 font"]
    if font.get("/Subtype") == pikepdf.Name.Type0:
        descriptors = [d.get("/FontDescriptor") for d in font.DescendantFonts]
    else:
        descriptors = [font.get("/FontDescriptor")]
    if not all(d is not None and any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3"))
               for d in descriptors):
        return [f"{name}: not embedded"]
    return []


def _diagram_fonts(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    """The fonts of the diagrams' words (stamp.py names them WarbookWords0, 1 ...)."""
    out = {}
    for page in pdf.pages:
        for key, font in page.obj.get("/Resources", {}).get("/Font", {}).items():
            if key.startswith("/WarbookWords"):
                out[font.objgen] = font
    return list(out.values())


def _widths(w) -> dict[int, float]:
    """A CIDFont's /W array ([first [w ...]] runs, or [first last w]) as {cid: width}."""
    out: dict[int, float] = {}
    items, i = list(w), 0
    while i < len(items):
        first = int(items[i])
        if isinstance(items[i + 1], pikepdf.Array):
            out.update({first + k: float(x) for k, x in enumerate(items[i + 1])})
            i += 2
        else:
            out.update({cid: float(items[i + 2]) for cid in range(first, int(items[i + 1]) + 1)})
            i += 3
    return out


def _check_diagram_font(font: pikepdf.Dictionary, family: str = "Cabin") -> str:
    """A diagram face is a subset of a Cabin file (or ``family``'s), embedded whole as a
    Type 0 font (two bytes a glyph, the CIDs the glyph numbers) with the font's own widths
    and a ToUnicode map naming, for each code, the letter whose glyph it is; returns the
    face's name without the subset's tag."""
    assert font.Subtype == pikepdf.Name.Type0 and font.Encoding == pikepdf.Name("/Identity-H")
    name = str(font.BaseFont)[1:]
    assert SUBSET.match(name) and name[7:].startswith(family), name
    (cid,) = font.DescendantFonts
    desc = cid.FontDescriptor
    assert str(desc.FontName)[1:] == name == str(cid.BaseFont)[1:]
    if cid.Subtype == pikepdf.Name.CIDFontType0:
        assert desc.FontFile3.Subtype == pikepdf.Name.OpenType
        program = desc.FontFile3.read_bytes()
    else:
        assert cid.Subtype == pikepdf.Name.CIDFontType2 and cid.CIDToGIDMap == pikepdf.Name.Identity
        program = desc.FontFile2.read_bytes()
    ttf = TTFont(io.BytesIO(program))
    order, cmap = ttf.getGlyphOrder(), ttf.getBestCmap()
    widths = _widths(cid.W)
    assert 0 < len(widths) < 120, (name, len(widths))  # the letters used, not the whole face
    scale = 1000 / ttf["head"].unitsPerEm
    for code, width in widths.items():
        assert width == pytest.approx(ttf["hmtx"][order[code]][0] * scale), (name, code)
    cmap_text = font.ToUnicode.read_bytes().decode()
    pairs = [pair for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap_text, re.S)
             for pair in re.findall(r"<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]+)>", block)]
    assert pairs, name
    for code, text in pairs:
        letter = bytes.fromhex(text).decode("utf-16-be")
        assert order[int(code, 16)] == cmap[ord(letter)], (name, code, letter)
        assert int(code, 16) in widths
    return name[7:]


def _diagram_text(path) -> list[str]:
    """The pieces of text a PDF shows in the diagrams' faces, as pdfium reads them (the PDF
    engine of Chromium: tests/pdf_text.py), each run of characters set one after another."""
    from pdf_text import pages_chars, runs

    return [word for _height, chars in pages_chars(path)
            for word in runs([ch for ch in chars if ch.font.endswith("-Diagram")])]


def test_a_stamped_diagram_s_words_are_an_embedded_font_read_back_as_text(tmp_path):
    fetcher = BookFetcher()
    fetcher.draw_cards(["AS"], 10, 14)
    art = Art(width=40, height=30, felt=FELT, edge="#c8d3c4")
    art.cards.append(("AS", 5, 12, 10, 14))
    art.runs += block("North", OWNER, 3, 2, 14, max_lines=1)
    art.runs += block("empty", EMPTY, 24, 12, 10)
    out = stamped(tmp_path, art, fetcher)
    with pikepdf.open(out) as pdf:
        assert not [p for f in _fonts(pdf) for p in _problems(f)]
        faces = [_check_diagram_font(f) for f in _diagram_fonts(pdf)]
    assert sorted(faces) == sorted({f"{r.style.face.postscript_name}-Diagram" for r in art.runs})
    assert sorted(_diagram_text(out)) == sorted(r.text for r in art.runs)


def test_a_truetype_face_is_embedded_as_a_truetype_cidfont(tmp_path):
    """A content's own face may have TrueType outlines (``book.fonts``): a FontFile2."""
    signs = Style("DejaVuSans.ttf", 7, line=3)  # the shipped signs' face: TrueType outlines
    art = Art(width=40, height=30, felt=FELT, edge="#c8d3c4", runs=block("North \u2660", signs, 0, 2, 40))
    out = stamped(tmp_path, art)
    with pikepdf.open(out) as pdf:
        (font,) = _diagram_fonts(pdf)
        assert _check_diagram_font(font, "DejaVu") == "DejaVuSans-Diagram"
        assert font.DescendantFonts[0].Subtype == pikepdf.Name.CIDFontType2
    assert _diagram_text(out) == ["North \u2660"]


def _books(built):
    pdfs = sorted((built / "pdf").glob("*-rules.pdf")) + [built / "pdf" / "compendium.pdf"]
    assert len(pdfs) >= 9
    return pdfs


@pytest.mark.slow
@pytest.mark.build
def test_no_book_has_a_type3_font_and_every_font_is_embedded(built):
    found = []
    for path in _books(built):
        with pikepdf.open(path) as pdf:
            fonts = _fonts(pdf)
            used = _used_fonts(pdf)
            assert fonts and used, path.name
            found += [f"{path.name}: {p}" for f in [*fonts, *used.values()] for p in _problems(f)]
    assert not found, "\n".join(sorted(set(found))[:20])


@pytest.mark.slow
@pytest.mark.build
def test_each_book_holds_one_subset_per_diagram_face_and_its_words_read_as_text(built):
    for path in _books(built):
        if path.name == "compendium.pdf":
            continue  # bound from the books: each part keeps its own subsets
        with pikepdf.open(path) as pdf:
            faces = [_check_diagram_font(f) for f in _diagram_fonts(pdf)]
        assert faces and len(faces) == len(set(faces)), (path.name, faces)
        words = _diagram_text(path)
        assert len(words) > 50, path.name
        assert all(w.isprintable() and "\ufffd" not in w for w in words), path.name
    # a few words War's diagrams show, read back letter for letter
    words = set(_diagram_text(built / "pdf" / "war-rules.pdf"))
    assert {"empty", "1 card"} <= words, sorted(words)[:40]
    # the compendium's parts: their diagrams' words are still there
    assert len(_diagram_text(built / "pdf" / "compendium.pdf")) > 300
