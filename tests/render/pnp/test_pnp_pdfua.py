"""The print-and-play PDFs are PDF/UA-1 (issue 27, item 8) and their crop marks are in the
registration colour (item 7), read back from the files written.

PDF/UA: ``pdfua`` (the machine-checkable subset of PDF/UA-1, on pikepdf) finds nothing in
a file of sheets: the tag tree and the XMP packet that claims PDF/UA-1 are there, every
placed card is a figure that names the card ("Queen of hearts, face"), every token or mat a
figure that says what it is, the cover's square a figure that says what it is for, the
cover table's headers scoped, and nothing drawn outside marked content (a placed card's
drawing is an artifact over its described figure; a page left blank on purpose is only its
label).

Registration: every crop mark and fold line is stroked in ``/Separation /All`` (tint 1, its
alternate DeviceCMYK 1 1 1 1), inside an artifact; no mark is left in RGB black; a render
(an RGB viewer) shows the marks black; and the print-shop copy (PDF/X-4, CMYK) keeps the
colour space as it is.

The fast tests write their own small files; the slow one reads the session's real build
(tests/conftest.py) and checks every print-and-play file in it."""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from pdf_kit import empty_headings, figure_alts, pdfua_findings

from builder.engine.core import full_deck
from builder.render.pnp import layout
from builder.render.pnp.cover import cover_sheet, duplex_file, print_steps
from builder.render.pnp.deck import duplex_card_sheets
from builder.render.pnp.document import Renderer
from builder.render.pnp.pieces import CoverRow
from builder.settings import PAPERS

K = 72 / 25.4   # PDF points per mm


# --------------------------------------------------------------------------- helpers
def strokes(page: pikepdf.Page) -> list[dict]:
    """Every stroked straight line of one segment on ``page`` (its own content, not its
    forms'): its ends in points, its width in mm, its stroke colour space (the resource's
    value, or the operator's name for a device colour), its colour operands and whether
    it lies inside an /Artifact sequence."""
    res = page.obj.get("/Resources", pikepdf.Dictionary())
    spaces = res.get("/ColorSpace", pikepdf.Dictionary())
    out = []
    stack: list[dict] = []
    gs = {"ctm": [1, 0, 0, 1, 0, 0], "lw": 1.0, "cs": "DeviceGray", "colour": [0.0]}
    marked: list[str] = []
    path: list[tuple[str, list]] = []
    for operands, op in pikepdf.parse_content_stream(page):
        o = str(op)
        if o == "q":
            stack.append(dict(gs))
        elif o == "Q":
            gs = stack.pop()
        elif o == "cm":
            a = [float(v) for v in operands]
            m = gs["ctm"]
            gs["ctm"] = [a[0] * m[0] + a[1] * m[2], a[0] * m[1] + a[1] * m[3],
                         a[2] * m[0] + a[3] * m[2], a[2] * m[1] + a[3] * m[3],
                         a[4] * m[0] + a[5] * m[2] + m[4], a[4] * m[1] + a[5] * m[3] + m[5]]
        elif o in ("BMC", "BDC"):
            marked.append(str(operands[0]))
        elif o == "EMC":
            marked.pop()
        elif o == "w":
            gs["lw"] = float(operands[0])
        elif o == "RG":
            gs["cs"], gs["colour"] = "DeviceRGB", [float(v) for v in operands]
        elif o == "G":
            gs["cs"], gs["colour"] = "DeviceGray", [float(v) for v in operands]
        elif o == "K":
            gs["cs"], gs["colour"] = "DeviceCMYK", [float(v) for v in operands]
        elif o == "CS":
            name = operands[0]
            gs["cs"] = spaces.get(name, str(name))
        elif o in ("SC", "SCN"):
            gs["colour"] = [float(v) for v in operands if not isinstance(v, pikepdf.Name)]
        elif o in ("m", "l"):
            path.append((o, [float(v) for v in operands]))
        elif o in ("re", "c", "v", "y", "h"):
            path.append((o, []))
        elif o in ("S", "n", "f", "F", "f*", "B", "B*", "b", "b*", "s"):
            # every painting operator that strokes (WeasyPrint strokes an SVG line with B)
            if o in ("S", "s", "B", "B*", "b", "b*") and [p[0] for p in path] == ["m", "l"]:
                m = gs["ctm"]
                scale = (abs(m[0] * m[3] - m[1] * m[2])) ** 0.5
                ends = [(x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])
                        for _, (x, y) in path]
                out.append({"ends": ends, "width": gs["lw"] * scale / K, "cs": gs["cs"],
                            "colour": list(gs["colour"]),
                            "artifact": "/Artifact" in marked})
            path = []
    return out


def is_registration(cs) -> bool:
    """``/Separation /All /DeviceCMYK`` with a tint function whose 1 is 1 1 1 1."""
    if not isinstance(cs, pikepdf.Array) or len(cs) != 4:
        return False
    if (cs[0], cs[1], cs[2]) != (pikepdf.Name.Separation, pikepdf.Name.All,
                                pikepdf.Name.DeviceCMYK):
        return False
    fn = cs[3]
    return (int(fn.FunctionType) == 2 and [float(v) for v in fn.C1] == [1, 1, 1, 1]
            and [float(v) for v in fn.get("/C0", [0, 0, 0, 0])] == [0, 0, 0, 0])


def mark_strokes(path: Path) -> tuple[int, list[str]]:
    """(how many printer's marks the file strokes, what is wrong with any of them: not in
    the registration colour at tint 1, or not an artifact). A mark is a straight line 0.15
    to 0.25 mm thick, level or upright, that runs out of the page's BleedBox (the union of
    the art): a crop mark lies wholly outside it, a fold line runs from margin to
    margin."""
    n, bad = 0, []
    with pikepdf.open(path) as pdf:
        for i, page in enumerate(pdf.pages, 1):
            box = [float(v) for v in page.obj.get("/BleedBox", page.mediabox)]
            for s in strokes(page):
                if not 0.14 <= s["width"] <= 0.26:
                    continue
                (x0, y0), (x1, y1) = s["ends"]
                if abs(x0 - x1) > 1e-3 and abs(y0 - y1) > 1e-3:
                    continue
                if all(box[0] - 0.01 <= x <= box[2] + 0.01 and box[1] - 0.01 <= y <= box[3] + 0.01
                       for x, y in s["ends"]):
                    continue
                n += 1
                if not is_registration(s["cs"]) or s["colour"] != [1.0]:
                    bad.append(f"{path.name} page {i}: a mark in {s['cs']} {s['colour']}")
                elif not s["artifact"]:
                    bad.append(f"{path.name} page {i}: a mark outside an artifact")
    return n, bad


# --------------------------------------------------------------------------- a small file
@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """A file of the kind the deck is: a cover (with its square and its table), a page
    left blank behind it, a sheet of four faces and their backs, on A4, full ink."""
    out = tmp_path_factory.mktemp("pnp-ua")
    paper = PAPERS["a4"]
    r = Renderer(paper, "full")
    cards = full_deck()[:4]
    sheets = duplex_card_sheets(paper, cards, "a", False)
    cover = cover_sheet(r, paper, "Test deck", "four cards",
                        [CoverRow("Playing cards", "4", "63 x 88 mm", "2")], "",
                        print_steps(paper, [(2, 3)], []))
    sheets = duplex_file(r, [cover, *sheets])
    assert [s.side for s in sheets] == ["single", "blank", "front", "back"]
    r.write_pdf(sheets, out / "deck.pdf", title="Test deck", subject="s", duplex=True)
    return out / "deck.pdf"


def test_a_file_of_sheets_passes_the_pdfua_checks(small):
    assert pdfua_findings(small) == []
    with pikepdf.open(small) as pdf:
        assert pdf.Root.MarkInfo.Marked
        xmp = bytes(pdf.Root.Metadata.read_bytes())
        assert re.search(rb'pdfuaid:part(?:="1"|>1</pdfuaid:part>)', xmp)
        assert pdf.Root.ViewerPreferences.DisplayDocTitle
        # the print dialog's defaults are kept beside PDF/UA's
        assert pdf.Root.ViewerPreferences.Duplex == pikepdf.Name.DuplexFlipLongEdge
        alts = figure_alts(pdf)
        assert not empty_headings(pdf)
    assert small.read_bytes()[:8] == b"%PDF-1.7"
    # every card named, face and back, in players' words; the square said what it is for
    cards = [c.name() for c in full_deck()[:4]]
    for name in cards:
        assert f"{name[0].upper()}{name[1:]}, face" in alts, alts
        assert f"{name[0].upper()}{name[1:]}, back" in alts, alts
    assert any("50 mm" in a and "actual size" in a for a in alts), alts
    assert all(a.strip() for a in alts), alts


def test_a_placed_card_is_drawn_as_an_artifact(small):
    """The card forms placed after WeasyPrint are inside marked content: an artifact over
    the empty figure that describes the card."""
    with pikepdf.open(small) as pdf:
        placed = 0
        for page in pdf.pages:
            marked: list[str] = []
            for operands, op in pikepdf.parse_content_stream(page):
                o = str(op)
                if o in ("BMC", "BDC"):
                    marked.append(str(operands[0]))
                elif o == "EMC":
                    marked.pop()
                elif o == "Do" and str(operands[0]).startswith("/WbCard"):
                    assert marked and marked[-1] == "/Artifact", marked
                    placed += 1
    assert placed == 8   # four faces, four backs


def test_crop_marks_are_in_the_registration_colour(small):
    n, bad = mark_strokes(small)
    assert n >= 16 and not bad, bad[:5]


def test_an_rgb_render_shows_the_marks_black(small):
    """A viewer that knows no separation draws the alternate, CMYK 1 1 1 1: black."""
    doc = pdfium.PdfDocument(str(small))
    sheets_page = 2     # the faces (from 0)
    img = doc[sheets_page].render(scale=300 / 72).to_pil().convert("RGB")
    # the middle of each crop mark the layout gives the faces' sheet
    sheet = duplex_card_sheets(PAPERS["a4"], full_deck()[:4], "a", False)[0]
    layout.finish(sheet)
    assert sheet.marks
    for m in sheet.marks:
        x, y = (m.x1 + m.x2) / 2, (m.y1 + m.y2) / 2
        r, g, b = img.getpixel((round(x * 300 / 25.4), round(y * 300 / 25.4)))
        assert max(r, g, b) < 80, (m, (r, g, b))


def test_the_print_shop_copy_keeps_the_registration_colour(small, tmp_path):
    from builder.render.printshop import PrintShopError, cmyk_profile, separate

    try:
        profile = cmyk_profile()
    except PrintShopError as e:    # no Ghostscript profile on this machine
        pytest.skip(str(e))
    target = tmp_path / "shop.pdf"
    separate(small, target, profile)
    n, bad = mark_strokes(target)
    assert n >= 16 and not bad, bad[:5]


# --------------------------------------------------------------------------- the build
def pnp_pdfs(out: Path) -> list[Path]:
    """Every print-and-play PDF of a build: all but the rulebooks and the compendium."""
    return sorted(p for p in (out / "pdf").glob("*.pdf")
                  if not p.name.endswith("-rules.pdf") and p.name != "compendium.pdf")


@pytest.mark.slow
@pytest.mark.build
def test_every_print_and_play_file_passes_the_pdfua_checks(built):
    pdfs = pnp_pdfs(built)
    names = {p.name for p in pdfs}
    assert {"pnp-deck.pdf", "pnp-deck-gutterfold.pdf", "war-components.pdf",
            "happy-families-cards-gutterfold.pdf"} <= names, names
    assert len(pdfs) >= 11
    found = [f for pdf in pdfs for f in pdfua_findings(pdf)]
    assert not found, "\n".join(found[:20])
    for pdf in pdfs:
        with pikepdf.open(pdf) as doc:
            alts = figure_alts(doc)
            assert not empty_headings(doc), pdf.name
        assert alts and all(a.strip() for a in alts), pdf.name


@pytest.mark.slow
@pytest.mark.build
def test_every_built_crop_mark_is_in_the_registration_colour(built):
    for pdf in pnp_pdfs(built):
        n, bad = mark_strokes(pdf)
        assert n > 0 and not bad, bad[:5]
