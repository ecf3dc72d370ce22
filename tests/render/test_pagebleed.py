"""A book's pages get 3 mm of mirrored bleed in the print-shop copy (issue 27, item 3;
:mod:`builder.render.pagebleed`): a colour that reaches the trim runs on into the bleed, a
white edge stays white, the page inside the trim is drawn as it was, and a sheet of pieces
(whose TrimBox lies inside the page) is left alone.

The pages are rendered with poppler's ``pdftoppm`` at 254 dpi, where 3 mm is 30 pixels."""

from __future__ import annotations

import io
import subprocess

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name
from PIL import Image, ImageChops
from weasyprint import HTML

from builder.render.pagebleed import BLEED, bleed_book, is_book, pad_book

GREEN, BAND = (42, 111, 62), (158, 28, 38)
PX = 30  # 3 mm at 254 dpi

BOOK = f"""<html><style>
@page {{ size: 60mm 40mm; margin: 8mm; }}
@page :first {{ background: rgb{GREEN}; }}
.band {{ position: absolute; top: -8mm; left: -8mm; width: 60mm; height: 10mm;
         background: rgb{BAND}; }}
</style><body><p>Cover</p><p style="break-before: page">Page two</p>
<div class="band"></div></body></html>"""


def _pages(pdf_bytes: bytes, folder) -> list[Image.Image]:
    src = folder / "in.pdf"
    src.write_bytes(pdf_bytes)
    out = subprocess.run(["pdftoppm", "-r", "254", "-png", str(src), str(folder / "p")],
                         capture_output=True, check=False)
    assert out.returncode == 0, out.stderr
    return [Image.open(p).convert("RGB") for p in sorted(folder.glob("p-*.png"))]


def _near(a, b, tol=3) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture(scope="module")
def book() -> tuple[bytes, bytes]:
    before = HTML(string=BOOK).write_pdf()
    with pikepdf.open(io.BytesIO(before)) as pdf:
        assert is_book(pdf) and bleed_book(pdf)
        buf = io.BytesIO()
        pdf.save(buf)
    return before, buf.getvalue()


def test_the_boxes_grow_by_3_mm_round_the_trim(book):
    before, after = book
    with pikepdf.open(io.BytesIO(before)) as a, pikepdf.open(io.BytesIO(after)) as b:
        for pa, pb in zip(a.pages, b.pages):
            w, h = float(pa.mediabox[2]), float(pa.mediabox[3])
            trim = [float(v) for v in pb.obj.TrimBox]
            bleed = [float(v) for v in pb.obj.BleedBox]
            media = [float(v) for v in pb.mediabox]
            assert trim == pytest.approx([0, 0, w, h])
            assert bleed == pytest.approx([-BLEED, -BLEED, w + BLEED, h + BLEED]) == media
    assert BLEED == pytest.approx(3 / 25.4 * 72)


def test_colour_at_the_trim_runs_into_the_bleed_and_the_page_is_unchanged(book, tmp_path):
    before, after = book
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (cover0, plain0), (cover, plain) = _pages(before, tmp_path / "a"), _pages(after, tmp_path / "b")
    # (pdftoppm rounds a page's size up to whole pixels: a last row or column may be
    # a part pixel, so the corners are read 2 pixels in)
    assert abs(cover.width - cover0.width - 2 * PX) <= 1
    assert abs(cover.height - cover0.height - 2 * PX) <= 1
    # the cover's ground fills the bleed to the corners: no white edge left for a cut
    right, foot = cover.width - 3, cover.height - 3
    for x, y in ((2, 2), (right, 2), (2, foot), (right, foot), (cover.width // 2, foot),
                 (2, cover.height // 2)):
        assert _near(cover.getpixel((x, y)), GREEN), (x, y, cover.getpixel((x, y)))
    # page two: its band at the top edge runs on upward; its white sides stay white
    assert _near(plain.getpixel((plain.width // 2, 2)), BAND)
    assert _near(plain.getpixel((plain.width // 2, plain.height - 3)), (255, 255, 255))
    assert _near(plain.getpixel((2, plain.height // 2)), (255, 255, 255))
    # inside the trim each page is drawn exactly as before
    for old, new in ((cover0, cover), (plain0, plain)):
        w, h = old.width - 1, old.height - 1   # the whole pixels of the old page
        inner = new.crop((PX, PX, PX + w, PX + h))
        diff = ImageChops.difference(old.crop((0, 0, w, h)), inner).getbbox()
        assert diff is None, diff


def test_the_mirrored_copies_are_artifacts_behind_the_page(book):
    _, after = book
    with pikepdf.open(io.BytesIO(after)) as pdf:
        page = pdf.pages[0]
        first = page.obj.Contents[0].read_bytes()
        assert first.startswith(b"q /Artifact BMC") and first.rstrip().endswith(b"EMC Q")
        assert first.count(b" Do Q") == 8  # four sides and four corners


def test_a_sheet_of_pieces_is_not_a_book_and_is_left_alone(tmp_path):
    data = HTML(string="<p>sheet</p>").write_pdf()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        page.obj.TrimBox = pikepdf.Array([30, 40, 300, 500])  # the pieces on it, inside
        before = [float(v) for v in page.mediabox]
        assert not is_book(pdf) and not bleed_book(pdf)
        assert [float(v) for v in pdf.pages[0].mediabox] == before


def _book_of(pages: int) -> pikepdf.Pdf:
    html = "".join(f'<p style="break-before: {"page" if i else "auto"}">Page {i + 1}</p>'
                   for i in range(pages))
    return pikepdf.open(io.BytesIO(HTML(string=f"<style>@page {{ size: 60mm 40mm; margin: 5mm }}</style>"
                                               f"{html}").write_pdf()))


def test_a_book_is_padded_to_whole_folded_sheets_its_last_page_kept_last():
    """13 pages fold into four sheets of four with three blank pages, put before the last
    (the back cover); 12 pages need none; a sheet of pieces gets none."""
    with _book_of(13) as pdf:
        assert len(pdf.pages) == 13
        last = pdf.pages[-1].obj.Contents.read_bytes()
        assert pad_book(pdf) == 3 and len(pdf.pages) == 16
        assert pdf.pages[-1].obj.Contents.read_bytes() == last
        for blank in pdf.pages[12:15]:
            assert blank.obj.Contents.read_bytes() == b""
            assert [float(v) for v in blank.mediabox] == [float(v) for v in pdf.pages[0].mediabox]
        assert bleed_book(pdf)   # the blanks are pages of the book: they get bleed too
        assert all("/BleedBox" in p.obj for p in pdf.pages)
    with _book_of(12) as pdf:
        assert pad_book(pdf) == 0 and len(pdf.pages) == 12
    with _book_of(6) as pdf:
        pdf.pages[0].obj.TrimBox = pikepdf.Array([5, 5, 100, 80])   # pieces: not a book
        assert pad_book(pdf) == 0 and len(pdf.pages) == 6


def test_a_book_ending_with_its_index_gets_its_blanks_after_the_index():
    """The compendium ends with its index, not a back cover: 13 pages, the last two the
    index's ("Index 1", "Index 2"), get three blanks after them, the index kept whole."""
    with _book_of(13) as pdf:
        pdf.Root.PageLabels = Dictionary(Nums=Array([0, Dictionary(S=Name.D),
                                                     11, Dictionary(S=Name.D, P=pikepdf.String("Index "), St=1)]))
        index = [p.obj.Contents.read_bytes() for p in pdf.pages[11:]]
        assert pad_book(pdf) == 3 and len(pdf.pages) == 16
        assert [p.obj.Contents.read_bytes() for p in pdf.pages[11:13]] == index
        assert all(p.obj.Contents.read_bytes() == b"" for p in pdf.pages[13:])
