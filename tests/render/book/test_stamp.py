"""The diagrams' words (render/book/glyphs.py) and their drawing into the PDF (render/book/stamp.py).

Widths are checked against HarfBuzz (through Pillow's raqm layout), an implementation
independent of ours; the drawing is checked by placing a known diagram at a known spot of a
page and reading the written PDF back: where its text lies, and what colour its pixels are.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import ImageFont, features
from pypdf import PdfReader
from stamp_kit import stamped
from weasyprint import HTML

from builder.render.book import glyphs
from builder.render.book.glyphs import Style, block, wrap
from builder.render.book.pdf import (
    EMPTY,
    FELT,
    OWNER,
    BookFetcher,
    BookRenderer,
    diagram_placements,
)
from builder.render.book.stamp import Art, stamp
from builder.render.fonts import find
from builder.settings import Settings

MM = 72 / 25.4


def harfbuzz(file: str):
    assert features.check("raqm"), "Pillow has no raqm layout: HarfBuzz is needed for this test"
    return ImageFont.truetype(str(find(file)), 1000, layout_engine=ImageFont.Layout.RAQM)


@pytest.fixture(scope="module")
def shipped_words(report) -> set[tuple[str, str]]:
    """Every (font file, line) the shipped rulebooks' diagrams set."""
    books = BookRenderer(Settings(content_root=Path("content"), output=Path("output")))
    for gr in report.games:
        books.book_html(gr)
    return {(r.style.file, r.text) for art in books.fetcher.art for r in art.runs}


def test_every_diagram_line_is_as_wide_as_harfbuzz_sets_it(shipped_words):
    assert len(shipped_words) > 50
    fonts = {}
    for file, text in sorted(shipped_words):
        hb = fonts.setdefault(file, harfbuzz(file))
        ours = glyphs.face(file).width(text, 1000)  # 1000 units to the em, as the font
        assert ours == pytest.approx(hb.getlength(text), abs=0.5), (file, text)


@pytest.mark.parametrize("file", ["Cabin-Regular.otf", "Cabin-Bold.otf"])
def test_kerning_pairs_are_the_fonts(file):
    face = glyphs.face(file)
    hb = harfbuzz(file)
    for pair in ["AV", "LT", "TO", "Yo", "ty", "P.", "Wa"]:
        alone = sum(hb.getlength(ch) for ch in pair)
        assert face.pairs(pair)[0] == pytest.approx(hb.getlength(pair) - alone, abs=0.5), pair
    assert face.pairs("AV")[0] < 0  # the classic pair is tightened


#: small capitals, as the diagrams' labels were set before issue 14 raised them to 7 pt:
#: the line-setting mechanism below is tested on them (any style would do)
CAPS = Style("Cabin-Regular.otf", 4.9, line=4.9 * 1.1 * glyphs.PT, tracking=0.02, upper=True)


def test_wrapped_lines_fit_and_are_centred():
    style = CAPS
    text = "Face-down stack of the player who lost the last war"
    runs = block(text, style, x=3.0, top=1.0, width=14.0)
    assert len(runs) >= 3
    for r in runs:
        w = style.face.width(r.text, r.size, style.tracking)
        assert w <= 14.0 + 1e-9
        assert r.x + w / 2 == pytest.approx(3.0 + 7.0)  # centred in the column
        assert r.text == r.text.upper()
    # lines follow each other one line height apart
    gaps = {round(b.baseline - a.baseline, 6) for a, b in zip(runs, runs[1:])}
    assert gaps == {round(style.line, 6)}
    # greedy: no line could have taken the next line's first word
    for a, b in zip(runs, runs[1:]):
        longer = a.text + " " + b.text.split()[0]
        assert style.face.width(longer, style.size, style.tracking) > 14.0


@pytest.mark.parametrize("space_kerns", [False, True])
def test_lines_are_measured_as_whole_lines_are(space_kerns, monkeypatch):
    """``Face.lines`` adds a word at a time (the line's advance, the kerning round the
    space, the word's); every line it makes is measured again here whole with ``width``:
    it fits (or is one word), and it could not have taken the next line's first word.
    Tracking included; Cabin kerns nothing against the space, so a face that does (a
    wide kerning either side of it) is made from it by hand."""
    import random

    face = CAPS.face
    if space_kerns:
        space, kern = face.glyph(" "), face.kern
        monkeypatch.setattr(face, "kern", lambda a, b: kern(a, b) + (-180 if a == space else
                                                                     -140 if b == space else 0))
    words = ["AVAWAY", "To.", "Ty,", "War", "LTA", "Yes", "\u2660", "flank", "Tyre", "WAVE",
             "x" * 40, "reinforce", "\u201cA\u201d"]
    rng = random.Random(7)
    for _ in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 30)))
        size, width = rng.choice([2.5, 3.2]), rng.uniform(8, 90)
        tracking = rng.choice([0.0, 0.08])
        lines = face.lines(text, size, width, tracking)
        assert " ".join(lines).split() == text.split()
        for a, b in zip(lines, lines[1:] + [""]):
            assert face.width(a, size, tracking) <= width + 1e-9 or " " not in a
            if b:
                longer = a + " " + b.split()[0]
                assert face.width(longer, size, tracking) > width


def test_a_word_too_long_for_its_column_is_set_smaller_not_cut():
    style = CAPS
    (run,) = block("Reinforcements", style, x=0, top=0, width=8.0)
    assert run.size < style.size
    assert style.face.width(run.text, run.size, style.tracking) == pytest.approx(8.0)
    assert wrap("two\nlines", Style("Cabin-Regular.otf", 5, line=2), 100) == ["two", "lines"]


def test_a_label_too_long_for_its_lines_is_set_smaller_then_marked_cut():
    text = "Hand (clubs, seen by its owner)"
    assert len(wrap(text, CAPS, 14.0)) == 3
    runs = block(text, CAPS, 0, 0, 14.0, max_lines=2)
    assert [r.text for r in runs] == ["HAND (CLUBS, SEEN", "BY ITS OWNER)"]
    assert all(CAPS.size * 0.75 <= r.size < CAPS.size for r in runs)
    assert runs[1].baseline - runs[0].baseline < CAPS.line  # closer lines, as smaller type
    # where even three quarters of the size will not do, the last line says it goes on
    runs = block(text, CAPS, 0, 0, 8.0, max_lines=2)
    assert len(runs) == 2 and runs[-1].text.endswith("\u2026")
    assert all(r.size == pytest.approx(CAPS.size * 0.75) for r in runs)


def test_no_word_of_the_shipped_diagrams_is_cut(shipped_words):
    assert not [t for _, t in shipped_words if t.endswith("\u2026")]


def test_stamp_draws_the_diagram_where_its_picture_landed(tmp_path):
    fetcher = BookFetcher()
    fetcher.draw_cards(["AS"], 10, 14)
    art = Art(width=40, height=30, felt=FELT, edge="#c8d3c4")
    art.cards.append(("AS", 5, 12, 10, 14))
    art.empties.append((24, 12, 10, 6))
    art.runs += block("North", OWNER, 3, 2, 14, max_lines=1)
    art.runs += block("empty", EMPTY, 24, 12, 10)
    fetcher.art.append(art)
    html = ('<html lang="en"><style>@page { size: A4; margin: 0 } body { margin: 0 }'
            ' img { position: absolute; left: 30mm; top: 40mm; width: 40mm; height: 30mm }</style>'
            '<p>Before.</p><img src="diagram:blank" data-diagram="0" alt="The table.">')
    doc = HTML(string=html, url_fetcher=fetcher).render(pdf_tags=True)
    placed = diagram_placements(doc, fetcher)
    assert [(p.page, round(p.x / 96 * 25.4, 3), round(p.y / 96 * 25.4, 3)) for p in placed] \
        == [(0, 30.0, 40.0)]
    target = tmp_path / "one.pdf"
    stamp(doc.write_pdf(pdf_tags=True), placed, fetcher.cards, target)

    # the words are text, at their places: x from the left, y up from the page's foot
    seen = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            seen[text.strip()] = (tm[4], tm[5])

    page = PdfReader(str(target)).pages[0]
    page.extract_text(visitor_text=visit)
    height = float(page.mediabox.height)
    for run in art.runs:
        x, y = seen[run.text]
        assert x == pytest.approx((30 + run.x) * MM, abs=0.01), run.text
        assert y == pytest.approx(height - (40 + run.baseline) * MM, abs=0.01), run.text
    assert "Before." in page.extract_text()
    # the card is the vector art, copied in as a form, not a picture of it
    card = page["/Resources"]["/XObject"]["/WarbookCardAS"].get_object()
    assert card["/Subtype"] == "/Form"

    # and the picture: page white outside, felt inside, the card where it was put
    dpi = 100
    pdf = pdfium.PdfDocument(str(target))
    img = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()

    def at(x_mm, y_mm):
        return img.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))

    def near(a, b, tol=6):
        return all(abs(p - q) <= tol for p, q in zip(a, b))

    felt = tuple(int(FELT[i:i + 2], 16) for i in (1, 3, 5))
    assert near(at(28, 38), (255, 255, 255))  # outside the diagram
    assert near(at(30 + 20, 40 + 28), felt)  # felt below the cards
    assert near(at(30 + 5 + 1, 40 + 12 + 13), (255, 255, 255), tol=20)  # the card's white face
    spade = at(30 + 5 + 6.1, 40 + 12 + 10.4)  # the ace's big spade (centred at 387, 652 of 630 x 880), black
    assert max(spade) < 90, spade
    assert near(at(30 + 25.5, 40 + 13.2), felt)  # inside the empty place's outline
    assert not near(at(30 + 24 + 5, 40 + 12 + 3), felt, tol=3)  # its word, in the middle


def test_the_words_stay_out_of_the_tag_tree(tmp_path):
    """Drawn as an artifact: the figure's alternative text already says them."""
    fetcher = BookFetcher()
    fetcher.draw_cards(["AS"], 10, 14)
    art = Art(width=20, height=10, felt=FELT, edge="#c8d3c4", runs=block("North", OWNER, 0, 0, 20))
    out = stamped(tmp_path, art, fetcher)
    import pikepdf

    with pikepdf.open(out) as pdf:
        content = b"".join(s.read_bytes() for s in (
            pdf.pages[0].Contents if isinstance(pdf.pages[0].Contents, pikepdf.Array)
            else [pdf.pages[0].Contents]))
    words = content[content.index(b"/Artifact BMC"):]
    assert b"TJ" in words and b"EMC" in words
    assert content.count(b"BDC") >= 1  # WeasyPrint's tagged figure is still there
    assert content.count(b"q\n") >= 1
