"""Duplex-safe print-and-play files (issue 27, item 4): a file with backs printed whole,
double-sided, flipped on the long edge, puts every back behind its front.

A piece of paper printed so carries pages 1 and 2, 3 and 4, ...: every back must be the even
page right after its front, and every other sheet (the cover, a mat, a sheet of aids, from
which pieces are cut) must have the even page after it left blank, or be the last page. The
order is read from the PDFs a build writes: each page's label ("Sheet 4 of 26: deck A,
cards 1-9, backs"; a back's title ends in "backs", a blank page's says "left blank on
purpose"), and each back's art, mirrored about the page's vertical centre line, must fall
on the page before it. Files without backs, and the gutter folds, are single-sided: no
blank page, and the cover says so.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

import pypdf
import pytest

from builder.render.pnp import layout
from builder.render.pnp.cover import blank_sheet, cover_sheet, duplex_file
from builder.render.pnp.document import Renderer
from builder.render.pnp.pieces import ComponentError, CoverRow, number_sheets
from builder.settings import PAPERS

K = 72 / 25.4                      # PDF points per mm
LABEL = re.compile(r"Sheet (\d+) of (\d+): ([^\n]*)")
WHOLE = "Print the whole file double-sided, flipping on the long edge"
SINGLE = "Print the whole file single-sided"


# --------------------------------------------------------------------------- the rule
def duplex_problems(roles: list[str]) -> list[str]:
    """What breaks a whole-file double-sided print of pages with these ``roles`` ("back",
    "blank", anything else a sheet printed on one side), page 1 first: a back not on the
    even page right after a front, a blank page not on an even page behind a one-sided
    sheet, a sheet with no back that has anything but a blank page behind it."""
    out = []
    for n, role in enumerate(roles, 1):
        before = roles[n - 2] if n > 1 else None
        if role in ("back", "blank"):
            if n % 2:
                out.append(f"page {n}: a {role} page on an odd page (the front of a paper)")
            elif before in ("back", "blank"):
                out.append(f"page {n}: a {role} page behind a {before} page")
        elif n % 2 == 0:
            out.append(f"page {n}: a front or a one-sided sheet on an even page (the back "
                       f"of page {n - 1})")
    return out


def test_the_rule_sees_the_old_order():
    """Today's order before issue 27: the cover, then each front on an even page, its back
    on the odd page after it (each on another piece of paper)."""
    assert duplex_problems(["cover", "front", "back", "front", "back"])
    assert duplex_problems(["cover", "blank", "front", "back", "aids", "mat"])  # mat behind aids
    assert duplex_problems(["cover", "blank", "blank", "front", "back"])
    assert not duplex_problems(["cover", "blank", "front", "back", "aids", "blank", "mat"])
    assert not duplex_problems(["cover", "blank", "front", "back", "front", "back"])


# --------------------------------------------------------------------------- duplex_file
def _sheet(side: str, title: str) -> layout.Sheet:
    s = layout.Sheet(PAPERS["a4"], False, title, side=side)
    s.items.append(layout.Item(layout.Box(50, 50, 60, 60), "token", title))
    return s


@pytest.fixture(scope="module")
def r():
    return Renderer(PAPERS["a4"], "full")


def test_duplex_file_puts_every_back_behind_its_front(r):
    sides = ["single", "front", "back", "single", "single", "front", "back", "front", "back",
             "single"]
    sheets = [_sheet(side, f"s{i}") for i, side in enumerate(sides, 2)]
    rows = [CoverRow("tokens", "6", "25 mm", "3, 4"), CoverRow("aids", "4", "92 x 132 mm", "5 to 6"),
            CoverRow("cards", "18", "63 x 88 mm", "7 to 10"), CoverRow("mat", "1", "A4", "11")]
    cover = cover_sheet(r, PAPERS["a4"], "Test", "sub", rows, "", ["step"])
    out = duplex_file(r, number_sheets([cover] + sheets))
    roles = [s.side for s in out]
    assert roles == ["single", "blank", "single", "blank", "front", "back", "single", "blank",
                     "single", "blank", "front", "back", "front", "back", "single"]
    assert not duplex_problems(roles)
    assert [s.number for s in out] == list(range(1, 16)) and {s.total for s in out} == {15}
    # the fronts and their own backs, in pairs on one piece of paper
    assert [(out[i].title, out[i + 1].title) for i in (4, 10, 12)] == [
        ("s3", "s4"), ("s7", "s8"), ("s9", "s10")]
    # the blank pages say so in their labels, and which sheet they are the back of
    assert out[1].label.text == "Sheet 2 of 15: left blank on purpose, the back of sheet 1"
    assert out[7].label.text.endswith("the back of sheet 7")
    # the cover's table gives the sheets' new numbers (the pages of the file)
    assert [row.sheets for row in out[0].context["rows"]] == ["5, 6", "7 to 9", "11 to 14", "15"]
    assert "11 to 14" in out[0].html and "7 to 10" not in out[0].html
    assert rows[1].sheets == "5 to 6"          # the kit's own rows are left as they were


def test_a_file_without_backs_is_left_single_sided(r):
    sheets = [_sheet("single", f"s{i}") for i in range(3)]
    out = duplex_file(r, sheets)
    assert [s.side for s in out] == ["single"] * 3 and [s.number for s in out] == [1, 2, 3]


def test_a_back_must_follow_its_front(r):
    with pytest.raises(ComponentError, match="no front before it"):
        duplex_file(r, [_sheet("single", "a"), _sheet("back", "b")])
    with pytest.raises(ComponentError, match="no back after it"):
        duplex_file(r, [_sheet("front", "a"), _sheet("single", "b")])


def test_a_blank_page_has_nothing_on_it_but_its_label():
    s = number_sheets([_sheet("single", "a"), blank_sheet(PAPERS["a4"], True, 1)])[1]
    assert s.items == [] and s.html == "" and s.marks == [] and s.landscape
    assert s.label.text == "Sheet 2 of 2: left blank on purpose, the back of sheet 1"


# --------------------------------------------------------------------------- the built files
@functools.lru_cache(maxsize=None)
def read_pages(path: Path) -> list[dict]:
    """Each page of a built file: its number and title from its label, its role, its
    TrimBox in mm (x0, y0, x1, y1 from the top left), its width, and its text."""
    reader = pypdf.PdfReader(str(path))
    # poppler's text, one page a form feed (pypdf's descends into every card's form: slow)
    texts = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")
    pages = []
    for n, page in enumerate(reader.pages, 1):
        text = texts[n - 1]
        label = LABEL.search(text)
        assert label, (path.name, n, text[:80])
        number, total, title = int(label.group(1)), int(label.group(2)), label.group(3).strip()
        role = ("blank" if title.startswith("left blank on purpose")
                else "back" if re.search(r"\bbacks$", title) else "sheet")
        h = float(page.mediabox.height)
        t = [float(v) for v in page.trimbox]
        pages.append({"n": number, "total": total, "title": title, "role": role,
                      "text": " ".join(text.split()), "width": float(page.mediabox.width) / K,
                      "size": [round(float(v)) for v in page.mediabox[2:]],
                      "trim": (t[0] / K, (h - t[3]) / K, t[2] / K, (h - t[1]) / K),
                      "media": [float(v) for v in page.mediabox], "trim_pt": t})
    return pages


def mirrored_inside(back: dict, front: dict, tol: float = 0.05) -> bool:
    """The back's trim seen through the paper after a long-edge flip (x -> W - x) lies
    within the trim of the page it is printed behind."""
    w = back["width"]
    x0, y0, x1, y1 = back["trim"]
    fx0, fy0, fx1, fy1 = front["trim"]
    return (w - x1 >= fx0 - tol and w - x0 <= fx1 + tol and y0 >= fy0 - tol
            and y1 <= fy1 + tol)


def test_mirrored_inside_needs_the_mirror_image():
    """A back drawn where its front is, not mirrored, is not behind it (a front off centre)."""
    front = {"width": 210.0, "trim": (20.0, 30.0, 83.0, 118.0)}
    assert mirrored_inside({"width": 210.0, "trim": (127.0, 30.0, 190.0, 118.0)}, front)
    assert not mirrored_inside({"width": 210.0, "trim": (20.0, 30.0, 83.0, 118.0)}, front)


def duplex_file_problems(path: Path) -> list[str]:
    """Why a file meant for a whole-file double-sided print does not pair its pages."""
    pages = read_pages(path)
    name = path.name
    out = [f"{name}: {p}" for p in duplex_problems([p["role"] for p in pages])]
    for i, p in enumerate(pages):
        n = i + 1
        if p["n"] != n or p["total"] != len(pages):
            out.append(f"{name}: page {n} is labelled sheet {p['n']} of {p['total']}")
        if p["role"] == "back" and i and pages[i - 1]["role"] == "sheet":
            front = pages[i - 1]
            if p["size"] != front["size"] or not mirrored_inside(p, front):
                out.append(f"{name}: page {n} ({p['title']}) is not behind page {n - 1}")
        if p["role"] == "blank":
            if p["text"] != LABEL.search(p["text"]).group(0).strip():
                out.append(f"{name}: blank page {n} has more than its label: {p['text'][:80]}")
            if any(abs(a - b) > 0.01 for a, b in zip(p["trim_pt"], p["media"])):
                out.append(f"{name}: blank page {n} has pieces on it")
            if not p["title"].endswith(f"the back of sheet {n - 1}"):
                out.append(f"{name}: blank page {n} says {p['title']!r}")
    reader = pypdf.PdfReader(str(path))
    duplex = reader.trailer["/Root"]["/ViewerPreferences"].get("/Duplex")
    if duplex != "/DuplexFlipLongEdge":
        out.append(f"{name}: ViewerPreferences /Duplex is {duplex}, not /DuplexFlipLongEdge")
    if WHOLE not in pages[0]["text"]:
        out.append(f"{name}: the cover does not say {WHOLE!r}")
    return out


def built_pnp_files(out: Path) -> list[Path]:
    pdf = out / "pdf"
    return sorted({*pdf.glob("*-components.pdf"), *pdf.glob("pnp-deck*.pdf"),
                   *pdf.glob("*-gutterfold.pdf")})


def test_every_file_with_backs_pairs_them_when_printed_whole_double_sided(built):
    files = built_pnp_files(built)
    duplex = [f for f in files if any(p["role"] == "back" for p in read_pages(f))]
    names = {f.name for f in duplex}
    # the French deck, a kit's tokens with backs, a game's own cards
    assert {"pnp-deck.pdf", "winning-the-battle-components.pdf",
            "happy-families-components.pdf"} <= names, names
    problems = [p for f in duplex for p in duplex_file_problems(f)]
    assert problems == []
    # every back pairs with a front: as many cards behind the faces as on them
    deck = read_pages(built / "pdf" / "pnp-deck.pdf")
    assert [p["role"] for p in deck[:4]] == ["sheet", "blank", "sheet", "back"]
    assert sum(p["role"] == "back" for p in deck) == 12


def test_files_without_backs_are_single_sided(built):
    """The gutter folds (faces and backs on one side of the paper, by design) and the kits
    with no backs: no blank pages, the cover says single-sided, the print dialog too."""
    single = [f for f in built_pnp_files(built)
              if not any(p["role"] == "back" for p in read_pages(f))]
    names = {f.name for f in single}
    assert {"pnp-deck-gutterfold.pdf", "happy-families-cards-gutterfold.pdf",
            "war-components.pdf"} <= names, names
    for f in single:
        pages = read_pages(f)
        assert [p for p in pages if p["role"] == "blank"] == [], f.name
        assert "single-sided" in pages[0]["text"], f.name
        assert WHOLE not in pages[0]["text"], f.name
        prefs = pypdf.PdfReader(str(f)).trailer["/Root"]["/ViewerPreferences"]
        assert prefs.get("/Duplex") == "/Simplex", f.name
